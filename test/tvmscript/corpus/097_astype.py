"""`R.astype` with the data type positional (`R.astype(x, "float16")`) and as a keyword:
float to int (truncation), float to bool, int to float, bool to int, widening and narrowing."""
# ruff: noqa
# run: main
from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((2, 4), "float32"), i: R.Tensor((2, 4), "int32"), b: R.Tensor((2, 4), "bool")) -> R.Tuple(R.Tensor((2, 4), "float16"), R.Tensor((2, 4), "int32"), R.Tensor((2, 4), "bool"), R.Tensor((2, 4), "float32"), R.Tensor((2, 4), "int64"), R.Tensor((2, 4), "int8")):
        scaled = R.multiply(x, R.const(3.0, "float32"))
        h = R.astype(x, "float16")
        t = R.astype(scaled, dtype="int32")
        nz = R.astype(R.round(x), "bool")
        f = R.astype(i, "float32")
        w = R.astype(b, "int64")
        n = R.astype(R.add(i, R.const(126, "int32")), "int8")
        return (h, t, nz, f, w, n)
