# error: 11:13: impure relax.call_packed cannot appear in a pure function
# An impure call in a function not declared pure=False (nor relax.force_pure).
# ruff: noqa
from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((2, 3), "float32")) -> R.Tensor((2, 3), "float32"):
        y = R.call_packed("my_ext.f", x, sinfo_args=R.Tensor((2, 3), "float32"))
        return y
# tvm: rejects
