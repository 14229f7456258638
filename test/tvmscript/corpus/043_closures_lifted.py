"""Closures as lambda lifting leaves them: `R.make_closure(cls.f, (captured,))` of a module
function, called with `R.invoke_pure_closure` and (impurely) `R.invoke_closure`, with
`sinfo_args=`."""

# ruff: noqa
from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @R.function(private=True)
    def add_captured(captured: R.Tensor((3,), "float32"), x: R.Tensor((3,), "float32")) -> R.Tensor(
        (3,), "float32"
    ):
        y = R.add(captured, x)
        return y

    @R.function(pure=False)
    def main(c: R.Tensor((3,), "float32"), x: R.Tensor((3,), "float32")) -> R.Tuple(
        R.Tensor((3,), "float32"), R.Tensor((3,), "float32")
    ):
        cls = Module
        clo = R.make_closure(cls.add_captured, (c,))
        a = R.invoke_pure_closure(clo, (x,), sinfo_args=R.Tensor((3,), "float32"))
        b = R.invoke_closure(clo, (a,), sinfo_args=R.Tensor((3,), "float32"))
        return (a, b)
