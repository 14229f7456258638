"""Element-wise unary operators on floats, as users write them: `R.exp`, `R.log`, `R.sqrt`,
`R.rsqrt`, `R.square`, `R.abs`, `R.negative`, `R.sign`, `R.erf`, `R.sigmoid`, `R.tanh`
(arguments kept in each operator's domain)."""

# ruff: noqa
# run: main
from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((3, 4), "float32")) -> R.Tuple(
        R.Tensor((3, 4), "float32"), R.Tensor((3, 4), "float32"), R.Tensor((3, 4), "float32")
    ):
        with R.dataflow():
            a = R.abs(x)
            one = R.const(1.0, "float32")
            pos = R.add(a, one)
            l = R.log(pos)
            s = R.sqrt(a)
            r = R.rsqrt(pos)
            e = R.exp(R.negative(a))
            q = R.square(x)
            g = R.sign(x)
            f = R.erf(x)
            sg = R.sigmoid(x)
            th = R.tanh(x)
            sum1 = R.add(l, s)
            sum2 = R.add(r, e)
            sum3 = R.add(q, g)
            sum4 = R.add(f, sg)
            out0 = R.add(sum1, sum2)
            out1 = R.add(sum3, sum4)
            R.output(out0, out1, th)
        return (out0, out1, th)
