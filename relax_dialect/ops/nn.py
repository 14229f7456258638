"""Neural-network operators (TVM's ``nn/nn.cc`` and ``nn/attention.cc``): activations,
normalisations, losses, ``dropout``, ``pad``, ``attention``...

Attribute defaults are declared on the properties (xDSL's ``default_value``), so
that inference, kernels and documentation read them from one place
(``NNOp.option``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from xdsl.dialects.builtin import I64, BoolAttr, DenseArrayBase, FloatAttr, IntegerAttr, StringAttr
from xdsl.ir import Operation
from xdsl.irdl import (
    AttrSizedOperandSegments,
    irdl_op_definition,
    operand_def,
    opt_operand_def,
    opt_prop_def,
    prop_def,
    result_def,
    traits_def,
)
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException

from ..prim_expr import IntImm, PrimExpr
from ..prim_expr_simplify import prove_equal, prove_not_equal, simplify
from ..types import UNKNOWN_NDIM, StructInfoType, TensorType, TupleType
from .fusion import FusionKind, OpPattern
from .inference import (
    binary_arith_dtype,
    check_choice,
    normalize_axes,
    normalize_axis,
    require_float,
)
from .operator import OperatorOp, attribute_of
from .placement import Placement, place

PAD_MODES = ("constant", "reflect", "replicate", "circular")
NLL_REDUCTIONS = ("none", "mean", "sum")
CAUSAL_MASKS = ("TopLeft", "BottomRight")


class NNOp(OperatorOp):
    """Base of the neural-network operators: pure, one result, tensor operands."""

    PLACEMENT: ClassVar[Placement] = Placement.DATA

    result = result_def()
    traits = traits_def(Pure())

    def tensor_operands(self) -> list[TensorType]:
        """The operands present, in order; each must be a tensor (TVM's
        ``GetInputTensorStructInfo``)."""
        definition = self.get_irdl_definition()
        tensors = []
        for name, _ in definition.operands:
            value = getattr(self, name)
            if value is not None:
                tensors.append(self.tensor_of(value, name))
        return tensors


def _rank_text(rank: int) -> str:
    return "an unknown number of" if rank == UNKNOWN_NDIM else str(rank)


class UnaryNNOp(NNOp):
    """An operator on one tensor, ``data``."""

    data = operand_def()


# --- element-wise activations ----------------------------------------------------


class ActivationOp(UnaryNNOp):
    """``relax.nn.<activation> %data``: element-wise, the result has the data's StructInfo.

    Inference: the data's StructInfo; a known data type must be float unless
    ``REQUIRES_FLOAT`` is False.
    """

    FUSION: ClassVar[FusionKind] = OpPattern.ELEMWISE

    REQUIRES_FLOAT: ClassVar[bool] = True

    def infer_type(self) -> StructInfoType:
        (data,) = self.tensor_operands()
        if self.REQUIRES_FLOAT:
            require_float(self.name, data, "data")
        return data


@irdl_op_definition
class ReluOp(ActivationOp):
    """Rectified linear unit, ``max(x, 0)`` (NaN gives 0, as TVM's ``max``).

    Inference: the data's StructInfo (any data type).
    """

    name = "relax.nn.relu"
    REQUIRES_FLOAT: ClassVar[bool] = False


@irdl_op_definition
class GeluOp(ActivationOp):
    """Gaussian error linear unit, ``x * (0.5 + 0.5 * erf(x / sqrt(2)))``.

    Inference: the data's StructInfo; the data type must be float.
    """

    name = "relax.nn.gelu"


@irdl_op_definition
class GeluTanhOp(ActivationOp):
    """GELU with the tanh approximation,
    ``0.5 * x * (1 + tanh(sqrt(2 / pi) * x * (1 + 0.044715 * x * x)))``.

    Inference: the data's StructInfo; the data type must be float.
    """

    name = "relax.nn.gelu_tanh"


@irdl_op_definition
class SeluOp(ActivationOp):
    """Scaled exponential linear unit,
    ``scale * (max(x, 0) + min(0, alpha * (exp(x) - 1)))`` with SELU's constants.

    Inference: the data's StructInfo; the data type must be float.
    """

    name = "relax.nn.selu"


@irdl_op_definition
class SiluOp(ActivationOp):
    """Sigmoid linear unit, ``x * sigmoid(x)``.

    Inference: the data's StructInfo; the data type must be float.
    """

    name = "relax.nn.silu"


@irdl_op_definition
class LeakyReluOp(ActivationOp):
    """Leaky rectified linear unit, ``x if x > 0 else alpha * x``.

    Inference: the data's StructInfo; the data type must be float.
    """

    name = "relax.nn.leakyrelu"
    alpha = opt_prop_def(FloatAttr, attribute_of(0.01))


@irdl_op_definition
class SoftplusOp(ActivationOp):
    """Softplus, ``log(1 + exp(beta * x)) / beta``, or ``x`` where ``beta * x > threshold``.

    Inference: the data's StructInfo; the data type must be float.
    """

    name = "relax.nn.softplus"
    beta = opt_prop_def(FloatAttr, attribute_of(1.0))
    threshold = opt_prop_def(FloatAttr, attribute_of(20.0))


def _float_along_axis(op: NNOp, data: TensorType) -> TensorType:
    """TVM's rule for softmax and prelu: an unknown rank is not checked further;
    otherwise the data type must be float and ``axis`` in range."""
    if data.rank != UNKNOWN_NDIM:
        require_float(op.name, data, "data")
        normalize_axis(op.name, op.attr("axis"), data.rank)
    return data


class SoftmaxBaseOp(UnaryNNOp):
    """Softmax-like normalisation along ``axis``."""

    FUSION: ClassVar[FusionKind] = OpPattern.OUT_EWISE_FUSABLE

    axis = opt_prop_def(IntegerAttr, attribute_of(-1))

    def infer_type(self) -> StructInfoType:
        (data,) = self.tensor_operands()
        return _float_along_axis(self, data)


@irdl_op_definition
class SoftmaxOp(SoftmaxBaseOp):
    """Softmax along ``axis``: ``exp(x - max) / sum(exp(x - max))``.

    Inference: the data's StructInfo; with a known rank, the data type must be
    float and ``axis`` in range.
    """

    name = "relax.nn.softmax"


@irdl_op_definition
class LogSoftmaxOp(SoftmaxBaseOp):
    """Log of the softmax along ``axis``: ``x - max - log(sum(exp(x - max)))``.

    Inference: the data's StructInfo; with a known rank, the data type must be
    float and ``axis`` in range.
    """

    name = "relax.nn.log_softmax"


@irdl_op_definition
class PReluOp(NNOp):
    """Parametric ReLU: ``x if x > 0 else alpha[c] * x``, ``c`` the index along ``axis``.

    Inference: the data's StructInfo; with a known rank, the data type must be
    float and ``axis`` in range (``alpha`` must be a tensor; TVM checks nothing else).
    """

    name = "relax.nn.prelu"
    FUSION: ClassVar[FusionKind] = OpPattern.ELEMWISE
    data = operand_def()
    alpha = operand_def()
    axis = opt_prop_def(IntegerAttr, attribute_of(1))

    def infer_type(self) -> StructInfoType:
        data, _ = self.tensor_operands()
        return _float_along_axis(self, data)


# --- shape-changing operators ------------------------------------------------------


@irdl_op_definition
class PadOp(UnaryNNOp):
    """Pads every axis by ``pad_width = [before_0, after_0, before_1, ...]`` elements:
    ``constant`` (``pad_value``), ``reflect`` (mirror without the edge), ``replicate``
    (repeat the edge) or ``circular`` (wrap around). Negative widths crop.

    Inference: each dimension grows by its two widths; ``pad_width`` has two
    entries per dimension (an unknown rank takes its rank from ``pad_width``).
    """

    name = "relax.nn.pad"
    FUSION: ClassVar[FusionKind] = OpPattern.INJECTIVE
    PLACEMENT: ClassVar[Placement] = Placement.NONE
    pad_width = prop_def(DenseArrayBase[I64])
    pad_mode = opt_prop_def(StringAttr, attribute_of("constant"))
    pad_value = opt_prop_def(FloatAttr, attribute_of(0.0))

    def infer_type(self) -> StructInfoType:
        (data,) = self.tensor_operands()
        widths = self.attr("pad_width")
        mode = self.attr("pad_mode")
        check_choice(self.name, "pad_mode", mode, PAD_MODES)
        rank = len(widths) // 2
        if len(widths) % 2 or data.rank not in (UNKNOWN_NDIM, rank):
            expected = "an even number of" if data.rank == UNKNOWN_NDIM else 2 * data.rank
            raise VerifyException(
                f"{self.name}: pad_width has {len(widths)} entries, expected {expected} "
                "(a before and an after width per dimension)"
            )
        if data.dims is None:
            return TensorType(dtype=data.data_type, ndim=rank)
        dims = []
        for axis, (dim, before, after) in enumerate(
            zip(data.dims, widths[::2], widths[1::2], strict=True)
        ):
            padded = simplify(dim + (before + after))
            if isinstance(padded, IntImm) and padded.value < 0:
                raise VerifyException(f"{self.name}: padding makes axis {axis} negative ({padded})")
            dims.append(padded)
        return TensorType(dims, data.data_type)


@irdl_op_definition
class PixelShuffleOp(UnaryNNOp):
    """Rearranges ``[..., C * r * r, H, W]`` into ``[..., C, H * r, W * r]``
    (``r = upscale_factor``): output ``[c, h * r + i, w * r + j]`` is input
    ``[c * r * r + i * r + j, h, w]``.

    Inference: the channels (third-last dimension) are divided by ``r * r`` and
    must be provably divisible; height and width are multiplied by ``r``; at
    least 3 dimensions.
    """

    name = "relax.nn.pixel_shuffle"
    FUSION: ClassVar[FusionKind] = OpPattern.INJECTIVE
    PLACEMENT: ClassVar[Placement] = Placement.NONE
    upscale_factor = prop_def(IntegerAttr)

    def infer_type(self) -> StructInfoType:
        (data,) = self.tensor_operands()
        factor = self.attr("upscale_factor")
        if factor <= 0:
            raise VerifyException(f"{self.name}: upscale_factor must be positive, got {factor}")
        if data.rank == UNKNOWN_NDIM:
            return TensorType(dtype=data.data_type)
        if data.rank < 3:
            raise VerifyException(
                f"{self.name}: the data has {data.rank} dimensions, expected at least 3 "
                "(channels, height, width)"
            )
        if data.dims is None:
            return TensorType(dtype=data.data_type, ndim=data.rank)
        *batch, channels, height, width = data.dims
        if prove_not_equal(channels % (factor * factor), IntImm(0)):
            raise VerifyException(
                f"{self.name}: {channels} channels are not divisible by upscale_factor "
                f"squared ({factor * factor})"
            )
        shuffled = (channels // (factor * factor), height * factor, width * factor)
        return TensorType((*batch, *map(simplify, shuffled)), data.data_type)


@irdl_op_definition
class BatchFlattenOp(UnaryNNOp):
    """Flattens all dimensions but the first: ``[N, C, H, ...]`` to ``[N, C * H * ...]``.

    Inference: 2 dimensions, the second the product of the trailing ones; the
    data needs at least 2 dimensions (an unknown rank gives a rank-2 result).
    """

    name = "relax.nn.batch_flatten"
    FUSION: ClassVar[FusionKind] = OpPattern.INJECTIVE

    def infer_type(self) -> StructInfoType:
        (data,) = self.tensor_operands()
        if data.rank == UNKNOWN_NDIM:
            return TensorType(dtype=data.data_type, ndim=2)
        if data.rank < 2:
            raise VerifyException(
                f"{self.name}: the data has {data.rank} dimensions, expected at least 2"
            )
        if data.rank == 2:
            return data
        if data.dims is None:
            return TensorType(dtype=data.data_type, ndim=2)
        flat: PrimExpr = IntImm(1)
        for dim in data.dims[1:]:
            flat = flat * dim
        return TensorType((data.dims[0], simplify(flat)), data.data_type)


@irdl_op_definition
class DropoutOp(UnaryNNOp):
    """Dropout with probability ``rate``, returning ``(output, mask)``. The reference
    semantics are inference mode (TVM does not legalize dropout; its frontends
    drop it): the output is the data and the mask is all ones (nothing dropped).

    Inference: a tuple of two tensors with the data's StructInfo.
    """

    name = "relax.nn.dropout"
    FUSION: ClassVar[FusionKind] = OpPattern.OPAQUE
    rate = opt_prop_def(FloatAttr, attribute_of(0.5))

    def infer_type(self) -> StructInfoType:
        (data,) = self.tensor_operands()
        return TupleType([data, data])


# --- normalisations ---------------------------------------------------------------


def norm_shapes_known(op: NNOp, tensors: Sequence[TensorType], axes: Sequence[int]) -> bool:
    """TVM's ``NormCheckDtypeAndShape`` for batch, layer and RMS norm: ``axes`` in
    range; float data; every parameter has the data's data type and one dimension
    per axis, sized like the data on ``axes``. False when sizes cannot be proven
    equal (the result then keeps only rank and data type)."""
    data, *params = tensors
    names = [name for name, _ in op.get_irdl_definition().operands][1:]
    if data.rank != UNKNOWN_NDIM:
        axes = normalize_axes(op.name, axes, data.rank)
    require_float(op.name, data, "data")
    for name, param in zip(names, params, strict=True):
        if param.data_type != data.data_type:
            raise VerifyException(
                f"{op.name}: {name} has data type {param.data_type}, expected the data's "
                f"{data.data_type}"
            )
        if param.rank != len(axes):
            raise VerifyException(
                f"{op.name}: {name} has {_rank_text(param.rank)} dimensions, expected "
                f"{len(axes)} (one per normalized axis)"
            )
    sizes = [param.dims for param in params if param.dims is not None]
    if data.dims is not None:
        sizes.insert(0, tuple(data.dims[axis] for axis in axes))
    for other in sizes[1:]:
        for expected, size in zip(sizes[0], other, strict=True):
            if prove_not_equal(expected, size):
                raise VerifyException(
                    f"{op.name}: parameter sizes [{', '.join(map(str, other))}] differ from "
                    f"the normalized sizes [{', '.join(map(str, sizes[0]))}]"
                )
            if not prove_equal(expected, size):
                return False
    return True


@irdl_op_definition
class BatchNormOp(NNOp):
    """Batch normalisation along channel ``axis``: ``(x - mean) / sqrt(var + epsilon)``,
    times ``gamma`` if ``scale``, plus ``beta`` if ``center``. Returns ``(output,
    new_moving_mean, new_moving_var)``. ``training``: mean and (biased) variance of
    this batch, moving statistics updated as ``(1 - momentum) * moving +
    momentum * batch``; otherwise the moving statistics, returned unchanged.

    Inference: ``(data, moving_mean, moving_var)`` StructInfo when all sizes
    provably agree, else rank-only tensors (data rank, 1, 1); float data, every
    parameter 1-D with the data's data type and the channel count.
    """

    name = "relax.nn.batch_norm"
    FUSION: ClassVar[FusionKind] = OpPattern.OUT_EWISE_FUSABLE
    PLACEMENT: ClassVar[Placement] = Placement.OWN
    data = operand_def()
    gamma = operand_def()
    beta = operand_def()
    moving_mean = operand_def()
    moving_var = operand_def()
    axis = prop_def(IntegerAttr)
    epsilon = opt_prop_def(FloatAttr, attribute_of(1e-5))
    center = opt_prop_def(BoolAttr, attribute_of(True))
    scale = opt_prop_def(BoolAttr, attribute_of(True))
    momentum = opt_prop_def(FloatAttr, attribute_of(0.1))
    training = opt_prop_def(BoolAttr, attribute_of(True))

    def infer_type(self) -> StructInfoType:
        """The operands' types keep their devices; rank-only results are on the data's."""
        tensors = self.tensor_operands()
        data, _, _, moving_mean, moving_var = tensors
        if norm_shapes_known(self, tensors, [self.attr("axis")]):
            return TupleType([data, moving_mean, moving_var])
        dtype, device = data.data_type, data.device
        vector = TensorType(dtype=dtype, ndim=1, vdevice=device)
        return TupleType([TensorType(dtype=dtype, ndim=data.rank, vdevice=device), vector, vector])


class AffineNormOp(NNOp):
    """A normalisation with ``gamma`` (scale) and ``beta`` (offset) parameters."""

    FUSION: ClassVar[FusionKind] = OpPattern.OUT_EWISE_FUSABLE

    data = operand_def()
    gamma = operand_def()
    beta = operand_def()
    epsilon = opt_prop_def(FloatAttr, attribute_of(1e-5))
    center = opt_prop_def(BoolAttr, attribute_of(True))
    scale = opt_prop_def(BoolAttr, attribute_of(True))


def axes_norm_type(op: NNOp) -> TensorType:
    """Layer and RMS norm: the data's StructInfo, or only its rank and data type
    when the parameter sizes are not provably the data's on ``axes``."""
    tensors = op.tensor_operands()
    data = tensors[0]
    if norm_shapes_known(op, tensors, op.attr("axes")):
        return data
    return TensorType(dtype=data.data_type, ndim=data.rank)


@irdl_op_definition
class LayerNormOp(AffineNormOp):
    """Layer normalisation over ``axes``: ``(x - mean) / sqrt(var + epsilon)`` (biased
    variance), times ``gamma`` if ``scale``, plus ``beta`` if ``center``; ``gamma``
    and ``beta`` are shaped like the data on ``axes``.

    Inference: the data's StructInfo (rank only when parameter sizes are not
    provably the data's); float data, parameters of the data's data type with
    one dimension per axis.
    """

    name = "relax.nn.layer_norm"
    axes = prop_def(DenseArrayBase[I64])

    def infer_type(self) -> StructInfoType:
        return axes_norm_type(self)


@irdl_op_definition
class RMSNormOp(NNOp):
    """Root-mean-square normalisation over ``axes``:
    ``x / sqrt(mean(x * x) + epsilon) * weight``, computed in float32.

    Inference: the data's StructInfo (rank only when the weight's sizes are not
    provably the data's); float data, a weight of the data's data type with one
    dimension per axis.
    """

    name = "relax.nn.rms_norm"
    FUSION: ClassVar[FusionKind] = OpPattern.OUT_EWISE_FUSABLE
    data = operand_def()
    weight = operand_def()
    axes = opt_prop_def(DenseArrayBase[I64], attribute_of((-1,)))
    epsilon = opt_prop_def(FloatAttr, attribute_of(1e-5))

    def infer_type(self) -> StructInfoType:
        return axes_norm_type(self)


class ChannelNormOp(AffineNormOp):
    """A normalisation whose 1-D ``gamma`` and ``beta`` run along ``channel_axis``."""

    channel_axis = prop_def(IntegerAttr)
    axes = prop_def(DenseArrayBase[I64])
    REQUIRES_FLOAT: ClassVar[bool] = False

    def check_channels(self, channels: PrimExpr) -> None:
        """Further checks of the channel count."""

    def infer_type(self) -> StructInfoType:
        data, gamma, beta = self.tensor_operands()
        channel = None
        if data.rank != UNKNOWN_NDIM:
            channel = normalize_axis(self.name, self.attr("channel_axis"), data.rank)
            axes = normalize_axes(self.name, self.attr("axes"), data.rank)
            if channel in axes:
                raise VerifyException(
                    f"{self.name}: channel_axis {channel} cannot be one of the normalized "
                    f"axes {list(axes)}"
                )
        if self.REQUIRES_FLOAT:
            require_float(self.name, data, "data")
        channels = None if data.dims is None or channel is None else data.dims[channel]
        if channels is not None:
            self.check_channels(channels)
        for name, param in (("gamma", gamma), ("beta", beta)):
            if param.data_type != data.data_type:
                raise VerifyException(
                    f"{self.name}: {name} has data type {param.data_type}, expected the "
                    f"data's {data.data_type}"
                )
            if param.rank != 1:
                raise VerifyException(
                    f"{self.name}: {name} has {_rank_text(param.rank)} dimensions, expected 1"
                )
            size = None if param.dims is None else param.dims[0]
            if channels is not None and size is not None and prove_not_equal(channels, size):
                raise VerifyException(
                    f"{self.name}: {name} has {size} elements, expected one per channel "
                    f"({channels})"
                )
        return data


@irdl_op_definition
class GroupNormOp(ChannelNormOp):
    """Group normalisation: the channels split into ``num_groups`` groups, each
    normalised over its channels and ``axes`` (``(x - mean) / sqrt(var + epsilon)``,
    variance ``E[x^2] - E[x]^2``), times ``gamma`` if ``scale``, plus ``beta`` if
    ``center`` (per channel).

    Inference: the data's StructInfo; float data; ``channel_axis`` not in
    ``axes``; the channel count provably divisible by ``num_groups`` and equal to
    the sizes of the 1-D ``gamma`` and ``beta`` (same data type as the data).
    """

    name = "relax.nn.group_norm"
    num_groups = prop_def(IntegerAttr)
    REQUIRES_FLOAT: ClassVar[bool] = True

    def infer_type(self) -> StructInfoType:
        if self.attr("num_groups") <= 0:
            raise VerifyException(
                f"{self.name}: num_groups must be positive, got {self.attr('num_groups')}"
            )
        return super().infer_type()

    def check_channels(self, channels: PrimExpr) -> None:
        groups = self.attr("num_groups")
        if prove_not_equal(channels % groups, IntImm(0)):
            raise VerifyException(
                f"{self.name}: {channels} channels cannot be split into {groups} groups"
            )


@irdl_op_definition
class InstanceNormOp(ChannelNormOp):
    """Instance normalisation over ``axes`` (``(x - mean) / sqrt(var + epsilon)``,
    variance ``E[x^2] - E[x]^2``), times ``gamma`` if ``scale``, plus ``beta`` if
    ``center`` (per channel along ``channel_axis``).

    Inference: the data's StructInfo; ``channel_axis`` not in ``axes``; the 1-D
    ``gamma`` and ``beta`` have the data's data type and one element per channel.
    """

    name = "relax.nn.instance_norm"


# --- losses -------------------------------------------------------------------------


@irdl_op_definition
class CrossEntropyWithLogitsOp(NNOp):
    """Cross entropy with logits: ``-sum(predictions * labels)``, divided by the
    batch size (first dimension) when the rank is at least 2.

    Inference: a scalar of the operands' common data type; the operands have the
    same rank and provably compatible dimensions.
    """

    name = "relax.nn.cross_entropy_with_logits"
    FUSION: ClassVar[FusionKind] = OpPattern.OUT_EWISE_FUSABLE
    PLACEMENT: ClassVar[Placement] = Placement.SAME
    predictions = operand_def()
    labels = operand_def()

    def infer_type(self) -> StructInfoType:
        predictions, labels = self.tensor_operands()
        dtype = binary_arith_dtype(self.name, predictions, labels)
        if UNKNOWN_NDIM not in (predictions.rank, labels.rank):
            if predictions.rank != labels.rank:
                raise VerifyException(
                    f"{self.name}: predictions have {predictions.rank} dimensions and labels "
                    f"{labels.rank}; they must have the same shape"
                )
            if predictions.dims is not None and labels.dims is not None:
                pairs = zip(predictions.dims, labels.dims, strict=True)
                for axis, (left, right) in enumerate(pairs):
                    if prove_not_equal(left, right):
                        raise VerifyException(
                            f"{self.name}: predictions and labels differ on axis {axis} "
                            f"({left} and {right})"
                        )
        return TensorType((), dtype)


@irdl_op_definition
class NLLLossOp(NNOp):
    """Negative log-likelihood loss: ``out[n, d...] = -predictions[n, t, d...] * w[t]``
    with ``t = targets[n, d...]`` and ``w`` the ``weights`` (ones when absent), 0
    where ``t == ignore_index``; ``reduction`` ``none``, ``sum``, or ``mean``
    (divided by the sum of the weights used). Predictions ``[C]`` take scalar targets.

    Inference: a scalar (``sum``, ``mean``) or the targets' shape ``[N, d...]``
    (``none``) of the predictions' data type (common with the weights'); int
    targets; predictions ``[N, C, d...]`` or ``[C]``, targets ``[N, d...]`` or
    ``[]``, weights ``[C]``, with provably compatible sizes.
    """

    name = "relax.nn.nll_loss"
    FUSION: ClassVar[FusionKind] = OpPattern.OPAQUE
    PLACEMENT: ClassVar[Placement] = Placement.OWN
    predictions = operand_def()
    targets = operand_def()
    weights = opt_operand_def()
    reduction = opt_prop_def(StringAttr, attribute_of("mean"))
    ignore_index = opt_prop_def(IntegerAttr, attribute_of(-100))
    irdl_options = (AttrSizedOperandSegments(as_property=True),)

    def infer_type(self) -> StructInfoType:
        """On the device of the predictions and weights (TVM leaves the targets out)."""
        predictions, _, *optional = self.tensor_operands()
        return place(self.name, Placement.SAME, [predictions, *optional], self._unplaced_type())

    def _unplaced_type(self) -> TensorType:
        reduction = self.attr("reduction")
        check_choice(self.name, "reduction", reduction, NLL_REDUCTIONS)
        predictions, targets, *optional = self.tensor_operands()
        weights = optional[0] if optional else None
        dtype = (
            predictions.data_type
            if weights is None
            else binary_arith_dtype(self.name, predictions, weights)
        )
        if not targets.data_type.is_void and not targets.data_type.is_int:
            raise VerifyException(
                f"{self.name}: targets have data type {targets.data_type}, expected an int type"
            )
        self._check_ranks(predictions, targets, weights)
        out_dims = self._check_sizes(predictions, targets, weights)
        if reduction != "none":
            return TensorType((), dtype)
        if out_dims is not None:
            return TensorType(out_dims, dtype)
        rank = predictions.rank
        return TensorType(dtype=dtype, ndim=UNKNOWN_NDIM if rank == UNKNOWN_NDIM else rank - 1)

    def _check_ranks(
        self, predictions: TensorType, targets: TensorType, weights: TensorType | None
    ) -> None:
        extra = None  # the number K of dimensions d...
        if predictions.rank != UNKNOWN_NDIM:
            if predictions.rank < 1:
                raise VerifyException(f"{self.name}: predictions must have at least 1 dimension")
            extra = max(predictions.rank - 2, 0)
        if targets.rank != UNKNOWN_NDIM and extra is not None and extra != max(targets.rank - 1, 0):
            raise VerifyException(
                f"{self.name}: predictions of {predictions.rank} dimensions need targets of "
                f"{max(predictions.rank - 1, 0)}, got {targets.rank}"
            )
        if weights is not None and weights.rank not in (UNKNOWN_NDIM, 1):
            raise VerifyException(
                f"{self.name}: weights have {weights.rank} dimensions, expected 1"
            )

    def _check_sizes(
        self, predictions: TensorType, targets: TensorType, weights: TensorType | None
    ) -> tuple[PrimExpr, ...] | None:
        """Check N, C and d... across the operands; the unreduced output shape if known."""
        batch = classes = out_dims = None
        if predictions.dims is not None:
            if len(predictions.dims) == 1:
                classes, out_dims = predictions.dims[0], ()
            else:
                batch, classes, *rest = predictions.dims
                out_dims = (batch, *rest)
        if targets.dims is not None:
            if not targets.dims and batch is not None:
                raise VerifyException(
                    f"{self.name}: predictions [N, C, ...] need targets [N, ...], got a scalar"
                )
            if targets.dims and batch is None and classes is not None:
                raise VerifyException(
                    f"{self.name}: predictions [C] need scalar targets, got "
                    f"{len(targets.dims)} dimensions"
                )
            if targets.dims and out_dims is not None:
                for axis, (expected, size) in enumerate(zip(out_dims, targets.dims, strict=True)):
                    if prove_not_equal(expected, size):
                        raise VerifyException(
                            f"{self.name}: targets have {size} elements on axis {axis}, "
                            f"expected {expected} from the predictions"
                        )
        size = None if weights is None or weights.dims is None else weights.dims[0]
        if classes is not None and size is not None and prove_not_equal(classes, size):
            raise VerifyException(
                f"{self.name}: weights have {size} elements, expected one per class ({classes})"
            )
        return out_dims


# --- attention ----------------------------------------------------------------------


class AttentionBaseOp(NNOp):
    """Fused multi-head attention on ``[batch, seq, heads, head_dim]`` tensors."""

    FUSION: ClassVar[FusionKind] = OpPattern.OUT_EWISE_FUSABLE

    scale = opt_prop_def(FloatAttr)
    causal_mask = opt_prop_def(StringAttr)
    window_size = opt_prop_def(IntegerAttr)

    def infer_type(self) -> StructInfoType:
        tensors = self.tensor_operands()
        names = [name for name, _ in self.get_irdl_definition().operands]
        for name, tensor in zip(names, tensors, strict=True):
            if tensor.rank != 4:
                raise VerifyException(
                    f"{self.name}: the {name} has {_rank_text(tensor.rank)} dimensions, "
                    "expected 4 ([batch, sequence, heads, head_dim])"
                )
        mask = self.attr("causal_mask")
        if mask is not None:
            check_choice(self.name, "causal_mask", mask, CAUSAL_MASKS)
        query, key, value, *bias = tensors
        dtype = query.data_type
        if query.dims is None or key.dims is None or value.dims is None:
            return TensorType(dtype=dtype, ndim=4)
        batch, queries, heads, head_dim = query.dims
        keys = key.dims[1]
        checks = [
            ("batch size", "key", batch, key.dims[0]),
            ("batch size", "value", batch, value.dims[0]),
            ("sequence length", "value", keys, value.dims[1]),
            ("head dimension", "key", head_dim, key.dims[3]),
        ]
        if bias and bias[0].dims is not None:
            bias_dims = bias[0].dims
            broadcast = [
                ("batch size", batch, bias_dims[0]),
                ("number of heads", heads, bias_dims[1]),
                ("query sequence length", queries, bias_dims[2]),
            ]
            for what, expected, size in broadcast:
                if size != IntImm(1):
                    checks.append((what, "bias", expected, size))
            checks.append(("key sequence length", "bias", keys, bias_dims[3]))
        for what, name, expected, size in checks:
            if prove_not_equal(expected, size):
                raise VerifyException(
                    f"{self.name}: the {name} has {what} {size}, expected {expected}"
                )
        for name, tensor in (("key", key), ("value", value)):
            assert tensor.dims is not None
            if prove_not_equal(heads % tensor.dims[2], IntImm(0)):
                raise VerifyException(
                    f"{self.name}: the query's {heads} heads are not a multiple of the "
                    f"{name}'s {tensor.dims[2]}"
                )
        return TensorType((batch, queries, heads, value.dims[3]), dtype)


@irdl_op_definition
class AttentionOp(AttentionBaseOp):
    """Fused multi-head attention, ``softmax(Q K^T * scale) V`` per batch and head, on
    ``[batch, seq, heads, head_dim]`` tensors; ``scale`` defaults to ``1 / sqrt(head_dim)``;
    ``causal_mask`` ``TopLeft`` keeps key ``j`` for query ``i`` when ``j <= i``,
    ``BottomRight`` when ``j <= i + abs(seq - seq_kv)``. Query heads share key/value
    heads in equal groups (grouped-query attention). ``window_size`` (sliding-window
    attention) is accepted but not executable, as TVM does not legalize it.

    Inference: ``[batch, seq, heads, head_dim_v]`` of the query's data type; every
    operand 4-D; batch sizes, key/value sequence lengths and head dimensions
    provably compatible; query heads a multiple of key/value heads.
    """

    name = "relax.nn.attention"
    query = operand_def()
    key = operand_def()
    value = operand_def()


@irdl_op_definition
class AttentionBiasOp(AttentionBaseOp):
    """``relax.nn.attention`` with a ``bias`` added to the scaled scores before the
    softmax, broadcast from ``[batch, heads, seq, seq_kv]`` (each of the first three may be 1).

    Inference: as ``relax.nn.attention``; the bias is 4-D and its dimensions
    provably compatible (size 1 broadcasts, except on ``seq_kv``).
    """

    name = "relax.nn.attention_bias"
    query = operand_def()
    key = operand_def()
    value = operand_def()
    bias = operand_def()


OPERATIONS: list[type[Operation]] = [
    ReluOp,
    GeluOp,
    GeluTanhOp,
    SeluOp,
    SiluOp,
    LeakyReluOp,
    SoftplusOp,
    SoftmaxOp,
    LogSoftmaxOp,
    PReluOp,
    PadOp,
    PixelShuffleOp,
    BatchFlattenOp,
    DropoutOp,
    BatchNormOp,
    LayerNormOp,
    RMSNormOp,
    GroupNormOp,
    InstanceNormOp,
    CrossEntropyWithLogitsOp,
    NLLLossOp,
    AttentionOp,
    AttentionBiasOp,
]
