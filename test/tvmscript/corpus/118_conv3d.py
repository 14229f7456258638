"""`R.nn.conv3d` of NCDHW data with an OIDHW weight: defaults, and strides with padding."""
# ruff: noqa
# run: main
from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((1, 2, 4, 5, 5), "float32"), w: R.Tensor((3, 2, 2, 3, 3), "float32")) -> R.Tuple(R.Tensor((1, 3, 3, 3, 3), "float32"), R.Tensor((1, 3, 5, 3, 3), "float32")):
        a = R.nn.conv3d(x, w)
        b = R.nn.conv3d(x, w, strides=(1, 2, 2), padding=(1, 1, 1))
        return (a, b)
