"""Image operators (TVM's ``image/resize.cc``): ``image.resize2d``."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from xdsl.dialects.builtin import DenseArrayBase, FloatAttr, IntegerAttr, StringAttr
from xdsl.irdl import irdl_op_definition, operand_def, opt_prop_def, result_def, traits_def
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException

from ..attributes import DataTypeAttr
from ..dtype import DataType
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


OPERATIONS = [Resize2DOp]
