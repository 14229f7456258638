"""A function that calls an impure packed function but is declared pure through the
`"relax.force_pure"` attribute, next to a private impure helper (`pure=False, private=True`)."""

# ruff: noqa
from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @R.function(pure=False, private=True)
    def log_it(x: R.Tensor((2,), "float32")) -> R.Tensor((2,), "float32"):
        R.print(x, format="log: {}")
        return x

    @R.function
    def main(x: R.Tensor((2,), "float32")) -> R.Tensor((2,), "float32"):
        R.func_attr({"relax.force_pure": True})
        cls = Module
        y = R.call_packed("my_ext.identity", x, sinfo_args=R.Tensor((2,), "float32"))
        z = cls.log_it(y)
        return z
