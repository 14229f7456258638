"""Pooling (TVM's ``nn/pooling.cc``): maximum and average over sliding
windows, and adaptive average pooling over a given number of windows."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from xdsl.dialects.builtin import BoolAttr, DenseArrayBase, StringAttr
from xdsl.irdl import irdl_op_definition, operand_def, opt_prop_def, result_def, traits_def
from xdsl.traits import Pure

from ..prim_expr import IntImm, PrimExpr
from ..types import StructInfoType, TensorType
from .convolution import Layout, parse_layout, spatial_ints, spatial_padding, window_count
from .fusion import FusionKind, OpPattern
from .operator import OperatorOp, attribute_of
from .placement import Placement


class SpatialOp(OperatorOp):
    """An operator on one tensor with ``SPATIAL`` axes after ``N`` and ``C``,
    given in ``layout`` (default canonical) and resulting in ``out_layout``
    (default ``layout``)."""

    FUSION: ClassVar[FusionKind] = OpPattern.OUT_EWISE_FUSABLE
    PLACEMENT: ClassVar[Placement] = Placement.DATA

    SPATIAL: ClassVar[str]
    """The spatial axes in canonical order (``W``, ``HW``, ``DHW``)."""

    data = operand_def()
    result = result_def()
    traits = traits_def(Pure())

    @classmethod
    def canonical_layout(cls) -> str:
        return "NC" + cls.SPATIAL

    def layouts(self) -> tuple[Layout, Layout]:
        """The data and output layouts."""
        canonical = self.canonical_layout()
        layout = self.attr("layout", canonical)
        return (
            parse_layout(self.name, layout, canonical, "data"),
            parse_layout(self.name, self.attr("out_layout", layout), canonical, "output"),
        )

    def check_attributes(self) -> None:
        """Reject invalid attributes, also when the data's shape is unknown."""

    def infer_type(self) -> StructInfoType:
        self.check_attributes()
        layout, out_layout = self.layouts()
        data = self.tensor_of(self.data, "data")
        layout.check_rank(self.name, data, "data")
        if data.dims is None:
            return TensorType(dtype=data.data_type, ndim=out_layout.ndim)
        canonical = self.canonical_layout()
        batch, channels, *sizes = layout.to_canonical(self.name, data.dims, canonical, "data")
        dims = out_layout.from_canonical([batch, channels, *self.output_sizes(sizes)], canonical)
        return TensorType(dims, data.data_type)

    def output_sizes(self, sizes: list[PrimExpr]) -> list[PrimExpr]:
        """The output's spatial sizes given the data's."""
        raise NotImplementedError


@dataclass(frozen=True)
class PoolSettings:
    """A pooling's window attributes, checked and completed with TVM's defaults."""

    pool_size: tuple[int, ...]
    strides: tuple[int, ...]
    dilation: tuple[int, ...]
    pad_before: tuple[int, ...]
    pad_after: tuple[int, ...]
    ceil_mode: bool
    count_include_pad: bool

    def axes(self) -> list[tuple[int, int, int, int, int]]:
        """Per spatial axis: window size, stride, dilation, padding before and after."""
        return list(
            zip(
                self.pool_size,
                self.strides,
                self.dilation,
                self.pad_before,
                self.pad_after,
                strict=True,
            )
        )


class PoolOp(SpatialOp):
    """``relax.nn.<max|avg>_pool<k>d %data``: a reduction over each window of
    ``pool_size`` (default 1) elements, moved by ``strides`` (default 1), with
    ``dilation`` (default 1) between its elements, over the data padded by
    ``padding`` (default 0). ``ceil_mode`` (default false) keeps a last partial
    window; ``count_include_pad`` makes padding count in averages (default
    ``COUNT_INCLUDE_PAD``: TVM's Python API defaults it to true for 1-D and 3-D
    average pooling, to false otherwise).
    """

    COUNT_INCLUDE_PAD: ClassVar[bool] = False

    pool_size = opt_prop_def(DenseArrayBase, default_value=attribute_of((1,)))
    strides = opt_prop_def(DenseArrayBase, default_value=attribute_of((1,)))
    padding = opt_prop_def(DenseArrayBase, default_value=attribute_of((0,)))
    dilation = opt_prop_def(DenseArrayBase, default_value=attribute_of((1,)))
    ceil_mode = opt_prop_def(BoolAttr, default_value=attribute_of(False))
    count_include_pad = opt_prop_def(BoolAttr)
    layout = opt_prop_def(StringAttr)
    out_layout = opt_prop_def(StringAttr)

    def settings(self) -> PoolSettings:
        spatial = len(self.SPATIAL)
        pad_before, pad_after = spatial_padding(self, spatial)
        return PoolSettings(
            pool_size=spatial_ints(self, "pool_size", spatial, 1),
            strides=spatial_ints(self, "strides", spatial, 1),
            dilation=spatial_ints(self, "dilation", spatial, 1),
            pad_before=pad_before,
            pad_after=pad_after,
            ceil_mode=self.attr("ceil_mode"),
            count_include_pad=self.attr("count_include_pad", self.COUNT_INCLUDE_PAD),
        )

    def output_sizes(self, sizes: list[PrimExpr]) -> list[PrimExpr]:
        settings = self.settings()
        return [
            window_count(size, *axis, settings.ceil_mode)
            for size, axis in zip(sizes, settings.axes(), strict=True)
        ]

    def check_attributes(self) -> None:
        self.settings()


class MaxPoolOp(PoolOp):
    """Maximum pooling; padding holds the data type's lowest value."""


class AvgPoolOp(PoolOp):
    """Average pooling; integer averages round toward zero."""


_POOL_INFERENCE = """

    Inference: the data's type, each spatial size ``in`` becoming
    ``(in + pad - dilation * (pool_size - 1) - 1) floordiv stride + 1`` (rounded
    up in ``ceil_mode``, unless the last window would start in the padding), in
    ``out_layout``. Unknown shapes keep the rank of ``out_layout``."""


@irdl_op_definition
class MaxPool1DOp(MaxPoolOp):
    __doc__ = "1-D maximum pooling of ``NCW`` data." + _POOL_INFERENCE

    name = "relax.nn.max_pool1d"
    SPATIAL: ClassVar[str] = "W"


@irdl_op_definition
class MaxPool2DOp(MaxPoolOp):
    __doc__ = "2-D maximum pooling of ``NCHW`` data." + _POOL_INFERENCE

    name = "relax.nn.max_pool2d"
    SPATIAL: ClassVar[str] = "HW"


@irdl_op_definition
class MaxPool3DOp(MaxPoolOp):
    __doc__ = "3-D maximum pooling of ``NCDHW`` data." + _POOL_INFERENCE

    name = "relax.nn.max_pool3d"
    SPATIAL: ClassVar[str] = "DHW"


@irdl_op_definition
class AvgPool1DOp(AvgPoolOp):
    __doc__ = "1-D average pooling of ``NCW`` data." + _POOL_INFERENCE

    name = "relax.nn.avg_pool1d"
    COUNT_INCLUDE_PAD: ClassVar[bool] = True
    SPATIAL: ClassVar[str] = "W"


@irdl_op_definition
class AvgPool2DOp(AvgPoolOp):
    __doc__ = "2-D average pooling of ``NCHW`` data." + _POOL_INFERENCE

    name = "relax.nn.avg_pool2d"
    SPATIAL: ClassVar[str] = "HW"


@irdl_op_definition
class AvgPool3DOp(AvgPoolOp):
    __doc__ = "3-D average pooling of ``NCDHW`` data." + _POOL_INFERENCE

    name = "relax.nn.avg_pool3d"
    COUNT_INCLUDE_PAD: ClassVar[bool] = True
    SPATIAL: ClassVar[str] = "DHW"


class AdaptiveAvgPoolOp(SpatialOp):
    """``relax.nn.adaptive_avg_pool<k>d %data``: average pooling into
    ``output_size`` windows per spatial axis (default: the data's sizes);
    window ``i`` of ``out`` over ``in`` elements spans
    ``[floor(i * in / out), ceil((i + 1) * in / out))``."""

    output_size = opt_prop_def(DenseArrayBase)
    layout = opt_prop_def(StringAttr)
    out_layout = opt_prop_def(StringAttr)

    def output_size_values(self) -> tuple[int, ...] | None:
        if self.attr("output_size") is None:
            return None
        return spatial_ints(self, "output_size", len(self.SPATIAL), 1)

    def output_sizes(self, sizes: list[PrimExpr]) -> list[PrimExpr]:
        given = self.output_size_values()
        return sizes if given is None else [IntImm(size) for size in given]

    def check_attributes(self) -> None:
        self.output_size_values()


_ADAPTIVE_INFERENCE = """

    Inference: the data's type with the spatial sizes replaced by
    ``output_size`` when given, in ``out_layout``. Unknown shapes keep the rank
    of ``out_layout``."""


@irdl_op_definition
class AdaptiveAvgPool1DOp(AdaptiveAvgPoolOp):
    __doc__ = "1-D adaptive average pooling of ``NCW`` data." + _ADAPTIVE_INFERENCE

    name = "relax.nn.adaptive_avg_pool1d"
    SPATIAL: ClassVar[str] = "W"


@irdl_op_definition
class AdaptiveAvgPool2DOp(AdaptiveAvgPoolOp):
    __doc__ = "2-D adaptive average pooling of ``NCHW`` data." + _ADAPTIVE_INFERENCE

    name = "relax.nn.adaptive_avg_pool2d"
    SPATIAL: ClassVar[str] = "HW"


@irdl_op_definition
class AdaptiveAvgPool3DOp(AdaptiveAvgPoolOp):
    __doc__ = "3-D adaptive average pooling of ``NCDHW`` data." + _ADAPTIVE_INFERENCE

    name = "relax.nn.adaptive_avg_pool3d"
    SPATIAL: ClassVar[str] = "DHW"


OPERATIONS = [
    MaxPool1DOp,
    MaxPool2DOp,
    MaxPool3DOp,
    AvgPool1DOp,
    AvgPool2DOp,
    AvgPool3DOp,
    AdaptiveAvgPool1DOp,
    AdaptiveAvgPool2DOp,
    AdaptiveAvgPool3DOp,
]
