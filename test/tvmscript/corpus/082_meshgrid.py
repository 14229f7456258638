"""`R.meshgrid` of 1-d tensors with the default `"ij"` indexing and with `"xy"`; tuple
results indexed. TVM 0.25 infers the `"xy"` grids as (3, 4) like `"ij"` (and accepts the
(4, 3) return annotation unchecked) while its kernel returns (4, 3), as NumPy does."""
# ruff: noqa
# run: main
from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @R.function
    def main(u: R.Tensor((3,), "float32"), v: R.Tensor((4,), "float32"), w: R.Tensor((2,), "float32")) -> R.Tuple(R.Tensor((3, 4), "float32"), R.Tensor((4, 3), "float32"), R.Tensor((3, 4, 2), "float32")):
        ij = R.meshgrid((u, v))
        xy = R.meshgrid((u, v), indexing="xy")
        three = R.meshgrid([u, v, w])
        a = R.add(ij[0], ij[1])
        b = R.multiply(xy[0], xy[1])
        c = three[2]
        return (a, b, c)
