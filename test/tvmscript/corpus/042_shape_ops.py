"""Shape and size operators: `R.shape_of`, `R.shape_to_tensor`, `R.tensor_to_shape` (with a
match_cast of its unknown dimensions), `R.size`, and a reshape to a computed shape."""

# ruff: noqa
# run: main n=3
from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor(("n", 4), "float32")) -> R.Tuple(
        R.Tensor((2,), "int64"), R.Tensor((), "int64"), R.Tensor((4, "n"), "float32")
    ):
        n = T.int64()
        s = R.shape_of(x)
        st = R.shape_to_tensor(s)
        count = R.size(x)
        rev = R.flip(st, axis=0)
        s2 = R.tensor_to_shape(rev)
        a = T.int64()
        b = T.int64()
        s3 = R.match_cast(s2, R.Shape([a, b]))
        y = R.reshape(x, R.shape([a, b]))
        z = R.match_cast(y, R.Tensor((4, n), "float32"))
        return (st, count, z)
