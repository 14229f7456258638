"""`R.call_packed` of an external function (impure, so in a `pure=False` function), with
`sinfo_args=` giving the result type: a tensor, a tuple, and an object."""

# ruff: noqa
from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @R.function(pure=False)
    def main(x: R.Tensor(("n", 4), "float32")) -> R.Tensor(("n", 4), "float32"):
        n = T.int64()
        y = R.call_packed("my_ext.transform", x, sinfo_args=R.Tensor((n, 4), "float32"))
        t = R.call_packed(
            "my_ext.split",
            y,
            R.prim_value(2),
            sinfo_args=R.Tuple(
                R.Tensor(ndim=2, dtype="float32"), R.Tensor(ndim=2, dtype="float32")
            ),
        )
        o = R.call_packed("my_ext.log", x, R.str("tag"), sinfo_args=R.Object)
        return y
