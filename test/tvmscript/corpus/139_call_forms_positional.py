"""`R.call_dps_packed` with every argument by position: the arguments as a tuple
(`(y,)`), or one value standing for the tuple of itself, and the output types as one
StructInfo or a list of them."""

# ruff: noqa
from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @R.function
    def main(y: R.Tensor(("n", 4), "float32")) -> R.Tuple(
        R.Tensor(("n", 4), "float32"), R.Tensor(("n", 4), "float32")
    ):
        n = T.int64()
        a = R.call_dps_packed("my_ext.copy", (y,), R.Tensor((n, 4), "float32"))
        b = R.call_dps_packed("my_ext.copy", y, [R.Tensor((n, 4), "float32")])
        pair = R.call_dps_packed(
            "my_ext.split", (a, b), [R.Tensor((n, 4), "float32"), R.Tensor((n, 4), "float32")]
        )
        return pair
