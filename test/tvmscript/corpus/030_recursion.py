"""Recursion: a module function calling itself under an `if` on a 0-d bool tensor, counting a
0-d tensor down to zero while accumulating."""

# ruff: noqa
# run: main
from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @R.function
    def loop(
        i: R.Tensor((), "int32"), acc: R.Tensor((3,), "float32"), x: R.Tensor((3,), "float32")
    ) -> R.Tensor((3,), "float32"):
        cls = Module
        done = R.less_equal(i, R.const(0, "int32"))
        if done:
            r = acc
        else:
            next_i = R.subtract(i, R.const(1, "int32"))
            next_acc = R.add(acc, x)
            r = cls.loop(next_i, next_acc, x)
        return r

    @R.function
    def main(x: R.Tensor((3,), "float32")) -> R.Tensor((3,), "float32"):
        cls = Module
        zero = R.zeros_like(x)
        r = cls.loop(R.const(4, "int32"), zero, x)
        return r
