"""Kernels of the neural-network operators, following TVM's legalization (topi).

Reductions of float16 normalisations run in float32, as topi does; IEEE special
values propagate without warnings.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from ..ops import nn
from ..ops.operator import OperatorOp
from . import evaluates
from .arithmetic import erf, truncating_divide
from .common import Kernel, quiet_kernel

SELU_ALPHA = 1.6732632423543772848170429916717
SELU_SCALE = 1.0507009873554804934193349852946


# --- activations -------------------------------------------------------------------


def _gelu(x: np.ndarray) -> np.ndarray:
    return x * (0.5 + erf(x * math.sqrt(0.5)).astype(x.dtype) * 0.5)


def _gelu_tanh(x: np.ndarray) -> np.ndarray:
    return 0.5 * x * (1 + np.tanh(math.sqrt(2 / math.pi) * x * (1 + 0.044715 * x * x)))


def _selu(x: np.ndarray) -> np.ndarray:
    negative = np.minimum(0, SELU_ALPHA * (np.exp(x) - 1))
    return SELU_SCALE * (np.where(x > 0, x, 0) + negative)


@evaluates(nn.LeakyReluOp)
def _leakyrelu(op: nn.NNOp) -> Kernel:
    alpha = op.attr("alpha")
    return quiet_kernel(op, lambda x: np.where(x > 0, x, x * alpha))


@evaluates(nn.SoftplusOp)
def _softplus(op: nn.NNOp) -> Kernel:
    beta, threshold = op.attr("beta"), op.attr("threshold")
    return quiet_kernel(
        op,
        lambda x: np.where(beta * x > threshold, x, (1 / beta) * np.log(1 + np.exp(beta * x))),
    )


@evaluates(nn.PReluOp)
def _prelu(op: nn.NNOp) -> Kernel:
    axis = op.attr("axis")

    def compute(x: np.ndarray, alpha: np.ndarray) -> np.ndarray:
        shape = [1] * x.ndim
        shape[axis] = -1
        return np.where(x > 0, x, x * alpha.reshape(shape))

    return quiet_kernel(op, compute)


def _shifted(x: np.ndarray, axis: int) -> np.ndarray:
    return x - np.max(x, axis=axis, keepdims=True, initial=-np.inf)


@evaluates(nn.SoftmaxOp)
def _softmax(op: nn.NNOp) -> Kernel:
    axis = op.attr("axis")

    def compute(x: np.ndarray) -> np.ndarray:
        exp = np.exp(_shifted(x, axis))
        return exp / np.sum(exp, axis=axis, keepdims=True)

    return quiet_kernel(op, compute)


@evaluates(nn.LogSoftmaxOp)
def _log_softmax(op: nn.NNOp) -> Kernel:
    axis = op.attr("axis")

    def compute(x: np.ndarray) -> np.ndarray:
        shifted = _shifted(x, axis)
        return shifted - np.log(np.sum(np.exp(shifted), axis=axis, keepdims=True))

    return quiet_kernel(op, compute)


# --- shape-changing operators --------------------------------------------------------


@evaluates(nn.PadOp)
def _pad(op: nn.NNOp) -> Kernel:
    widths = op.attr("pad_width")
    pairs = list(zip(widths[::2], widths[1::2], strict=True))
    mode, value = op.attr("pad_mode"), op.attr("pad_value")

    def compute(x: np.ndarray) -> np.ndarray:
        if len(pairs) != x.ndim:
            raise ValueError(f"pad_width pads {len(pairs)} dimensions, the data has {x.ndim}")
        return constant(x) if mode == "constant" else gathered(x)

    def constant(x: np.ndarray) -> np.ndarray:
        shape = [
            size + before + after for size, (before, after) in zip(x.shape, pairs, strict=True)
        ]
        out = np.full(shape, value, dtype=x.dtype)
        source, target = [], []
        for size, (before, after) in zip(x.shape, pairs, strict=True):
            start, stop = max(-before, 0), size + min(after, 0)
            length = max(stop - start, 0)
            source.append(slice(start, start + length))
            target.append(slice(max(before, 0), max(before, 0) + length))
        out[tuple(target)] = x[tuple(source)]
        return out

    def gathered(x: np.ndarray) -> np.ndarray:
        for axis, (before, after) in enumerate(pairs):
            size = x.shape[axis]
            index = np.arange(-before, size + after)
            if mode == "reflect":
                if max(before, after) >= size:
                    raise ValueError(
                        f"reflect padding by {max(before, after)} needs more than that many "
                        f"elements on axis {axis}, got {size}"
                    )
                index = np.where(
                    index < 0, -index, np.where(index >= size, 2 * size - 2 - index, index)
                )
            elif mode == "replicate":
                index = np.clip(index, 0, size - 1)
            else:
                index = index % size
            x = np.take(x, index, axis=axis)
        return x

    return quiet_kernel(op, compute)


@evaluates(nn.PixelShuffleOp)
def _pixel_shuffle(op: nn.NNOp) -> Kernel:
    factor = op.attr("upscale_factor")

    def compute(x: np.ndarray) -> np.ndarray:
        *batch, channels, height, width = x.shape
        out_channels = channels // (factor * factor)
        used = x[..., : out_channels * factor * factor, :, :]
        split = used.reshape(*batch, out_channels, factor, factor, height, width)
        lead = len(batch)
        order = [*range(lead), lead, lead + 3, lead + 1, lead + 4, lead + 2]
        return split.transpose(order).reshape(*batch, out_channels, height * factor, width * factor)

    return quiet_kernel(op, compute)


def _batch_flatten(x: np.ndarray) -> np.ndarray:
    return x.reshape(x.shape[0], math.prod(x.shape[1:]))


def _dropout(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    return x.copy(), np.ones_like(x)


# --- normalisations --------------------------------------------------------------------


def _compute_dtype(dtype: np.dtype) -> np.dtype:
    """topi's accumulation type: float32 for float16 data."""
    return np.dtype(np.float32) if dtype == np.float16 else dtype


def _param_shape(shape: Sequence[int], axes: Sequence[int]) -> list[int]:
    """The shape broadcasting a parameter over ``axes`` of a tensor of ``shape``."""
    return [size if axis in axes else 1 for axis, size in enumerate(shape)]


@dataclass(frozen=True)
class Affine:
    """The attributes shared by the normalisations: ``epsilon``, ``scale`` (multiply
    by gamma) and ``center`` (add beta)."""

    epsilon: float
    scale: bool
    center: bool

    @staticmethod
    def of(op: nn.NNOp) -> Affine:
        return Affine(op.attr("epsilon"), op.attr("scale"), op.attr("center"))

    def normalized(self, centered: np.ndarray, variance: np.ndarray, dtype: np.dtype) -> np.ndarray:
        """``centered / sqrt(variance + epsilon)`` back in the data type ``dtype``."""
        return (centered * (1 / np.sqrt(variance + self.epsilon))).astype(dtype)

    def apply(
        self, x: np.ndarray, gamma: np.ndarray, beta: np.ndarray, shape: Sequence[int]
    ) -> np.ndarray:
        """``x * gamma`` if ``scale``, ``+ beta`` if ``center`` (parameters reshaped to
        ``shape``)."""
        if self.scale:
            x = x * gamma.reshape(shape)
        if self.center:
            x = x + beta.reshape(shape)
        return x


def _axes(axes: Sequence[int], ndim: int) -> tuple[int, ...]:
    return tuple(sorted(axis % ndim for axis in axes))


@evaluates(nn.BatchNormOp)
def _batch_norm(op: nn.NNOp) -> Kernel:
    affine, axis = Affine.of(op), op.attr("axis")
    momentum, training = op.attr("momentum"), op.attr("training")

    def compute(
        x: np.ndarray, gamma: np.ndarray, beta: np.ndarray, mean: np.ndarray, var: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        channel = axis % x.ndim
        shape = _param_shape(x.shape, (channel,))
        if training:
            others = tuple(i for i in range(x.ndim) if i != channel)
            batch_mean = np.mean(x, axis=others)
            batch_var = np.mean(np.square(x - batch_mean.reshape(shape)), axis=others)
            out = (x - batch_mean.reshape(shape)) / np.sqrt(
                batch_var.reshape(shape) + affine.epsilon
            )
            mean = (1 - momentum) * mean + momentum * batch_mean
            var = (1 - momentum) * var + momentum * batch_var
        else:
            out = (x - mean.reshape(shape)) / np.sqrt(var.reshape(shape) + affine.epsilon)
        dtype = x.dtype
        return (
            affine.apply(out, gamma, beta, shape).astype(dtype),
            mean.astype(dtype),
            var.astype(dtype),
        )

    return quiet_kernel(op, compute)


@evaluates(nn.LayerNormOp)
def _layer_norm(op: nn.NNOp) -> Kernel:
    affine, axes = Affine.of(op), op.attr("axes")

    def compute(x: np.ndarray, gamma: np.ndarray, beta: np.ndarray) -> np.ndarray:
        reduce = _axes(axes, x.ndim)
        data = x.astype(_compute_dtype(x.dtype))
        centered = data - np.mean(data, axis=reduce, keepdims=True)
        variance = np.mean(np.square(centered), axis=reduce, keepdims=True)
        out = affine.normalized(centered, variance, x.dtype)
        return affine.apply(out, gamma, beta, _param_shape(x.shape, reduce))

    return quiet_kernel(op, compute)


@evaluates(nn.RMSNormOp)
def _rms_norm(op: nn.NNOp) -> Kernel:
    axes, epsilon = op.attr("axes"), op.attr("epsilon")

    def compute(x: np.ndarray, weight: np.ndarray) -> np.ndarray:
        reduce = _axes(axes, x.ndim)
        data = x.astype(np.float32)  # topi computes in float32 whatever the data type
        mean_square = np.mean(data * data, axis=reduce, keepdims=True)
        shape = _param_shape(x.shape, reduce)
        return 1 / np.sqrt(mean_square + epsilon) * data * weight.astype(np.float32).reshape(shape)

    return quiet_kernel(op, compute)


def _moments_normalized(
    affine: Affine, data: np.ndarray, reduce: tuple[int, ...], dtype: np.dtype
) -> np.ndarray:
    """topi's one-pass group/instance normalisation: variance ``E[x^2] - E[x]^2``."""
    mean = np.mean(data, axis=reduce, keepdims=True)
    variance = np.mean(np.square(data), axis=reduce, keepdims=True) - mean * mean
    return affine.normalized(data - mean, variance, dtype)


@evaluates(nn.GroupNormOp)
def _group_norm(op: nn.NNOp) -> Kernel:
    affine, groups = Affine.of(op), op.attr("num_groups")
    channel_axis, axes = op.attr("channel_axis"), op.attr("axes")

    def compute(x: np.ndarray, gamma: np.ndarray, beta: np.ndarray) -> np.ndarray:
        channel = channel_axis % x.ndim
        if x.shape[channel] % groups:
            raise ValueError(f"{x.shape[channel]} channels cannot be split into {groups} groups")
        split = (*x.shape[:channel], groups, x.shape[channel] // groups, *x.shape[channel + 1 :])
        data = x.reshape(split).astype(_compute_dtype(x.dtype))
        moved = (axis if axis < channel else axis + 1 for axis in _axes(axes, x.ndim))
        out = _moments_normalized(affine, data, (channel + 1, *moved), x.dtype)
        out = affine.apply(out, gamma, beta, _param_shape(split, (channel, channel + 1)))
        return out.reshape(x.shape)

    return quiet_kernel(op, compute)


@evaluates(nn.InstanceNormOp)
def _instance_norm(op: nn.NNOp) -> Kernel:
    affine = Affine.of(op)
    channel_axis, axes = op.attr("channel_axis"), op.attr("axes")

    def compute(x: np.ndarray, gamma: np.ndarray, beta: np.ndarray) -> np.ndarray:
        data = x.astype(_compute_dtype(x.dtype))
        out = _moments_normalized(affine, data, _axes(axes, x.ndim), x.dtype)
        return affine.apply(out, gamma, beta, _param_shape(x.shape, (channel_axis % x.ndim,)))

    return quiet_kernel(op, compute)


# --- losses -------------------------------------------------------------------------------


def _cross_entropy(predictions: np.ndarray, labels: np.ndarray) -> np.ndarray:
    product = predictions * labels
    total = -np.sum(product, dtype=product.dtype)
    return truncating_divide(total, predictions.shape[0]) if predictions.ndim > 1 else total


@evaluates(nn.NLLLossOp)
def _nll_loss(op: nn.NNOp) -> Kernel:
    reduction, ignore_index = op.attr("reduction"), op.attr("ignore_index")

    def compute(
        predictions: np.ndarray, targets: np.ndarray, weights: np.ndarray | None = None
    ) -> np.ndarray:
        classes = predictions.shape[0 if predictions.ndim == 1 else 1]
        if weights is None:
            weights = np.ones(classes, predictions.dtype)
        used = targets != ignore_index
        outside = used & ((targets < 0) | (targets >= classes))
        if np.any(outside):
            raise ValueError(f"target {targets[outside][0]} is out of range for {classes} classes")
        index = np.where(used, targets, 0)
        if predictions.ndim == 1:
            picked = predictions[index]
        else:
            picked = np.take_along_axis(predictions, np.expand_dims(index, 1), axis=1)
            picked = np.squeeze(picked, axis=1)
        weight = weights[index]
        loss = np.where(used, -picked * weight, 0)
        if reduction == "none":
            return loss
        total = np.sum(loss, dtype=loss.dtype)
        if reduction == "sum":
            return total
        return truncating_divide(total, np.sum(np.where(used, weight, 0), dtype=loss.dtype))

    return quiet_kernel(op, compute)


# --- attention ----------------------------------------------------------------------------


@evaluates(nn.AttentionOp, nn.AttentionBiasOp)
def _attention(op: nn.NNOp) -> Kernel:
    scale, causal_mask = op.attr("scale"), op.attr("causal_mask")
    window_size = op.attr("window_size")

    def compute(
        query: np.ndarray, key: np.ndarray, value: np.ndarray, bias: np.ndarray | None = None
    ) -> np.ndarray:
        if window_size is not None:
            raise ValueError("sliding-window attention (window_size) is not supported")
        heads, head_dim = query.shape[2], query.shape[3]
        for name, tensor in (("key", key), ("value", value)):
            if heads % tensor.shape[2]:
                raise ValueError(f"{heads} query heads are not a multiple of the {name}'s heads")
        # [batch, heads, seq, dim], key/value heads repeated for their query groups
        q = query.transpose(0, 2, 1, 3)
        k = np.repeat(key, heads // key.shape[2], axis=2).transpose(0, 2, 3, 1)
        v = np.repeat(value, heads // value.shape[2], axis=2).transpose(0, 2, 1, 3)
        scores = q @ k
        if scale is None:
            scores = scores / np.sqrt(np.asarray(head_dim, scores.dtype))
        else:
            scores = scores * scale
        if bias is not None:
            scores = scores + bias
        if causal_mask is None:
            exp = np.exp(_shifted(scores, -1))
        else:
            queries, keys = scores.shape[-2:]
            offset = 0 if causal_mask == "TopLeft" else abs(queries - keys)
            keep = np.tril(np.ones((queries, keys), dtype=bool), offset)
            # topi zeroes masked scores (rather than -inf) before taking the maximum
            masked = np.where(keep, scores, 0)
            exp = np.where(keep, np.exp(_shifted(masked, -1)), 0)
        probabilities = exp / np.sum(exp, axis=-1, keepdims=True)
        return (probabilities @ v).transpose(0, 2, 1, 3)

    return quiet_kernel(op, compute)


FUNCTIONS: dict[type[OperatorOp], Callable[..., object]] = {
    nn.ReluOp: lambda x: np.where(x > 0, x, 0),
    nn.GeluOp: _gelu,
    nn.GeluTanhOp: _gelu_tanh,
    nn.SeluOp: _selu,
    nn.SiluOp: lambda x: x * (1 / (1 + np.exp(-x))),
    nn.BatchFlattenOp: _batch_flatten,
    nn.DropoutOp: _dropout,
    nn.CrossEntropyWithLogitsOp: _cross_entropy,
}
"""The operators computing a function of their operands alone."""


@evaluates(*FUNCTIONS)
def _function(op: OperatorOp) -> Kernel:
    return quiet_kernel(op, FUNCTIONS[type(op)])  # pyright: ignore[reportArgumentType]
