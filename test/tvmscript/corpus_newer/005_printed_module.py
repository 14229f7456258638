"""A module as TVM 0.27.dev prints it for Python < 3.12 (`relax.use_pep695` off): the
`# from typing import TypeVar` header line and a `TypeVar` declaration directly before
`@I.ir_module` (no blank line), shared by two functions; `cls.f` calls; a match_cast to
`R.Any` and back; body symbolic variables still declared with `T.int64()`. Not checkable with
TVM 0.25."""
# ruff: noqa
# run: main n=2
from typing import TypeVar

from tvm.script import ir as I, relax as R, tirx as T

# from typing import TypeVar
# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis
# from tvm.script import relax as R

n = TypeVar("n")
@I.ir_module
class Module:
    @R.function(private=True)
    def helper(x: R.Tensor((n, 4), dtype="float32")) -> R.Tensor((n, 4), dtype="float32"):
        lv: R.Tensor((n, 4), dtype="float32") = R.nn.relu(x)
        return lv

    @R.function
    def main(x: R.Tensor((n, 4), dtype="float32")) -> R.Tensor((n, 4), dtype="float32"):
        k = T.int64()
        cls = Module
        lv: R.Tensor((n, 4), dtype="float32") = cls.helper(x)
        lv1: R.Any = lv
        lv2: R.Tensor((k, 4), dtype="float32") = R.match_cast(lv1, R.Tensor((k, 4), dtype="float32"))
        lv3: R.Tensor((k, 4), dtype="float32") = R.add(lv2, lv2)
        gv: R.Tensor((n, 4), dtype="float32") = R.match_cast(lv3, R.Tensor((n, 4), dtype="float32"))
        return gv
