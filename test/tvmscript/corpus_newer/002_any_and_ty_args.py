"""Newer (TVM 0.27.dev) syntax: `R.Any` where 0.25 writes `R.Object` (StructInfo became
`Type`: `AnyType`), and `ty_args=` where 0.25 writes `sinfo_args=` in `R.call_packed` and
`R.call_pure_packed`. Not checkable with TVM 0.25."""
# ruff: noqa
from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @R.function(pure=False)
    def main(x: R.Tensor((2, 3), dtype="float32"), handle: R.Any) -> R.Tuple(R.Tensor((2, 3), dtype="float32"), R.Any):
        y: R.Tensor((2, 3), dtype="float32") = R.call_pure_packed("my_ext.scale", x, ty_args=(R.Tensor((2, 3), dtype="float32"),))
        o: R.Any = R.call_packed("my_ext.log", y, handle, ty_args=(R.Any,))
        weak: R.Any = y
        return (y, o)
