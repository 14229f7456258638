"""`R.strided_slice` as users write it (`axes=[0], begin=[1], end=[3]`), with strides, negative
begin/end/strides, several axes, `assume_inbound=True`; and the printed form with tuples of
prim values."""
# ruff: noqa
# run: main
from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((5, 6), "float32")) -> R.Tuple(R.Tensor((2, 6), "float32"), R.Tensor((5, 3), "float32"), R.Tensor((3, 2), "float32"), R.Tensor((5, 6), "float32"), R.Tensor((2, 6), "float32")):
        a = R.strided_slice(x, axes=[0], begin=[1], end=[3])
        b = R.strided_slice(x, axes=[1], begin=[0], end=[6], strides=[2])
        c = R.strided_slice(x, axes=[0, 1], begin=[-1, 5], end=[-4, 1], strides=[-1, -2])
        d = R.strided_slice(x, [0], [0], [100], assume_inbound=False)
        e: R.Tensor((2, 6), dtype="float32") = R.strided_slice(x, (R.prim_value(0),), (R.prim_value(3),), (R.prim_value(5),), assume_inbound=True)
        return (a, b, c, d, e)
