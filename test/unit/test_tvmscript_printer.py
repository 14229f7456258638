"""The TVMScript printer: every module of the lit tests and the examples prints
as Python, and the printed form of each construct is TVM's (golden texts, which
TVM 0.25 prints back identically up to the order of the functions)."""

from __future__ import annotations

import ast

import numpy as np
import pytest
from operator_harness import load
from printer_corpus import CORPUS, corpus_module
from xdsl.context import Context
from xdsl.dialects.arith import Arith
from xdsl.dialects.builtin import Builtin, ModuleOp
from xdsl.dialects.func import Func
from xdsl.dialects.linalg import Linalg
from xdsl.dialects.tensor import Tensor
from xdsl.irdl import IRDLOperation
from xdsl.parser import Parser

from relax_dialect.dialect import OPERATIONS
from relax_dialect.frontends.tvmscript.printer import print_tvmscript
from relax_dialect.frontends.tvmscript.spelling import CALLS, DPS_KERNELS, OPERATORS
from relax_dialect.ops import operator_class

HEADER = """\
# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.script import relax as R

@I.ir_module
class Module:
"""


@pytest.mark.parametrize("name", CORPUS)
def test_corpus_prints_python(name: str) -> None:
    printed = print_tvmscript(corpus_module(name))
    assert printed.startswith(HEADER)
    ast.parse(printed)


FUNCTIONS_SCRIPT = (
    HEADER
    + """\
    @R.function
    def main(x: R.Tensor(("n", 4), dtype="float32"), c: R.Tensor((), dtype="bool"), o: R.Object) -> R.Tuple(R.Tensor(("n * 4",), dtype="float32"), R.Tensor(dtype="float32", ndim=1)):
        n = T.int64()
        cls = Module
        m = T.int64()
        r: R.Tensor((n * 4,), dtype="float32") = R.reshape(x, R.shape([n * 4]))
        with R.dataflow():
            lv: R.Tensor((n * 4,), dtype="float32") = R.clip(r, R.prim_value(T.float32(0.0)), R.prim_value(T.float32(6.0)))
            gv: R.Tensor((n * 4,), dtype="float32") = cls.square(lv)
            R.output(gv)
        m_1: R.Tensor((m,), dtype="float32") = R.match_cast(o, R.Tensor((m,), dtype="float32"))
        if c:
            d: R.Tensor((m,), dtype="float32") = R.add(m_1, m_1)
            z: R.Tensor((m,), dtype="float32") = d
        else:
            z: R.Tensor((m,), dtype="float32") = m_1
        @R.function
        def scale(v: R.Tensor((m,), dtype="float32")) -> R.Tensor((m,), dtype="float32"):
            w: R.Tensor((m,), dtype="float32") = R.multiply(v, R.const(0.5, "float32"))
            return w

        s: R.Tensor((m,), dtype="float32") = scale(z)
        total: R.Tensor((1,), dtype="float32") = R.sum(s, axis=[0], keepdims=True)
        t: R.Tuple(R.Tensor((n * 4,), dtype="float32"), R.Tensor((m,), dtype="float32")) = gv, s
        first: R.Tensor((n * 4,), dtype="float32") = t[0]
        return t

    @R.function(private=True)
    def square(a: R.Tensor(("k",), dtype="float32")) -> R.Tensor(("k",), dtype="float32"):
        k = T.int64()
        b: R.Tensor((k,), dtype="float32") = R.multiply(a, a)
        return b
"""
)


def test_functions_blocks_and_bindings() -> None:
    """Symbolic variables declared first, ``cls``, leaves inline, dataflow,
    match_cast (a value named like a symbolic variable is renamed), if, lambda,
    tuples, a call of a module function."""
    assert print_tvmscript(corpus_module("printer@functions")) == FUNCTIONS_SCRIPT


def test_symbolic_expressions_and_struct_info() -> None:
    module = load("""
relax.function impure @f(%x: !relax.tensor<[n, m], i8>, %s: !relax.shape<[n floordiv 2, n floormod 3, min(n, m), 2 * n - 1]>, %p: !relax.prim<i64, select(lt(n, 8), n, 8)>, %b: !relax.prim<bool>, %u: !relax.shape<ndim = 2>, %v: !relax.shape, %t: !relax.tensor, %r: !relax.tensor<ndim = 3>, %e: !relax.tuple<>, %g: !relax.func<(tensor<[n], f16>) -> object, impure>, %h: !relax.func<derive "default_derive">) -> !relax.object {
  %q = relax.prim_value and(lt(n, m), not(eq(n, 2))) : !relax.prim<bool, and(lt(n, m), not(eq(n, 2)))>
  %i = relax.prim_value 3 : !relax.prim<i32, 3>
  %y = relax.prim_value true : !relax.prim<bool, true>
  relax.return %q
}
""")
    assert print_tvmscript(module) == HEADER + (
        "    @R.function(pure=False)\n"
        '    def f(x: R.Tensor(("n", "m"), dtype="int8"), '
        's: R.Shape(["n // 2", "n % 3", "T.min(n, m)", "2 * n - 1"]), '
        'p: R.Prim(value="T.Select(n < 8, n, T.int64(8))"), b: R.Prim("bool"), '
        "u: R.Shape(ndim=2), v: R.Shape(ndim=-1), t: R.Tensor, r: R.Tensor(ndim=3), e: R.Tuple, "
        'g: R.Callable((R.Tensor(("n",), dtype="float16"),), R.Object, False), '
        'h: R.Callable(purity=True, derive_func="default_derive")) -> R.Object:\n'
        "        n = T.int64()\n"
        "        m = T.int64()\n"
        "        q: R.Prim(value=T.And(n < m, T.Not(n == 2))) = "
        "R.prim_value(T.And(n < m, T.Not(n == 2)))\n"
        "        i: R.Prim(value=T.int32(3)) = R.prim_value(T.int32(3))\n"
        "        y: R.Prim(value=T.bool(True)) = R.prim_value(T.bool(True))\n"
        "        return q\n"
    )


def test_calls_and_kernels() -> None:
    """Packed calls with ``sinfo_args``/``out_sinfo``, ``call_tir`` of a stub
    whose parameters are in TVM's order, operator references called as the
    operator, bare statements for unused empty tuples, the kernels' MLIR text
    in ``I.module_attrs``."""
    lines = print_tvmscript(corpus_module("printer@calls")).removeprefix(HEADER).splitlines()
    assert lines[0].startswith('    I.module_attrs({"relax_xdsl.dps_kernels": "func.func @double(')
    expected = [
        "    @R.function(pure=False)",
        '    def calls(x: R.Tensor(("n",), dtype="float32"), c: R.Tensor((), dtype="bool")) -> R.Tensor(("n",), dtype="float32"):',
        "        n = T.int64()",
        "        cls = Module",
        '        e: R.Tensor((n,), dtype="float32") = R.call_packed("my.packed", x, sinfo_args=(R.Tensor((n,), dtype="float32"),))',
        '        p: R.Object = R.call_packed("my.print", x, sinfo_args=(R.Object,))',
        '        q: R.Tensor((n,), dtype="float32") = R.call_pure_packed("my.exp", x, sinfo_args=(R.Tensor((n,), dtype="float32"),))',
        '        d: R.Tuple(R.Tensor((n,), dtype="float32"), R.Tensor((2,), dtype="int64")) = R.call_dps_packed("my.copy", (x,), out_sinfo=[R.Tensor((n,), dtype="float32"), R.Tensor((2,), dtype="int64")])',
        '        t: R.Tensor((n,), dtype="float32") = R.call_tir(cls.double, (x,), out_sinfo=R.Tensor((n,), dtype="float32"), tir_vars=R.shape([n]))',
        '        i: R.Tensor((n,), dtype="float32") = R.call_tir_inplace(cls.accumulate, (x, t), out_sinfo=R.Tensor((n,), dtype="float32"), inplace_indices=[0])',
        '        s: R.Tensor((n,), dtype="float32") = R.nn.softmax(x, axis=-1)',
        '        R.print(x, c, format=R.str("x = {}"))',
        '        R.assert_op(c, [x, s], format=R.str("{} {}"))',
        "        return i",
        "",
        "    @T.prim_func(private=True)",
        "    def double(a: T.handle, out: T.handle, n: T.int64):",
        "        d = T.int64()",
        '        A = T.match_buffer(a, (d,), "float32")',
        "        d_1 = T.int64()",
        '        OUT = T.match_buffer(out, (d_1,), "float32")',
        "        T.evaluate(0)",
        "",
        "    @T.prim_func(private=True)",
        "    def accumulate(a: T.handle, b: T.handle):",
        "        d = T.int64()",
        '        A = T.match_buffer(a, (d,), "float32")',
        '        B = T.match_buffer(b, (4,), "float32")',
        "        T.evaluate(0)",
    ]
    assert lines[1:] == expected


def test_kernels_text_parses_back() -> None:
    """The kernels travel as MLIR text that xDSL reads back to the same operations."""
    module = corpus_module("printer@calls")
    tree = ast.parse(print_tvmscript(module))
    call = next(
        node
        for node in ast.walk(tree)
        if isinstance(node, ast.Call) and ast.unparse(node.func) == "I.module_attrs"
    )
    attrs = ast.literal_eval(call.args[0])
    ctx = Context()
    for dialect in (Builtin, Func, Arith, Linalg, Tensor):
        ctx.load_dialect(dialect)
    restored = Parser(ctx, attrs[DPS_KERNELS]).parse_module()
    originals = [op for op in module.ops if op.name == "func.func"]
    assert [str(op) for op in restored.ops] == [str(op) for op in originals]


def test_constants_inline_or_in_metadata() -> None:
    """Without a metadata dictionary non-scalar constants are nested lists; with
    one they are collected into it and referenced by index."""
    module = corpus_module("printer@constants")
    inline = print_tvmscript(module)
    assert 'R.add(x, R.const([[1, 2], [3, 4]], "int32"))' in inline
    assert '= z, R.const([0.5, -1.0, 2.0], "float16")\n' in inline
    assert 'R.multiply(y, R.const(True, "bool"))' in inline
    metadata: dict[str, list[np.ndarray]] = {}
    referenced = print_tvmscript(module, metadata)
    assert 'R.add(x, metadata["relax.expr.Constant"][0])' in referenced
    assert '= z, metadata["relax.expr.Constant"][1]\n' in referenced
    first, second = metadata["relax.expr.Constant"]
    assert first.tolist() == [[1, 2], [3, 4]] and second.dtype == np.float16


def test_names() -> None:
    """Hints that are reserved, clash or are no identifiers are renamed; values
    without hints are ``lv``, ``lv1``, ...; dataflow outputs that are not bound
    in the block get a binding."""
    module = load("""
relax.function @main(%R: !relax.tensor<[n], f32>, %x.1: !relax.tensor<[n], f32>) -> !relax.tensor<[n], f32> {
  %0 = relax.add %R, %x.1
  %1 = relax.add %0, %0
  %n = relax.add %1, %1
  %a, %b = relax.dataflow {
    %2 = relax.add %n, %n
    relax.output %2, %R
  }
  relax.return %b
}
""")
    body = print_tvmscript(module).split("def main(", 1)[1]
    assert body.startswith('R_1: R.Tensor(("n",), dtype="float32"), x_1: ')
    for line in (
        'lv: R.Tensor((n,), dtype="float32") = R.add(R_1, x_1)',
        'lv1: R.Tensor((n,), dtype="float32") = R.add(lv, lv)',
        'n_1: R.Tensor((n,), dtype="float32") = R.add(lv1, lv1)',
        'a: R.Tensor((n,), dtype="float32") = R.add(n_1, n_1)',
        'b: R.Tensor((n,), dtype="float32") = R_1',
        "R.output(a, b)",
    ):
        assert line in body


def test_symbolic_variables_of_sibling_branches() -> None:
    """A symbolic variable bound in both branches is two variables for TVM."""
    module = load("""
relax.function @main(%c: !relax.tensor<[], bool>, %x: !relax.tensor<[n, 4], f32>) -> !relax.tensor<ndim = 2, f32> {
  %r = relax.if %c {
    %a = relax.match_cast %x : !relax.tensor<[q, 4], f32>
    relax.yield %a
  } else {
    %b = relax.match_cast %x : !relax.tensor<[q, 4], f32>
    relax.yield %b
  }
  relax.return %r
}
""")
    printed = print_tvmscript(module)
    assert "        q = T.int64()\n        q_1 = T.int64()\n" in printed
    assert 'R.match_cast(x, R.Tensor((q, 4), dtype="float32"))' in printed
    assert 'R.match_cast(x, R.Tensor((q_1, 4), dtype="float32"))' in printed


@pytest.mark.parametrize("name", CALLS)
def test_call_table_names_real_fields(name: str) -> None:
    """Every entry of the call table names the operation's operands and properties."""
    spelling = CALLS[name]
    op = next(op for op in OPERATIONS if op.name == name)
    definition = op.get_irdl_definition()  # pyright: ignore[reportAttributeAccessIssue]
    fields = {operand for operand, _ in definition.operands} | set(definition.properties)
    fields |= {"out_sinfo", "sinfo_args"}
    assert {spelling.target, spelling.arguments, *spelling.keywords} <= fields


@pytest.mark.parametrize("name", OPERATORS)
def test_spelling_table_names_real_slots(name: str) -> None:
    """Every entry of the spelling table names an operator, its operands and
    attributes (a keyword order lists every attribute)."""
    op = operator_class(name)
    assert op is not None and issubclass(op, IRDLOperation)
    spelling = OPERATORS[name]
    definition = op.get_irdl_definition()
    operands = {operand for operand, _ in definition.operands}
    attributes = set(definition.properties) - {"operandSegmentSizes"}
    assert set(spelling.prim_values) <= operands
    assert set(spelling.strings) | set(spelling.integers) <= attributes
    assert spelling.attributes is None or sorted(spelling.attributes) == sorted(attributes)


def test_empty_module() -> None:
    assert print_tvmscript(ModuleOp([])) == HEADER + "    pass\n"
