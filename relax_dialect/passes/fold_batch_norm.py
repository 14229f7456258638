"""``relax-fold-batch-norm``: an inference batch norm after a convolution with constant
weights becomes new weights and a bias.

``batch_norm(conv(x, W), gamma, beta, mean, var)[0]`` (``training = false``, every parameter
a constant) is ``conv(x, W * s) + (beta - mean * s)`` with ``s = gamma / sqrt(var +
epsilon)`` per output channel (``gamma`` only with ``scale``, ``beta`` only with ``center``):
the new weights and bias are computed here, in the weights' data type, as TVM's
``FoldBatchnormToConv2D`` then ``FoldConstant`` compute them. The moving statistics an
inference norm returns are its operands, so that the folded norm and the old convolution are
left unused (and erased).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import SSAValue
from xdsl.passes import ModulePass

from ..attributes import DenseAttr
from ..ops.binary import AddOp
from ..ops.convolution import ConvolutionOp, TransposedConvolutionOp
from ..ops.nn import BatchNormOp
from ..ops.values import ConstantOp, TupleGetItemOp
from ..rewriting.function_walk import FunctionWalk, rewrite_functions
from ..rewriting.patterns import BindingPattern, Replacement


def _constant(value: SSAValue) -> np.ndarray | None:
    owner = value.owner
    return owner.value.array if isinstance(owner, ConstantOp) else None


class FoldBatchNormIntoConvolution(BindingPattern):
    """The output of an inference batch norm of a convolution's only use, all constant
    but the data, is the convolution with scaled weights plus a bias."""

    def replacement(self, op: TupleGetItemOp) -> Replacement | None:
        norm = op.tuple_value.owner
        if op.index.data != 0 or not isinstance(norm, BatchNormOp) or norm.attr("training"):
            return None
        conv = norm.data.owner
        if not isinstance(conv, ConvolutionOp) or isinstance(conv, TransposedConvolutionOp):
            return None
        if sum(1 for _ in conv.result.uses) != 1:
            return None
        settings = conv.settings()
        out, kernel = settings.out_layout, settings.kernel_layout
        if "c" in out.axes or "o" in kernel.axes or norm.attr("axis") != out.axes.index("C"):
            return None
        values = [_constant(v) for v in (conv.weight, *norm.operands[1:])]
        if any(v is None for v in values):
            return None
        weight, gamma, beta, mean, var = values  # pyright: ignore[reportAssignmentType]
        dtype = weight.dtype
        if settings.out_dtype not in (None, conv.result.type.data_type):  # pyright: ignore
            return None
        epsilon = np.asarray(norm.attr("epsilon"), dtype)
        scale = (1 / np.sqrt(var + epsilon)).astype(dtype)
        if norm.attr("scale"):
            scale = (gamma * scale).astype(dtype)
        shift = (-mean * scale).astype(dtype)
        if norm.attr("center"):
            shift = (beta + shift).astype(dtype)
        along_o = [-1 if axis == "O" else 1 for axis in kernel.axes]
        along_c = [-1 if axis == "C" else 1 for axis in out.axes]
        scaled = ConstantOp(DenseAttr.from_array((weight * scale.reshape(along_o)).astype(dtype)))
        bias = ConstantOp(DenseAttr.from_array(shift.reshape(along_c)))
        folded = type(conv).create(
            operands=[conv.data, scaled.result],
            properties=dict(conv.properties),
            result_types=[conv.result.type],
        )
        add = AddOp.build([folded.result, bias.result])
        return Replacement(add.result, [scaled, bias, folded, add])


class InferenceStatistics(BindingPattern):
    """The moving mean and variance an inference batch norm returns are its operands
    (unchanged), so that a folded norm is left unused."""

    def replacement(self, op: TupleGetItemOp) -> Replacement | None:
        norm = op.tuple_value.owner
        if op.index.data == 0 or not isinstance(norm, BatchNormOp) or norm.attr("training"):
            return None
        statistic = norm.moving_mean if op.index.data == 1 else norm.moving_var
        return Replacement(statistic) if statistic.type == op.result.type else None


@dataclass(frozen=True)
class FoldBatchNormPass(ModulePass):
    """Fold inference batch norms into the constant weights of the convolutions they
    normalise: ``batch_norm(conv(x, W), ...)[0]`` becomes ``conv(x, W') + bias``."""

    name = "relax-fold-batch-norm"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        patterns = (FoldBatchNormIntoConvolution(), InferenceStatistics())
        rewrite_functions(
            op, lambda function, refine: FunctionWalk(function, refine, patterns=patterns)
        )
