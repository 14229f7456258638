"""`R.unique` of a flattened tensor (sorted) with its data-dependent length recovered by
`R.match_cast` into a new symbolic variable (not allowed in the return annotation, which has
only the rank); with `return_counts`/`return_inverse`. TVM 0.25 infers the inverse indices as
1-d but its kernel returns them in the input's shape, so they are cast to a rank-free type."""
# ruff: noqa
# run: main
from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @R.function
    def main(i: R.Tensor((3, 4), "int32")) -> R.Tuple(R.Tensor(ndim=1, dtype="int32"), R.Tensor(ndim=1, dtype="int64"), R.Tensor(dtype="int64")):
        k = T.int64()
        u = R.unique(i)
        uk = R.match_cast(u, R.Tensor((k,), "int32"))
        parts = R.unique(i, sorted=True, return_index=False, return_inverse=True, return_counts=True)
        counts = parts[2]
        ck = R.match_cast(counts, R.Tensor((k,), "int64"))
        inverse = R.match_cast(parts[1], R.Tensor(dtype="int64"))
        return (uk, ck, inverse)
