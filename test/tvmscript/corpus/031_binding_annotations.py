"""Binding annotations: exact (`a: R.Tensor((n, 4), "float32") = ...`), weaker (only the
rank, only the data type, `R.Tensor`, `R.Object`), and on a tuple binding. TVM 0.25 keeps
the weaker annotations of calls but gives `e: R.Object = d` (a variable bound to a variable)
the type of `d`. No run spec: TVM cannot legalize operators whose operands lost their shape."""

# ruff: noqa
from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor(("n", 4), "float32")) -> R.Tensor(ndim=2, dtype="float32"):
        n = T.int64()
        a: R.Tensor((n, 4), "float32") = R.add(x, x)
        b: R.Tensor(ndim=2, dtype="float32") = R.multiply(a, x)
        c: R.Tensor(dtype="float32") = R.exp(b)
        d: R.Tensor = R.negative(c)
        e: R.Object = d
        t: R.Tuple(R.Tensor((n, 4), "float32"), R.Tensor(ndim=2, dtype="float32")) = (a, b)
        f: R.Tensor((n, 4), "float32") = t[0]
        g = R.add(f, b)
        return g
