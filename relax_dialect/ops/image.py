"""Image operators (TVM's ``image/resize.cc``): ``image.resize2d`` and
``image.grid_sample``."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from xdsl.dialects.builtin import BoolAttr, DenseArrayBase, FloatAttr, IntegerAttr, StringAttr
from xdsl.irdl import irdl_op_definition, operand_def, opt_prop_def, result_def, traits_def
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException

from ..attributes import DataTypeAttr
from ..dtype import FLOAT32, DataType
from ..types import StructInfoType, TensorType
from .convolution import Layout, parse_layout
from .fusion import FusionKind, OpPattern
from .inference import check_choice
from .operator import OperatorOp, attribute_of
from .placement import Placement

METHODS = ("nearest_neighbor", "linear", "cubic")
COORDINATE_TRANSFORMATION_MODES = (
    "half_pixel",
    "align_corners",
    "asymmetric",
    "pytorch_half_pixel",
    "tf_half_pixel_for_nn",
    "tf_crop_and_resize",
)
ROUNDING_METHODS = ("round", "round_prefer_floor", "round_prefer_ceil", "floor", "ceil", "")


@dataclass(frozen=True)
class ResizeSettings:
    """A resize's attributes, checked and completed with TVM's defaults."""

    roi: tuple[float, ...]
    layout: Layout
    method: str
    coordinate_transformation_mode: str
    rounding_method: str
    cubic_alpha: float
    cubic_exclude: bool
    extrapolation_value: float
    out_dtype: DataType | None


@irdl_op_definition
class Resize2DOp(OperatorOp):
    """Resize the height and width of images to ``size`` (TVM's ``topi.image.resize2d``).

    ``method``: ``nearest_neighbor``, ``linear`` (default) or ``cubic``
    (``cubic_alpha`` default -0.75, ``cubic_exclude`` default 0 drops taps
    outside the image). ``coordinate_transformation_mode`` maps output to input
    coordinates: ``half_pixel`` (default), ``align_corners``, ``asymmetric``,
    ``pytorch_half_pixel``, ``tf_half_pixel_for_nn`` or ``tf_crop_and_resize``
    (within ``roi`` = [start_h, start_w, end_h, end_w], default zeros; outside
    the image ``extrapolation_value``, default 0.0). ``rounding_method`` picks
    the nearest pixel: ``round`` (default, half to even), ``round_prefer_floor``,
    ``round_prefer_ceil``, ``floor``, ``ceil`` or "" (``round`` with
    ``align_corners``, else ``floor``). Values are computed in ``f32``.

    Inference: ``size`` must be a shape of 2 dimensions; the data's type in
    ``layout`` (default ``NCHW``) with the height and width replaced by
    ``size``, of data type ``out_dtype`` (default the data's). An unknown data
    shape or size keeps only the rank.
    """

    name = "relax.image.resize2d"
    FUSION: ClassVar[FusionKind] = OpPattern.INJECTIVE
    PLACEMENT: ClassVar[Placement] = Placement.DATA

    data = operand_def()
    size = operand_def()
    roi = opt_prop_def(DenseArrayBase, default_value=attribute_of((0.0,) * 4))
    layout = opt_prop_def(StringAttr, default_value=attribute_of("NCHW"))
    method = opt_prop_def(StringAttr, default_value=attribute_of("linear"))
    coordinate_transformation_mode = opt_prop_def(
        StringAttr, default_value=attribute_of("half_pixel")
    )
    rounding_method = opt_prop_def(StringAttr, default_value=attribute_of("round"))
    cubic_alpha = opt_prop_def(FloatAttr, default_value=attribute_of(-0.75))
    cubic_exclude = opt_prop_def(IntegerAttr, default_value=attribute_of(0))
    extrapolation_value = opt_prop_def(FloatAttr, default_value=attribute_of(0.0))
    out_dtype = opt_prop_def(DataTypeAttr)
    result = result_def()
    traits = traits_def(Pure())

    CANONICAL_LAYOUT: ClassVar[str] = "NCHW"

    def settings(self) -> ResizeSettings:
        roi = tuple(float(v) for v in self.attr("roi"))
        if len(roi) != 4:
            raise VerifyException(
                f"{self.name}: roi has {len(roi)} values, expected 4 "
                "(start_h, start_w, end_h, end_w)"
            )
        return ResizeSettings(
            roi=roi,
            layout=parse_layout(self.name, self.attr("layout"), self.CANONICAL_LAYOUT, "data"),
            method=self._choice("method", METHODS),
            coordinate_transformation_mode=self._choice(
                "coordinate_transformation_mode", COORDINATE_TRANSFORMATION_MODES
            ),
            rounding_method=self._choice("rounding_method", ROUNDING_METHODS),
            cubic_alpha=self.attr("cubic_alpha"),
            cubic_exclude=bool(self.attr("cubic_exclude")),
            extrapolation_value=self.attr("extrapolation_value"),
            out_dtype=self.data_type_attr("out_dtype"),
        )

    def _choice(self, name: str, choices: tuple[str, ...]) -> str:
        value = self.attr(name)
        check_choice(self.name, name, value, choices)
        return value

    def infer_type(self) -> StructInfoType:
        settings = self.settings()
        data = self.tensor_of(self.data, "data")
        size = self.shape_of(self.size, "size")
        if size.rank != 2:
            rank = "unknown" if size.rank < 0 else str(size.rank)
            raise VerifyException(f"{self.name}: the size must have 2 dimensions, got {rank}")
        layout = settings.layout
        layout.check_rank(self.name, data, "data")
        dtype = settings.out_dtype or data.data_type
        if data.dims is None or size.dims is None:
            return TensorType(dtype=dtype, ndim=layout.ndim)
        canonical = self.CANONICAL_LAYOUT
        batch, channels, *_ = layout.to_canonical(self.name, data.dims, canonical, "data")
        return TensorType(layout.from_canonical([batch, channels, *size.dims], canonical), dtype)


SAMPLING_METHODS = ("bilinear", "nearest", "bicubic")
PADDING_MODES = ("zeros", "border", "reflection")


@dataclass(frozen=True)
class GridSampleSettings:
    """A grid sampling's attributes, checked."""

    method: str
    layout: Layout
    padding_mode: str
    align_corners: bool


@irdl_op_definition
class GridSampleOp(OperatorOp):
    """Sample images at the positions of a grid (TVM's ``topi.image.grid_sample``).

    The ``grid`` is ``[N, 2, H_out, W_out]``: per output pixel the ``x`` (width)
    then ``y`` (height) position, normalized to [-1, 1]; ``align_corners``
    (default false) maps -1 and 1 to the centres of the corner pixels, else to
    their outer edges. ``method``: ``bilinear`` (default), ``nearest`` (ties to
    even) or ``bicubic`` (Keys' kernel, ``a = -0.75``, over 4x4 taps).
    ``padding_mode`` for positions outside the image: ``zeros`` (default; pixels
    outside read 0), ``border`` (positions clamped to the image) or
    ``reflection`` (positions mirrored at the borders, then clamped); bicubic
    applies it to its taps. Computed in the data's floating-point type.

    Inference: the data's type in ``layout`` (default ``NCHW``) with the height
    and width replaced by the grid's last two dimensions; the grid must have 4
    dimensions. An unknown data or grid shape keeps only the rank. (TVM 0.25
    takes the grid's dimensions 1 and 2, as for an ``[N, H_out, W_out, 2]`` grid,
    while its kernel reads ``[N, 2, H_out, W_out]``; the result follows the
    kernel.)
    """

    name = "relax.image.grid_sample"
    FUSION: ClassVar[FusionKind] = OpPattern.OPAQUE
    PLACEMENT: ClassVar[Placement] = Placement.DATA

    data = operand_def()
    grid = operand_def()
    method = opt_prop_def(StringAttr, default_value=attribute_of("bilinear"))
    layout = opt_prop_def(StringAttr, default_value=attribute_of("NCHW"))
    padding_mode = opt_prop_def(StringAttr, default_value=attribute_of("zeros"))
    align_corners = opt_prop_def(BoolAttr, default_value=attribute_of(False))
    result = result_def()
    traits = traits_def(Pure())

    CANONICAL_LAYOUT: ClassVar[str] = "NCHW"

    def settings(self) -> GridSampleSettings:
        method, padding_mode = self.attr("method"), self.attr("padding_mode")
        check_choice(self.name, "method", method, SAMPLING_METHODS)
        check_choice(self.name, "padding_mode", padding_mode, PADDING_MODES)
        return GridSampleSettings(
            method=method,
            layout=parse_layout(self.name, self.attr("layout"), self.CANONICAL_LAYOUT, "data"),
            padding_mode=padding_mode,
            align_corners=self.attr("align_corners"),
        )

    def computation_dtype(self) -> DataType:
        """The floating-point type the sampling computes in: the data's, else ``f32``."""
        dtype = self.tensor_of(self.data, "data").data_type
        return dtype if dtype.is_float else FLOAT32

    def infer_type(self) -> StructInfoType:
        layout = self.settings().layout
        data = self.tensor_of(self.data, "data")
        grid = self.tensor_of(self.grid, "grid")
        if grid.rank >= 0 and grid.rank != 4:
            raise VerifyException(
                f"{self.name}: the grid must have 4 dimensions (N, 2, H_out, W_out), "
                f"got {grid.rank}"
            )
        layout.check_rank(self.name, data, "data")
        if data.dims is None or grid.dims is None:
            return TensorType(dtype=data.data_type, ndim=layout.ndim)
        canonical = self.CANONICAL_LAYOUT
        batch, channels, *_ = layout.to_canonical(self.name, data.dims, canonical, "data")
        out = [batch, channels, *grid.dims[2:]]
        return TensorType(layout.from_canonical(out, canonical), data.data_type)


OPERATIONS = [Resize2DOp, GridSampleOp]
