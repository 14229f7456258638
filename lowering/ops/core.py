"""Operators of TVM's ``op.cc`` with a lowered form: shapes and sizes as ``index``
values and ``i64`` tensors, and ``relax.assert_op`` with a message known at compile
time as ``cf.assert``.

``shape_of`` gives the tensor's sizes (its symbolic dimensions, else
``tensor.dim``); ``tensor_to_shape`` extracts each element of a 1-d integer tensor
of static length at run time; ``shape_to_tensor`` and ``size`` build ``i64``
tensors with ``tensor.from_elements``. The null object, ``relax.print`` and an
assertion formatting run-time values have no lowered form: a located error.
``to_vdevice`` and ``hint_on_device`` are an identity ``tensor.cast`` carrying the
placement as an attribute (``relax.vdevice``, ``relax.device_hint``): the lowered
program runs on one device.
"""

from __future__ import annotations

import string
from collections.abc import Sequence
from typing import NoReturn

from xdsl.dialects import arith, tensor
from xdsl.dialects.builtin import DictionaryAttr, StringAttr, TensorType, i64
from xdsl.ir import SSAValue

from relax_dialect.numerics.core import format_values
from relax_dialect.ops import core as ops
from relax_dialect.ops.operator import OperatorOp
from relax_dialect.types import ShapeType
from relax_dialect.types import TensorType as RelaxTensor

from ..lowerer import Lowerer
from . import lowers
from .common import extract, to_index


def _tensor_dims(lw: Lowerer, op: OperatorOp, value: SSAValue) -> list[SSAValue]:
    sinfo = value.type
    if not isinstance(sinfo, RelaxTensor) or sinfo.rank < 0:
        lw.error(op, "the rank of the tensor is unknown")
    return lw.dims(value)


def _i64_tensor(lw: Lowerer, sizes: Sequence[SSAValue], shape: list[int]) -> SSAValue:
    """The ``index`` values ``sizes`` as an ``i64`` tensor of static ``shape``."""
    type = TensorType(i64, shape)
    if not sizes:
        return lw.make(tensor.EmptyOp, [], type)
    elements = [lw.make(arith.IndexCastOp, s, i64) for s in sizes]
    return lw.emit_value(tensor.FromElementsOp(*elements, result_type=type))


@lowers(ops.ShapeOfOp)
def lower_shape_of(lw: Lowerer, op: ops.ShapeOfOp) -> list[SSAValue]:
    return _tensor_dims(lw, op, op.tensor)


@lowers(ops.SizeOp)
def lower_size(lw: Lowerer, op: ops.SizeOp) -> SSAValue:
    return _i64_tensor(lw, [lw.product(_tensor_dims(lw, op, op.tensor))], [])


@lowers(ops.TensorToShapeOp)
def lower_tensor_to_shape(lw: Lowerer, op: ops.TensorToShapeOp) -> list[SSAValue]:
    sinfo, result = op.tensor.type, lw.result_sinfo
    assert isinstance(sinfo, RelaxTensor)
    if not isinstance(result, ShapeType) or result.rank < 0:
        lw.error(op, "the length of the tensor must be static")
    if sinfo.data_type.is_float or sinfo.data_type.is_bool:
        lw.error(op, f"expected an integer tensor, got data type {sinfo.data_type}")
    source = lw.lowered(op.tensor)[0]
    return [
        to_index(lw, extract(lw, source, [lw.constant_index(i)]), sinfo.data_type)
        for i in range(result.rank)
    ]


@lowers(ops.ShapeToTensorOp)
def lower_shape_to_tensor(lw: Lowerer, op: ops.ShapeToTensorOp) -> SSAValue:
    sizes = lw.lowered(op.shape)
    return _i64_tensor(lw, sizes, [len(sizes)])


@lowers(ops.AssertOp)
def lower_assert(lw: Lowerer, op: ops.AssertOp) -> list[SSAValue]:
    template: str = op.attr("format")
    shown = list(op.values)[1:]
    fields = [f for _, f, _, _ in string.Formatter().parse(template) if f is not None]
    if shown and (fields or not template):
        lw.error(op, "an assertion message formatting run-time values cannot be lowered")
    try:
        message = format_values(template, ())
    except (ValueError, IndexError) as error:
        lw.error(op, f"the assertion message cannot be formatted: {error}")
    condition = lw.lowered(op.values[0])[0]
    if isinstance(condition.type, TensorType):
        condition = extract(lw, condition, [])
    lw.check(condition, op, f"assertion failed: {message}")
    return []


@lowers(ops.NullValueOp, ops.PrintOp)
def lower_unsupported(lw: Lowerer, op: OperatorOp) -> NoReturn:
    what = "the null object" if isinstance(op, ops.NullValueOp) else "printing"
    lw.error(op, f"{op.name} cannot be lowered: {what} has no lowered form")


@lowers(ops.ToVDeviceOp, ops.HintOnDeviceOp)
def lower_on_device(lw: Lowerer, op: ops.ToVDeviceOp | ops.HintOnDeviceOp) -> SSAValue:
    value = lw.operand(op, 0)
    copy = lw.emit(tensor.CastOp(value, value.type))
    if isinstance(op, ops.ToVDeviceOp):
        copy.attributes["relax.vdevice"] = StringAttr(str(op.destination))
    else:
        placement = {name: op.properties[name] for name in ("device_type", "index")}
        copy.attributes["relax.device_hint"] = DictionaryAttr(
            placement | {"memory_scope": StringAttr(op.attr("memory_scope"))}
        )
    return copy.results[0]
