"""`R.layout_transform` as TVM prints it (`T.index_map`, every keyword), with index maps
whose shapes come from the range of each output rather than from iterators: an offset
difference (which TVM infers but cannot compile) and a scaled axis."""
# ruff: noqa
from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @R.function
    def main(z: R.Tensor((4, 6), dtype="int32"), x: R.Tensor(("n", 5), dtype="float16")) -> R.Tensor(("n * 3 + 2",), dtype="float16"):
        n = T.int64()
        a: R.Tensor((9, 6), dtype="int32") = R.layout_transform(z, index_map=T.index_map(lambda i, j: (i - j + 5, j)), pad_value=R.prim_value(T.int32(-3)), axis_separators=[], input_axis_separators=[])
        b: R.Tensor((8, 6), dtype="int32") = R.layout_transform(z, index_map=T.index_map(lambda i, j: (i * 2, j)), pad_value=None, axis_separators=[1], input_axis_separators=[])
        c: R.Tensor((n * 3 + 2,), dtype="float16") = R.layout_transform(x, index_map=T.index_map(lambda i, j: (i * 3 + j,)), pad_value=R.prim_value(T.float16(0.5)), axis_separators=[], input_axis_separators=[])
        return c
