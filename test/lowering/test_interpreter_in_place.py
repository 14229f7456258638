"""Loop-carried tensors updated in place by the lowered interpreter: which chains of
inserts qualify, and that value semantics hold whether they do or not."""

from __future__ import annotations

import numpy as np
import pytest
from interpreter_harness import parse, run, run_xdsl
from xdsl.dialects import scf, tensor

from relax_xdsl.lowering.interpreter.in_place import updated_in_place, writes_in_place

SCATTER_ADD = """
func.func @f(%data: tensor<?xf32>, %at: tensor<?xindex>, %updates: tensor<?xf32>) -> tensor<?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = tensor.dim %at, %c0 : tensor<?xindex>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%t = %data) -> (tensor<?xf32>) {
    %k = tensor.extract %at[%i] : tensor<?xindex>
    %u = tensor.extract %updates[%i] : tensor<?xf32>
    %old = tensor.extract %t[%k] : tensor<?xf32>
    %size = tensor.dim %t, %c0 : tensor<?xf32>
    %sum = arith.addf %old, %u : f32
    %t2 = tensor.insert %sum into %t[%k] : tensor<?xf32>
    scf.yield %t2 : tensor<?xf32>
  }
  func.return %r : tensor<?xf32>
}
"""

ROWS = """
func.func @f(%rows: tensor<?x3xf32>, %row: tensor<1x3xf32>) -> tensor<?x3xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = tensor.dim %rows, %c0 : tensor<?x3xf32>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%t = %rows) -> (tensor<?x3xf32>) {
    %t2 = tensor.insert_slice %row into %t[%i, 0] [1, 3] [1, 1] : tensor<1x3xf32> into tensor<?x3xf32>
    scf.yield %t2 : tensor<?x3xf32>
  }
  func.return %r : tensor<?x3xf32>
}
"""

READ_AFTER = """
func.func @f(%data: tensor<?xf32>, %x: f32) -> (tensor<?xf32>, f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %z = arith.constant 0.0 : f32
  %n = tensor.dim %data, %c0 : tensor<?xf32>
  %r, %s = scf.for %i = %c0 to %n step %c1 iter_args(%t = %data, %acc = %z) -> (tensor<?xf32>, f32) {
    %t2 = tensor.insert %x into %t[%i] : tensor<?xf32>
    %old = tensor.extract %t[%i] : tensor<?xf32>
    %sum = arith.addf %acc, %old : f32
    scf.yield %t2, %sum : tensor<?xf32>, f32
  }
  func.return %r, %s : tensor<?xf32>, f32
}
"""

SWAPPED = """
func.func @f(%a: tensor<?xf32>, %b: tensor<?xf32>, %x: f32) -> (tensor<?xf32>, tensor<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = tensor.dim %a, %c0 : tensor<?xf32>
  %r, %q = scf.for %i = %c0 to %n step %c1 iter_args(%s = %a, %t = %b) -> (tensor<?xf32>, tensor<?xf32>) {
    %s2 = tensor.insert %x into %s[%i] : tensor<?xf32>
    scf.yield %t, %s2 : tensor<?xf32>, tensor<?xf32>
  }
  func.return %r, %q : tensor<?xf32>, tensor<?xf32>
}
"""


def carried(source: str) -> list[object]:
    """Whether each tensor carried by the first ``scf.for`` of ``source`` is updated
    in place (its chain of inserts as operation names)."""
    loop = next(op for op in parse(source).walk() if isinstance(op, scf.ForOp))
    chains = [updated_in_place(arg) for arg in loop.body.block.args[1:]]
    return [None if chain is None else [op.name for op in chain] for chain in chains]


def test_which_carried_tensors_are_updated_in_place() -> None:
    assert carried(SCATTER_ADD) == [["tensor.insert"]]
    assert carried(ROWS) == [["tensor.insert_slice"]]
    assert carried(READ_AFTER) == [None, None]  # %t is read after the insert
    assert carried(SWAPPED) == [None, None]  # %s2 is yielded as the other tensor


def test_only_the_links_of_a_qualifying_chain_write_in_place() -> None:
    outside = """
    func.func @f(%a: tensor<2xf32>, %x: f32, %i: index) -> tensor<2xf32> {
      %b = tensor.insert %x into %a[%i] : tensor<2xf32>
      func.return %b : tensor<2xf32>
    }
    """
    for source, expected in ((SCATTER_ADD, True), (READ_AFTER, False), (outside, False)):
        inserts = [op for op in parse(source).walk() if isinstance(op, tensor.InsertOp)]
        assert [writes_in_place(op) for op in inserts] == [expected]


@pytest.mark.parametrize("runner", [run, run_xdsl], ids=["compiled", "xdsl"])
def test_in_place_updates_leave_the_arguments_alone(runner) -> None:
    data = np.arange(5, dtype=np.float32)
    at = np.array([4, 0, 4, 2], dtype=np.int64)
    updates = np.array([1, 2, 3, 4], dtype=np.float32)
    (result,) = runner(SCATTER_ADD, "f", data, at, updates)
    expected = data.copy()
    np.add.at(expected, at, updates)
    np.testing.assert_array_equal(result, expected)
    np.testing.assert_array_equal(data, np.arange(5, dtype=np.float32))
    (again,) = runner(SCATTER_ADD, "f", data, at, updates)  # the loop copies data each time
    np.testing.assert_array_equal(again, expected)
    rows = np.zeros((3, 3), dtype=np.float32)
    (filled,) = runner(ROWS, "f", rows, np.ones((1, 3), dtype=np.float32))
    np.testing.assert_array_equal(filled, np.ones((3, 3)))
    assert not rows.any()


def test_chains_that_do_not_qualify_keep_value_semantics() -> None:
    data = np.arange(4, dtype=np.float32)
    result, total = run(READ_AFTER, "f", data, np.float32(9))
    np.testing.assert_array_equal(result, np.full(4, 9))
    assert total == data.sum()  # each read saw the element before the insert
    a, b = np.zeros(3, dtype=np.float32), np.ones(3, dtype=np.float32)
    first, second = run(SWAPPED, "f", a, b, np.float32(7))
    expected = [[1, 7, 1], [7, 0, 7]]  # the tensors trade places every iteration
    np.testing.assert_array_equal(first, expected[0])
    np.testing.assert_array_equal(second, expected[1])
    assert not a.any() and b.all()
