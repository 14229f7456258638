"""TIR kernels read by the TVMScript frontend (``frontends/tvmscript/tir``), run on the
bundled interpreter against NumPy: TVM's numerics (floor and truncating division,
casts, unsigned integers, float ``T.max``, rounding), ``T.if_then_else`` reading out
of bounds only where it is not taken (in loops and in a ``linalg.generic``),
buffers allocated inside a kernel, and modules read from TIR printed and read back."""

from __future__ import annotations

import textwrap
from math import erf
from pathlib import Path

import numpy as np
import pytest
from corpus_harness import CORPUS, entry_inputs, load
from inputs import RunSpec
from tir_onnx_harness import NAMES, module_and_inputs
from xdsl.dialects import func
from xdsl.dialects.linalg.ops import GenericOp

from relax_dialect.frontends import default_context
from relax_dialect.frontends.tvmscript.frontend import parse_tvmscript
from relax_dialect.frontends.tvmscript.printer import print_tvmscript
from relax_dialect.interpreter import run
from relax_xdsl.lowering import wire_tir_executor
from relax_xdsl.lowering.interpreter.tir_executor import LoweredTIRExecutor

HEADER = """
from tvm.script import ir as I
from tvm.script import relax as R
from tvm.script import tirx as T


@I.ir_module
class Module:
"""


def module(kernel: str) -> object:
    return parse_tvmscript(HEADER + textwrap.indent(textwrap.dedent(kernel), "    "), "k.py")


def call(kernel: str, inputs: list[np.ndarray], outputs: list[np.ndarray]) -> list[np.ndarray]:
    """The outputs of the one T.prim_func of ``kernel`` (no call uses it: the buffers
    it stores into last are its outputs)."""
    read = module(kernel)
    (function,) = [op for op in read.ops if isinstance(op, func.FuncOp)]
    return LoweredTIRExecutor().call(read, function.sym_name.data, inputs, outputs)


A = np.array([7, -7, 7, -7, 0, 9, -9, 5], np.int32)
B = np.array([2, 2, -2, -2, 3, 4, 4, -5], np.int32)


def test_integer_division_floors_with_slash_slash_and_truncates_with_truncdiv() -> None:
    kernel = """
    @T.prim_func(private=True)
    def divide(A: T.Buffer((8,), "int32"), B: T.Buffer((8,), "int32"),
               FD: T.Buffer((8,), "int32"), FM: T.Buffer((8,), "int32"),
               TD: T.Buffer((8,), "int32"), TM: T.Buffer((8,), "int32")):
        for i in range(8):
            FD[i] = A[i] // B[i]
            FM[i] = A[i] % B[i]
            TD[i] = T.truncdiv(A[i], B[i])
            TM[i] = T.truncmod(A[i], B[i])
    """
    outputs = call(kernel, [A, B], [np.zeros(8, np.int32)] * 4)
    expected = [A // B, A % B, (np.trunc(A / B)).astype(np.int32), np.fmod(A, B)]
    for got, want in zip(outputs, expected, strict=True):
        np.testing.assert_array_equal(got, want)


def test_unsigned_integers_compare_and_divide_unsigned() -> None:
    kernel = """
    @T.prim_func(private=True)
    def unsigned(A: T.Buffer((4,), "uint8"), B: T.Buffer((4,), "uint8"),
                 G: T.Buffer((4,), "bool"), D: T.Buffer((4,), "uint8"), W: T.Buffer((4,), "int32")):
        for i in range(4):
            G[i] = A[i] > B[i]
            D[i] = A[i] // B[i]
            W[i] = T.Cast("int32", A[i])
    """
    a = np.array([200, 100, 255, 3], np.uint8)
    b = np.array([100, 200, 2, 255], np.uint8)
    greater, quotient, widened = call(
        kernel, [a, b], [np.zeros(4, np.bool_), np.zeros(4, np.uint8), np.zeros(4, np.int32)]
    )
    np.testing.assert_array_equal(greater, a > b)
    np.testing.assert_array_equal(quotient, a // b)
    np.testing.assert_array_equal(widened, a.astype(np.int32))


def test_float_functions_follow_tvm() -> None:
    """``T.round`` rounds half to even, casts to integers truncate, a cast to bool
    is an ordered ``!= 0`` (NaN is false), float ``T.max`` is ``a > b ? a : b`` (so
    NaN only from b): TVM's LLVM code generator."""
    kernel = """
    @T.prim_func(private=True)
    def floats(X: T.Buffer((6,), "float32"), Y: T.Buffer((6,), "float32"),
               R: T.Buffer((6,), "float32"), C: T.Buffer((6,), "int32"), Z: T.Buffer((6,), "bool"),
               M: T.Buffer((6,), "float32"), S: T.Buffer((6,), "float32"), N: T.Buffer((6,), "bool")):
        for i in range(6):
            r: T.float32 = T.round(X[i])
            R[i] = r
            C[i] = T.Cast("int32", X[i])
            Z[i] = T.Cast("bool", X[i])
            M[i] = T.max(X[i], Y[i])
            S[i] = T.sigmoid(X[i])
            N[i] = T.isnan(Y[i])
    """
    x = np.array([0.5, 1.5, -2.5, -0.7, 0.0, np.nan], np.float32)
    y = np.array([1.0, np.nan, -3.0, 2.0, -1.0, 4.0], np.float32)
    outputs = [np.zeros(6, t) for t in (np.float32, np.int32, np.bool_)]
    outputs += [np.zeros(6, t) for t in (np.float32, np.float32, np.bool_)]
    with np.errstate(invalid="ignore"):
        rounded, cast, nonzero, largest, sigmoid, nan = call(kernel, [x, y], outputs)
        np.testing.assert_array_equal(rounded, np.round(x))
        np.testing.assert_array_equal(cast[:5], np.trunc(x[:5]).astype(np.int32))
    np.testing.assert_array_equal(nonzero, (x != 0) & ~np.isnan(x))
    np.testing.assert_array_equal(largest, np.where(x > y, x, y))
    np.testing.assert_allclose(sigmoid[:5], 1 / (1 + np.exp(-x[:5])), rtol=1e-6)
    np.testing.assert_array_equal(nan, np.isnan(y))


@pytest.mark.parametrize("in_block", [False, True], ids=["loop", "generic"])
def test_if_then_else_reads_out_of_bounds_only_where_not_taken(in_block: bool) -> None:
    store = "B[i] = T.if_then_else(i >= 1 and i < 5, A[i - 1], T.float32(-1))"
    if in_block:
        store = f"""with T.sblock("shift"):
                vi = T.axis.spatial(6, i)
                {store.replace("[i", "[vi").replace("(i", "(vi").replace("and i", "and vi")}"""
    kernel = f"""
    @T.prim_func(private=True)
    def shift(A: T.Buffer((4,), "float32"), B: T.Buffer((6,), "float32")):
        for i in range(6):
            {store}
    """
    uses_generic = any(isinstance(op, GenericOp) for op in module(kernel).walk())
    assert uses_generic == in_block
    a = np.array([1, 2, 3, 4], np.float32)
    (shifted,) = call(kernel, [a], [np.zeros(6, np.float32)])
    np.testing.assert_array_equal(shifted, [-1, 1, 2, 3, 4, -1])


def test_allocated_buffers_hold_intermediate_results() -> None:
    kernel = """
    @T.prim_func(private=True)
    def twice_then_one(a: T.handle, b: T.handle):
        n = T.int64()
        A = T.match_buffer(a, (n,), "float32")
        B = T.match_buffer(b, (n,), "float32")
        with T.sblock("root"):
            D = T.alloc_buffer((n,), "float32")
            for i in range(n):
                with T.sblock("double"):
                    vi = T.axis.spatial(n, i)
                    D[vi] = A[vi] * T.float32(2)
            for i in range(n):
                with T.sblock("one"):
                    vi = T.axis.spatial(n, i)
                    B[vi] = D[vi] + T.float32(1)
    """
    a = np.arange(5, dtype=np.float32)
    (result,) = call(kernel, [a], [np.zeros(5, np.float32)])
    np.testing.assert_array_equal(result, a * 2 + 1)


@pytest.mark.parametrize("name", NAMES)
def test_printed_module_reads_back_and_runs_the_same(name: str) -> None:
    """The printer writes a module read from TIR as ``T.prim_func`` stubs with the
    kernels in the module attributes; reading that gives the same kernels."""
    wire_tir_executor()
    read, inputs = module_and_inputs(name)
    text = print_tvmscript(read)
    again = parse_tvmscript(text, "printed.py", ctx=default_context())
    assert print_tvmscript(again) == text
    np.testing.assert_array_equal(run(again, "main", *inputs), run(read, "main", *inputs))


@pytest.mark.parametrize(
    "path", [p for p in CORPUS if "T.prim_func" in p.read_text()], ids=lambda p: p.name
)
def test_printed_corpus_program_reads_back_and_runs_the_same(path: Path) -> None:
    wire_tir_executor()
    read = load(path)
    inputs = entry_inputs(read, RunSpec("main", {"n": 5}))
    text = print_tvmscript(read)
    again = parse_tvmscript(text, "printed.py", ctx=default_context())
    assert print_tvmscript(again) == text
    np.testing.assert_array_equal(run(again, "main", *inputs), run(read, "main", *inputs))


UNARY = {
    "exp": np.exp,
    "log": np.log,
    "log2": np.log2,
    "log1p": np.log1p,
    "sqrt": np.sqrt,
    "rsqrt": lambda x: 1 / np.sqrt(x),
    "tanh": np.tanh,
    "sin": np.sin,
    "atan": np.arctan,
    "erf": np.vectorize(erf),
    "floor": np.floor,
    "ceil": np.ceil,
    "trunc": np.trunc,
    "fabs": np.abs,
}


@pytest.mark.parametrize("name", sorted(UNARY))
def test_math_functions_and_select(name: str) -> None:
    kernel = f"""
    @T.prim_func(private=True)
    def f(X: T.Buffer((5,), "float64"), Y: T.Buffer((5,), "float64"), F: T.Buffer((5,), "float64")):
        for i in range(5):
            F[i] = T.Select(X[i] > Y[i], T.{name}(X[i]), T.pow(Y[i], X[i]))
    """
    x = np.array([0.3, 1.7, 2.5, 0.9, 4.2])
    y = np.array([0.5, 1.0, 3.0, 0.1, 1.5])
    (result,) = call(kernel, [x, y], [np.zeros(5)])
    np.testing.assert_allclose(result, np.where(x > y, UNARY[name](x), y**x), rtol=1e-12)
