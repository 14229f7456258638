"""Control flow: ``If`` → ``relax.if``; ``Loop`` and ``Scan`` → recursive local
functions (``relax.lambda recursive``), one call per iteration.

A subgraph is converted where it runs (a branch, the function's body), seeing
the enclosing graphs' names, which the local function captures. A loop-carried
value may change its shape from one iteration to the next, so the function's
parameters keep only each value's rank and data type. The iteration's scan
outputs are stacked along a new first axis (``Loop``; ``Scan``: its
``scan_output_axes``), each iteration prepending its slice to the slices of the
iterations after it; a loop that may run no iteration needs the slices' shape
before running the body, so it must be static.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
from xdsl.ir import SSAValue

from ....builder import Shape
from ....dtype import BOOL, INT64
from ....types import StructInfoType, TensorType, TupleType
from ..context import NodeContext
from ..dtypes import data_type
from .registry import converter


def _condition(ctx: NodeContext, value: SSAValue) -> SSAValue:
    """A one-element ``bool`` tensor as the 0-d tensor ``relax.if`` tests."""
    if ctx.rank(value) != 0:
        value = ctx.emit("relax.reshape", value, Shape(()))
    if ctx.tensor_type(value).data_type != BOOL:
        value = ctx.emit("relax.astype", value, dtype=BOOL)
    return value


def _packed(outputs: Sequence[SSAValue]) -> SSAValue | list[SSAValue]:
    """One value, or several as a tuple."""
    return outputs[0] if len(outputs) == 1 else list(outputs)


def _fields(ctx: NodeContext, value: SSAValue, count: int) -> list[SSAValue]:
    """The ``count`` values of a result (a tuple when there are several)."""
    if count == 1:
        return [value]
    return [ctx.builder.tuple_get_item(value, i) for i in range(count)]


@converter("If", since=1)
def if_(ctx: NodeContext) -> list[SSAValue]:
    """``relax.if`` whose branches are the ``then_branch`` and ``else_branch``
    subgraphs; their outputs' types are joined."""
    then_graph, else_graph = ctx.attr("then_branch"), ctx.attr("else_branch")
    if len(then_graph.output) != len(else_graph.output):
        ctx.error("the branches have different numbers of outputs")
    cond = _condition(ctx, ctx.input(0))

    def branch(graph, name: str) -> Callable[[], object]:
        return lambda: _packed(ctx.import_subgraph(graph, [], name))

    result = ctx.builder.emit_if(
        cond, branch(then_graph, "then_branch"), branch(else_graph, "else_branch")
    )
    return _fields(ctx, result, len(then_graph.output))


def _erased(ctx: NodeContext, value: SSAValue, extra_axes: int = 0) -> TensorType:
    """A tensor's type keeping its rank (plus ``extra_axes``) and data type."""
    sinfo = ctx.tensor_type(value)
    rank = sinfo.rank
    return TensorType(dtype=sinfo.data_type, ndim=rank + extra_axes if rank >= 0 else rank)


@dataclass
class Stacked:
    """Scan outputs being stacked: each iteration's slices, then all of them."""

    axes: list[int]

    def prepend(self, ctx: NodeContext, slices: Sequence[SSAValue], rest: Sequence[SSAValue]):
        """Each slice, given its new axis, before the stack of later iterations."""
        return [
            ctx.emit("relax.concat", [ctx.emit("relax.expand_dims", s, axis=[a]), r], axis=a)
            for s, r, a in zip(slices, rest, self.axes, strict=True)
        ]

    def single(self, ctx: NodeContext, slices: Sequence[SSAValue]) -> list[SSAValue]:
        return [
            ctx.emit("relax.expand_dims", s, axis=[a])
            for s, a in zip(slices, self.axes, strict=True)
        ]

    def empty(self, ctx: NodeContext, slices: Sequence[SSAValue]) -> list[SSAValue]:
        """Stacks of no slice: ``slices`` (a run's) must have static shapes."""
        stacks = []
        for value, axis in zip(slices, self.axes, strict=True):
            dims = ctx.shape(value)
            if dims is None or not all(isinstance(d, int) for d in dims):
                ctx.unsupported(
                    "a loop that may run no iteration needs scan outputs of static shape"
                )
            shape = list(dims)
            shape.insert(axis, 0)
            dtype = ctx.tensor_type(value).data_type.to_numpy()
            stacks.append(ctx.const(np.zeros(shape, dtype)))
        return stacks


def _recursive(
    ctx: NodeContext,
    params: dict[str, StructInfoType],
    ret: StructInfoType,
    body: Callable[[SSAValue, list[SSAValue]], SSAValue],
) -> SSAValue:
    """A recursive local function of ``params`` returning ``ret``; ``body(self,
    params)`` builds what it returns."""
    with ctx.builder.closure(params, ret, recursive=True, name=f"{ctx.name}_step") as frame:
        itself, *args = frame.params
        ctx.builder.emit_func_output(body(itself, args))
    assert frame.value is not None
    return frame.value


@converter("Loop", since=1)
def loop(ctx: NodeContext) -> list[SSAValue]:
    """A recursive function running one iteration of ``body`` (iteration number,
    condition, carried values → condition, carried values, scan slices) and
    calling itself while the body's condition holds and the trip count ``M``
    (when given) is not reached."""
    graph = ctx.attr("body")
    trips = ctx.optional_input(0)
    cond = ctx.optional_input(1)
    carried = [ctx.input(i) for i in range(2, ctx.num_inputs)]
    n_carried = len(carried)
    n_scans = len(graph.output) - 1 - n_carried
    if len(graph.input) != 2 + n_carried or n_scans < 0:
        ctx.error("the body's inputs and outputs do not match the loop's carried values")
    zero = ctx.const(np.zeros((), np.int64))
    true = ctx.const(np.ones((), np.bool_))
    cond = true if cond is None else _condition(ctx, cond)
    limit = None if trips is None else ctx.emit("relax.reshape", trips, Shape(()))
    total = n_carried + n_scans
    if total == 0:
        ctx.unsupported("a loop without outputs does nothing observable")
    slices_seen: list[SSAValue] = []
    stacked = Stacked([0] * n_scans)

    def running(index: SSAValue, condition: SSAValue) -> SSAValue:
        if limit is None:
            return condition
        return ctx.emit("relax.logical_and", condition, ctx.emit("relax.less", index, limit))

    def step(itself: SSAValue, args: list[SSAValue]) -> SSAValue:
        index, condition, *values = args
        outputs = ctx.import_subgraph(graph, [index, condition, *values], "body")
        keep_going = _condition(ctx, outputs[0])
        new_values = list(outputs[1 : 1 + n_carried])
        slices = list(outputs[1 + n_carried :])
        slices_seen.extend(slices)
        following = ctx.emit("relax.add", index, ctx.const(np.ones((), np.int64)))

        def more() -> object:
            rest = _fields(
                ctx, ctx.builder.invoke(itself, [following, keep_going, *new_values]), total
            )
            return _packed([*rest[:n_carried], *stacked.prepend(ctx, slices, rest[n_carried:])])

        def done() -> object:
            return _packed([*new_values, *stacked.single(ctx, slices)])

        return ctx.builder.emit_if(running(following, keep_going), more, done)

    params = {"iteration": TensorType([], INT64), "cond": TensorType([], BOOL)}
    params |= {f"v{i}": _erased(ctx, v) for i, v in enumerate(carried)}
    ret = _loop_return(ctx, graph, carried, n_scans)
    function = _recursive(ctx, params, ret, step)

    def first() -> object:
        return ctx.builder.invoke(function, [zero, cond, *carried])

    def none() -> object:
        return _packed([*carried, *stacked.empty(ctx, slices_seen)])

    result = ctx.builder.emit_if(running(zero, cond), first, none)
    return _fields(ctx, result, total)


def _loop_return(ctx: NodeContext, graph, carried: list[SSAValue], n_scans: int) -> StructInfoType:
    """The type of a loop's results: its carried values' ranks and data types, then
    the scan outputs' (declared by the body's graph outputs)."""
    types: list[StructInfoType] = [_erased(ctx, v) for v in carried]
    for info in graph.output[1 + len(carried) :]:
        types.append(_declared(ctx, info, 1))
    return types[0] if len(types) == 1 else TupleType(types)


def _declared(ctx: NodeContext, info, extra_axes: int) -> TensorType:
    """A subgraph output's declared element type and rank (plus ``extra_axes``)."""
    tensor = info.type.tensor_type
    if not tensor.elem_type:
        ctx.unsupported(f"the body's output '{info.name}' has no declared type")
    rank = len(tensor.shape.dim) + extra_axes if tensor.HasField("shape") else -1
    return TensorType(dtype=data_type(tensor.elem_type), ndim=rank)
