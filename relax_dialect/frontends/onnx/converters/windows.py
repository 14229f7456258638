"""Sliding-window attributes that Conv, ConvTranspose and the pooling
operators share: ``kernel_shape``, ``strides``, ``dilations``, ``pads`` and
``auto_pad``."""

from __future__ import annotations

from dataclasses import dataclass

from ....prim_expr import IntImm, PrimExpr
from ....prim_expr_simplify import simplify
from ..context import NodeContext

AUTO_PADS = ("NOTSET", "SAME_UPPER", "SAME_LOWER", "VALID")


@dataclass(frozen=True)
class Window:
    """A window per spatial axis, and how it moves."""

    kernel: list[int]
    strides: list[int]
    dilations: list[int]
    pad_before: list[int]
    pad_after: list[int]

    @property
    def padding(self) -> list[int]:
        """Relax's ``padding``: every axis' before, then every axis' after."""
        return [*self.pad_before, *self.pad_after]


def per_axis(ctx: NodeContext, name: str, count: int, default: int) -> list[int]:
    """Attribute ``name``: one value per spatial axis (``default`` for each)."""
    values = list(ctx.attr(name, [default] * count))
    if len(values) != count:
        ctx.error(f"{name} has {len(values)} values, expected {count}")
    return values


def auto_pad(ctx: NodeContext) -> str:
    """The ``auto_pad`` attribute, checked."""
    mode = ctx.attr("auto_pad", "NOTSET")
    if mode not in AUTO_PADS:
        ctx.error(f"auto_pad must be one of {', '.join(AUTO_PADS)}, got '{mode}'")
    return mode


def split_total(ctx: NodeContext, total: int) -> tuple[int, int]:
    """A total padding split as ``auto_pad`` says (the odd element after the
    data for SAME_UPPER, before it for SAME_LOWER)."""
    half = total // 2
    return (half, total - half) if auto_pad(ctx) == "SAME_UPPER" else (total - half, half)


def window(ctx: NodeContext, sizes: list[PrimExpr], kernel: list[int]) -> Window:
    """The window over spatial axes of ``sizes``; SAME padding keeps
    ``ceil(size / stride)`` windows, which needs the size when the stride is
    not 1."""
    count = len(kernel)
    strides = per_axis(ctx, "strides", count, 1)
    dilations = per_axis(ctx, "dilations", count, 1)
    mode = auto_pad(ctx)
    if mode == "NOTSET":
        pads = per_axis(ctx, "pads", 2 * count, 0)
        return Window(kernel, strides, dilations, pads[:count], pads[count:])
    before, after = [0] * count, [0] * count
    if mode == "VALID":
        return Window(kernel, strides, dilations, before, after)
    for axis, (size, k, stride, dilation) in enumerate(
        zip(sizes, kernel, strides, dilations, strict=True)
    ):
        span = (k - 1) * dilation + 1
        if stride == 1:
            total = span - 1
        else:
            size = simplify(size)
            if not isinstance(size, IntImm):
                ctx.unsupported(
                    f"{mode} padding with stride {stride} on a symbolic size ({size}) "
                    "is not supported"
                )
            total = max(0, (-(-size.value // stride) - 1) * stride + span - size.value)
        before[axis], after[axis] = split_total(ctx, total)
    return Window(kernel, strides, dilations, before, after)
