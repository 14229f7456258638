"""Closures and ``object`` values: ``relax.make_closure`` / ``relax.invoke_closure`` with a
statically known function lower to ``func.call`` with the captured values first; a value
cast to ``object`` keeps its lowered values and is checked when cast back; what cannot be
known statically is a located error."""

from __future__ import annotations

import numpy as np
import pytest
from convert_harness import (
    assert_accepted,
    compare_with_reference,
    load,
    lower,
    lowered_failure,
    lowering_error,
)
from xdsl.dialects import func

F32 = "!relax.tensor<[n, 4], f32>"


def x(n: int) -> np.ndarray:
    return np.arange(n * 4, dtype="float32").reshape(n, 4) / 7 - 1


def b() -> np.ndarray:
    return np.array([0.5, -1.0, 2.0, 0.25], dtype="float32")


def functions(text: str, pipeline: bool = True) -> dict[str, func.FuncOp]:
    """The ``func.func`` operations of the lowered program (checked by MLIR)."""
    module = lower(load(text), pipeline)
    assert_accepted(module)
    return {op.sym_name.data: op for op in module.body.block.ops if isinstance(op, func.FuncOp)}


def calls(function: func.FuncOp) -> list[tuple[str, int]]:
    """The callee and argument count of each ``func.call`` in ``function``."""
    return [
        (op.callee.root_reference.data, len(op.arguments))
        for op in function.walk()
        if isinstance(op, func.CallOp)
    ]


# --- closures --------------------------------------------------------------------------------

CLOSURE = f"""
relax.function private @shift(%s: !relax.tensor<[4], f32>, %y: {F32}) -> {F32} {{
  %z = relax.add %y, %s
  relax.return %z
}}
relax.function impure @main(%x: {F32}, %b: !relax.tensor<[4], f32>) -> {F32} {{
  %s = relax.multiply %b, %b
  %f = relax.make_closure @shift(%s) : !relax.object
  %g = relax.match_cast %f : !relax.object
  %r = relax.invoke_pure_closure %f(%x) : {F32}
  %t = relax.invoke_closure %g(%r) : {F32}
  relax.return %t
}}
"""


def test_invoked_closure_is_a_call_with_the_captured_values_first() -> None:
    lowered = functions(CLOSURE, pipeline=False)
    assert calls(lowered["main"]) == [("shift", 2), ("shift", 2)]
    call = next(op for op in lowered["main"].walk() if isinstance(op, func.CallOp))
    assert [str(a.type) for a in call.arguments] == ["tensor<4xf32>", "tensor<?x4xf32>"]


@pytest.mark.parametrize("n", [1, 3])
def test_invoked_closure_runs(n: int) -> None:
    compare_with_reference(CLOSURE, [x(n), b()])


NESTED = f"""
relax.function @main(%x: {F32}, %b: !relax.tensor<[4], f32>) -> {F32} {{
  %inner = relax.lambda (%y: {F32}) -> {F32} {{
    %z = relax.add %y, %b
    relax.return %z
  }}
  %outer = relax.lambda (%y: {F32}) -> {F32} {{
    %u = relax.invoke %inner(%y) : {F32}
    %v = relax.multiply %u, %x
    relax.return %v
  }}
  %r = relax.invoke %outer(%x) : {F32}
  %s = relax.invoke %inner(%r) : {F32}
  relax.return %s
}}
"""


def test_closure_capturing_a_closure_takes_its_captured_values() -> None:
    """``relax-lambda-lift`` gives ``@main_outer`` an ``object`` parameter for the inner
    closure; its only caller passes a closure of ``@main_inner`` capturing ``%b``, so the
    parameter lowers to ``%b``'s tensor and the invocation to a call of ``@main_inner``."""
    lowered = functions(NESTED)
    outer = lowered["main_outer"]
    assert [str(t) for t in outer.function_type.inputs] == [
        "tensor<4xf32>",
        "tensor<?x4xf32>",
        "tensor<?x4xf32>",
    ]
    assert calls(outer) == [("main_inner", 2)]
    assert calls(lowered["main"]) == [("main_outer", 3), ("main_inner", 2)]


@pytest.mark.parametrize("n", [1, 4])
def test_closure_capturing_a_closure_runs(n: int) -> None:
    compare_with_reference(NESTED, [x(n), b()])


RECURSIVE = """
relax.function @main(%x: !relax.tensor<[4], f32>, %k: !relax.tensor<[], i64>) -> !relax.tensor<[4], f32> {
  %step = relax.lambda (%y: !relax.tensor<[4], f32>) -> !relax.tensor<[4], f32> {
    %z = relax.add %y, %x
    relax.return %z
  }
  %loop = relax.lambda recursive(%self) (%y: !relax.tensor<[4], f32>, %n: !relax.tensor<[], i64>) -> !relax.tensor<[4], f32> {
    %zero = relax.constant dense<[], i64, 0>
    %c = relax.greater %n, %zero
    %r = relax.if %c : !relax.tensor<[4], f32> {
      %one = relax.constant dense<[], i64, 1>
      %m = relax.subtract %n, %one
      %s = relax.invoke %step(%y) : !relax.tensor<[4], f32>
      %t = relax.invoke %self(%s, %m) : !relax.tensor<[4], f32>
      relax.yield %t
    } else {
      relax.yield %y
    }
    relax.return %r
  }
  %r = relax.invoke %loop(%x, %k) : !relax.tensor<[4], f32>
  relax.return %r
}
"""


@pytest.mark.parametrize("k", [0, 3])
def test_recursive_closure_capturing_a_closure_runs(k: int) -> None:
    """The lifted ``@main_loop`` passes its ``object`` parameter on to itself: the
    content is what ``@main`` passes."""
    assert calls(functions(RECURSIVE)["main_loop"]) == [("main_step", 2), ("main_loop", 3)]
    compare_with_reference(RECURSIVE, [b(), np.array(k)])


SYMBOLIC = f"""
relax.function @main(%x: {F32}) -> {F32} {{
  %f = relax.lambda (%y: !relax.tensor<[4], f32>) -> {F32} {{
    %s = relax.shape [n, 4]
    %r = relax.broadcast_to %y, %s
    relax.return %r
  }}
  %c = relax.constant dense<[4], f32, [1.0, 2.0, 3.0, 4.0]>
  %r = relax.invoke %f(%c) : {F32}
  %t = relax.add %r, %x
  relax.return %t
}}
"""


@pytest.mark.parametrize("n", [1, 3])
def test_closure_capturing_a_symbolic_variable_runs(n: int) -> None:
    """The lifted function takes ``n`` as a captured ``!relax.shape<[n]>``: an ``index``."""
    lowered = functions(SYMBOLIC)
    assert [str(t) for t in lowered["main_f"].function_type.inputs] == ["index", "tensor<4xf32>"]
    compare_with_reference(SYMBOLIC, [x(n)])


STRONGER = f"""
relax.function private @shift(%s: !relax.tensor<[4], f32>, %y: {F32}) -> {F32} {{
  %z = relax.add %y, %s
  relax.return %z
}}
relax.function @main(%x: {F32}, %b: !relax.tensor<[4], f32>) -> !relax.tensor<[2, 4], f32> {{
  %f = relax.make_closure @shift(%b) : !relax.object
  %r = relax.invoke_pure_closure %f(%x) : !relax.tensor<[2, 4], f32>
  relax.return %r
}}
"""


def test_invocation_declaring_a_stronger_type_is_checked() -> None:
    compare_with_reference(STRONGER, [x(2), b()])
    assert lowered_failure(STRONGER, x(3), b()) == (
        "test.mlir:8:3: relax.invoke_pure_closure: the result does not match its declared "
        "type: dimension 0 is not 2"
    )


# --- objects ---------------------------------------------------------------------------------

ROUND_TRIP = f"""
relax.function private @helper(%o: !relax.object, %y: {F32}) -> {F32} {{
  %t = relax.match_cast %o : !relax.tensor<[k, 4], f32>
  %r = relax.subtract %y, %t : {F32}
  relax.return %r
}}
relax.function @main(%x: {F32}) -> !relax.tuple<tensor<[2, 4], f32>, {F32.removeprefix("!relax.")}> {{
  %o = relax.match_cast %x : !relax.object
  %p = relax.match_cast %o : !relax.object
  %t = relax.match_cast %p : !relax.tensor<[2, 4], f32>
  %u = relax.match_cast %p : {F32}
  %h = relax.call @helper(%o, %x) : {F32}
  %e = relax.exp %u
  %r = relax.tuple(%t, %h)
  relax.return %r
}}
"""


def test_object_round_trip_keeps_the_values_and_checks_the_cast_back() -> None:
    lowered = functions(ROUND_TRIP)
    text = assert_accepted(lower(load(ROUND_TRIP)))
    assert "test.mlir:10:3: match_cast: dimension 0 is not 2" in text
    assert "test.mlir:11:3" not in text  # %u is proven: the object holds %x, of type [n, 4]
    assert [str(t) for t in lowered["helper"].function_type.inputs] == [
        "tensor<?x?xf32>",  # @main's n is erased: only the rank is known in @helper
        "tensor<?x4xf32>",
    ]
    compare_with_reference(ROUND_TRIP, [x(2)])
    assert lowered_failure(ROUND_TRIP, x(3)) == "test.mlir:10:3: match_cast: dimension 0 is not 2"


def test_object_cast_back_to_another_data_type_is_a_located_error() -> None:
    text = f"""
relax.function @main(%x: {F32}) -> !relax.tensor<[n, 4], i32> {{
  %o = relax.match_cast %x : !relax.object
  %t = relax.match_cast %o : !relax.tensor<[n, 4], i32>
  relax.return %t
}}
"""
    assert lowering_error(text) == (
        "test.mlir:4:3: error: relax.match_cast: the value is a tensor<[n, 4], f32>, "
        "never a tensor<[n, 4], i32>"
    )


# --- what cannot be known statically ---------------------------------------------------------

TWO_CLOSURES = f"""
relax.function private @add(%s: !relax.tensor<[4], f32>, %y: {F32}) -> {F32} {{
  %z = relax.add %y, %s
  relax.return %z
}}
relax.function private @apply(%f: !relax.object, %y: {F32}) -> {F32} {{
  %r = relax.invoke_pure_closure %f(%y) : {F32}
  relax.return %r
}}
relax.function @main(%x: {F32}, %b: !relax.tensor<[4], f32>) -> {F32} {{
  %f = relax.make_closure @add(%b) : !relax.object
  %c = relax.exp %b
  %g = relax.make_closure @add(%c) : !relax.object
  %r = relax.call @apply(%f, %x) : {F32}
  %s = relax.call @apply(%g, %r) : {F32}
  relax.return %s
}}
"""


def test_closures_of_one_function_passed_to_one_parameter_share_a_lowering() -> None:
    assert calls(functions(TWO_CLOSURES)["apply"]) == [("add", 2)]
    compare_with_reference(TWO_CLOSURES, [x(3), b()])


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            # closures of two functions reach one parameter
            TWO_CLOSURES.replace("@add(%c)", "@shift(%c)")
            + f"""
relax.function private @shift(%s: !relax.tensor<[4], f32>, %y: {F32}) -> {F32} {{
  relax.return %y
}}
""",
            "test.mlir:6:31: error: @apply: argument 0: cannot be lowered: a value of type "
            "object has no lowered form",
        ),
        (
            # a closure stored in a tuple
            f"""
relax.function private @shift(%s: !relax.tensor<[4], f32>, %y: {F32}) -> {F32} {{
  relax.return %y
}}
relax.function @main(%b: !relax.tensor<[4], f32>) -> !relax.tensor<[4], f32> {{
  %f = relax.make_closure @shift(%b) : !relax.object
  %t = relax.tuple(%f, %b)
  %r = relax.tuple_get_item %t[1]
  relax.return %r
}}
""",
            "test.mlir:7:3: error: relax.tuple: an object (a closure, or a value cast to object) "
            "can only be invoked, captured by a closure, cast back with relax.match_cast or "
            "passed to a private function",
        ),
        (
            # a closure returned by a function
            f"""
relax.function private @shift(%s: !relax.tensor<[4], f32>, %y: {F32}) -> {F32} {{
  relax.return %y
}}
relax.function private @make(%b: !relax.tensor<[4], f32>) -> !relax.object {{
  %f = relax.make_closure @shift(%b) : !relax.object
  relax.return %f
}}
relax.function @main(%x: {F32}, %b: !relax.tensor<[4], f32>) -> {F32} {{
  %f = relax.call @make(%b) : !relax.object
  %r = relax.invoke_pure_closure %f(%x) : {F32}
  relax.return %r
}}
""",
            "test.mlir:5:1: error: @make: the result: cannot be lowered: a value of type object "
            "has no lowered form",
        ),
        (
            # a tensor called as a closure
            f"""
relax.function @main(%x: {F32}) -> {F32} {{
  %o = relax.match_cast %x : !relax.object
  %r = relax.invoke_pure_closure %o(%x) : {F32}
  relax.return %r
}}
""",
            "test.mlir:4:3: error: relax.invoke_pure_closure: the value called is not a closure "
            "made by relax.make_closure",
        ),
    ],
    ids=["two-functions", "tuple", "returned", "tensor"],
)
def test_object_of_unknown_content_is_a_located_error(text: str, message: str) -> None:
    assert lowering_error(text) == message
