"""Control flow and calls: ``while`` as a private recursive Relax function,
``case`` and ``if`` as Relax ``if``s, ``composite`` by its decomposition,
``custom_call @shape_assertion`` dropped (the symbolic dimensions carry what it
checks); any other custom call is refused by name."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np
from xdsl.ir import Operation, Region, SSAValue

from ...builder import Expr, call
from . import ops
from .convert_elementwise import element_dtype
from .converter import (
    Converter,
    converts,
    numpy_dtype,
    refuse,
    relax_type,
    result_tuple,
    tuple_type,
)


def captured(cv: Converter, op: Operation) -> list[SSAValue]:
    """The values defined outside ``op`` that its regions use (the known ones
    are made again inside)."""
    inside: set[SSAValue] = set()
    used: list[SSAValue] = []
    for region in op.regions:
        for nested in region.walk():
            inside.update(nested.results)
            for block in nested.regions:
                for b in block.blocks:
                    inside.update(b.args)
        for block in region.blocks:
            inside.update(block.args)
    for region in op.regions:
        for nested in region.walk():
            for operand in nested.operands:
                if operand not in inside and operand not in used and operand not in cv.known:
                    used.append(operand)
    return used


@converts(ops.WhileOp)
def while_(cv: Converter, op: Operation) -> Sequence[Expr]:
    cond, body = op.regions
    inits = [cv.value(o) for o in op.operands]
    outside = captured(cv, op)
    outside_values = [cv.value(v) for v in outside]
    name = cv.fresh_function_name("while")
    carried = {f"carried{i}": relax_type(v) for i, v in enumerate(inits)}
    params = carried | {f"captured{i}": relax_type(v) for i, v in enumerate(outside_values)}
    result = tuple_type(list(carried.values()))
    location = cv.bb.location
    cv.bb.declare_function(name, params, result, private=True)
    with cv.bb.function(name, params, result, private=True) as frame:
        state, extra = frame.params[: len(inits)], frame.params[len(inits) :]
        scope = dict(zip(outside, extra, strict=True))
        with cv.scope(scope | dict(zip(cond.block.args, state, strict=True))):
            (condition,) = cv.block(cond.block)
            cv.values.update(zip(body.block.args, state, strict=True))

            def again() -> Expr:
                with cv.branch():
                    following = cv.block(body.block)
                    return cv.bb.call_function(name, [*following, *extra])

            def done() -> Expr:
                return state[0] if len(state) == 1 else list(state)

            cv.bb.emit_func_output(cv.bb.emit_if(condition, again, done))
    cv.bb.location = location
    looped = cv.bb.call_function(name, [*inits, *outside_values])
    return result_tuple(cv, looped, len(inits))


def branches(cv: Converter, op: Operation, regions: Sequence[Region]) -> list[Callable[[], Expr]]:
    """A builder of each branch's value (its results, a tuple for several)."""

    def branch(region: Region) -> Callable[[], Expr]:
        def build() -> Expr:
            with cv.branch():
                results = cv.block(region.block)
            return results[0] if len(results) == 1 else list(results)

        return build

    if any(len(r.blocks) != 1 for r in regions):
        refuse(op, "has a branch that is not one block")
    return [branch(r) for r in regions]


@converts(ops.IfOp)
def if_(cv: Converter, op: Operation) -> Sequence[Expr]:
    then, otherwise = branches(cv, op, op.regions)
    chosen = cv.bb.emit_if(cv.value(op.operands[0]), then, otherwise)
    return result_tuple(cv, chosen, len(op.results))


@converts(ops.CaseOp)
def case(cv: Converter, op: Operation) -> Sequence[Expr]:
    """The branch of the index; an index out of range takes the last."""
    built = branches(cv, op, op.regions)
    if not built:
        refuse(op, "has no branch")
    index = cv.value(op.operands[0])
    dtype = numpy_dtype(element_dtype(op))

    def choose(first: int) -> Expr:
        if first == len(built) - 1:
            return built[first]()
        is_first = cv.emit(call("relax.equal", index, np.array(first, dtype)))
        return cv.bb.emit_if(is_first, built[first], lambda: choose(first + 1))

    chosen = choose(0)
    value = chosen if isinstance(chosen, SSAValue) else cv.emit(chosen)
    return result_tuple(cv, value, len(op.results))


@converts(ops.CustomCallOp)
def custom_call(cv: Converter, op: Operation) -> Sequence[Expr]:
    assert isinstance(op, ops.CustomCallOp)
    if op.target == "shape_assertion" and not op.results:
        return []
    refuse(op, f"custom call @{op.target} is not supported")


@converts(ops.CompositeOp)
def composite(cv: Converter, op: Operation) -> Sequence[Expr]:
    assert isinstance(op, ops.CompositeOp)
    if op.decomposition is None:
        refuse(op, "needs a decomposition function")
    return cv.inline(op, op.decomposition, op.operands)
