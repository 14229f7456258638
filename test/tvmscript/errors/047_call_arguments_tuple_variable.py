# error: 12:45: the arguments must be a tuple written in line
# The calls that take their arguments as a tuple take it written in line, as TVM does.
# ruff: noqa
from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((4,), "float32"), y: R.Tensor((4,), "float32")):
        t = (x, y)
        z = R.call_dps_packed("my_ext.add", t, R.Tensor((4,), "float32"))
        return z
# tvm: rejects
