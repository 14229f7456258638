"""`R.call_inplace_packed`: a packed function that overwrites its first argument
(`inplace_indices=[0]`) and returns it."""

# ruff: noqa
from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((4,), "float32"), y: R.Tensor((4,), "float32")) -> R.Tensor(
        (4,), "float32"
    ):
        a = R.add(x, y)
        b = R.call_inplace_packed(
            "my_ext.inplace_relu", a, inplace_indices=[0], sinfo_args=R.Tensor((4,), "float32")
        )
        return b
