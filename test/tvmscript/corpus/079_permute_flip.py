"""`R.permute_dims` with explicit axes, negative axes and none (reversal); `R.flip` along an
axis and a negative axis."""
# ruff: noqa
# run: main
from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((2, 3, 4), "float32")) -> R.Tuple(R.Tensor((4, 2, 3), "float32"), R.Tensor((4, 3, 2), "float32"), R.Tensor((2, 4, 3), "float32"), R.Tensor((2, 3, 4), "float32"), R.Tensor((2, 3, 4), "float32")):
        a = R.permute_dims(x, axes=[2, 0, 1])
        b = R.permute_dims(x)
        c = R.permute_dims(x, [0, -1, -2])
        d = R.flip(x, axis=1)
        e = R.flip(x, -1)
        return (a, b, c, d, e)
