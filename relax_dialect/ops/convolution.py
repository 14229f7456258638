"""Convolutions (TVM's ``nn/convolution.cc``), and what pooling and resizing
share with them: tensor layouts and sliding-window attributes.

A layout names the axes of a tensor (``NCHW``, ``NHWC``, ``OIHW``...); an
operator computes in its canonical layout (``NCHW`` data, ``OIHW`` weights) and
converts its operands and result from and to the given ones. As in TVM, a
layout may split an axis into an outer axis and a fixed-size inner one
(``NCHW4c``: the channels are ``C * 4``).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

from xdsl.dialects.builtin import DenseArrayBase, IntegerAttr, StringAttr
from xdsl.irdl import irdl_op_definition, operand_def, opt_prop_def, result_def, traits_def
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException

from ..attributes import DataTypeAttr
from ..dtype import DataType
from ..prim_expr import IntImm, PrimExpr, as_expr, call
from ..prim_expr_simplify import prove_not_equal, simplify
from ..types import StructInfoType, TensorType
from .fusion import FusionKind, OpPattern
from .inference import binary_arith_dtype
from .operator import OperatorOp, attribute_of
from .placement import Placement

# --- layouts ------------------------------------------------------------------------


@dataclass(frozen=True)
class Layout:
    """A tensor layout: one letter per axis, upper case for a primal axis and
    lower case, after its size, for the inner part of a split one (``4c``)."""

    name: str
    axes: tuple[str, ...]
    factors: tuple[int, ...]
    """The size of each inner axis; 0 for the primal ones."""

    @property
    def ndim(self) -> int:
        return len(self.axes)

    def factor(self, primal: str) -> int:
        """The size of the inner axis splitting ``primal``; 1 when it is not split."""
        inner = primal.lower()
        return self.factors[self.axes.index(inner)] if inner in self.axes else 1

    def check_rank(self, op_name: str, tensor: TensorType, what: str) -> None:
        if tensor.rank >= 0 and tensor.rank != self.ndim:
            raise VerifyException(
                f"{op_name}: layout {self.name} expects the {what} to have {self.ndim} "
                f"dimensions, got {tensor.rank}"
            )

    def to_canonical(
        self, op_name: str, dims: Sequence[PrimExpr], canonical: str, what: str
    ) -> list[PrimExpr]:
        """The dimensions of a tensor of this layout, in the ``canonical`` one."""
        for axis, factor, dim in zip(self.axes, self.factors, dims, strict=True):
            if factor and isinstance(dim, IntImm) and dim.value != factor:
                raise VerifyException(
                    f"{op_name}: axis {axis} of the {what} has size {dim.value}, "
                    f"layout {self.name} requires {factor}"
                )
        return [simplify(dims[self.axes.index(axis)] * self.factor(axis)) for axis in canonical]

    def from_canonical(self, dims: Sequence[PrimExpr], canonical: str) -> list[PrimExpr]:
        """Dimensions given in the ``canonical`` layout, in this one (an outer
        axis rounds up, as TVM's layout transforms pad)."""
        out: list[PrimExpr] = []
        for axis, factor in zip(self.axes, self.factors, strict=True):
            if factor:
                out.append(IntImm(factor))
            else:
                inner = self.factor(axis)
                dim = dims[canonical.index(axis)]
                out.append(simplify((dim + inner - 1) // inner))
        return out


_LAYOUT = re.compile(r"(?:\d*[A-Za-z])*")
_LAYOUT_AXIS = re.compile(r"(\d*)([A-Za-z])")


def parse_layout(op_name: str, name: str, canonical: str, what: str) -> Layout:
    """The ``what`` layout ``name`` (e.g. "data"), which must be a rearrangement
    of the ``canonical`` one's axes, possibly split."""
    if not _LAYOUT.fullmatch(name):
        raise VerifyException(f"{op_name}: invalid {what} layout '{name}'")
    axes: list[str] = []
    factors: list[int] = []
    for digits, axis in _LAYOUT_AXIS.findall(name):
        if axis.isupper() and digits:
            raise VerifyException(
                f"{op_name}: invalid {what} layout '{name}': a size precedes primal axis {axis}"
            )
        if axis.islower() and not int(digits or 0):
            raise VerifyException(
                f"{op_name}: invalid {what} layout '{name}': inner axis {axis} needs a "
                "positive size"
            )
        axes.append(axis)
        factors.append(int(digits or 0))
    if len(set(axes)) != len(axes):
        raise VerifyException(f"{op_name}: invalid {what} layout '{name}': repeated axis")
    primal = sorted(a for a in axes if a.isupper())
    if primal != sorted(canonical) or any(a.upper() not in axes for a in axes):
        raise VerifyException(
            f"{op_name}: the {what} layout '{name}' is not convertible to {canonical}"
        )
    return Layout(name, tuple(axes), tuple(factors))


# --- sliding-window attributes ------------------------------------------------------


def _alternatives(*counts: int) -> str:
    """``1, 2 or 4``: the distinct counts, for an error message."""
    unique = [str(c) for c in dict.fromkeys(counts)]
    return unique[0] if len(unique) == 1 else f"{', '.join(unique[:-1])} or {unique[-1]}"


def spatial_ints(op: OperatorOp, name: str, spatial: int, minimum: int) -> tuple[int, ...]:
    """Attribute ``name``: one value per spatial axis (a single value stands
    for all), each at least ``minimum``."""
    values = tuple(op.attr(name))
    if not all(isinstance(v, int) for v in values):
        raise VerifyException(f"{op.name}: {name} must be integers, got {list(values)}")
    if len(values) == 1:
        values *= spatial
    elif len(values) != spatial:
        raise VerifyException(
            f"{op.name}: {name} has {len(values)} values, expected {_alternatives(1, spatial)}"
        )
    if any(v < minimum for v in values):
        raise VerifyException(f"{op.name}: {name} must be at least {minimum}, got {list(values)}")
    return values


def spatial_padding(op: OperatorOp, spatial: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The ``padding`` attribute as (before, after) per spatial axis: one value
    for all sides, one per axis for both its sides, or all befores then all afters."""
    values = tuple(op.attr("padding"))
    if not all(isinstance(v, int) for v in values):
        raise VerifyException(f"{op.name}: padding must be integers, got {list(values)}")
    if len(values) == 1:
        values *= spatial
    if len(values) == spatial:
        return values, values
    if len(values) == 2 * spatial:
        return values[:spatial], values[spatial:]
    raise VerifyException(
        f"{op.name}: padding has {len(values)} values, expected "
        f"{_alternatives(1, spatial, 2 * spatial)}"
    )


def window_count(
    size: PrimExpr,
    window: PrimExpr | int,
    stride: int,
    dilation: int,
    pad_before: int,
    pad_after: int,
    ceil_mode: bool = False,
) -> PrimExpr:
    """How many windows fit along an axis of ``size`` elements (simplified).

    With ``ceil_mode`` a last partial window counts, unless it would start in
    the padding after the data (TVM's rule); whether it does is decided
    statically when the padding and window allow it."""
    span = size + pad_before + pad_after - dilation * (window - 1) - 1
    if not ceil_mode:
        return simplify(span // stride + 1)
    count = simplify((span + stride - 1) // stride + 1)
    # the last window starts at (count - 1) * stride, which exceeds
    # size + pad_before by slack - stride + 1 to slack
    slack = simplify(as_expr(pad_after - dilation * (window - 1) + stride - 2))
    if isinstance(slack, IntImm) and slack.value < 0:
        return count
    if isinstance(slack, IntImm) and slack.value >= stride - 1:
        return simplify(count - 1)
    starts_in_padding = call("ge", (count - 1) * stride, size + pad_before)
    return simplify(call("select", starts_in_padding, count - 1, count))


# --- convolutions -------------------------------------------------------------------


@dataclass(frozen=True)
class ConvolutionSettings:
    """A convolution's attributes, checked and completed with TVM's defaults."""

    strides: tuple[int, ...]
    pad_before: tuple[int, ...]
    pad_after: tuple[int, ...]
    dilation: tuple[int, ...]
    output_padding: tuple[int, ...]
    groups: int
    data_layout: Layout
    kernel_layout: Layout
    out_layout: Layout
    out_dtype: DataType | None

    def axes(self) -> list[tuple[int, int, int, int]]:
        """Per spatial axis: stride, dilation, padding before and after."""
        return list(zip(self.strides, self.dilation, self.pad_before, self.pad_after, strict=True))


class ConvolutionOp(OperatorOp):
    """``relax.nn.conv<k>d %data, %weight``: a convolution over ``SPATIAL``
    axes. Attributes default to TVM's: strides, dilation and groups 1, padding
    0, the canonical layouts, ``out_layout`` the data layout.
    """

    FUSION: ClassVar[FusionKind] = OpPattern.OUT_EWISE_FUSABLE
    PLACEMENT: ClassVar[Placement] = Placement.SAME

    SPATIAL: ClassVar[str]
    """The spatial axes in canonical order (``W``, ``HW``, ``DHW``)."""
    KERNEL_CHANNELS: ClassVar[str] = "OI"
    """The channel axes of the canonical weight layout."""

    data = operand_def()
    weight = operand_def()
    strides = opt_prop_def(DenseArrayBase, default_value=attribute_of((1,)))
    padding = opt_prop_def(DenseArrayBase, default_value=attribute_of((0,)))
    dilation = opt_prop_def(DenseArrayBase, default_value=attribute_of((1,)))
    groups = opt_prop_def(IntegerAttr, default_value=attribute_of(1))
    data_layout = opt_prop_def(StringAttr)
    kernel_layout = opt_prop_def(StringAttr)
    out_layout = opt_prop_def(StringAttr)
    out_dtype = opt_prop_def(DataTypeAttr)
    result = result_def()
    traits = traits_def(Pure())

    @classmethod
    def canonical_layouts(cls) -> tuple[str, str]:
        """The canonical data and weight layouts (``NCHW``, ``OIHW``)."""
        return "NC" + cls.SPATIAL, cls.KERNEL_CHANNELS + cls.SPATIAL

    def settings(self) -> ConvolutionSettings:
        spatial = len(self.SPATIAL)
        data_canonical, kernel_canonical = self.canonical_layouts()
        groups = self.attr("groups")
        if groups < 1:
            raise VerifyException(f"{self.name}: groups must be positive, got {groups}")
        data_layout = self.attr("data_layout", data_canonical)
        pad_before, pad_after = spatial_padding(self, spatial)
        return ConvolutionSettings(
            strides=spatial_ints(self, "strides", spatial, 1),
            pad_before=pad_before,
            pad_after=pad_after,
            dilation=spatial_ints(self, "dilation", spatial, 1),
            output_padding=self.output_padding_values(),
            groups=groups,
            data_layout=parse_layout(self.name, data_layout, data_canonical, "data"),
            kernel_layout=parse_layout(
                self.name, self.attr("kernel_layout", kernel_canonical), kernel_canonical, "kernel"
            ),
            out_layout=parse_layout(
                self.name, self.attr("out_layout", data_layout), data_canonical, "output"
            ),
            out_dtype=self.data_type_attr("out_dtype"),
        )

    def output_padding_values(self) -> tuple[int, ...]:
        return (0,) * len(self.SPATIAL)

    def infer_type(self) -> StructInfoType:
        settings = self.settings()
        data = self.tensor_of(self.data, "data")
        weight = self.tensor_of(self.weight, "weight")
        settings.data_layout.check_rank(self.name, data, "data")
        settings.kernel_layout.check_rank(self.name, weight, "weight")
        dtype = settings.out_dtype or binary_arith_dtype(self.name, data, weight)
        if data.dims is None or weight.dims is None:
            return TensorType(dtype=dtype, ndim=settings.out_layout.ndim)
        data_canonical, kernel_canonical = self.canonical_layouts()
        batch, channels, *sizes = settings.data_layout.to_canonical(
            self.name, data.dims, data_canonical, "data"
        )
        first, second, *kernel = settings.kernel_layout.to_canonical(
            self.name, weight.dims, kernel_canonical, "weight"
        )
        out_channels = self.check_channels(channels, first, second, settings.groups)
        out_sizes = [
            self.output_size(settings, index, size, window)
            for index, (size, window) in enumerate(zip(sizes, kernel, strict=True))
        ]
        dims = settings.out_layout.from_canonical([batch, out_channels, *out_sizes], data_canonical)
        return TensorType(dims, dtype)

    def check_channels(
        self, channels: PrimExpr, out_channels: PrimExpr, in_channels: PrimExpr, groups: int
    ) -> PrimExpr:
        """Check the channel counts (canonical weight ``O, I``); the output's."""
        if prove_not_equal(channels, simplify(in_channels * groups)):
            raise VerifyException(
                f"{self.name}: the data has {channels} channels, expected {in_channels} "
                f"(weight input channels) * {groups} (groups)"
            )
        if prove_not_equal(simplify(out_channels % groups), IntImm(0)):
            raise VerifyException(
                f"{self.name}: {out_channels} output channels are not divisible by {groups} groups"
            )
        return out_channels

    def output_size(
        self, settings: ConvolutionSettings, index: int, size: PrimExpr, window: PrimExpr
    ) -> PrimExpr:
        """The output size along spatial axis ``index``."""
        return window_count(size, window, *settings.axes()[index])


class TransposedConvolutionOp(ConvolutionOp):
    """``relax.nn.conv<k>d_transpose %data, %weight``: the gradient of a
    convolution with respect to its data; ``output_padding`` (default 0, less
    than the strides) adds rows at the end of each spatial axis.
    """

    KERNEL_CHANNELS: ClassVar[str] = "IO"

    output_padding = opt_prop_def(DenseArrayBase, default_value=attribute_of((0,)))

    def output_padding_values(self) -> tuple[int, ...]:
        strides = spatial_ints(self, "strides", len(self.SPATIAL), 1)
        values = spatial_ints(self, "output_padding", len(self.SPATIAL), 0)
        if any(p >= s for p, s in zip(values, strides, strict=True)):
            raise VerifyException(
                f"{self.name}: output_padding {list(values)} must be less than the "
                f"strides {list(strides)}"
            )
        return values

    def check_channels(
        self, channels: PrimExpr, in_channels: PrimExpr, out_channels: PrimExpr, groups: int
    ) -> PrimExpr:
        """Check the channel counts (canonical weight ``I, O``); the output's."""
        if prove_not_equal(channels, in_channels):
            raise VerifyException(
                f"{self.name}: the data has {channels} channels, the weight expects {in_channels}"
            )
        if prove_not_equal(simplify(in_channels % groups), IntImm(0)):
            raise VerifyException(
                f"{self.name}: {in_channels} input channels are not divisible by {groups} groups"
            )
        return simplify(out_channels * groups)

    def output_size(
        self, settings: ConvolutionSettings, index: int, size: PrimExpr, window: PrimExpr
    ) -> PrimExpr:
        stride, dilation, before, after = settings.axes()[index]
        extra = settings.output_padding[index]
        return simplify((size - 1) * stride - before - after + dilation * (window - 1) + extra + 1)


_DIRECT = """

    Inference: the operands are read in their layouts; provably wrong channel
    counts are errors (the data has ``I * groups`` channels for an ``OI...``
    weight, ``O`` divisible by ``groups``). Each spatial size becomes
    ``(in + pad_before + pad_after - dilation * (k - 1) - 1) floordiv stride + 1``;
    the result is in ``out_layout``, of data type ``out_dtype`` or the
    operands' common one. Unknown shapes keep the rank of ``out_layout``."""

_TRANSPOSED = """

    Inference: the operands are read in their layouts; provably wrong channel
    counts are errors (the data has ``I`` channels for an ``IO...`` weight,
    divisible by ``groups``); the result has ``O * groups`` channels and
    spatial sizes ``(in - 1) * stride - pad_before - pad_after +
    dilation * (k - 1) + output_padding + 1``, in ``out_layout``, of data type
    ``out_dtype`` or the operands' common one. Unknown shapes keep the rank of
    ``out_layout``."""


@irdl_op_definition
class Conv1DOp(ConvolutionOp):
    __doc__ = "1-D convolution of ``NCW`` data with an ``OIW`` weight." + _DIRECT

    name = "relax.nn.conv1d"
    SPATIAL: ClassVar[str] = "W"


@irdl_op_definition
class Conv2DOp(ConvolutionOp):
    __doc__ = "2-D convolution of ``NCHW`` data with an ``OIHW`` weight." + _DIRECT

    name = "relax.nn.conv2d"
    SPATIAL: ClassVar[str] = "HW"


@irdl_op_definition
class Conv3DOp(ConvolutionOp):
    __doc__ = "3-D convolution of ``NCDHW`` data with an ``OIDHW`` weight." + _DIRECT

    name = "relax.nn.conv3d"
    SPATIAL: ClassVar[str] = "DHW"


@irdl_op_definition
class Conv1DTransposeOp(TransposedConvolutionOp):
    __doc__ = "1-D transposed convolution of ``NCW`` data with an ``IOW`` weight." + _TRANSPOSED

    name = "relax.nn.conv1d_transpose"
    SPATIAL: ClassVar[str] = "W"


@irdl_op_definition
class Conv2DTransposeOp(TransposedConvolutionOp):
    __doc__ = "2-D transposed convolution of ``NCHW`` data with an ``IOHW`` weight." + _TRANSPOSED

    name = "relax.nn.conv2d_transpose"
    SPATIAL: ClassVar[str] = "HW"


@irdl_op_definition
class Conv3DTransposeOp(TransposedConvolutionOp):
    __doc__ = "3-D transposed convolution of ``NCDHW`` data with an ``IODHW`` weight." + _TRANSPOSED

    name = "relax.nn.conv3d_transpose"
    SPATIAL: ClassVar[str] = "DHW"


OPERATIONS = [
    Conv1DOp,
    Conv2DOp,
    Conv3DOp,
    Conv1DTransposeOp,
    Conv2DTransposeOp,
    Conv3DTransposeOp,
]
