"""`R.nn.prelu` with a per-channel alpha (default channel axis 1 and `axis=-1`) and `R.nn.pad`
in the modes `"constant"` (with `pad_value`), `"reflect"` and `"replicate"`."""
# ruff: noqa
# run: main
from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((2, 3, 4), "float32"), alpha: R.Tensor((3,), "float32"), beta: R.Tensor((4,), "float32")) -> R.Tuple(R.Tensor((2, 3, 4), "float32"), R.Tensor((2, 3, 4), "float32"), R.Tensor((2, 5, 7), "float32"), R.Tensor((2, 3, 8), "float32"), R.Tensor((4, 3, 6), "float32")):
        a = R.nn.prelu(x, alpha)
        b = R.nn.prelu(x, beta, axis=-1)
        c = R.nn.pad(x, [0, 0, 1, 1, 2, 1], pad_value=1.5)
        d = R.nn.pad(x, (0, 0, 0, 0, 2, 2), pad_mode="reflect")
        e = R.nn.pad(x, pad_width=[1, 1, 0, 0, 1, 1], pad_mode="replicate")
        return (a, b, c, d, e)
