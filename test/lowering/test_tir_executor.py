"""LoweredTIRExecutor: the destination-passing func.func targets of relax.call_tir, run
with the lowered interpreter and compared against NumPy; the reference interpreter and
relax-fold-constant run call_tir through it once it is wired."""

from __future__ import annotations

import re
import subprocess
import sys
from collections.abc import Callable, Sequence
from math import erf
from pathlib import Path

import numpy as np
import pytest
from interpreter_harness import parse
from xdsl.context import Context
from xdsl.dialects import arith, builtin, func, linalg
from xdsl.dialects.builtin import ModuleOp

from relax_dialect import tir_executor
from relax_dialect.dialect import Relax
from relax_dialect.frontends.mlir import parse_module
from relax_dialect.interpreter import Machine, RelaxRuntimeError
from relax_dialect.interpreter import run as run_relax
from relax_dialect.passes.fold_constant import FoldConstantPass
from relax_dialect.tir_executor import UNWIRED, TIRArgument, TIRExecutionError
from relax_xdsl.lowering import wire_tir_executor
from relax_xdsl.lowering.interpreter.tir_executor import LoweredTIRExecutor


def run(
    source: str, callee: str, inputs: Sequence[TIRArgument], outputs: Sequence[np.ndarray]
) -> list[np.ndarray]:
    """The outputs of @callee of source run on inputs and outputs."""
    return LoweredTIRExecutor().call(parse(source), callee, inputs, outputs)


def elementwise(body: str, input_type: str, output_type: str) -> str:
    """A kernel applying body (scalars %x, %y to %v) to two 4-element tensors."""
    maps = ", ".join(["affine_map<(d0) -> (d0)>"] * 3)
    ins, out = f"tensor<4x{input_type}>", f"tensor<4x{output_type}>"
    return f"""
    func.func @kernel(%a: {ins}, %b: {ins}, %out: {out}) -> {out} {{
      %r = linalg.generic {{indexing_maps = [{maps}], iterator_types = ["parallel"]}}
          ins(%a, %b : {ins}, {ins}) outs(%out : {out}) {{
      ^bb0(%x: {input_type}, %y: {input_type}, %o: {output_type}):
        {body}
        linalg.yield %v : {output_type}
      }} -> {out}
      func.return %r : {out}
    }}
    """


POSITIVE = np.array([0.5, 1.5, 2.0, 3.25])
MIXED = np.array([2.0, -0.5, -4.0, 1.5])
INTEGERS = np.array([7, -7, 9, -9])
DIVISORS = np.array([2, 2, -4, -4])

ElementwiseCase = tuple[str, str, str, np.ndarray, np.ndarray, Callable[..., np.ndarray]]

BODY_CASES: list[ElementwiseCase] = [
    ("%v = arith.divf %x, %y : f32", "f32", "f32", POSITIVE, MIXED, np.divide),
    ("%v = arith.negf %y : f32", "f32", "f32", POSITIVE, MIXED, lambda x, y: -y),
    ("%v = math.tanh %y : f32", "f32", "f32", POSITIVE, MIXED, lambda x, y: np.tanh(y)),
    ("%v = arith.maximumf %x, %y : f32", "f32", "f32", POSITIVE, MIXED, np.maximum),
    ("%v = arith.maxnumf %x, %y : f32", "f32", "f32", POSITIVE, MIXED, np.fmax),
    ("%v = arith.minnumf %x, %y : f32", "f32", "f32", POSITIVE, MIXED, np.fmin),
    ("%v = math.exp %y : f32", "f32", "f32", POSITIVE, MIXED, lambda x, y: np.exp(y)),
    ("%v = math.log %x : f32", "f32", "f32", POSITIVE, MIXED, lambda x, y: np.log(x)),
    ("%v = math.sqrt %x : f32", "f32", "f32", POSITIVE, MIXED, lambda x, y: np.sqrt(x)),
    ("%v = math.rsqrt %x : f32", "f32", "f32", POSITIVE, MIXED, lambda x, y: x**-0.5),
    ("%v = math.absf %y : f32", "f32", "f32", POSITIVE, MIXED, lambda x, y: np.abs(y)),
    ("%v = math.floor %y : f32", "f32", "f32", POSITIVE, MIXED, lambda x, y: np.floor(y)),
    ("%v = math.ceil %y : f32", "f32", "f32", POSITIVE, MIXED, lambda x, y: np.ceil(y)),
    ("%v = math.powf %x, %y : f32", "f32", "f32", POSITIVE, MIXED, np.power),
    ("%v = math.erf %y : f32", "f32", "f32", POSITIVE, MIXED, np.vectorize(lambda x, y: erf(y))),
    ("%v = arith.truncf %x : f64 to f32", "f64", "f32", POSITIVE, MIXED, lambda x, y: x),
    ("%v = arith.extf %y : f16 to f32", "f16", "f32", POSITIVE, MIXED, lambda x, y: y),
    ("%v = arith.fptosi %y : f32 to i32", "f32", "i32", POSITIVE, MIXED, lambda x, y: y),
    ("%v = arith.sitofp %x : i32 to f32", "i32", "f32", INTEGERS, DIVISORS, lambda x, y: x),
    ("%v = arith.cmpf olt, %x, %y : f32", "f32", "i1", POSITIVE, MIXED, np.less),
    (
        "%v = arith.divsi %x, %y : i32",
        "i32",
        "i32",
        INTEGERS,
        DIVISORS,
        lambda x, y: np.trunc(x / y),
    ),
    ("%v = arith.remsi %x, %y : i32", "i32", "i32", INTEGERS, DIVISORS, np.fmod),
    ("%v = arith.maxsi %x, %y : i64", "i64", "i64", INTEGERS, DIVISORS, np.maximum),
    ("%v = arith.minsi %x, %y : i16", "i16", "i16", INTEGERS, DIVISORS, np.minimum),
    ("%v = arith.extsi %x : i8 to i64", "i8", "i64", INTEGERS, DIVISORS, lambda x, y: x),
    (
        "%v = arith.extui %x : i8 to i64",
        "i8",
        "i64",
        INTEGERS,
        DIVISORS,
        lambda x, y: x.astype(np.uint8),
    ),
    ("%v = arith.trunci %x : i64 to i8", "i64", "i8", INTEGERS + 512, DIVISORS, lambda x, y: x),
    ("%v = arith.uitofp %x : i1 to f32", "i1", "f32", INTEGERS > 0, DIVISORS, lambda x, y: x),
]

NUMPY_DTYPES = {
    "f16": np.float16,
    "f32": np.float32,
    "f64": np.float64,
    "i1": np.bool_,
    "i8": np.int8,
    "i16": np.int16,
    "i32": np.int32,
    "i64": np.int64,
}


@pytest.mark.parametrize(
    ("body", "input_type", "output_type", "x", "y", "expected"),
    BODY_CASES,
    ids=[case[0].split()[2] for case in BODY_CASES],
)
def test_generic_body_operations(
    body: str,
    input_type: str,
    output_type: str,
    x: np.ndarray,
    y: np.ndarray,
    expected: Callable[..., np.ndarray],
) -> None:
    """Scalar operations in a linalg.generic body agree with NumPy."""
    x, y = (values.astype(NUMPY_DTYPES[input_type]) for values in (x, y))
    output_dtype = NUMPY_DTYPES[output_type]
    (result,) = run(
        elementwise(body, input_type, output_type), "kernel", [x, y], [np.zeros(4, output_dtype)]
    )
    assert result.dtype == output_dtype
    reference = np.asarray(expected(x, y)).astype(output_dtype)
    np.testing.assert_allclose(result, reference, rtol=1e-6)


def test_elementwise_add_with_dynamic_dims() -> None:
    source = """
    func.func @add(%a: tensor<?x4xf32>, %b: tensor<?x4xf32>, %out: tensor<?x4xf32>)
        -> tensor<?x4xf32> {
      %r = linalg.add ins(%a, %b : tensor<?x4xf32>, tensor<?x4xf32>)
          outs(%out : tensor<?x4xf32>) -> tensor<?x4xf32>
      func.return %r : tensor<?x4xf32>
    }
    """
    a = np.arange(12, dtype=np.float32).reshape(3, 4)
    b = np.linspace(-1, 1, 12, dtype=np.float32).reshape(3, 4)
    output = np.zeros((3, 4), np.float32)
    (result,) = run(source, "add", [a, b], [output])
    np.testing.assert_allclose(result, a + b)
    assert result is not output and not output.any()


@pytest.mark.parametrize(
    ("element_type", "dtype"),
    [
        ("i8", np.int8),
        ("i16", np.int16),
        ("i32", np.int32),
        ("i64", np.int64),
        ("f16", np.float16),
        ("f64", np.float64),
    ],
)
def test_add_of_each_element_type(element_type: str, dtype: type[np.generic]) -> None:
    tensor_type = f"tensor<2x3x{element_type}>"
    source = f"""
    func.func @add(%a: {tensor_type}, %b: {tensor_type}, %out: {tensor_type}) -> {tensor_type} {{
      %r = linalg.add ins(%a, %b : {tensor_type}, {tensor_type}) outs(%out : {tensor_type})
          -> {tensor_type}
      func.return %r : {tensor_type}
    }}
    """
    a = np.arange(-3, 3).reshape(2, 3).astype(dtype)
    b = np.arange(6).reshape(2, 3).astype(dtype) * 10
    (result,) = run(source, "add", [a, b], [np.zeros((2, 3), dtype)])
    assert result.dtype == dtype
    np.testing.assert_array_equal(result, a + b)


def test_unsigned_arrays_pass_through_signless_integers() -> None:
    source = """
    func.func @add(%a: tensor<3xi8>, %b: tensor<3xi8>, %out: tensor<3xi8>) -> tensor<3xi8> {
      %r = linalg.add ins(%a, %b : tensor<3xi8>, tensor<3xi8>) outs(%out : tensor<3xi8>)
          -> tensor<3xi8>
      func.return %r : tensor<3xi8>
    }
    """
    a = np.array([200, 250, 1], np.uint8)
    b = np.array([50, 10, 1], np.uint8)
    (result,) = run(source, "add", [a, b], [np.zeros(3, np.uint8)])
    np.testing.assert_array_equal(result, a + b)


def test_matmul() -> None:
    source = """
    func.func @matmul(%a: tensor<?x3xf32>, %b: tensor<3x?xf32>, %out: tensor<?x?xf32>)
        -> tensor<?x?xf32> {
      %zero = arith.constant 0.0 : f32
      %init = linalg.fill ins(%zero : f32) outs(%out : tensor<?x?xf32>) -> tensor<?x?xf32>
      %r = linalg.matmul ins(%a, %b : tensor<?x3xf32>, tensor<3x?xf32>)
          outs(%init : tensor<?x?xf32>) -> tensor<?x?xf32>
      func.return %r : tensor<?x?xf32>
    }
    """
    a = np.arange(6, dtype=np.float32).reshape(2, 3) - 2
    b = np.arange(12, dtype=np.float32).reshape(3, 4) / 4
    (result,) = run(source, "matmul", [a, b], [np.full((2, 4), 7, np.float32)])
    np.testing.assert_allclose(result, a @ b)


def test_fill_with_a_scalar_over_any_contents() -> None:
    source = """
    func.func @fill(%out: tensor<2x3xf32>) -> tensor<2x3xf32> {
      %c = arith.constant 2.5 : f32
      %r = linalg.fill ins(%c : f32) outs(%out : tensor<2x3xf32>) -> tensor<2x3xf32>
      func.return %r : tensor<2x3xf32>
    }
    """
    (result,) = run(source, "fill", [], [np.ones((2, 3), np.float32)])
    np.testing.assert_array_equal(result, np.full((2, 3), 2.5))


def test_scalar_inputs_and_index_tir_var() -> None:
    source = """
    func.func @scale(%a: tensor<?xf32>, %s: f32, %n: index,
        %out: tensor<?xi64>, %out2: tensor<?xf32>) -> (tensor<?xi64>, tensor<?xf32>) {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%iota = %out, %scaled = %out2)
          -> (tensor<?xi64>, tensor<?xf32>) {
        %v = arith.index_cast %i : index to i64
        %iota2 = tensor.insert %v into %iota[%i] : tensor<?xi64>
        %x = tensor.extract %a[%i] : tensor<?xf32>
        %y = arith.mulf %x, %s : f32
        %scaled2 = tensor.insert %y into %scaled[%i] : tensor<?xf32>
        scf.yield %iota2, %scaled2 : tensor<?xi64>, tensor<?xf32>
      }
      func.return %r#0, %r#1 : tensor<?xi64>, tensor<?xf32>
    }
    """
    a = np.array([1.0, -2.0, 3.0, 4.0, 5.0], np.float32)
    outputs = [np.full(5, -1, np.int64), np.zeros(5, np.float32)]
    iota, scaled = run(source, "scale", [a, 0.5, 3], outputs)
    np.testing.assert_array_equal(iota, [0, 1, 2, -1, -1])
    np.testing.assert_allclose(scaled, [0.5, -1.0, 1.5, 0.0, 0.0])


def test_dense_tensor_constants() -> None:
    source = """
    func.func @shift(%a: tensor<2x2xf32>, %out: tensor<2x2xf32>, %out2: tensor<3xi32>)
        -> (tensor<2x2xf32>, tensor<3xi32>) {
      %c = arith.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
      %splat = arith.constant dense<7> : tensor<3xi32>
      %r = linalg.add ins(%a, %c : tensor<2x2xf32>, tensor<2x2xf32>)
          outs(%out : tensor<2x2xf32>) -> tensor<2x2xf32>
      func.return %r, %splat : tensor<2x2xf32>, tensor<3xi32>
    }
    """
    a = np.full((2, 2), 0.5, np.float32)
    shifted, splat = run(
        source, "shift", [a], [np.zeros((2, 2), np.float32), np.zeros(3, np.int32)]
    )
    np.testing.assert_allclose(shifted, a + np.array([[1, 2], [3, 4]]))
    np.testing.assert_array_equal(splat, [7, 7, 7])


def test_slices() -> None:
    source = """
    func.func @slices(%a: tensor<3x4xf32>, %k: index, %row: tensor<3xf32>,
        %block: tensor<2x2xf32>, %patched: tensor<3x4xf32>)
        -> (tensor<3xf32>, tensor<2x2xf32>, tensor<3x4xf32>) {
      %r = tensor.extract_slice %a[0, 1] [3, 1] [1, 1] : tensor<3x4xf32> to tensor<3xf32>
      %b = tensor.extract_slice %a[%k, 0] [2, 2] [1, 2] : tensor<3x4xf32> to tensor<2x2xf32>
      %p = tensor.insert_slice %b into %a[0, 2] [2, 2] [1, 1] : tensor<2x2xf32> into tensor<3x4xf32>
      func.return %r, %b, %p : tensor<3xf32>, tensor<2x2xf32>, tensor<3x4xf32>
    }
    """
    a = np.arange(12, dtype=np.float32).reshape(3, 4)
    outputs = [np.zeros(3, np.float32), np.zeros((2, 2), np.float32), np.zeros((3, 4), np.float32)]
    row, block, patched = run(source, "slices", [a, 1], outputs)
    np.testing.assert_array_equal(row, a[:, 1])
    np.testing.assert_array_equal(block, a[1:3, 0:4:2])
    expected = a.copy()
    expected[0:2, 2:4] = a[1:3, 0:4:2]
    np.testing.assert_array_equal(patched, expected)


def test_reshapes() -> None:
    source = """
    func.func @reshapes(%a: tensor<?x3xf32>, %n: index, %flat: tensor<?xf32>,
        %split: tensor<?x3x1xf32>) -> (tensor<?xf32>, tensor<?x3x1xf32>) {
      %f = tensor.collapse_shape %a [[0, 1]] : tensor<?x3xf32> into tensor<?xf32>
      %s = tensor.expand_shape %a [[0], [1, 2]] output_shape [%n, 3, 1]
          : tensor<?x3xf32> into tensor<?x3x1xf32>
      func.return %f, %s : tensor<?xf32>, tensor<?x3x1xf32>
    }
    """
    a = np.arange(6, dtype=np.float32).reshape(2, 3)
    outputs = [np.zeros(6, np.float32), np.zeros((2, 3, 1), np.float32)]
    flat, split = run(source, "reshapes", [a, 2], outputs)
    np.testing.assert_array_equal(flat, a.reshape(6))
    np.testing.assert_array_equal(split, a.reshape(2, 3, 1))


def test_memref_kernel_writes_in_place() -> None:
    source = """
    func.func @double(%a: memref<?xf64>, %n: index, %out: memref<?xf64>) {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      scf.for %i = %c0 to %n step %c1 {
        %x = memref.load %a[%i] : memref<?xf64>
        %y = arith.addf %x, %x : f64
        memref.store %y, %out[%i] : memref<?xf64>
      }
      func.return
    }
    """
    a = np.array([1.5, -2.0, 0.25])
    output = np.zeros(3)
    (result,) = run(source, "double", [a, 3], [output])
    np.testing.assert_allclose(result, 2 * a)
    assert not output.any()


def test_helper_functions_and_named_elementwise_operations() -> None:
    source = """
    func.func @relu_diff(%a: tensor<4xf32>, %b: tensor<4xf32>, %out: tensor<4xf32>)
        -> tensor<4xf32> {
      %d = linalg.sub ins(%a, %b : tensor<4xf32>, tensor<4xf32>) outs(%out : tensor<4xf32>)
          -> tensor<4xf32>
      %r = func.call @relu(%d, %out) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
      func.return %r : tensor<4xf32>
    }
    func.func @relu(%a: tensor<4xf32>, %out: tensor<4xf32>) -> tensor<4xf32> {
      %zero = arith.constant dense<0.0> : tensor<4xf32>
      %r = linalg.max ins(%a, %zero : tensor<4xf32>, tensor<4xf32>) outs(%out : tensor<4xf32>)
          -> tensor<4xf32>
      func.return %r : tensor<4xf32>
    }
    """
    a = np.array([1.0, 2.0, 3.0, 4.0], np.float32)
    b = np.array([2.0, 1.0, 5.0, 0.5], np.float32)
    (result,) = run(source, "relu_diff", [a, b], [np.zeros(4, np.float32)])
    np.testing.assert_allclose(result, np.maximum(a - b, 0))


def test_ieee_special_values() -> None:
    source = elementwise("%q = arith.divf %x, %y : f32\n%v = math.log %q : f32", "f32", "f32")
    x = np.array([1.0, 0.0, -1.0, 0.0], np.float32)
    y = np.array([0.0, 1.0, 0.0, 0.0], np.float32)
    (result,) = run(source, "kernel", [x, y], [np.zeros(4, np.float32)])
    np.testing.assert_array_equal(result, [np.inf, -np.inf, np.nan, np.nan])


def test_float_arithmetic_rounds_to_its_type() -> None:
    source = elementwise("%v = arith.addf %x, %y : f32", "f32", "f32")
    x = np.array([3e38, 1.0, 1.0, -3e38], np.float32)
    y = np.array([3e38, 2.0**-30, 2.0**-23, -3e38], np.float32)
    (result,) = run(source, "kernel", [x, y], [np.zeros(4, np.float32)])
    np.testing.assert_array_equal(result, [np.inf, 1.0, 1.0 + 2.0**-23, -np.inf])


ADD = """
func.func @add(%a: tensor<?x4xf32>, %n: index, %out: tensor<?x4xf32>) -> tensor<?x4xf32> {
  %r = linalg.add ins(%a, %a : tensor<?x4xf32>, tensor<?x4xf32>) outs(%out : tensor<?x4xf32>)
      -> tensor<?x4xf32>
  func.return %r : tensor<?x4xf32>
}
func.func private @external(%a: tensor<4xf32>) -> tensor<4xf32>
func.func @strided(%out: memref<4xf32, strided<[2]>>) {
  func.return
}
"""

VECTOR = np.zeros((2, 4), np.float32)


@pytest.mark.parametrize(
    ("callee", "inputs", "outputs", "message"),
    [
        ("missing", [], [], "no func.func @missing in the module"),
        ("external", [], [], "func.func @external has no body"),
        ("add", [VECTOR], [VECTOR], "@add takes 3 arguments but was given 1 inputs and 1 outputs"),
        ("add", [VECTOR[0], 2], [VECTOR], "argument 0 of @add has rank 1 but"),
        ("add", [np.zeros((2, 5), np.float32), 2], [VECTOR], "argument 0 of @add has shape [2, 5]"),
        ("add", [VECTOR.astype(np.float64), 2], [VECTOR], "argument 0 of @add has dtype float64"),
        ("add", [VECTOR, 2.5], [VECTOR], "argument 1 of @add = 2.5 cannot be passed as index"),
        ("add", [VECTOR, 2**64], [VECTOR], f"argument 1 of @add = {2**64} does not fit in index"),
        ("add", [2, 2], [VECTOR], "argument 0 of @add = 2 cannot be passed as tensor<?x4xf32>"),
        ("add", [VECTOR, VECTOR], [VECTOR], "argument 1 of @add is an array but its parameter"),
        ("add", [VECTOR, 2], [2], "the outputs of @add must be arrays"),
        ("strided", [], [np.zeros(4, np.float32)], "argument 0 of @strided: memref layouts"),
    ],
)
def test_bad_calls(
    callee: str, inputs: list[TIRArgument], outputs: list[np.ndarray], message: str
) -> None:
    with pytest.raises(TIRExecutionError, match="^" + re.escape(message)):
        run(ADD, callee, inputs, outputs)


def test_unsupported_operation_is_named_before_running() -> None:
    source = elementwise(
        '%w = memref.alloc() : memref<4xf32>\n%v = "memref.rank"(%w) : (memref<4xf32>) -> index',
        "f32",
        "index",
    )
    with pytest.raises(TIRExecutionError) as error:
        run(source, "kernel", [np.ones(4, np.float32)] * 2, [np.zeros(4, np.int64)])
    assert str(error.value) == "memref.rank in @kernel is not supported by the lowered interpreter"


def test_cube_root_runs() -> None:
    source = elementwise("%v = math.cbrt %x : f32", "f32", "f32")
    x = np.array([8.0, -27.0, 0.0, 1.0], np.float32)
    (result,) = run(source, "kernel", [x, x], [np.zeros(4, np.float32)])
    np.testing.assert_allclose(result, [2.0, -3.0, 0.0, 1.0], rtol=1e-6)


def test_failure_inside_the_interpreter_names_the_operation() -> None:
    source = elementwise("%v = arith.divsi %x, %y : i32", "i32", "i32")
    x, y = np.ones(4, np.int32), np.zeros(4, np.int32)
    with pytest.raises(TIRExecutionError, match=r"^arith\.divsi in @kernel failed: "):
        run(source, "kernel", [x, y], [np.zeros(4, np.int32)])


def test_element_types_without_numpy_counterpart() -> None:
    source = """
    func.func @copy(%a: tensor<2xf80>, %out: tensor<2xf80>) -> tensor<2xf80> {
      func.return %a : tensor<2xf80>
    }
    """
    with pytest.raises(TIRExecutionError, match="element type f80 has no NumPy counterpart"):
        run(source, "copy", [np.zeros(2, np.float16)], [np.zeros(2, np.float16)])


RETURNS = """
func.func @wrong_shape(%a: tensor<?xf32>, %out: tensor<?xf32>) -> tensor<?xf32> {
  func.return %a : tensor<?xf32>
}
func.func @scalar(%a: tensor<?xf32>, %out: tensor<?xf32>) -> f32 {
  %c = arith.constant 1.0 : f32
  func.return %c : f32
}
func.func @two(%a: tensor<?xf32>, %out: tensor<?xf32>) -> (tensor<?xf32>, tensor<?xf32>) {
  func.return %out, %out : tensor<?xf32>, tensor<?xf32>
}
"""


@pytest.mark.parametrize(
    ("callee", "message"),
    [
        ("wrong_shape", "output 0 of @wrong_shape has shape [3] and element type f32; expected"),
        ("scalar", "output 0 of @scalar is 1.0, not a tensor"),
        ("two", "@two returned 2 values for 1 outputs"),
    ],
)
def test_returned_values_must_match_the_outputs(callee: str, message: str) -> None:
    with pytest.raises(TIRExecutionError, match="^" + re.escape(message)):
        run(RETURNS, callee, [np.zeros(3, np.float32)], [np.zeros(2, np.float32)])


# --- the reference interpreter and relax-fold-constant ------------------------------

CALL_TIR = """
func.func @double(%a: tensor<?x4xf32>, %out: tensor<?x4xf32>) -> tensor<?x4xf32> {
  %r = linalg.add ins(%a, %a : tensor<?x4xf32>, tensor<?x4xf32>)
      outs(%out : tensor<?x4xf32>) -> tensor<?x4xf32>
  func.return %r : tensor<?x4xf32>
}
relax.function @main(%x: !relax.tensor<[n, 4], f32>) -> !relax.tensor<[n, 4], f32> {
  %y = relax.call_tir @double(%x) : !relax.tensor<[n, 4], f32>
  relax.return %y
}
relax.function @folded() -> !relax.tensor<[2, 4], f32> {
  %c = relax.constant dense<[2, 4], f32, 1.5> : !relax.tensor<[2, 4], f32>
  %y = relax.call_tir @double(%c) : !relax.tensor<[2, 4], f32>
  relax.return %y
}
"""


def load_call_tir() -> ModuleOp:
    """The module of CALL_TIR."""
    ctx = Context()
    for dialect in (builtin.Builtin, func.Func, arith.Arith, linalg.Linalg, Relax):
        ctx.load_dialect(dialect)
    return parse_module(ctx, CALL_TIR, "call_tir.mlir")


@pytest.fixture
def unwired(monkeypatch: pytest.MonkeyPatch) -> None:
    """No executor of call_tir targets is wired (as for a Python program that wires none)."""
    monkeypatch.setattr(tir_executor, "_wired", None)


def test_reference_interpreter_call_tir() -> None:
    """The reference interpreter runs call_tir through the executor it is given."""
    x = np.arange(8, dtype=np.float32).reshape(2, 4)
    result = Machine(load_call_tir(), tir=LoweredTIRExecutor()).run("main", x)
    np.testing.assert_array_equal(result, 2 * x)


def test_wired_executor_serves_the_interpreter(unwired: None) -> None:
    wire_tir_executor()
    x = np.arange(8, dtype=np.float32).reshape(2, 4)
    np.testing.assert_array_equal(run_relax(load_call_tir(), "main", x), 2 * x)


def test_unwired_call_tir_fails_at_the_call_naming_the_fix(unwired: None) -> None:
    module = load_call_tir()
    with pytest.raises(RelaxRuntimeError) as error:
        run_relax(module, "main", np.zeros((2, 4), np.float32))
    assert error.value.message == f"relax.call_tir @double: {UNWIRED}"
    assert error.value.where is next(op for op in module.walk() if op.name == "relax.call_tir")
    assert "relax_xdsl.lowering.wire_tir_executor()" in UNWIRED


def test_fold_constant_folds_call_tir_once_wired(unwired: None) -> None:
    unfolded = load_call_tir()
    FoldConstantPass().apply(Context(), unfolded)  # pyright: ignore[reportArgumentType]
    assert sum(op.name == "relax.call_tir" for op in unfolded.walk()) == 2
    wire_tir_executor()
    folded = load_call_tir()
    FoldConstantPass().apply(Context(), folded)  # pyright: ignore[reportArgumentType]
    assert sum(op.name == "relax.call_tir" for op in folded.walk()) == 1


def test_plain_xdsl_opt_folds_call_tir(tmp_path: Path) -> None:
    """The ``xdsl.universe`` entry point of the lowering wires the executor."""
    path = tmp_path / "call_tir.mlir"
    path.write_text(CALL_TIR)
    xdsl_opt = Path(sys.executable).with_name("xdsl-opt")
    done = subprocess.run(
        [str(xdsl_opt), str(path), "-p", "relax-fold-constant"],
        capture_output=True,
        text=True,
        check=True,
    )
    assert done.stdout.count("relax.call_tir") == 1
