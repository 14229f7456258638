"""Functions without a return annotation (TVM infers the return type from the body), a
private helper without one called from `main`, and parameters annotated with `dtype=` as a
keyword."""
# ruff: noqa
# run: main n=2
from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @R.function(private=True)
    def helper(x: R.Tensor(("n", 3), dtype="float32")):
        y = R.nn.relu(x)
        z = R.sum(y, axis=0)
        return (y, z)

    @R.function
    def main(x: R.Tensor(("n", 3), dtype="float32")):
        cls = Module
        t = cls.helper(x)
        s = R.add(t[0], t[1])
        return s
