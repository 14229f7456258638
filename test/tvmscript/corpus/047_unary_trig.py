"""Trigonometric and hyperbolic operators: `R.sin`, `R.cos`, `R.tan`, `R.asin`, `R.acos`,
`R.atan`, `R.sinh`, `R.cosh`, `R.asinh`, `R.acosh`, `R.atanh` (inverse functions fed values
inside their domains)."""

# ruff: noqa
# run: main n=5
from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor(("n",), "float32")) -> R.Tuple(
        R.Tensor(("n",), "float32"), R.Tensor(("n",), "float32")
    ):
        with R.dataflow():
            s = R.sin(x)
            c = R.cos(x)
            t = R.tan(R.multiply(x, R.const(0.25, "float32")))
            unit = R.multiply(R.tanh(x), R.const(0.9, "float32"))
            as_ = R.asin(unit)
            ac = R.acos(unit)
            at = R.atan(x)
            sh = R.sinh(x)
            ch = R.cosh(x)
            ash = R.asinh(x)
            ach = R.acosh(R.add(R.abs(x), R.const(1.5, "float32")))
            ath = R.atanh(unit)
            p1 = R.add(s, c)
            p2 = R.add(t, as_)
            p3 = R.add(ac, at)
            p4 = R.subtract(sh, ch)
            p5 = R.add(ash, ach)
            circ = R.add(R.add(p1, p2), p3)
            hyp = R.add(R.add(p4, p5), ath)
            R.output(circ, hyp)
        return (circ, hyp)
