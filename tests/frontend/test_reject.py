"""Unsupported C is rejected with `K.c:LINE: error: ... is not supported`, exit 2.

Each case is a complete kernel (with a main) that a C compiler accepts; the
flow must refuse it with one located line, never a traceback or a result.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from loom.cli import main

CASES = {
    "recursion": ("""\
int recursion(int a[8], int n) {
  if (n <= 0)
    return 0;
  return a[n - 1] + recursion(a, n - 1);
}
int main(void) { int a[8]; for (int i = 0; i < 8; i++) a[i] = i; return recursion(a, 8) != 28; }
""", 4, "recursion (a call to 'recursion') is not supported"),
    "mutual": ("""\
int odd(int n);
int even(int n) { return n == 0 ? 1 : odd(n - 1); }
int odd(int n) { return n == 0 ? 0 : even(n - 1); }
int mutual(int a[4]) {
  int s = 0;
  for (int i = 0; i < 4; i++) s += even(a[i]);
  return s;
}
int main(void) { int a[4] = {1, 2, 3, 4}; return mutual(a) != 2; }
""", None, "recursion (a call to '"),
    "funcptr": ("""\
static int twice(int x) { return 2 * x; }
static int thrice(int x) { return 3 * x; }
int funcptr(int a[8], int k) {
  int (*f)(int) = k ? twice : thrice;
  int s = 0;
  for (int i = 0; i < 8; i++) s += f(a[i]);
  return s;
}
int main(void) { int a[8] = {0}; return funcptr(a, 1); }
""", 4, "function pointers (taking the address of 'twice') are not supported"),
    "funcptr_param": ("""\
static int id(int x) { return x; }
int funcptr_param(int a[8],
                  int (*f)(int)) { return f(a[0]); }
int main(void) { int a[8] = {0}; return funcptr_param(a, id); }
""", 3, "function pointer parameter 'f' is not supported"),
    "dynalloc": ("""\
#include <stdlib.h>
int dynalloc(int a[8]) {
  int *t = malloc(8 * sizeof(int));
  int s = 0;
  for (int i = 0; i < 8; i++) { t[i] = a[i]; s += t[i]; }
  free(t);
  return s;
}
int main(void) { int a[8] = {0}; return dynalloc(a); }
""", 3, "dynamic memory allocation ('malloc') is not supported"),
    "varargs_call": ("""\
#include <stdarg.h>
static int sum(int n, ...) {
  va_list ap;
  va_start(ap, n);
  int s = 0;
  for (int i = 0; i < n; i++) s += va_arg(ap, int);
  va_end(ap);
  return s;
}
int varargs_call(int a[4]) {
  return sum(4, a[0], a[1], a[2], a[3]);
}
int main(void) { int a[4] = {1, 2, 3, 4}; return varargs_call(a) != 10; }
""", 11, "calling the variadic function 'sum' (varargs) is not supported"),
    "varargs_top": ("""\
int varargs_top(int n, ...) { return n; }
int main(void) { return varargs_top(1, 2); }
""", 1, "variadic function 'varargs_top' (varargs) is not supported"),
    "struct_param": ("""\
struct pair { int x, y; };
int struct_param(struct pair p, int a[4]) { return p.x + a[p.y]; }
int main(void) { struct pair p = {1, 2}; int a[4] = {0}; return struct_param(p, a); }
""", 2, "struct parameter 'p' ('struct pair p') is not supported"),
    "struct_initializer": ("""\
struct acc { int sum, peak; };
int struct_initializer(int a[4]) {
  struct acc s = {1, -100};
  for (int i = 0; i < 4; i++) s.sum += a[i];
  return s.sum + s.peak;
}
int main(void) { int a[4] = {1, 2, 3, 4}; return struct_initializer(a) != -89; }
""", 3, "the initializer list of the local struct 's' is not supported; assign its fields"),
    "long_double_param": ("""\
long double long_double_param(long double a[16]) {
  long double s = 0.0L;
  for (int i = 0; i < 16; i++) s += a[i];
  return s;
}
int main(void) { long double a[16] = {0}; return (int)long_double_param(a); }
""", 1, "floating-point parameter 'a' ('long double a[16]') is not supported (float and "
        "double only)"),
    "long_double_local": ("""\
int long_double_local(int a[16]) {
  int s = 0;
  for (int i = 0; i < 16; i++) {
    long double d = a[i] * 0.5L;
    s += (int)d;
  }
  return s;
}
int main(void) { int a[16] = {0}; return long_double_local(a); }
""", 4, "the floating-point type f80 is not supported (float and double only)"),
    "math_function": ("""\
#include <math.h>
void math_function(float a[16]) {
  for (int i = 0; i < 16; i++) a[i] = sinf(a[i]);
}
int main(void) { float a[16] = {0}; math_function(a); return 0; }
""", 3, "the math function 'sinf' is not supported (floating point has + - * /, fmod, sqrt, "
        "fabs, fmin, fmax, comparisons and casts)"),
    "pointer_param": ("""\
int pointer_param(int *p, int n) {
  int s = 0;
  for (int i = 0; i < n; i++) s += p[i];
  return s;
}
int main(void) { int a[4] = {1, 2, 3, 4}; return pointer_param(a, 4) != 10; }
""", 1, "pointer parameter 'p' of unknown extent is not supported"),
    "pointer_walk": ("""\
int pointer_walk(int a[16]) {
  int s = 0;
  for (int *p = a; p < a + 16; p++)
    s += *p;
  return s;
}
int main(void) { int a[16] = {0}; return pointer_walk(a); }
""", 3, "a pointer that changes at run time (pointer variable or conditional pointer) "
        "is not supported"),
    "goto_into_loop": ("""\
int goto_into_loop(int a[16], int k) {
  int i = 0;
  int s = 0;
  if (k > 3)
    goto inside;
  for (i = 0; i < 16; i++) {
    s += a[i];
  inside:
    s ^= i;
  }
  return s;
}
int main(void) { int a[16] = {0}; return goto_into_loop(a, 5); }
""", None, "goto into a loop (a loop with more than one entry) is not supported"),
    "global_array": ("""\
int table[4] = {1, 2, 3, 4};
int global_array(int a[4]) {
  int s = 0;
  for (int i = 0; i < 4; i++) s += a[i] * table[i];
  return s;
}
int main(void) { int a[4] = {0}; return global_array(a); }
""", 4, "global variables ('table') are not supported"),
    "vla": ("""\
int vla(int a[16], int n) {
  int t[n];
  for (int i = 0; i < n; i++) t[i] = a[i];
  return t[n - 1];
}
int main(void) { int a[16] = {0}; return vla(a, 4); }
""", 2, "variable-length arrays are not supported"),
    "vla_param": ("""\
int vla_param(int n,
              int a[n]) {
  int s = 0;
  for (int i = 0; i < n; i++) s += a[i];
  return s;
}
int main(void) { int a[8] = {1, 2, 3, 4, 5, 6, 7, 8}; return vla_param(8, a) != 36; }
""", 2, "parameter 'a' ('int a[n]') is a variable-length array; variable-length array "
        "parameters are not supported (give the extent as a constant, e.g. a #define)"),
    "vla_param_2d": ("""\
#define M 4
int vla_param_2d(int rows, int m[rows][M]) { return m[rows - 1][M - 1]; }
int main(void) { int a[8][M] = {{0}}; return vla_param_2d(8, a); }
""", 2, "parameter 'm' ('int m[rows][4]') is a variable-length array"),
    "param_type_from_param": ("""\
int param_type_from_param(int a[4], int n,
                          __typeof__(n) m) { return a[0] + m; }
int main(void) { int a[4] = {0}; return param_type_from_param(a, 1, 2) != 2; }
""", 2, "cannot determine the type of parameter 'm' ('typeof (n) m'): use of "
        "undeclared identifier 'n'"),
    "partial_memset": ("""\
#include <string.h>
int partial_memset(int a[16]) {
  memset(a, 0, 8 * sizeof(int));
  return a[9];
}
int main(void) { int a[16] = {0}; return partial_memset(a); }
""", 3, "memset of part of an array (or of a run-time length) is not supported"),
    "external_call": ("""\
#include <stdio.h>
int external_call(int a[4]) {
  printf("%d\\n", a[0]);
  return a[1];
}
int main(void) { int a[4] = {0}; return external_call(a); }
""", 3, "calling 'printf', which has no body in this file, is not supported; the kernel is "
        "compiled from this file alone: define 'printf' in it or in a header it includes "
        "(e.g. static inline), or make the call from main() instead"),
    "elsewhere": ("""\
int scale(int x);   /* defined in another .c file */
int elsewhere(int a[4]) {
  int s = 0;
  for (int i = 0; i < 4; i++) s += scale(a[i]);
  return s;
}
int main(void) { int a[4] = {0}; return elsewhere(a); }
""", 4, "calling 'scale', which has no body in this file, is not supported; the kernel is "
        "compiled from this file alone: define 'scale' in it or in a header it includes"),
}


def _compile(tmp_path: Path, name: str, source: str, capsys) -> tuple[int, str]:
    src = tmp_path / f"{name}.c"
    src.write_text(source)
    status = main(["compile", str(src), "-o", str(tmp_path / "out")])
    captured = capsys.readouterr()
    return status, captured.err.strip(), src


@pytest.mark.parametrize("name", sorted(CASES))
def test_unsupported_construct_is_rejected(tmp_path, capsys, name):
    source, line, message = CASES[name]
    status, err, src = _compile(tmp_path, name, source, capsys)
    assert status == 2
    assert len(err.splitlines()) == 1, err            # one line, no traceback
    head = f"{src}:{line}:" if line is not None else f"{src}:"
    assert err.startswith(head), err
    assert ": error: " in err and message in err, err
    assert not (tmp_path / "out" / f"{name}.scf.mlir").exists()


def test_clang_syntax_error_is_passed_on(tmp_path, capsys):
    status, err, src = _compile(tmp_path, "syntax", "int syntax(int a[4]) {\n  return a[0] +;\n}\n",
                                capsys)
    assert status == 2
    assert err == f"{src}:2:16: error: expected expression"


def test_unknown_top_is_bad_input(tmp_path, capsys):
    src = tmp_path / "k.c"
    src.write_text("int k(int a[4]) { return a[0]; }\nint main(void) { int a[4] = {0}; return k(a); }\n")
    status = main(["compile", str(src), "--top", "nope", "-o", str(tmp_path / "out")])
    err = capsys.readouterr().err.strip()
    assert status == 2
    assert err == f"{src}: error: no function named 'nope' (name the top with --top)"


def test_missing_kernel_is_bad_input(capsys):
    status = main(["compile", "no_such_kernel_xyz"])
    err = capsys.readouterr().err.strip()
    assert status == 2
    assert "no kernel named 'no_such_kernel_xyz'" in err
