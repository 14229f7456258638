"""Leaf values: `R.shape([...])` (static and symbolic), `R.prim_value(...)` (int, float,
symbolic), `R.str("...")`, `R.dtype("float32")`, in bindings and a returned tuple."""

# ruff: noqa
from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor(("n", 3), "float32")) -> R.Tuple(
        R.Shape([2, 3]),
        R.Shape(["n", 3]),
        R.Prim("int64"),
        R.Prim("float32"),
        R.Prim("int64"),
        R.Object,
        R.Object,
    ):
        n = T.int64()
        s1 = R.shape([2, 3])
        s2 = R.shape([n, 3])
        p1 = R.prim_value(7)
        p2 = R.prim_value(T.float32(0.5))
        p3 = R.prim_value(n * 2)
        name = R.str("hello relax")
        dt = R.dtype("float32")
        return (s1, s2, p1, p2, p3, name, dt)
