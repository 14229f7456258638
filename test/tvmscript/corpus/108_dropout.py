"""`R.nn.dropout` returning `(output, mask)` with the default rate and `rate=0.1`. No run spec:
TVM does not legalize dropout (its frontends drop it)."""
# ruff: noqa
from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((2, 4), "float32")) -> R.Tuple(R.Tensor((2, 4), "float32"), R.Tensor((2, 4), "float32")):
        d = R.nn.dropout(x)
        out = d[0]
        mask = d[1]
        e = R.nn.dropout(out, rate=0.1)
        return (e[0], mask)
