"""Bitwise operators and shifts on integers: `R.bitwise_and`, `R.bitwise_or`,
`R.bitwise_xor`, `R.left_shift`, `R.right_shift` (arithmetic on negative int32), and bitwise
operators on int8."""

# ruff: noqa
# run: main
from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @R.function
    def main(
        a: R.Tensor((5,), "int32"), s: R.Tensor((5,), "int32"), b: R.Tensor((5,), "int8")
    ) -> R.Tuple(
        R.Tensor((5,), "int32"),
        R.Tensor((5,), "int32"),
        R.Tensor((5,), "int32"),
        R.Tensor((5,), "int32"),
        R.Tensor((5,), "int32"),
        R.Tensor((5,), "int8"),
    ):
        v = R.subtract(R.multiply(a, R.const(37, "int32")), R.const(50, "int32"))
        band = R.bitwise_and(v, R.const(12, "int32"))
        bor = R.bitwise_or(v, s)
        bxor = R.bitwise_xor(v, R.const(-1, "int32"))
        shl = R.left_shift(v, s)
        shr = R.right_shift(v, s)
        small = R.bitwise_xor(
            R.bitwise_or(b, R.const(1, "int8")), R.bitwise_and(b, R.const(2, "int8"))
        )
        return (band, bor, bxor, shl, shr, small)
