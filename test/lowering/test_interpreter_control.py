"""scf, cf and func in the lowered interpreter; arguments, errors, external functions,
and the same kernels run by xDSL's Interpreter."""

from __future__ import annotations

import re

import numpy as np
import pytest
from interpreter_harness import run, run_xdsl

from relax_xdsl.lowering.interpreter import LoweredCheckError, LoweredExecutionError

LOOPS = """
func.func @loops(%n: index) -> (index, i32, index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %sum = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %c0) -> (index) {
    %t = arith.addi %acc, %i : index
    scf.yield %t : index
  }
  %one = arith.constant 1 : i32
  %limit = arith.constant 1000 : i32
  %doubled = scf.while (%v = %one) : (i32) -> i32 {
    %go = arith.cmpi slt, %v, %limit : i32
    scf.condition(%go) %v : i32
  } do {
  ^bb0(%v: i32):
    %w = arith.addi %v, %v : i32
    scf.yield %w : i32
  }
  %small = arith.cmpi ult, %n, %c1 : index
  %picked = scf.if %small -> (index) {
    scf.yield %c1 : index
  } else {
    %m = arith.muli %n, %n : index
    scf.yield %m : index
  }
  func.return %sum, %doubled, %picked : index, i32, index
}
"""


def test_loops_and_branches() -> None:
    assert run(LOOPS, "loops", 5) == [10, 1024, 25]
    assert run(LOOPS, "loops", 0) == [0, 1024, 1]
    assert list(run_xdsl(LOOPS, "loops", np.int64(5))) == [10, 1024, 25]


SWITCH = """
func.func @switch(%x: index) -> (i32, i32) {
  %r = scf.index_switch %x -> i32
  case 2 {
    %c = arith.constant 20 : i32
    scf.yield %c : i32
  }
  default {
    %c = arith.constant -1 : i32
    scf.yield %c : i32
  }
  %s = scf.execute_region -> i32 {
    %c = arith.constant 7 : i32
    scf.yield %c : i32
  }
  func.return %r, %s : i32, i32
}
func.func @blocks(%x: i32) -> i32 {
  %zero = arith.constant 0 : i32
  %neg = arith.cmpi slt, %x, %zero : i32
  cf.cond_br %neg, ^negative(%x : i32), ^done(%x : i32)
^negative(%v: i32):
  %m = arith.subi %zero, %v : i32
  cf.br ^done(%m : i32)
^done(%r: i32):
  func.return %r : i32
}
"""


def test_switch_execute_region_and_blocks() -> None:
    assert run(SWITCH, "switch", 2) == [20, 7]
    assert run(SWITCH, "switch", 3) == [-1, 7]
    assert run(SWITCH, "blocks", -4) == [4]
    assert run(SWITCH, "blocks", 9) == [9]
    assert list(run_xdsl(SWITCH, "blocks", np.int32(-4))) == [4]


CALLS = """
func.func @fact(%n: i64) -> i64 {
  %one = arith.constant 1 : i64
  %base = arith.cmpi sle, %n, %one : i64
  %r = scf.if %base -> (i64) {
    scf.yield %one : i64
  } else {
    %m = arith.subi %n, %one : i64
    %f = func.call @fact(%m) : (i64) -> i64
    %p = arith.muli %n, %f : i64
    scf.yield %p : i64
  }
  func.return %r : i64
}
func.func private @host_scale(tensor<?xf32>, f32) -> tensor<?xf32>
func.func @scaled(%a: tensor<?xf32>, %k: f32) -> tensor<?xf32> {
  %r = func.call @host_scale(%a, %k) : (tensor<?xf32>, f32) -> tensor<?xf32>
  func.return %r : tensor<?xf32>
}
func.func @checked(%a: tensor<?xf32>) -> tensor<?xf32> {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %a, %c0 : tensor<?xf32>
  %c3 = arith.constant 3 : index
  %ok = arith.cmpi eq, %n, %c3 : index
  cf.assert %ok, "model.mlir:3:5: dimension 0 of %a must be 3"
  %s = tensor.cast %a : tensor<?xf32> to tensor<3xf32>
  %back = tensor.cast %s : tensor<3xf32> to tensor<?xf32>
  func.return %back : tensor<?xf32>
}
"""


def test_recursion_external_functions_and_asserts() -> None:
    assert run(CALLS, "fact", 20) == [2432902008176640000]
    a = np.array([1.0, 2.0], np.float32)
    (scaled,) = run(CALLS, "scaled", a, 3.0, host_scale=lambda t, k: t * k)
    np.testing.assert_array_equal(scaled, [3.0, 6.0])
    with pytest.raises(LoweredExecutionError, match="@host_scale is an external declaration"):
        run(CALLS, "scaled", a, 3.0)
    with pytest.raises(LoweredCheckError) as failure:
        run(CALLS, "checked", a)
    assert str(failure.value) == "model.mlir:3:5: dimension 0 of %a must be 3"
    (same,) = run(CALLS, "checked", np.ones(3, np.float32))
    np.testing.assert_array_equal(same, np.ones(3))


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ([np.ones(2, np.float64)], "argument 0 of @checked has dtype float64"),
        ([np.ones((2, 2), np.float32)], "argument 0 of @checked has rank 2"),
        ([1.5], "argument 0 of @checked = 1.5 cannot be passed as tensor<?xf32>"),
        ([], "@checked takes 1 arguments but was given 0"),
    ],
)
def test_bad_arguments(args: list[object], message: str) -> None:
    with pytest.raises(LoweredExecutionError, match="^" + re.escape(message)):
        run(CALLS, "checked", *args)


def test_unsupported_operations_are_named_before_running() -> None:
    source = """
    func.func @f(%x: index) -> index {
      "scf.parallel"(%x, %x, %x) ({
      ^bb0(%i: index):
        scf.reduce
      }) {operandSegmentSizes = array<i32: 1, 1, 1, 0>} : (index, index, index) -> ()
      func.return %x : index
    }
    """
    with pytest.raises(LoweredExecutionError, match=r"^scf\.parallel in @f is not supported"):
        run(source, "f", 1)
