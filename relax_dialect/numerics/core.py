"""Kernels of the operators of TVM's ``op.cc``: shapes and sizes, null, print and
assert, and the device copies and hints, which are the identity here (one CPU
holds every virtual device). The closure and in-place calls run in the machine."""

from __future__ import annotations

import string

import numpy as np

from ..ops.core import (
    AssertOp,
    HintOnDeviceOp,
    NullValueOp,
    PrintOp,
    ShapeOfOp,
    ShapeToTensorOp,
    SizeOp,
    TensorToShapeOp,
    ToVDeviceOp,
)
from ..ops.operator import OperatorOp
from ..values import NULL, PrimValue, ShapeValue
from . import evaluates
from .common import Kernel


def render(value: object) -> str:
    """A value as ``relax.print`` shows it (tuples in parentheses)."""
    if isinstance(value, tuple):
        return "(" + ", ".join(render(v) for v in value) + ")"
    if isinstance(value, PrimValue):
        return str(value.value)
    return str(value)


def format_values(template: str, values: tuple[object, ...]) -> str:
    """Python-style formatting restricted to positional fields (``{}``, ``{1}``,
    with format specs): a format string from a program never reaches
    attributes or items of the values."""
    rendered = [render(v) for v in values]
    if not template:
        return " ".join(rendered)
    for _, field, spec, conversion in string.Formatter().parse(template):
        positional = field == "" or (field or "").isdigit()
        if field is not None and (not positional or conversion or "{" in (spec or "")):
            raise ValueError(f"unsupported format field '{{{field}}}' in {template!r}")
    return template.format(*rendered)


@evaluates(PrintOp)
def _print(op: OperatorOp) -> Kernel:
    template = op.attr("format")

    def show(*values: object) -> object:
        print(format_values(template, values))
        return ()

    return show


@evaluates(AssertOp)
def _assert(op: OperatorOp) -> Kernel:
    template = op.attr("format")

    def check(condition: object, *values: object) -> object:
        truth = condition.value if isinstance(condition, PrimValue) else condition
        if not bool(np.asarray(truth)):
            raise ValueError(f"assertion failed: {format_values(template, values)}")
        return ()

    return check


@evaluates(NullValueOp)
def _null_value(op: OperatorOp) -> Kernel:
    return lambda: NULL


@evaluates(ShapeOfOp)
def _shape_of(op: OperatorOp) -> Kernel:
    return lambda tensor: ShapeValue(tuple(tensor.shape))


@evaluates(SizeOp)
def _size(op: OperatorOp) -> Kernel:
    return lambda tensor: np.array(tensor.size, dtype=np.int64)


@evaluates(TensorToShapeOp)
def _tensor_to_shape(op: OperatorOp) -> Kernel:
    def convert(tensor: np.ndarray) -> ShapeValue:
        if tensor.ndim != 1 or tensor.dtype.kind not in "iu":
            raise ValueError(f"expected a 1-d integer tensor, got shape {list(tensor.shape)}")
        return ShapeValue(tuple(int(v) for v in tensor))

    return convert


@evaluates(ShapeToTensorOp)
def _shape_to_tensor(op: OperatorOp) -> Kernel:
    return lambda shape: np.array(shape.dims, dtype=np.int64)


@evaluates(ToVDeviceOp, HintOnDeviceOp)
def _on_device(op: OperatorOp) -> Kernel:
    return lambda tensor: tensor
