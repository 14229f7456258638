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
from typing import TYPE_CHECKING

import numpy as np
from xdsl.ir import SSAValue

from ....builder import Shape
from ....dtype import BOOL, INT64
from ....types import StructInfoType, TensorType, TupleType
from ..context import NodeContext
from ..dtypes import data_type
from .registry import converter
from .values import known_rank, known_shape, normalized_axis
from .windows import per_axis

if TYPE_CHECKING:
    import onnx


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


@converter("If", since=1, control_flow=True)
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
    """Scan outputs being stacked along ``axes``: each iteration's slice before
    (``reverse``: after) the stack of the iterations after it."""

    axes: list[int]
    reverse: list[bool]

    def combine(self, ctx: NodeContext, slices: Sequence[SSAValue], rest: Sequence[SSAValue]):
        stacks = []
        for piece, later, axis, reverse in zip(slices, rest, self.axes, self.reverse, strict=True):
            piece = ctx.emit("relax.expand_dims", piece, axis=[axis])
            stacks.append(
                ctx.emit("relax.concat", [later, piece] if reverse else [piece, later], axis=axis)
            )
        return stacks

    def single(self, ctx: NodeContext, slices: Sequence[SSAValue]) -> list[SSAValue]:
        return [
            ctx.emit("relax.expand_dims", s, axis=[a])
            for s, a in zip(slices, self.axes, strict=True)
        ]

    def empty(self, ctx: NodeContext, infos: Sequence[onnx.ValueInfoProto]) -> list[SSAValue]:
        """Stacks of no slice, for the body's scan outputs ``infos`` (whose
        declared shapes must be static)."""
        stacks = []
        for info, axis in zip(infos, self.axes, strict=True):
            tensor = info.type.tensor_type
            dims = [d.dim_value if d.HasField("dim_value") else None for d in tensor.shape.dim]
            if not tensor.HasField("shape") or None in dims:
                ctx.unsupported(
                    f"the loop may run no iteration, and its scan output '{info.name}' "
                    "has no static shape declared"
                )
            dims.insert(axis, 0)
            stacks.append(ctx.const(np.zeros(dims, data_type(tensor.elem_type).to_numpy())))
        return stacks


@dataclass
class Step:
    """What one iteration computes: whether another follows, the arguments of the
    next call, the carried values and the scan slices."""

    again: SSAValue
    following: list[SSAValue]
    carried: list[SSAValue]
    slices: list[SSAValue]


def _iterate(
    ctx: NodeContext,
    params: dict[str, StructInfoType],
    outputs: list[StructInfoType],
    stacked: Stacked,
    iteration: Callable[[list[SSAValue]], Step],
) -> SSAValue:
    """A recursive local function of ``params`` that runs ``iteration`` and calls
    itself while the step says so, returning the last carried values and the
    stacked scan slices (of types ``outputs``)."""
    n_carried = len(outputs) - len(stacked.axes)
    ret = outputs[0] if len(outputs) == 1 else TupleType(outputs)
    with ctx.builder.closure(params, ret, recursive=True, name=f"{ctx.name}_step") as frame:
        itself, *args = frame.params
        step = iteration(args)

        def more() -> object:
            called = ctx.builder.invoke(itself, step.following)
            rest = _fields(ctx, called, len(outputs))
            stacks = stacked.combine(ctx, step.slices, rest[n_carried:])
            return _packed([*rest[:n_carried], *stacks])

        def last() -> object:
            return _packed([*step.carried, *stacked.single(ctx, step.slices)])

        ctx.builder.emit_func_output(ctx.builder.emit_if(step.again, more, last))
    assert frame.value is not None
    return frame.value


def _declared(ctx: NodeContext, info: onnx.ValueInfoProto, extra_axes: int) -> TensorType:
    """A subgraph output's declared element type and rank (plus ``extra_axes``)."""
    tensor = info.type.tensor_type
    if not tensor.elem_type:
        ctx.unsupported(f"the body's output '{info.name}' has no declared type")
    rank = len(tensor.shape.dim) + extra_axes if tensor.HasField("shape") else -1
    return TensorType(dtype=data_type(tensor.elem_type), ndim=rank)


def _start(
    ctx: NodeContext,
    condition: SSAValue,
    function: SSAValue,
    args: list[SSAValue],
    carried: list[SSAValue],
    stacked: Stacked,
    scan_infos: Sequence[onnx.ValueInfoProto],
) -> list[SSAValue]:
    """The first call when ``condition`` holds, else the initial values and empty
    stacks."""
    count = len(carried) + len(scan_infos)

    def first() -> object:
        return ctx.builder.invoke(function, args)

    def none() -> object:
        return _packed([*carried, *stacked.empty(ctx, scan_infos)])

    return _fields(ctx, ctx.builder.emit_if(condition, first, none), count)


def _one(ctx: NodeContext) -> SSAValue:
    return ctx.const(np.ones((), np.int64))


@converter("Loop", since=1, control_flow=True)
def loop(ctx: NodeContext) -> list[SSAValue]:
    """A recursive function running one iteration of ``body`` (iteration number,
    condition, carried values → condition, carried values, scan slices) and
    calling itself while the body's condition holds and the trip count ``M``
    (when given) is not reached."""
    graph = ctx.attr("body")
    trips, cond = ctx.optional_input(0), ctx.optional_input(1)
    carried = [ctx.input(i) for i in range(2, ctx.num_inputs)]
    n_carried = len(carried)
    scan_infos = graph.output[1 + n_carried :]
    if len(graph.input) != 2 + n_carried or len(graph.output) < 1 + n_carried:
        ctx.error("the body's inputs and outputs do not match the loop's carried values")
    if not graph.output[1:]:
        ctx.unsupported("a loop without outputs computes nothing")
    cond = ctx.const(np.ones((), np.bool_)) if cond is None else _condition(ctx, cond)
    limit = None if trips is None else ctx.emit("relax.reshape", trips, Shape(()))
    stacked = Stacked([0] * len(scan_infos), [False] * len(scan_infos))

    def running(index: SSAValue, condition: SSAValue) -> SSAValue:
        if limit is None:
            return condition
        return ctx.emit("relax.logical_and", condition, ctx.emit("relax.less", index, limit))

    def iteration(args: list[SSAValue]) -> Step:
        index = args[0]
        outputs = ctx.import_subgraph(graph, args, "body")
        again = _condition(ctx, outputs[0])
        values = list(outputs[1 : 1 + n_carried])
        following = ctx.emit("relax.add", index, _one(ctx))
        return Step(
            running(following, again), [following, again, *values], values, outputs[1 + n_carried :]
        )

    params = {"iteration": TensorType([], INT64), "cond": TensorType([], BOOL)}
    params |= {f"v{i}": _erased(ctx, v) for i, v in enumerate(carried)}
    types = [_erased(ctx, v) for v in carried] + [_declared(ctx, i, 1) for i in scan_infos]
    function = _iterate(ctx, params, types, stacked, iteration)
    zero = ctx.const(np.zeros((), np.int64))
    return _start(
        ctx, running(zero, cond), function, [zero, cond, *carried], carried, stacked, scan_infos
    )


@converter("Scan", since=9, control_flow=True)
def scan(ctx: NodeContext) -> list[SSAValue]:
    """A recursive function running ``body`` on the states and one slice of each
    scan input (``scan_input_axes``, from the end for ``scan_input_directions``
    1), once per position along the scan inputs' axis, stacking the scan output
    slices (``scan_output_axes``, ``scan_output_directions``)."""
    graph = ctx.attr("body")
    n_scans = ctx.attr("num_scan_inputs")
    inputs = [ctx.input(i) for i in range(ctx.num_inputs)]
    if not 0 < n_scans <= len(inputs):
        ctx.error(f"num_scan_inputs {n_scans} does not fit {len(inputs)} inputs")
    states, sequences = inputs[: len(inputs) - n_scans], inputs[len(inputs) - n_scans :]
    n_states = len(states)
    scan_infos = graph.output[n_states:]
    if len(graph.input) != len(inputs) or len(graph.output) < n_states:
        ctx.error("the body's inputs and outputs do not match the scan's")
    in_axes = [
        normalized_axis(ctx, a, known_rank(ctx, x, "a scan input"))
        for a, x in zip(per_axis(ctx, "scan_input_axes", n_scans, 0), sequences, strict=True)
    ]
    in_reverse = per_axis(ctx, "scan_input_directions", n_scans, 0)
    out_axes = [
        normalized_axis(ctx, a, _declared(ctx, info, 1).rank)
        for a, info in zip(
            per_axis(ctx, "scan_output_axes", len(scan_infos), 0), scan_infos, strict=True
        )
    ]
    out_reverse = per_axis(ctx, "scan_output_directions", len(scan_infos), 0)
    stacked = Stacked(out_axes, [bool(r) for r in out_reverse])
    length = known_shape(ctx, sequences[0], "a scan input")[in_axes[0]]
    steps = ctx.emit(
        "relax.reshape", ctx.emit("relax.shape_to_tensor", Shape((length,))), Shape(())
    )
    last = ctx.emit("relax.subtract", steps, _one(ctx))

    def iteration(args: list[SSAValue]) -> Step:
        index, *values = args
        backwards = ctx.emit("relax.subtract", last, index)
        slices = [
            ctx.emit("relax.take", x, backwards if reverse else index, axis=axis)
            for x, axis, reverse in zip(sequences, in_axes, in_reverse, strict=True)
        ]
        outputs = ctx.import_subgraph(graph, [*values, *slices], "body")
        following = ctx.emit("relax.add", index, _one(ctx))
        again = ctx.emit("relax.less", following, steps)
        carried = list(outputs[:n_states])
        return Step(again, [following, *carried], carried, outputs[n_states:])

    params = {"iteration": TensorType([], INT64)}
    params |= {f"v{i}": _erased(ctx, v) for i, v in enumerate(states)}
    types = [_erased(ctx, v) for v in states] + [_declared(ctx, i, 1) for i in scan_infos]
    function = _iterate(ctx, params, types, stacked, iteration)
    zero = ctx.const(np.zeros((), np.int64))
    started = ctx.emit("relax.less", zero, steps)
    return _start(ctx, started, function, [zero, *states], states, stacked, scan_infos)
