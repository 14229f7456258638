"""`R.dynamic_strided_slice(x, begin, end, strides)` with the bounds as 1-d int64 tensors made
at run time; the data-dependent result recovered with `R.match_cast`."""
# ruff: noqa
# run: main
from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((4, 6), "float32")) -> R.Tensor((2, 3), "float32"):
        begin = R.ones((2,), "int64")
        end = R.full((2,), R.const(3, "int64"), "int64")
        end2 = R.multiply(end, R.reshape(R.arange(1, 3, 1, "int64"), (2,)))
        strides = R.ones((2,), "int64")
        steps = R.concat((strides, R.add(strides, strides)))
        step = R.strided_slice(steps, axes=[0], begin=[1], end=[3])
        y = R.dynamic_strided_slice(x, begin, end2, step)
        z = R.match_cast(y, R.Tensor((2, 3), "float32"))
        return z
