"""A data-dependent pipeline with several symbolic variables: two symbolic inputs, a
`R.match_cast` after `R.nonzero`, `R.take` of the selected rows, and shapes such as `n + m`
and `n * 2` flowing through concat, reshape and reductions."""
# ruff: noqa
# run: main n=3 m=2
from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @R.function
    def main(a: R.Tensor(("n", 4), "float32"), b: R.Tensor(("m", 4), "float32")) -> R.Tuple(R.Tensor(("n + m", 4), "float32"), R.Tensor(("n * 2", 2), "float32"), R.Tensor(ndim=2, dtype="float32")):
        n = T.int64()
        m = T.int64()
        both: R.Tensor((n + m, 4), "float32") = R.concat((a, b), axis=0)
        halves = R.reshape(a, (n * 2, 2))
        row_sums = R.sum(both, axis=1)
        keep = R.greater(row_sums, R.const(0.0, "float32"))
        nz = R.nonzero(keep)
        k = T.int64()
        idx = R.match_cast(nz, R.Tensor((1, k), "int64"))
        flat_idx = R.reshape(idx, (k,))
        chosen = R.take(both, flat_idx, axis=0)
        return (both, halves, chosen)
