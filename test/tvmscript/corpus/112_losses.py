"""Losses: `R.nn.cross_entropy_with_logits` (2-d, divided by the batch) and `R.nn.nll_loss`
with the default mean reduction, with weights and `reduction="sum"`, `"none"`, and an
`ignore_index` that matches some targets."""
# ruff: noqa
# run: main
from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @R.function
    def main(logits: R.Tensor((3, 4), "float32"), labels: R.Tensor((3, 4), "float32"), t: R.Tensor((3,), "int64"), w: R.Tensor((4,), "float32")) -> R.Tuple(R.Tensor((), "float32"), R.Tensor((), "float32"), R.Tensor((), "float32"), R.Tensor((3,), "float32"), R.Tensor((), "float32")):
        logp = R.nn.log_softmax(logits)
        ce = R.nn.cross_entropy_with_logits(logp, R.nn.softmax(labels))
        mean = R.nn.nll_loss(logp, t)
        pw = R.add(R.abs(w), R.const(0.1, "float32"))
        summed = R.nn.nll_loss(logp, t, pw, reduction="sum")
        each = R.nn.nll_loss(logp, t, reduction="none")
        ignored = R.nn.nll_loss(logp, R.arange(3), pw, "mean", 1)
        return (ce, mean, summed, each, ignored)
