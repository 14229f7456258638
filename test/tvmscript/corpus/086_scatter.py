"""`R.scatter_elements` with the default `"update"` and with `reduction="add"` along axis 1;
`R.scatter_nd` with `"update"` and `"mul"` (indices of distinct rows)."""
# ruff: noqa
# run: main
from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @R.function
    def main(data: R.Tensor((4, 4), "float32"), idx: R.Tensor((2, 4), "int64"), upd: R.Tensor((2, 4), "float32"), rows: R.Tensor((2, 4), "float32")) -> R.Tuple(R.Tensor((4, 4), "float32"), R.Tensor((4, 4), "float32"), R.Tensor((4, 4), "float32"), R.Tensor((4, 4), "float32")):
        a = R.scatter_elements(data, R.zeros((2, 4), "int64"), upd)
        b = R.scatter_elements(data, idx, upd, axis=1, reduction="add")
        where = R.reshape(R.arange(1, 3, 1, "int64"), (2, 1))
        c = R.scatter_nd(data, where, rows)
        d = R.scatter_nd(data, where, rows, reduction="mul")
        return (a, b, c, d)
