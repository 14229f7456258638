"""Losses: NegativeLogLikelihoodLoss (``relax.nn.nll_loss``) and
SoftmaxCrossEntropyLoss (the same on the log-softmax along the classes)."""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.ir import SSAValue

from ....builder import Call
from ..context import NodeContext
from .registry import converter
from .values import output_used

REDUCTIONS = ("none", "sum", "mean")


def _loss(ctx: NodeContext, log_probabilities: SSAValue | Call) -> SSAValue:
    """``-log_probabilities[n, t, d...] * weights[t]`` for the targets ``t``
    (input 1), reduced as ``reduction`` says (``mean`` divides by the weights
    used); targets equal to ``ignore_index`` count for nothing."""
    reduction = ctx.attr("reduction", "mean")
    if reduction not in REDUCTIONS:
        ctx.error(f"reduction must be one of {', '.join(REDUCTIONS)}, got '{reduction}'")
    weights = [ctx.input(2)] if ctx.has_input(2) else []
    ignore = ctx.attr("ignore_index", None)
    return ctx.emit(
        "relax.nn.nll_loss",
        log_probabilities,
        ctx.input(1),
        *weights,
        reduction=reduction,
        ignore_index=-100 if ignore is None else ignore,
    )


@converter("NegativeLogLikelihoodLoss", since=12)
def negative_log_likelihood_loss(ctx: NodeContext) -> SSAValue:
    return _loss(ctx, ctx.input(0))


@converter("SoftmaxCrossEntropyLoss", since=12)
def softmax_cross_entropy_loss(ctx: NodeContext) -> Sequence[SSAValue | None]:
    log_probabilities = ctx.emit("relax.nn.log_softmax", ctx.input(0), axis=1)
    loss = _loss(ctx, log_probabilities)
    return [loss, log_probabilities if output_used(ctx, 1) else None][: ctx.num_outputs]
