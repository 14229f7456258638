"""`R.sort` (ascending, descending, along axis 0) and `R.argsort` (default int32 indices,
`dtype="int64"`, descending) on floats and integers."""
# ruff: noqa
# run: main
from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((3, 5), "float32"), i: R.Tensor((6,), "int32")) -> R.Tuple(R.Tensor((3, 5), "float32"), R.Tensor((3, 5), "float32"), R.Tensor((3, 5), "int32"), R.Tensor((3, 5), "int64"), R.Tensor((6,), "int32")):
        a = R.sort(x)
        b = R.sort(x, axis=0, descending=True)
        c = R.argsort(x)
        d = R.argsort(x, axis=0, descending=True, dtype="int64")
        e = R.sort(i, descending=True)
        return (a, b, c, d, e)
