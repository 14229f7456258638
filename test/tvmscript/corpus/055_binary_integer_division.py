"""Integer division and remainders with negative operands: `R.divide` (truncating),
`R.floor_divide`, `R.mod` (sign of the dividend), `R.floor_mod` (sign of the divisor) on
int32, and their float versions."""

# ruff: noqa
# run: main
from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @R.function
    def main(
        a: R.Tensor((3, 4), "int32"), b: R.Tensor((3, 4), "int32"), x: R.Tensor((3, 4), "float32")
    ) -> R.Tuple(
        R.Tensor((3, 4), "int32"),
        R.Tensor((3, 4), "int32"),
        R.Tensor((3, 4), "int32"),
        R.Tensor((3, 4), "int32"),
        R.Tensor((3, 4), "float32"),
        R.Tensor((3, 4), "float32"),
        R.Tensor((3, 4), "float32"),
    ):
        num = R.subtract(R.multiply(a, R.const(3, "int32")), R.const(5, "int32"))
        den = R.add(b, R.const(1, "int32"))
        signed_den = R.multiply(den, R.const(-1, "int32"))
        q = R.divide(num, den)
        fq = R.floor_divide(num, signed_den)
        r = R.mod(num, signed_den)
        fr = R.floor_mod(num, signed_den)
        fden = R.add(R.abs(x), R.const(0.5, "float32"))
        ffq = R.floor_divide(x, fden)
        fmod = R.mod(x, fden)
        ffmod = R.floor_mod(x, R.negative(fden))
        return (q, fq, r, fr, ffq, fmod, ffmod)
