"""`R.null_value()` as a placeholder object passed to a packed function and returned in a
tuple."""

# ruff: noqa
from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @R.function(pure=False)
    def main(x: R.Tensor((3,), "float32")) -> R.Tuple(R.Tensor((3,), "float32"), R.Object):
        none = R.null_value()
        y = R.call_packed("my_ext.maybe_scale", x, none, sinfo_args=R.Tensor((3,), "float32"))
        return (y, none)
