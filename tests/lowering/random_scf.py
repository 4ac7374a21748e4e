"""Random structured programs for the lowering: nested for/while/if with loads,
stores and iter_args, rendered as SCF text and evaluated by a plain Python
interpreter of the same tree (the independent reference).

Memories: a, b (16 x i32). Scalars: n (a small trip count, may be 0), x.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from hypothesis import strategies as st

M32 = 0xFFFFFFFF
SIZE = 16


# --- the tree ----------------------------------------------------------------------

@dataclass
class Const:
    value: int


@dataclass
class Var:          # a loop variable (as i32) or the parameter x
    name: str


@dataclass
class Load:
    mem: str
    index: "Expr"


@dataclass
class Bin:
    op: str         # addi | subi | muli
    lhs: "Expr"
    rhs: "Expr"


Expr = Const | Var | Load | Bin


@dataclass
class Store:
    mem: str
    index: Expr
    value: Expr


@dataclass
class For:
    var: str
    lb: int
    ub: int | None      # None: the parameter n
    step: int
    body: list = field(default_factory=list)
    acc: Expr | None = None     # iter_arg: acc += acc_expr each iteration
    acc_slot: int = 0           # the final acc goes to b[acc_slot]


@dataclass
class While:
    var: str
    limit: int | None   # None: the parameter n
    body: list = field(default_factory=list)


@dataclass
class If:
    lhs: Expr
    rhs: Expr
    then: list = field(default_factory=list)
    orelse: list = field(default_factory=list)


# --- strategies ------------------------------------------------------------------------

def _exprs(vars_: list[str], depth: int) -> st.SearchStrategy:
    leaves = [st.builds(Const, st.integers(-20, 20)), st.just(Var("x"))]
    leaves += [st.just(Var(v)) for v in vars_]
    leaf = st.one_of(leaves)
    if depth == 0:
        return leaf
    sub = _exprs(vars_, depth - 1)
    return st.one_of(
        leaf,
        st.builds(Load, st.sampled_from(["a", "b"]), sub),
        st.builds(Bin, st.sampled_from(["addi", "subi", "muli"]), sub, sub),
    )


@st.composite
def _stmts(draw, vars_: list[str], depth: int, counter: list[int]) -> list:
    out = []
    for _ in range(draw(st.integers(1, 3))):
        kinds = ["store", "store"] + (["for", "while", "if"] if depth > 0 else [])
        kind = draw(st.sampled_from(kinds))
        expr = _exprs(vars_, 1)
        if kind == "store":
            out.append(Store(draw(st.sampled_from(["a", "b"])), draw(expr), draw(expr)))
        elif kind == "for":
            counter[0] += 1
            v = f"i{counter[0]}"
            lb = draw(st.integers(0, 2))
            ub = draw(st.one_of(st.none(), st.integers(0, 5)))
            body = draw(_stmts(vars_ + [v], depth - 1, counter))
            acc = draw(st.one_of(st.none(), _exprs(vars_ + [v], 1)))
            out.append(For(v, lb, ub, draw(st.integers(1, 2)), body, acc,
                           draw(st.integers(0, SIZE - 1))))
        elif kind == "while":
            counter[0] += 1
            v = f"w{counter[0]}"
            limit = draw(st.one_of(st.none(), st.integers(0, 4)))
            out.append(While(v, limit, draw(_stmts(vars_ + [v], depth - 1, counter))))
        else:
            out.append(If(draw(expr), draw(expr), draw(_stmts(vars_, depth - 1, counter)),
                          draw(_stmts(vars_, depth - 1, counter)) if draw(st.booleans()) else []))
    return out


programs = st.builds(lambda body: body, st.deferred(lambda: _stmts([], 2, [0])))


# --- Python reference ----------------------------------------------------------------------

def _s32(v: int) -> int:
    v &= M32
    return v - (1 << 32) if v >> 31 else v


def evaluate(body: list, mem: dict[str, list[int]], env: dict[str, int]) -> None:
    for s in body:
        if isinstance(s, Store):
            idx = _ev(s.index, mem, env) % SIZE
            mem[s.mem][idx] = _ev(s.value, mem, env)
        elif isinstance(s, For):
            ub = env["n"] if s.ub is None else s.ub
            acc = 0
            for i in range(s.lb, ub, s.step):
                inner = dict(env, **{s.var: i})
                evaluate(s.body, mem, inner)
                if s.acc is not None:
                    acc = (acc + _ev(s.acc, mem, inner)) & M32
            if s.acc is not None:
                mem["b"][s.acc_slot] = acc
        elif isinstance(s, While):
            limit = env["n"] if s.limit is None else s.limit
            w = 0
            while w < limit:
                evaluate(s.body, mem, dict(env, **{s.var: w}))
                w += 1
        else:
            if _s32(_ev(s.lhs, mem, env)) < _s32(_ev(s.rhs, mem, env)):
                evaluate(s.then, mem, env)
            else:
                evaluate(s.orelse, mem, env)


def _ev(e: Expr, mem: dict[str, list[int]], env: dict[str, int]) -> int:
    if isinstance(e, Const):
        return e.value & M32
    if isinstance(e, Var):
        return env[e.name] & M32
    if isinstance(e, Load):
        return mem[e.mem][_ev(e.index, mem, env) % SIZE]
    a, b = _ev(e.lhs, mem, env), _ev(e.rhs, mem, env)
    return {"addi": a + b, "subi": a - b, "muli": a * b}[e.op] & M32


# --- SCF text ------------------------------------------------------------------------------

class _Emitter:
    def __init__(self) -> None:
        self.lines: list[str] = []
        self.k = 0
        self.indent = 2

    def fresh(self) -> str:
        self.k += 1
        return f"%v{self.k}"

    def emit(self, text: str) -> None:
        self.lines.append(" " * self.indent + text)

    def const(self, value: int, type_: str) -> str:
        r = self.fresh()
        self.emit(f"{r} = arith.constant {value} : {type_}")
        return r


def render(body: list) -> str:
    e = _Emitter()
    e.lines.append("func.func @prog(%a: memref<16xi32>, %b: memref<16xi32>, %n: i32, "
                   "%x: i32) {")
    env = {"x": "%x"}
    _block(e, body, env)
    e.emit("return")
    e.lines.append("}")
    return "\n".join(e.lines) + "\n"


def _block(e: _Emitter, body: list, env: dict[str, str]) -> None:
    for s in body:
        if isinstance(s, Store):
            idx = _index(e, s.index, env)
            val = _val(e, s.value, env)
            e.emit(f"memref.store {val}, %{s.mem}[{idx}] : memref<16xi32>")
        elif isinstance(s, For):
            _for(e, s, env)
        elif isinstance(s, While):
            _while(e, s, env)
        else:
            lhs, rhs = _val(e, s.lhs, env), _val(e, s.rhs, env)
            c = e.fresh()
            e.emit(f"{c} = arith.cmpi slt, {lhs}, {rhs} : i32")
            e.emit(f"scf.if {c} {{")
            e.indent += 2
            _block(e, s.then, env)
            e.indent -= 2
            if s.orelse:
                e.emit("} else {")
                e.indent += 2
                _block(e, s.orelse, env)
                e.indent -= 2
            e.emit("}")


def _for(e: _Emitter, s: For, env: dict[str, str]) -> None:
    lb = e.const(s.lb, "index")
    step = e.const(s.step, "index")
    if s.ub is None:
        ub = e.fresh()
        e.emit(f"{ub} = arith.index_cast %n : i32 to index")
    else:
        ub = e.const(s.ub, "index")
    iv = e.fresh()
    inner = dict(env)
    cast = f"%c_{iv[1:]}"
    inner[s.var] = cast
    if s.acc is not None:
        zero = e.const(0, "i32")
        res, acc = e.fresh(), e.fresh()
        e.emit(f"{res} = scf.for {iv} = {lb} to {ub} step {step} iter_args({acc} = {zero}) "
               "-> (i32) {")
    else:
        e.emit(f"scf.for {iv} = {lb} to {ub} step {step} {{")
    e.indent += 2
    e.emit(f"{cast} = arith.index_cast {iv} : index to i32")
    _block(e, s.body, inner)
    if s.acc is not None:
        v = _val(e, s.acc, inner)
        nxt = e.fresh()
        e.emit(f"{nxt} = arith.addi {acc}, {v} : i32")
        e.emit(f"scf.yield {nxt} : i32")
    e.indent -= 2
    e.emit("}")
    if s.acc is not None:
        slot = e.const(s.acc_slot, "index")
        e.emit(f"memref.store {res}, %b[{slot}] : memref<16xi32>")


def _while(e: _Emitter, s: While, env: dict[str, str]) -> None:
    zero = e.const(0, "i32")
    limit = "%n" if s.limit is None else e.const(s.limit, "i32")
    one = e.const(1, "i32")
    w_before, w_after, c = e.fresh(), e.fresh(), e.fresh()
    e.emit(f"scf.while ({w_before} = {zero}) : (i32) -> (i32) {{")
    e.indent += 2
    e.emit(f"{c} = arith.cmpi slt, {w_before}, {limit} : i32")
    e.emit(f"scf.condition({c}) {w_before} : i32")
    e.indent -= 2
    e.emit("} do {")
    e.emit(f"^bb0({w_after}: i32):")
    e.indent += 2
    _block(e, s.body, dict(env, **{s.var: w_after}))
    nxt = e.fresh()
    e.emit(f"{nxt} = arith.addi {w_after}, {one} : i32")
    e.emit(f"scf.yield {nxt} : i32")
    e.indent -= 2
    e.emit("}")


def _val(e: _Emitter, x: Expr, env: dict[str, str]) -> str:
    if isinstance(x, Const):
        return e.const(x.value, "i32")
    if isinstance(x, Var):
        return env[x.name]
    if isinstance(x, Load):
        idx = _index(e, x.index, env)
        r = e.fresh()
        e.emit(f"{r} = memref.load %{x.mem}[{idx}] : memref<16xi32>")
        return r
    a, b = _val(e, x.lhs, env), _val(e, x.rhs, env)
    r = e.fresh()
    e.emit(f"{r} = arith.{x.op} {a}, {b} : i32")
    return r


def _index(e: _Emitter, x: Expr, env: dict[str, str]) -> str:
    """(value mod 16) as an index: remui on the i32 bit pattern, like the reference."""
    v = _val(e, x, env)
    sixteen = e.const(SIZE, "i32")
    r, i = e.fresh(), e.fresh()
    e.emit(f"{r} = arith.remui {v}, {sixteen} : i32")
    e.emit(f"{i} = arith.index_cast {r} : i32 to index")
    return i
