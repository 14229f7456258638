"""`R.nn.group_norm` (2 groups of 2 channels, spatial axes) and `R.nn.instance_norm` on NCHW
data, with `scale=False` on one of them."""
# ruff: noqa
# run: main
from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((2, 4, 3, 3), "float32"), gamma: R.Tensor((4,), "float32"), beta: R.Tensor((4,), "float32")) -> R.Tuple(R.Tensor((2, 4, 3, 3), "float32"), R.Tensor((2, 4, 3, 3), "float32"), R.Tensor((2, 4, 3, 3), "float32")):
        g = R.nn.group_norm(x, gamma, beta, num_groups=2, channel_axis=1, axes=[2, 3])
        i = R.nn.instance_norm(x, gamma, beta, channel_axis=1, axes=[2, 3])
        j = R.nn.instance_norm(x, gamma, beta, 1, [2, 3], epsilon=1e-3, scale=False)
        return (g, i, j)
