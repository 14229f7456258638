"""tensor in the lowered interpreter against NumPy slicing and reshaping."""

from __future__ import annotations

import numpy as np
from interpreter_harness import run

A = np.arange(24, dtype=np.float32).reshape(4, 6)


def test_slices_static_dynamic_strided_and_rank_reducing() -> None:
    source = """
    func.func @f(%a: tensor<4x6xf32>, %o: index, %s: index) -> (tensor<2x3xf32>, tensor<?xf32>, tensor<4x6xf32>) {
      %b = tensor.extract_slice %a[1, 0] [2, 3] [2, 2] : tensor<4x6xf32> to tensor<2x3xf32>
      %r = tensor.extract_slice %a[2, %o] [1, %s] [1, 1] : tensor<4x6xf32> to tensor<?xf32>
      %p = tensor.insert_slice %b into %a[0, %o] [2, 3] [3, 1] : tensor<2x3xf32> into tensor<4x6xf32>
      func.return %b, %r, %p : tensor<2x3xf32>, tensor<?xf32>, tensor<4x6xf32>
    }
    """
    block, row, patched = run(source, "f", A, 1, 4)
    np.testing.assert_array_equal(block, A[1:4:2, 0:6:2])
    np.testing.assert_array_equal(row, A[2, 1:5])
    expected = A.copy()
    expected[0:4:3, 1:4] = A[1:4:2, 0:6:2]
    np.testing.assert_array_equal(patched, expected)
    assert not np.shares_memory(patched, A)


def test_reshapes_and_concat() -> None:
    source = """
    func.func @f(%a: tensor<4x6xf32>, %d: tensor<?x6xf32>, %n: index, %shape: tensor<3xindex>)
        -> (tensor<24xf32>, tensor<?x2x6xf32>, tensor<2x3x4xf32>, tensor<8x6xf32>) {
      %c = tensor.collapse_shape %a [[0, 1]] : tensor<4x6xf32> into tensor<24xf32>
      %e = tensor.expand_shape %d [[0, 1], [2]] output_shape [%n, 2, 6] : tensor<?x6xf32> into tensor<?x2x6xf32>
      %r = tensor.reshape %a(%shape) : (tensor<4x6xf32>, tensor<3xindex>) -> tensor<2x3x4xf32>
      %k = tensor.concat dim(0) %a, %a : (tensor<4x6xf32>, tensor<4x6xf32>) -> tensor<8x6xf32>
      func.return %c, %e, %r, %k : tensor<24xf32>, tensor<?x2x6xf32>, tensor<2x3x4xf32>, tensor<8x6xf32>
    }
    """
    flat, expanded, reshaped, joined = run(source, "f", A, A, 2, np.array([2, 3, 4]))
    np.testing.assert_array_equal(flat, A.reshape(24))
    np.testing.assert_array_equal(expanded, A.reshape(2, 2, 6))
    np.testing.assert_array_equal(reshaped, A.reshape(2, 3, 4))
    np.testing.assert_array_equal(joined, np.concatenate([A, A]))


def test_pad_with_a_constant_and_with_an_index_dependent_value() -> None:
    source = """
    func.func @f(%a: tensor<4x6xf32>, %h: index) -> (tensor<?x8xf32>, tensor<5x6xf32>) {
      %z = arith.constant -1.0 : f32
      %p = tensor.pad %a low[1, 2] high[%h, 0] {
      ^bb0(%i: index, %j: index):
        tensor.yield %z : f32
      } : tensor<4x6xf32> to tensor<?x8xf32>
      %q = tensor.pad %a low[0, 0] high[1, 0] {
      ^bb0(%i: index, %j: index):
        %v = arith.index_cast %j : index to i32
        %f = arith.sitofp %v : i32 to f32
        tensor.yield %f : f32
      } : tensor<4x6xf32> to tensor<5x6xf32>
      func.return %p, %q : tensor<?x8xf32>, tensor<5x6xf32>
    }
    """
    padded, indexed = run(source, "f", A, 3)
    np.testing.assert_array_equal(padded, np.pad(A, ((1, 3), (2, 0)), constant_values=-1))
    np.testing.assert_array_equal(indexed[:4], A)
    np.testing.assert_array_equal(indexed[4], np.arange(6))


def test_elements() -> None:
    source = """
    func.func @f(%a: tensor<?x6xf32>, %x: f32, %i: index) -> (index, f32, tensor<?x6xf32>,
        tensor<2x2xf32>, tensor<3x?xf32>, tensor<?x6xf32>, tensor<4x6xf32>) {
      %c0 = arith.constant 0 : index
      %d = tensor.dim %a, %c0 : tensor<?x6xf32>
      %e = tensor.extract %a[%i, %c0] : tensor<?x6xf32>
      %n = tensor.insert %x into %a[%i, %i] : tensor<?x6xf32>
      %m = tensor.from_elements %x, %e, %x, %e : tensor<2x2xf32>
      %s = tensor.splat %x[%i] : tensor<3x?xf32>
      %z = tensor.empty(%d) : tensor<?x6xf32>
      %c = tensor.cast %a : tensor<?x6xf32> to tensor<4x6xf32>
      func.return %d, %e, %n, %m, %s, %z, %c : index, f32, tensor<?x6xf32>, tensor<2x2xf32>,
          tensor<3x?xf32>, tensor<?x6xf32>, tensor<4x6xf32>
    }
    """
    dim, element, inserted, matrix, splat, empty, cast = run(source, "f", A, 0.5, 2)
    assert dim == 4 and element == A[2, 0] and element.dtype == np.float32
    expected = A.copy()
    expected[2, 2] = 0.5
    np.testing.assert_array_equal(inserted, expected)
    np.testing.assert_array_equal(matrix, [[0.5, A[2, 0]], [0.5, A[2, 0]]])
    np.testing.assert_array_equal(splat, np.full((3, 2), 0.5))
    assert empty.shape == (4, 6) and empty.dtype == np.float32
    np.testing.assert_array_equal(cast, A)
