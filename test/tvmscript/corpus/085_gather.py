"""`R.gather_elements` along axes 0 and 1 and `R.gather_nd` with and without `batch_dims`,
indices taken from int64 inputs (values in [0, 4), data axes of length 4)."""
# ruff: noqa
# run: main
from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @R.function
    def main(data: R.Tensor((4, 4), "float32"), idx: R.Tensor((2, 4), "int64"), nd: R.Tensor((3, 2), "int64"), b3: R.Tensor((2, 4, 4), "float32"), bidx: R.Tensor((2, 3, 1), "int64")) -> R.Tuple(R.Tensor((2, 4), "float32"), R.Tensor((4, 2), "float32"), R.Tensor((3,), "float32"), R.Tensor((2, 3, 4), "float32")):
        a = R.gather_elements(data, idx)
        b = R.gather_elements(data, R.permute_dims(idx), axis=1)
        c = R.gather_nd(data, nd)
        d = R.gather_nd(b3, bidx, batch_dims=1)
        return (a, b, c, d)
