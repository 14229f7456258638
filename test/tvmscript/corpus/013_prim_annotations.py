"""`R.Prim` annotations: by data type (`R.Prim("int64")`, `R.Prim("float32")`,
`R.Prim("bool")`) and by value (`R.Prim(value="n")`, which defines a symbolic variable)."""

# ruff: noqa
from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @R.function
    def main(
        i: R.Prim("int64"), f: R.Prim("float32"), b: R.Prim("bool"), count: R.Prim(value="n")
    ) -> R.Tuple(R.Prim("int64"), R.Prim(value="n"), R.Shape(["n"])):
        n = T.int64()
        s = R.shape([n])
        return (i, count, s)
