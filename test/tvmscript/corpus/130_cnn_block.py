"""A small convolutional network: conv2d + batch_norm (inference) + relu, max_pool2d,
depthwise conv2d, bilinear `R.image.resize2d` upsampling, adaptive_avg_pool2d, flatten and a
dense layer."""
# ruff: noqa
# run: main
from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((1, 3, 8, 8), "float32"), w: R.Tensor((4, 3, 3, 3), "float32"), gamma: R.Tensor((4,), "float32"), beta: R.Tensor((4,), "float32"), mean: R.Tensor((4,), "float32"), var: R.Tensor((4,), "float32"), dw: R.Tensor((4, 1, 3, 3), "float32"), fc: R.Tensor((4, 5), "float32")) -> R.Tuple(R.Tensor((1, 5), "float32"), R.Tensor((1, 4, 8, 8), "float32")):
        with R.dataflow():
            c = R.nn.conv2d(x, w, padding=1)
            bn = R.nn.batch_norm(c, gamma, beta, mean, R.add(R.abs(var), R.const(1.0, "float32")), axis=1, training=False)
            r = R.nn.relu(bn[0])
            p = R.nn.max_pool2d(r, pool_size=2, strides=2)
            d = R.nn.conv2d(p, dw, padding=1, groups=4)
            up = R.image.resize2d(d, (8, 8), method="linear")
            skip = R.add(up, r)
            g = R.nn.adaptive_avg_pool2d(d, output_size=1)
            f = R.nn.batch_flatten(g)
            out = R.matmul(f, fc)
            R.output(out, skip)
        return (out, skip)
