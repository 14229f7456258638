"""The operators of TVM's op.cc in the interpreter: shapes, print/assert, closures,
in-place calls."""

from __future__ import annotations

import numpy as np
import pytest
from operator_harness import load

from relax_dialect.interpreter import PackedRegistry, RelaxRuntimeError, run
from relax_dialect.numerics.core import format_values
from relax_dialect.values import NULL, ShapeValue

SHAPES = """
relax.function @main(%x: !relax.tensor<[n, m], f32>) -> !relax.tuple<shape<[n, m]>, tensor<[], i64>, tensor<[2], i64>, shape<ndim = 2>, object> {
  %s = relax.shape_of %x
  %size = relax.size %x
  %t = relax.shape_to_tensor %s
  %back = relax.tensor_to_shape %t
  %null = relax.null_value
  %r = relax.tuple(%s, %size, %t, %back, %null)
  relax.return %r
}
"""


@pytest.mark.parametrize(("n", "m"), [(1, 1), (2, 5), (7, 3)])
def test_shape_operators(n: int, m: int) -> None:
    shape, size, tensor, back, null = run(load(SHAPES), "main", np.zeros((n, m), np.float32))  # pyright: ignore
    assert shape == ShapeValue((n, m)) and back == ShapeValue((n, m))
    assert size.dtype == np.int64 and size.shape == () and int(size) == n * m
    np.testing.assert_array_equal(tensor, [n, m])
    assert tensor.dtype == np.int64 and null is NULL


def test_print_and_assert(capsys: pytest.CaptureFixture[str]) -> None:
    module = load("""
relax.function impure @main(%x: !relax.tensor<[2], i32>, %c: !relax.tensor<[], bool>) -> !relax.tuple<> {
  %p = relax.print %x, %c {format = "x = {0}; ok: {1}"}
  %q = relax.print %x, %c
  %a = relax.assert_op %c, %x {format = "failed with {}"}
  relax.return %a
}
""")
    x = np.array([3, 4], np.int32)
    assert run(module, "main", x, np.array(True)) == ()
    assert capsys.readouterr().out == "x = [3 4]; ok: True\n[3 4] True\n"
    with pytest.raises(RelaxRuntimeError) as error:
        run(module, "main", x, np.array(False))
    assert error.value.message == "relax.assert_op: assertion failed: failed with [3 4]"


def test_format_fields_are_positional_only() -> None:
    assert format_values("{0:>4}|{0}", (1,)) == "   1|1"
    for template in ("{0.__class__}", "{x}", "{0!r}", "{:{1}}"):
        with pytest.raises(ValueError, match="unsupported format field"):
            format_values(template, (1, 2))


def test_make_closure_binds_leading_arguments() -> None:
    module = load("""
relax.function impure @main(%x: !relax.tensor<[n], f32>, %y: !relax.tensor<[n], f32>) -> !relax.tensor<[n], f32> {
  %c = relax.make_closure @scaled_add(%x) : !relax.object
  %r = relax.invoke_closure %c(%y) : !relax.tensor<[n], f32>
  %p = relax.invoke_pure_closure %c(%r) : !relax.tensor<[n], f32>
  relax.return %p
}
relax.function private @scaled_add(%a: !relax.tensor<[k], f32>, %b: !relax.tensor<[k], f32>) -> !relax.tensor<[k], f32> {
  %s = relax.add %a, %b : !relax.tensor<[k], f32>
  relax.return %s
}
""")
    x, y = np.arange(3, dtype=np.float32), np.ones(3, np.float32)
    np.testing.assert_array_equal(run(module, "main", x, y), 2 * x + y)  # pyright: ignore
    with pytest.raises(RelaxRuntimeError) as error:
        run(module, "main", x, np.ones(4, np.float32))
    assert error.value.message == "@main: argument 1: dimension n bound to 3, got 4"


def test_invoke_closure_checks_the_declared_result() -> None:
    module = load("""
relax.function impure @main(%x: !relax.tensor<[n], f32>) -> !relax.object {
  %c = relax.make_closure @identity() : !relax.object
  %r = relax.invoke_closure %c(%x) : !relax.tensor<[5], f32>
  relax.return %r
}
relax.function private @identity(%a: !relax.tensor<[k], f32>) -> !relax.tensor<[k], f32> {
  relax.return %a
}
""")
    assert run(module, "main", np.ones(5, np.float32)).shape == (5,)  # pyright: ignore
    with pytest.raises(RelaxRuntimeError) as error:
        run(module, "main", np.ones(2, np.float32))
    assert error.value.message == (
        "relax.invoke_closure: the result does not match its declared type: "
        "dimension 0 is 2, expected 5"
    )


def test_call_tir_inplace_mutates_its_argument() -> None:
    module = load("""
relax.function @main(%x: !relax.tensor<[n], f32>, %y: !relax.tensor<[n], f32>) -> !relax.tuple<tensor<[n], f32>, tensor<[n], f32>> {
  %r = relax.call_tir_inplace @add_into(%x, %y) {inplace_indices = [0, -1]} : !relax.tuple<tensor<[n], f32>, tensor<[n], f32>>
  relax.return %r
}
func.func @add_into(%x: tensor<?xf32>, %y: tensor<?xf32>, %acc: tensor<?xf32>, %copy: tensor<?xf32>) -> (tensor<?xf32>, tensor<?xf32>) {
  %sum = linalg.add ins(%acc, %y : tensor<?xf32>, tensor<?xf32>) outs(%acc : tensor<?xf32>) -> tensor<?xf32>
  %same = linalg.add ins(%y, %y : tensor<?xf32>, tensor<?xf32>) outs(%copy : tensor<?xf32>) -> tensor<?xf32>
  func.return %sum, %same : tensor<?xf32>, tensor<?xf32>
}
""")
    x, y = np.array([1.0, 2.0], np.float32), np.array([10.0, 20.0], np.float32)
    original = x.copy()
    first, second = run(module, "main", x, y)  # pyright: ignore
    assert first is x
    np.testing.assert_array_equal(x, original + y)
    np.testing.assert_array_equal(second, 2 * y)


def test_call_inplace_packed() -> None:
    module = load("""
relax.function @main(%x: !relax.tensor<[n], f32>) -> !relax.tensor<[n], f32> {
  %r = relax.call_inplace_packed "test.double"(%x) {inplace_indices = [0]} : !relax.tensor<[n], f32>
  relax.return %r
}
""")
    registry = PackedRegistry()

    def double(tensor: np.ndarray) -> np.ndarray:
        tensor *= 2
        return tensor

    registry.register("test.double", double)
    x = np.array([1.0, 3.0], np.float32)
    assert run(module, "main", x, packed=registry) is x
    np.testing.assert_array_equal(x, [2.0, 6.0])
