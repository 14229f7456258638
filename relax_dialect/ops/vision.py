"""Vision operators (TVM's ``src/relax/op/vision/``): ``vision.roi_align``."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar, Self

from xdsl.dialects.builtin import BoolAttr, DenseArrayBase, FloatAttr, IntegerAttr, StringAttr
from xdsl.ir import SSAValue
from xdsl.irdl import (
    irdl_op_definition,
    operand_def,
    opt_prop_def,
    prop_def,
    result_def,
    traits_def,
)
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException

from ..prim_expr import IntImm
from ..types import StructInfoType, TensorType
from .fusion import FusionKind, OpPattern
from .inference import check_choice
from .operator import AttrValue, OperatorOp, attribute_of
from .placement import Placement

LAYOUTS = ("NCHW", "NHWC")
MODES = ("avg", "max")


@dataclass(frozen=True)
class ROIAlignSettings:
    """An ROI align's attributes, checked, with the pooled size as (height, width)."""

    pooled_size: tuple[int, int]
    spatial_scale: float
    sample_ratio: int
    aligned: bool
    layout: str
    mode: str


def roi_align_pattern(op: OperatorOp) -> OpPattern:
    """``OUT_EWISE_FUSABLE`` with a fixed ``sample_ratio``; ``OPAQUE`` when the
    sampling grid depends on each region's size (TVM's kinds of the legalizations)."""
    assert isinstance(op, ROIAlignOp)
    fixed = op.settings().sample_ratio > 0
    return OpPattern.OUT_EWISE_FUSABLE if fixed else OpPattern.OPAQUE


@irdl_op_definition
class ROIAlignOp(OperatorOp):
    """Pool regions of interest of images by bilinear sampling (TVM's
    ``topi.vision.roi_align``).

    Each row of ``rois`` is ``[batch_index, x1, y1, x2, y2]`` in input
    coordinates, scaled by ``spatial_scale``; the region is divided into
    ``pooled_size`` (height, width; one value for both) bins, each sampled on a
    grid of ``sample_ratio`` x ``sample_ratio`` points (default -1: as many as
    the bin's size, rounded up, per region) at the centres of equal cells, read
    bilinearly (0 beyond one pixel outside the image, clamped to it within) and
    averaged (``mode`` ``avg``, default) or maximized (``max``). Unless
    ``aligned`` (default false), regions are at least 1x1. Coordinates are
    computed in the regions' data type. ``layout``: ``NCHW`` (default) or
    ``NHWC``.

    Inference: ``data`` must have 4 dimensions and ``rois`` 2, the last of size
    5 when known; the result is ``[num_roi, C, pooled_h, pooled_w]`` (``NCHW``)
    or ``[num_roi, pooled_h, pooled_w, C]`` (``NHWC``) of the data's type, with
    only the rank when either shape is unknown.
    """

    name = "relax.vision.roi_align"
    FUSION: ClassVar[FusionKind] = roi_align_pattern
    PLACEMENT: ClassVar[Placement] = Placement.DATA

    data = operand_def()
    rois = operand_def()
    pooled_size = prop_def(DenseArrayBase)
    spatial_scale = prop_def(FloatAttr)
    sample_ratio = opt_prop_def(IntegerAttr, default_value=attribute_of(-1))
    aligned = opt_prop_def(BoolAttr, default_value=attribute_of(False))
    layout = opt_prop_def(StringAttr, default_value=attribute_of("NCHW"))
    mode = opt_prop_def(StringAttr, default_value=attribute_of("avg"))
    result = result_def()
    traits = traits_def(Pure())

    @classmethod
    def build(
        cls,
        operands: Sequence[SSAValue],
        result_type: StructInfoType | None = None,
        **attributes: AttrValue | None,
    ) -> Self:
        """As TVM builds it: a single pooled size stands for the height and width."""
        pooled = attributes.get("pooled_size")
        if isinstance(pooled, Sequence) and len(pooled) == 1:
            attributes["pooled_size"] = (pooled[0], pooled[0])
        return super().build(operands, result_type, **attributes)

    def settings(self) -> ROIAlignSettings:
        pooled = self.int_list("pooled_size") or ()
        if len(pooled) != 2:  # TVM's attributes hold both (``build`` expands one)
            raise VerifyException(
                f"{self.name}: pooled_size has {len(pooled)} values, expected 2 (height, width)"
            )
        layout, mode = self.attr("layout"), self.attr("mode")
        check_choice(self.name, "layout", layout, LAYOUTS)
        check_choice(self.name, "mode", mode, MODES)
        return ROIAlignSettings(
            pooled_size=(pooled[0], pooled[1]),
            spatial_scale=self.attr("spatial_scale"),
            sample_ratio=self.attr("sample_ratio"),
            aligned=self.attr("aligned"),
            layout=layout,
            mode=mode,
        )

    def infer_type(self) -> StructInfoType:
        settings = self.settings()
        data = self.tensor_of(self.data, "data")
        rois = self.tensor_of(self.rois, "rois")
        for tensor, what, rank in ((data, "data", 4), (rois, "rois", 2)):
            if tensor.rank >= 0 and tensor.rank != rank:
                raise VerifyException(
                    f"{self.name}: the {what} must have {rank} dimensions, got {tensor.rank}"
                )
        last = rois.dims[1] if rois.dims is not None else None
        if isinstance(last, IntImm) and last.value != 5:
            raise VerifyException(
                f"{self.name}: the rois must be [num_roi, 5] (batch index, x1, y1, x2, y2), "
                f"got a last dimension of {last.value}"
            )
        if data.dims is None or rois.dims is None:
            return TensorType(dtype=data.data_type, ndim=4)
        height, width = (IntImm(size) for size in settings.pooled_size)
        rois_count = rois.dims[0]
        if settings.layout == "NCHW":
            return TensorType([rois_count, data.dims[1], height, width], data.data_type)
        return TensorType([rois_count, height, width, data.dims[3]], data.data_type)


OPERATIONS = [ROIAlignOp]
