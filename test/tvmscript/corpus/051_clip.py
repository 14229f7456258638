"""`R.clip` in the forms users write (`R.clip(x, 0, 6)`, float bounds) and the form TVM prints
(`R.clip(x, R.prim_value(0), R.prim_value(6))`), on float and int tensors."""

# ruff: noqa
# run: main
from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((2, 4), "float32"), i: R.Tensor((2, 4), "int32")) -> R.Tuple(
        R.Tensor((2, 4), "float32"), R.Tensor((2, 4), "float32"), R.Tensor((2, 4), "int32")
    ):
        scaled = R.multiply(x, R.const(4.0, "float32"))
        a = R.clip(scaled, 0, 6)
        b: R.Tensor((2, 4), dtype="float32") = R.clip(
            scaled, R.prim_value(T.float32(-0.5)), R.prim_value(T.float32(0.5))
        )
        c: R.Tensor((2, 4), dtype="int32") = R.clip(i, R.prim_value(1), R.prim_value(2))
        return (a, b, c)
