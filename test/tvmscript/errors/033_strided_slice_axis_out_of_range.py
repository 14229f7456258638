# error: 12:13: axis 3 is out of range
# R.strided_slice along an axis the tensor does not have (TVM finds it only in its
# well-formedness check).
# ruff: noqa
from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((5, 6), "float32")) -> R.Tensor((5, 6), "float32"):
        y = R.strided_slice(x, axes=[3], begin=[0], end=[2])
        return x
# tvm: rejects
