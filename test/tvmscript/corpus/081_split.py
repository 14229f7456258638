"""`R.split` into equal sections (one shorter last piece), at a list of indices, along axis 1,
with tuple indexing of the pieces."""
# ruff: noqa
# run: main
from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((7, 4), "float32")) -> R.Tuple(R.Tensor((3, 4), "float32"), R.Tensor((1, 4), "float32"), R.Tensor((2, 4), "float32"), R.Tensor((7, 2), "float32")):
        parts = R.split(x, 3)
        first = parts[0]
        last = parts[2]
        pieces = R.split(x, indices_or_sections=[2, 5], axis=0)
        mid = pieces[1]
        halves = R.split(x, 2, axis=1)
        right = halves[1]
        tail = R.split(x, [1, 3])
        t = tail[2]
        return (first, last, R.strided_slice(mid, axes=[0], begin=[0], end=[2]), right)
