"""`R.call_pure_packed` inside a dataflow block (it is pure), with `sinfo_args=` a tensor and a
symbolic shape from the argument."""

# ruff: noqa
from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor(("n", "m"), "float32")) -> R.Tensor(("m", "n"), "float32"):
        n = T.int64()
        m = T.int64()
        with R.dataflow():
            y = R.call_pure_packed("my_ext.transpose", x, sinfo_args=R.Tensor((m, n), "float32"))
            z = R.call_pure_packed(
                "my_ext.scale",
                y,
                R.prim_value(T.float32(2.0)),
                sinfo_args=(R.Tensor((m, n), "float32"),),
            )
            R.output(z)
        return z
