"""The top function's LLVM-dialect ops to func + cf + arith + memref (+ ub.poison).

Every op keeps its C location. Anything the flow cannot express exactly is
rejected with `file:line: error: ... is not supported`; nothing is dropped
except debug intrinsics, lifetime markers and assumptions.
"""

from __future__ import annotations

from typing import NoReturn

from xdsl.dialects import arith, cf, func, math, memref, ub
from xdsl.dialects.builtin import (AnyFloat, BytesAttr, DenseArrayBase, DenseIntOrFPElementsAttr,
                                   FloatAttr, FunctionType, IndexType, IntegerAttr, IntegerType,
                                   MemRefType, ModuleOp, StringAttr, SymbolRefAttr,
                                   TensorType, UnitAttr, UnregisteredOp)
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue

from loom import floats
from loom.diagnostics import LoomError, Location
from loom.dialects.arith_extras import RemFOp
from loom.dialects.memref_extras import GlobalOp
from loom.frontend.llvm_input import c_location, source_location
from loom.frontend.raiser.cfg import irreducible_edge, reverse_postorder
from loom.frontend.raiser.memory import ConstTable, Index, Pointer, Root, unravel
from loom.frontend.raiser.types import (LFloat, LInt, LPtr, array_shape, flow_type, ltype,
                                       scalar)
from loom.frontend.signature import Signature

DYNAMIC = -2147483648          # rawConstantIndices marker of a dynamic GEP index

BINARY: dict[str, type[Operation]] = {
    "llvm.add": arith.AddiOp, "llvm.sub": arith.SubiOp, "llvm.mul": arith.MuliOp,
    "llvm.sdiv": arith.DivSIOp, "llvm.udiv": arith.DivUIOp,
    "llvm.srem": arith.RemSIOp, "llvm.urem": arith.RemUIOp,
    "llvm.and": arith.AndIOp, "llvm.or": arith.OrIOp, "llvm.xor": arith.XOrIOp,
    "llvm.shl": arith.ShLIOp, "llvm.lshr": arith.ShRUIOp, "llvm.ashr": arith.ShRSIOp,
    "llvm.intr.smin": arith.MinSIOp, "llvm.intr.smax": arith.MaxSIOp,
    "llvm.intr.umin": arith.MinUIOp, "llvm.intr.umax": arith.MaxUIOp,
    "llvm.fadd": arith.AddfOp, "llvm.fsub": arith.SubfOp, "llvm.fmul": arith.MulfOp,
    "llvm.fdiv": arith.DivfOp, "llvm.frem": RemFOp,
    "llvm.intr.minnum": arith.MinnumfOp, "llvm.intr.maxnum": arith.MaxnumfOp,
}
CASTS: dict[str, type[Operation]] = {
    "llvm.sext": arith.ExtSIOp, "llvm.zext": arith.ExtUIOp, "llvm.trunc": arith.TruncIOp,
    "llvm.sitofp": arith.SIToFPOp, "llvm.uitofp": arith.UIToFPOp,
    "llvm.fptosi": arith.FPToSIOp, "llvm.fptoui": arith.FPToUIOp,
    "llvm.fpext": arith.ExtFOp, "llvm.fptrunc": arith.TruncFOp,
}
UNARY: dict[str, type[Operation]] = {
    "llvm.fneg": arith.NegfOp, "llvm.intr.fabs": math.AbsFOp, "llvm.intr.sqrt": math.SqrtOp,
}
MATH_CALLS: dict[str, str] = {
    "sqrtf": "llvm.intr.sqrt", "sqrt": "llvm.intr.sqrt", "fabsf": "llvm.intr.fabs",
    "fabs": "llvm.intr.fabs", "fminf": "llvm.intr.minnum", "fmin": "llvm.intr.minnum",
    "fmaxf": "llvm.intr.maxnum", "fmax": "llvm.intr.maxnum",
    "fmodf": "llvm.frem", "fmod": "llvm.frem",
}
"""C's math functions the flow has an op for, as the intrinsic clang may call instead."""
_MATH_NAMES = ("sin cos tan asin acos atan atan2 sinh cosh tanh asinh acosh atanh exp exp2 "
               "expm1 log log2 log10 log1p logb pow cbrt hypot floor ceil round trunc rint "
               "nearbyint lround llround lrint llrint remainder remquo copysign fma "
               "ldexp scalbn frexp modf erf erfc tgamma lgamma fdim nan ilogb").split()
MATH_LIBRARY = frozenset(n + suffix for n in _MATH_NAMES for suffix in ("", "f", "l"))
"""The rest of <math.h>: refused by name (the call has no body in the file)."""
DROPPED = {"llvm.intr.lifetime.start", "llvm.intr.lifetime.end", "llvm.intr.assume",
           "llvm.intr.dbg.value", "llvm.intr.dbg.declare", "llvm.intr.dbg.label",
           "llvm.intr.experimental.noalias.scope.decl"}
PASS_THROUGH = {"llvm.freeze", "llvm.intr.expect"}
ALLOCATORS = {"malloc", "calloc", "realloc", "free", "aligned_alloc", "alloca",
              "posix_memalign", "__builtin_alloca"}
PURE_PREFIXES = ("arith.", "ub.poison")
MAX_INIT_ELEMENTS = 1024     # an initializer list becomes one store per element
MAX_INIT_STORES = 64
"""Beyond this many values, a written array's initializer is a copy loop from
its constant table (an on-chip memory takes at most 64 store ports:
rtl/units.py); up to it, one store per value, all at the array's start."""


def op_name(op: Operation) -> str:
    if isinstance(op, UnregisteredOp):
        return op.op_name.data
    return op.name


def raise_to_cf(module: ModuleOp, sig: Signature, constant_tables: bool = True) -> ModuleOp:
    """The module holding `func.func @<top>` in CF form, and the constant tables
    it reads (`memref.global` constants; none without `constant_tables`: then
    an initialized array is written by its initializer's stores)."""
    funcs = {_sym_name(op): op for op in module.ops if op_name(op) == "llvm.func"}
    globals_ = {_sym_name(op): op for op in module.ops if op_name(op) == "llvm.mlir.global"}
    top = funcs.get(sig.name)
    if top is None or not top.regions or not top.regions[0].blocks:
        raise LoomError(f"function '{sig.name}' is missing from the LLVM IR",
                        Location(sig.file, sig.line))
    raiser = _Raiser(top, funcs, globals_, sig, constant_tables)
    new = raiser.run()
    return ModuleOp([*raiser.tables.values(), new])


def _sym_name(op: Operation) -> str:
    attr = op.properties.get("sym_name") or op.attributes.get("sym_name")
    return attr.data if isinstance(attr, StringAttr) else ""


class _Raiser:
    def __init__(self, fn: Operation, funcs: dict[str, Operation],
                 globals_: dict[str, Operation], sig: Signature, constant_tables: bool = True):
        self.fn, self.funcs, self.globals, self.sig = fn, funcs, globals_, sig
        self.constant_tables = constant_tables
        self.where = Location(sig.file, sig.line)
        self.vals: dict[SSAValue, SSAValue | Pointer | ConstTable] = {}
        self.blocks: dict[Block, Block] = {}
        self.consts: dict[tuple[int, str], SSAValue] = {}
        self.const_ops: list[Operation] = []
        self.index_of: dict[tuple[SSAValue, Block | None], Index] = {}
        self.cur: Block | None = None
        self.cur_loc: Attribute | None = None
        self.tables: dict[str, GlobalOp] = {}
        """The constant tables the function reads, as memref.global constants."""
        self.table_roots: dict[str, Root] = {}

    # -- diagnostics ---------------------------------------------------------------

    def fail(self, op: Operation | None, message: str) -> NoReturn:
        raise LoomError(message, self._where(op))

    def _where(self, op: Operation | None, depth: int = 0) -> Location:
        """The op's C location; a constant has none, so ask its first located user."""
        if op is None:
            return self.where
        loc = source_location(op.location, self.where)
        if loc is self.where and depth < 4:
            for result in op.results:
                for use in result.uses:
                    found = self._where(use.operation, depth + 1)
                    if found is not self.where:
                        return found
        return loc

    # -- driver --------------------------------------------------------------------

    def run(self) -> func.FuncOp:
        region = self.fn.regions[0]
        order = reverse_postorder(region)
        bad = irreducible_edge(order)
        if bad is not None:
            self.fail(bad[0].last_op, "goto into a loop (a loop with more than one "
                                      "entry) is not supported")
        entry = order[0]
        self._check_arguments(entry)
        arg_types = [self._param_type(i) for i in range(len(self.sig.params))]
        result_types = [flow_type(w, self.sig.result_float)
                        for w in [self.sig.result_width] if w is not None]
        body = Region()
        for old in order:
            types = arg_types if old is entry else [self._block_arg_type(old, a.type)
                                                   for a in old.args]
            new = Block(arg_types=types)
            body.add_block(new)
            self.blocks[old] = new
        new_entry = self.blocks[entry]
        for i, (old_arg, new_arg) in enumerate(zip(entry.args, new_entry.args)):
            p = self.sig.params[i]
            new_arg.name_hint = p.name
            if p.shape is not None:
                self.vals[old_arg] = Pointer(Root(new_arg, p.shape, p.width, p.is_float), (0,))
            else:
                self.vals[old_arg] = new_arg
        for old in order[1:]:
            for old_arg, new_arg in zip(old.args, self.blocks[old].args):
                self.vals[old_arg] = new_arg
        for old in order:
            self.cur = self.blocks[old]
            if old is entry:
                self._narrow_bools(entry)
            for op in old.ops:
                self._translate(op)
        if self.const_ops:
            first = new_entry.first_op
            if first is None:
                for op in self.const_ops:
                    new_entry.add_op(op)
            else:
                new_entry.insert_ops_before(self.const_ops, first)
        f = func.FuncOp(self.sig.name, FunctionType.from_lists(arg_types, result_types), body)
        f.location = c_location(self.fn.location)
        _erase_dead(f)
        return f

    def _param_type(self, i: int) -> Attribute:
        p = self.sig.params[i]
        if p.shape is None:
            return flow_type(p.width, p.is_float)
        return MemRefType(flow_type(p.width, p.is_float), p.shape)

    def _check_arguments(self, entry: Block) -> None:
        if len(entry.args) != len(self.sig.params):
            self.fail(None, f"'{self.sig.name}' has {len(entry.args)} parameters in LLVM IR "
                            f"but {len(self.sig.params)} in C (struct or by-value "
                            f"aggregate parameters are not supported)")
        for arg, p in zip(entry.args, self.sig.params):
            t = ltype(arg.type)
            ok = (isinstance(t, LPtr) if p.shape is not None
                  else scalar(t) == (p.width, p.is_float) or _is_bool(t, p.width))
            if not ok:
                self.fail(None, f"parameter '{p.name}' ({p.decl}) is not supported")

    def _narrow_bools(self, entry: Block) -> None:
        """A bool parameter arrives as a byte (its C storage) and is i1 inside."""
        self.cur_loc = c_location(self.fn.location)
        for old_arg, new_arg, p in zip(entry.args, self.blocks[entry].args, self.sig.params):
            if p.shape is None and _is_bool(ltype(old_arg.type), p.width):
                bit = self.emit(arith.TruncIOp(new_arg, IntegerType(1))).results[0]
                self.vals[old_arg] = bit

    def _block_arg_type(self, block: Block, t: Attribute) -> Attribute:
        lt = ltype(t)
        if isinstance(lt, LInt) or (isinstance(lt, LFloat) and lt.width is not None):
            return t
        culprit = next(iter(block.ops), None)
        for use in block.uses:
            culprit = use.operation
            break
        if isinstance(lt, LPtr):
            self.fail(culprit, "a pointer that changes at run time (pointer variable "
                               "or conditional pointer) is not supported; index the "
                               "array instead")
        self.fail(culprit, f"a value of type {t} is not supported")

    # -- emission helpers -----------------------------------------------------------

    def emit(self, op: Operation) -> Operation:
        assert self.cur is not None
        op.location = self.cur_loc if self.cur_loc is not None else op.location
        self.cur.add_op(op)
        return op

    def const(self, value: int, typ: Attribute) -> SSAValue:
        """A constant of an integer type, or of a float type given as its bit pattern."""
        key = (value, str(typ))
        if key not in self.consts:
            if isinstance(typ, IntegerType):
                attr = IntegerAttr(value, typ, truncate_bits=True)
            elif isinstance(typ, AnyFloat):
                width = typ.bitwidth
                attr = FloatAttr(float(floats.fmt(width).value(value)), typ)
            else:
                attr = IntegerAttr(value, typ)
            op = arith.ConstantOp(attr, typ)
            self.const_ops.append(op)
            self.consts[key] = op.result
        return self.consts[key]

    def value(self, old: SSAValue, user: Operation) -> SSAValue:
        v = self.vals.get(old)
        if v is None:
            self.fail(user, "internal: value used before its definition")
        if isinstance(v, Pointer):
            self.fail(user, f"'{op_name(user)}' on a pointer (pointer comparison, "
                            "conversion or escape) is not supported")
        if isinstance(v, ConstTable):
            self.fail(user, f"global variables ('{v.name}') are not supported")
        return v

    def pointer(self, old: SSAValue, user: Operation) -> Pointer:
        v = self.vals.get(old)
        if isinstance(v, ConstTable):
            self.fail(user, f"global variables ('{v.name}') are not supported; pass arrays "
                            "as parameters of the top function")
        if not isinstance(v, Pointer):
            self.fail(user, "an access through a pointer of unknown extent is not supported")
        return v

    def materialize(self, i: Index) -> SSAValue:
        return self.const(i, IndexType()) if isinstance(i, int) else i

    def add(self, a: Index, b: Index) -> Index:
        if isinstance(a, int) and isinstance(b, int):
            return a + b
        if a == 0:
            return b
        if b == 0:
            return a
        return self.emit(arith.AddiOp(self.materialize(a), self.materialize(b))).results[0]

    def to_index(self, old: SSAValue, user: Operation) -> Index:
        """A GEP index (an LLVM integer) as an index value.

        The cast goes where it is used (once per block): placed next to the
        definition instead, it would sit in a loop's condition block and keep
        the loop from being recognised as an scf.for.
        """
        owner = old.owner
        if isinstance(owner, Operation) and op_name(owner) == "llvm.mlir.constant":
            return _const_value(owner)
        key = (old, self.cur)
        if key in self.index_of:
            return self.index_of[key]
        if isinstance(owner, Operation) and op_name(owner) == "llvm.sext":
            # index_cast sign-extends: the sext folds into it.
            cast = arith.IndexCastOp(self.value(owner.operands[0], user), IndexType())
        else:
            # A zext (unsigned index) stays as an op of its own: xDSL has no index_castui.
            cast = arith.IndexCastOp(self.value(old, user), IndexType())
        result = self.emit(cast).results[0]
        self.index_of[key] = result
        return result

    # -- per-op translation ----------------------------------------------------------

    def _translate(self, op: Operation) -> None:
        name = op_name(op)
        self.cur_loc = c_location(op.location)
        for v in [*op.operands, *op.results]:
            t = ltype(v.type)
            if isinstance(t, LFloat) and t.width is None:
                self.fail(op, f"the floating-point type {t.name} is not supported (float and "
                              "double only)")
        if name in DROPPED:
            return
        if name in PASS_THROUGH:
            self.vals[op.results[0]] = self.vals[op.operands[0]]
            return
        if name in BINARY:
            a, b = (self.value(v, op) for v in op.operands)
            self.vals[op.results[0]] = self.emit(BINARY[name](a, b)).results[0]
            return
        if name in CASTS:
            src = self.value(op.operands[0], op)
            self.vals[op.results[0]] = self.emit(CASTS[name](src, op.results[0].type)).results[0]
            return
        if name in UNARY:
            src = self.value(op.operands[0], op)
            self.vals[op.results[0]] = self.emit(UNARY[name](src)).results[0]
            return
        handler = getattr(self, "_op_" + name.removeprefix("llvm.").replace(".", "_"), None)
        if handler is None:
            self._unsupported(op, name)
        handler(op)

    def _unsupported(self, op: Operation, name: str) -> NoReturn:
        if name.startswith("llvm.intr."):
            self.fail(op, f"the intrinsic '{name.removeprefix('llvm.intr.')}' is not supported")
        self.fail(op, f"the LLVM operation '{name}' is not supported")

    def _op_mlir_constant(self, op: Operation) -> None:
        typ = op.results[0].type
        attr = op.properties.get("value")
        if isinstance(attr, FloatAttr) and isinstance(typ, AnyFloat):
            pattern = floats.fmt(typ.bitwidth).bits(attr.value.data)
            self.vals[op.results[0]] = self.const(pattern, typ)
            return
        self.vals[op.results[0]] = self.const(_const_value(op), typ)

    def _op_mlir_poison(self, op: Operation) -> None:
        self.vals[op.results[0]] = self.emit(ub.PoisonOp(op.results[0].type)).results[0]

    _op_mlir_undef = _op_mlir_poison

    def _op_icmp(self, op: Operation) -> None:
        a, b = (self.value(v, op) for v in op.operands)
        pred = op.properties["predicate"]
        assert isinstance(pred, IntegerAttr)
        self.vals[op.results[0]] = self.emit(arith.CmpiOp(a, b, pred.value.data)).results[0]

    def _op_fcmp(self, op: Operation) -> None:
        # LLVM's fcmp predicates are numbered as arith.cmpf's (false, oeq, ..., true)
        a, b = (self.value(v, op) for v in op.operands)
        pred = op.properties["predicate"]
        assert isinstance(pred, IntegerAttr)
        self.vals[op.results[0]] = self.emit(arith.CmpfOp(a, b, pred.value.data)).results[0]

    def _op_intr_is_fpclass(self, op: Operation) -> None:
        """isnan, isinf, isfinite: LLVM's class test as comparisons (other classes refused)."""
        x = self.value(op.operands[0], op)
        mask = op.properties.get("bit")
        assert isinstance(mask, IntegerAttr)
        inf = self.const(floats.fmt(x.type.bitwidth).bits(float("inf")), x.type)
        match mask.value.data:
            case 0x003:    # NaN, signalling or quiet
                test = arith.CmpfOp(x, x, "uno")
            case 0x204:    # an infinity
                test = arith.CmpfOp(self.emit(math.AbsFOp(x)).results[0], inf, "oeq")
            case 0x1f8:    # finite
                test = arith.CmpfOp(self.emit(math.AbsFOp(x)).results[0], inf, "olt")
            case other:
                self.fail(op, f"this floating-point class test (LLVM is.fpclass mask "
                              f"{other:#x}) is not supported; isnan, isinf and isfinite are")
        self.vals[op.results[0]] = self.emit(test).results[0]

    def _op_select(self, op: Operation) -> None:
        c, a, b = (self.value(v, op) for v in op.operands)
        self.vals[op.results[0]] = self.emit(arith.SelectOp(c, a, b)).results[0]

    def _op_intr_abs(self, op: Operation) -> None:
        # abs(x) = x < 0 ? 0 - x : x  (wraps for the most negative value, as in C with -fwrapv)
        x = self.value(op.operands[0], op)
        zero = self.const(0, x.type)
        neg = self.emit(arith.CmpiOp(x, zero, "slt")).results[0]
        minus = self.emit(arith.SubiOp(zero, x)).results[0]
        self.vals[op.results[0]] = self.emit(arith.SelectOp(neg, minus, x)).results[0]

    # memory

    def _op_alloca(self, op: Operation) -> None:
        count = op.operands[0].owner
        if not (isinstance(count, Operation) and op_name(count) == "llvm.mlir.constant"
                and _const_value(count) == 1):
            self.fail(op, "variable-length arrays are not supported")
        elem = ltype(op.properties["elem_type"])
        dims, inner = array_shape(elem)
        kind = scalar(inner)
        if kind is None or kind[0] > 64:
            what = "floating-point" if isinstance(inner, LFloat) else "struct or pointer"
            self.fail(op, f"a local {what} variable is not supported")
        width, is_float = kind
        shape = dims if dims else (1,)
        table = self._initial_table(op.results[0]) if self.constant_tables else None
        if table is not None and (table.shape, table.width, table.is_float) == \
                (shape, width, is_float):
            # written only by its initializer: read the constant table in place
            self.vals[op.results[0]] = Pointer(self._table_root(table), ())
            return
        alloc = self.emit(memref.AllocaOp.get(flow_type(width, is_float), shape=list(shape)))
        root = Root(alloc.results[0], shape, width, is_float)
        self.vals[op.results[0]] = Pointer(root, () if dims else (0,))

    def _op_getelementptr(self, op: Operation) -> None:
        base = self.pointer(op.operands[0], op)
        dynamic = list(op.operands[1:])
        raw = op.properties["rawConstantIndices"]
        assert isinstance(raw, DenseArrayBase)
        indices: list[Index] = []
        for r in raw.get_values():
            indices.append(self.to_index(dynamic.pop(0), op) if r == DYNAMIC else int(r))
        elem = ltype(op.properties["elem_type"])
        while elem != base.pointee and base.depth < len(base.root.shape):
            # An array's address is its first element's: GEP may step at that level.
            base = Pointer(base.root, (*base.path, 0))
        if elem != base.pointee:
            self.fail(op, "pointer arithmetic that reinterprets an array as another "
                          "type is not supported")
        path = list(base.path)
        first, rest = indices[0], indices[1:]
        if not path:
            if first != 0:
                self.fail(op, "pointer arithmetic outside a local array is not supported")
        else:
            path[-1] = self.add(path[-1], first)
        for i in rest:
            if len(path) >= len(base.root.shape):
                self.fail(op, "an access into a struct is not supported")
            path.append(i)
        self.vals[op.results[0]] = Pointer(base.root, tuple(path))

    def _element(self, p: Pointer, access: Attribute, op: Operation) -> list[SSAValue]:
        if scalar(ltype(access)) != (p.root.width, p.root.is_float):
            elem = flow_type(p.root.width, p.root.is_float)
            self.fail(op, f"accessing an array of {elem} as {access} is not supported")
        path = list(p.path) + [0] * (len(p.root.shape) - p.depth)
        return [self.materialize(i) for i in path]

    def _op_load(self, op: Operation) -> None:
        p = self.pointer(op.operands[0], op)
        idx = self._element(p, op.results[0].type, op)
        self.vals[op.results[0]] = self.emit(memref.LoadOp.get(p.root.memref, idx)).results[0]

    def _op_store(self, op: Operation) -> None:
        if isinstance(self.vals.get(op.operands[0]), Pointer):
            self.fail(op, "storing a pointer is not supported")
        value = self.value(op.operands[0], op)
        p = self.pointer(op.operands[1], op)
        idx = self._element(p, op.operands[0].type, op)
        self.emit(memref.StoreOp.get(value, p.root.memref, idx))

    # whole-array initialization (initializer lists, memset, memcpy)

    def _whole_array(self, p: Pointer, op: Operation, what: str) -> int:
        """The byte length of a memset/memcpy, which must cover p's whole array."""
        length = op.operands[2].owner
        size = p.root.width // 8
        for d in p.root.shape:
            size *= d
        if not (isinstance(length, Operation) and op_name(length) == "llvm.mlir.constant"
                and _const_value(length) == size and all(i == 0 for i in p.path)):
            self.fail(op, f"{what} of part of an array (or of a run-time length) is not "
                          "supported")
        return size

    def _loops(self, shape: tuple[int, ...], body, indices: tuple[SSAValue, ...] = ()) -> None:  # type: ignore[no-untyped-def]
        """Emit a CF loop nest over `shape`; body(indices) emits the innermost ops."""
        if not shape:
            body(list(indices))
            return
        assert self.cur is not None and self.cur.parent is not None
        region = self.cur.parent
        header, inner, done = Block(arg_types=[IndexType()]), Block(), Block()
        region.insert_block_after([header, inner, done], self.cur)
        self.emit(cf.BranchOp(header, self.const(0, IndexType())))
        self.cur = header
        i = header.args[0]
        more = self.emit(arith.CmpiOp(i, self.const(shape[0], IndexType()), "slt")).results[0]
        self.emit(cf.ConditionalBranchOp(more, inner, [], done, []))
        self.cur = inner
        self._loops(shape[1:], body, (*indices, i))
        step = self.emit(arith.AddiOp(i, self.const(1, IndexType()))).results[0]
        self.emit(cf.BranchOp(header, step))
        self.cur = done

    def _op_intr_memset(self, op: Operation) -> None:
        dst = self.pointer(op.operands[0], op)
        self._whole_array(dst, op, "memset")
        byte = op.operands[1].owner
        if not (isinstance(byte, Operation) and op_name(byte) == "llvm.mlir.constant"):
            self.fail(op, "memset with a run-time value is not supported")
        value = int.from_bytes(bytes([_const_value(byte) & 0xFF]) * (dst.root.width // 8),
                               "little")
        fill = self.const(value, flow_type(dst.root.width, dst.root.is_float))
        self._loops(dst.root.shape,
                    lambda idx: self.emit(memref.StoreOp.get(fill, dst.root.memref, idx)))

    def _op_intr_memcpy(self, op: Operation) -> None:
        dst = self.pointer(op.operands[0], op)
        if dst.root in self.table_roots.values() and isinstance(self.vals.get(op.operands[1]),
                                                                 ConstTable):
            return   # a read-only local's initializer: the table is read in place
        self._whole_array(dst, op, "memcpy")
        src = self.vals.get(op.operands[1])
        if isinstance(src, ConstTable):
            if (src.shape, src.width, src.is_float) != \
                    (dst.root.shape, dst.root.width, dst.root.is_float):
                self.fail(op, "an initializer of another shape is not supported")
            if self.constant_tables and len(src.values) > MAX_INIT_STORES:
                # a long initializer of an array the kernel writes: copied from its
                # constant table by a loop (one load and one store port, not one
                # store port per value)
                table = self._table_root(src)
                self._loops(dst.root.shape, lambda idx: self.emit(memref.StoreOp.get(
                    self.emit(memref.LoadOp.get(table.memref, idx)).results[0],
                    dst.root.memref, idx)))
                return
            if len(src.values) > MAX_INIT_ELEMENTS:
                self.fail(op, f"an initializer list of more than {MAX_INIT_ELEMENTS} "
                              "elements is not supported")
            typ = flow_type(dst.root.width, dst.root.is_float)
            for flat, value in enumerate(src.values):
                idx = [self.const(i, IndexType()) for i in unravel(flat, dst.root.shape)]
                self.emit(memref.StoreOp.get(self.const(value, typ), dst.root.memref, idx))
            return
        source = self.pointer(op.operands[1], op)
        self._whole_array(source, op, "memcpy")
        if (source.root.shape, source.root.width, source.root.is_float) != \
                (dst.root.shape, dst.root.width, dst.root.is_float):
            self.fail(op, "copying between arrays of different shapes is not supported")

        def copy(idx: list[SSAValue]) -> None:
            v = self.emit(memref.LoadOp.get(source.root.memref, idx)).results[0]
            self.emit(memref.StoreOp.get(v, dst.root.memref, idx))

        self._loops(dst.root.shape, copy)

    _op_intr_memmove = _op_intr_memcpy
    _op_intr_memcpy_inline = _op_intr_memcpy
    _op_intr_memset_inline = _op_intr_memset

    def _op_intr_stacksave(self, op: Operation) -> None:
        self.fail(op, "variable-length arrays are not supported")

    def _op_mlir_addressof(self, op: Operation) -> None:
        sym = op.properties.get("global_name")
        name = sym.root_reference.data if isinstance(sym, SymbolRefAttr) else "?"
        for use in op.results[0].uses:
            if op_name(use.operation) == "llvm.call":
                self._op_call(use.operation)     # e.g. printf("..."): the call is the problem
        table = _const_table(self.globals.get(name), name)
        if table is not None and all(op_name(u.operation) == "llvm.intr.memcpy" and u.index == 1
                                     for u in op.results[0].uses):
            self.vals[op.results[0]] = table     # the source of an initializer list
            return
        if table is not None and self.constant_tables:   # a `const` table read in place
            self.vals[op.results[0]] = Pointer(self._table_root(table), ())
            return
        if table is not None:   # located at its first read (the global's own is the decl's)
            first = next((u.operation for u in op.results[0].uses), op)
            self.fail(first, f"the constant table '{name}' is not supported on the fabric (its "
                             "memories start empty); copy it into a local array")
        if name in self.funcs:
            self.fail(op, f"function pointers (taking the address of '{name}') are not supported")
        if name.startswith("__const."):    # clang's copy source of a local aggregate's init
            local = name.rsplit(".", 1)[-1]
            self.fail(op, f"the initializer list of the local struct '{local}' is not "
                          "supported; assign its fields one by one")
        self.fail(op, f"global variables ('{name}') are not supported; pass arrays as "
                      "parameters of the top function")

    def _initial_table(self, local: SSAValue) -> ConstTable | None:
        """The constant table a local array is copied from by its initializer
        list, when nothing else writes it (no store, memset or memcpy into it,
        and its address goes nowhere but loads): C's `const int t[] = {...}`,
        or any table the kernel only reads. None otherwise."""
        table, pending, seen = None, [local], set()
        while pending:
            ptr = pending.pop()
            for use in ptr.uses:
                user, name = use.operation, op_name(use.operation)
                if name == "llvm.getelementptr" and use.index == 0:
                    if user not in seen:
                        seen.add(user)
                        pending.append(user.results[0])
                elif name == "llvm.load" or name in DROPPED:
                    continue
                elif name == "llvm.intr.memcpy" and use.index == 0 and ptr is local \
                        and table is None:
                    src = user.operands[1].owner
                    if not (isinstance(src, Operation) and op_name(src) == "llvm.mlir.addressof"):
                        return None
                    sym = src.properties.get("global_name")
                    name_ = sym.root_reference.data if isinstance(sym, SymbolRefAttr) else "?"
                    table = _const_table(self.globals.get(name_), name_)
                    if table is None:
                        return None
                else:
                    return None
        return table

    def _table_root(self, table: ConstTable) -> Root:
        """The memref of a constant table: `memref.global "private" constant`
        with the C initialiser, read through `memref.get_global` (hoisted to the
        entry block with the constants, so it dominates every use)."""
        if table.name not in self.table_roots:
            elem = flow_type(table.width, table.is_float)
            mtype = MemRefType(elem, list(table.shape))
            if table.is_float:
                f = floats.fmt(table.width)
                elements = [float(f.value(v)) for v in table.values]
            else:
                elements = [IntegerAttr(v, elem, truncate_bits=True).value.data
                            for v in table.values]
            values = DenseIntOrFPElementsAttr.from_list(TensorType(elem, list(table.shape)),
                                                        elements)
            self.tables[table.name] = GlobalOp.get(
                StringAttr(table.name), mtype, values, constant=UnitAttr())
            get = memref.GetGlobalOp(table.name, mtype)
            self.const_ops.append(get)
            self.table_roots[table.name] = Root(get.results[0], table.shape, table.width,
                                                table.is_float)
        return self.table_roots[table.name]

    def _op_mlir_zero(self, op: Operation) -> None:
        self.fail(op, "null pointers are not supported")

    # calls

    def _op_call(self, op: Operation) -> None:
        callee = op.properties.get("callee")
        if not isinstance(callee, SymbolRefAttr):
            self.fail(op, "function pointers (an indirect call) are not supported")
        name = callee.root_reference.data
        target = self.funcs.get(name)
        defined = target is not None and bool(target.regions) and bool(target.regions[0].blocks)
        if name in ALLOCATORS:
            self.fail(op, f"dynamic memory allocation ('{name}') is not supported")
        if name in MATH_CALLS and not defined:
            binary = MATH_CALLS[name] in BINARY
            args = [self.value(v, op) for v in op.operands]
            new = BINARY[MATH_CALLS[name]](*args) if binary else UNARY[MATH_CALLS[name]](*args)
            self.vals[op.results[0]] = self.emit(new).results[0]
            return
        if not defined and name in MATH_LIBRARY:
            self.fail(op, f"the math function '{name}' is not supported (floating point "
                          "has + - * /, fmod, sqrt, fabs, fmin, fmax, comparisons and casts)")
        if not defined:
            self.fail(op, f"calling '{name}', which has no body in this file, is not "
                          f"supported; the kernel is compiled from this file alone: define "
                          f"'{name}' in it or in a header it includes (e.g. static inline), "
                          "or make the call from main() instead")
        if "var_callee_type" in op.properties or _is_variadic(target):
            self.fail(op, f"calling the variadic function '{name}' (varargs) is not supported")
        if name == self.sig.name or _reaches(self.funcs, name, {name, self.sig.name}):
            self.fail(op, f"recursion (a call to '{name}') is not supported")
        self.fail(op, f"the call to '{name}' could not be inlined; it is not supported")

    # control flow

    def _op_br(self, op: Operation) -> None:
        args = [self.value(v, op) for v in op.operands]
        self.emit(cf.BranchOp(self.blocks[op.successors[0]], *args))

    def _op_cond_br(self, op: Operation) -> None:
        seg = op.properties["operandSegmentSizes"]
        assert isinstance(seg, DenseArrayBase)
        _, n_true, _ = seg.get_values()
        cond, *rest = (self.value(v, op) for v in op.operands)
        self.emit(cf.ConditionalBranchOp(cond, self.blocks[op.successors[0]], rest[:n_true],
                                         self.blocks[op.successors[1]], rest[n_true:]))

    def _op_switch(self, op: Operation) -> None:
        # A chain of equality tests: the lowering handles if/else, not index_switch.
        seg = op.properties["operandSegmentSizes"]
        case_seg = op.properties.get("case_operand_segments")
        values_attr = op.properties.get("case_values")
        assert isinstance(seg, DenseArrayBase)
        _, n_default, _ = seg.get_values()
        value, *rest = (self.value(v, op) for v in op.operands)
        default_args, case_args = rest[:n_default], rest[n_default:]
        sizes = list(case_seg.get_values()) if isinstance(case_seg, DenseArrayBase) else []
        cases = (list(values_attr.get_values())
                 if isinstance(values_attr, DenseIntOrFPElementsAttr) else [])
        dests = list(op.successors)
        default, targets = self.blocks[dests[0]], [self.blocks[b] for b in dests[1:]]
        offset = 0
        for k, (case, target) in enumerate(zip(cases, targets)):
            n = sizes[k] if k < len(sizes) else 0
            args, offset = case_args[offset:offset + n], offset + n
            hit = self.emit(arith.CmpiOp(value, self.const(int(case), value.type), "eq")).results[0]
            nxt = Block()
            assert self.cur is not None and self.cur.parent is not None
            self.cur.parent.insert_block_after(nxt, self.cur)
            self.emit(cf.ConditionalBranchOp(hit, target, args, nxt, []))
            self.cur = nxt
        self.emit(cf.BranchOp(default, *default_args))

    def _op_return(self, op: Operation) -> None:
        values = [self.value(v, op) for v in op.operands]
        width = self.sig.result_width
        if values and width is not None and _is_bool(ltype(values[0].type), width):
            # a bool result leaves as a byte, zero-extended as C stores it
            values[0] = self.emit(arith.ExtUIOp(values[0], IntegerType(width))).results[0]
        self.emit(func.ReturnOp(*values))

    def _op_unreachable(self, op: Operation) -> None:
        self.fail(op, "unreachable code (__builtin_unreachable or a call that does not "
                      "return) is not supported")


def _is_bool(t: object, c_width: int) -> bool:
    """C's bool: i1 in LLVM's calling convention, a byte (the flow's i8) in memory."""
    return t == LInt(1) and c_width == 8


def _const_value(op: Operation) -> int:
    attr = op.properties.get("value")
    if isinstance(attr, IntegerAttr):
        return int(attr.value.data)
    raise LoomError(f"a constant {attr} is not supported", source_location(op.location, Location("?")))


def _const_table(g: Operation | None, name: str) -> ConstTable | None:
    """A constant global integer array with a dense initializer, else None."""
    if g is None or "constant" not in g.properties:
        return None
    value, gtype = g.properties.get("value"), g.properties.get("global_type")
    if gtype is None:
        return None
    shape, inner = array_shape(ltype(gtype))
    kind = scalar(inner)
    if not shape or kind is None:
        return None
    width, is_float = kind
    if isinstance(value, DenseIntOrFPElementsAttr) and is_float:
        values = tuple(floats.fmt(width).bits(v) for v in value.get_values())
    elif isinstance(value, DenseIntOrFPElementsAttr):
        values = tuple(int(v) for v in value.get_values())
    elif isinstance(value, (StringAttr, BytesAttr)) and kind == (8, False):   # a byte array
        # xDSL reads MLIR's string as text when it decodes as UTF-8, else as bytes
        raw = value.data
        values = tuple(raw if isinstance(raw, bytes) else raw.encode("utf-8"))
    else:
        return None
    n = 1
    for d in shape:
        n *= d
    if len(values) == 1 and n > 1:          # a splat
        values = values * n
    return ConstTable(name, shape, width, values, is_float) if len(values) == n else None


def _is_variadic(fn: Operation | None) -> bool:
    if fn is None:
        return False
    t = fn.properties.get("function_type")
    return t is not None and "..." in str(t)


def _callees(fn: Operation) -> set[str]:
    out = set()
    for op in fn.walk():
        if op_name(op) == "llvm.call":
            c = op.properties.get("callee")
            if isinstance(c, SymbolRefAttr):
                out.add(c.root_reference.data)
    return out


def _reaches(funcs: dict[str, Operation], start: str, targets: set[str]) -> bool:
    """Whether some call path from `start` comes back to one of `targets`."""
    seen: set[str] = set()
    stack = [start]
    while stack:
        name = stack.pop()
        fn = funcs.get(name)
        if fn is None:
            continue
        for callee in _callees(fn):
            if callee in targets:
                return True
            if callee not in seen:
                seen.add(callee)
                stack.append(callee)
    return False


def _erase_dead(f: func.FuncOp) -> None:
    """Remove side-effect-free ops whose results are unused (bypassed sext, ...)."""
    changed = True
    while changed:
        changed = False
        for block in f.body.blocks:
            for op in reversed(list(block.ops)):
                if op.name.startswith(PURE_PREFIXES) and op.results \
                        and all(not r.uses for r in op.results):
                    block.erase_op(op)
                    changed = True
