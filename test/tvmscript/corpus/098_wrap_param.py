"""`R.wrap_param` marking model parameters, with the default `float32` and an explicit
`dtype="float16"`, in a small linear layer; the printed form `R.wrap_param(w, dtype=...)`.
No run spec: TVM 0.25 does not legalize `wrap_param` (its mixed-precision pass removes it)."""
# ruff: noqa
from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((2, 3), "float16"), w: R.Tensor((3, 4), "float32"), b: R.Tensor((4,), "float16")) -> R.Tensor((2, 4), "float32"):
        wh = R.wrap_param(w, "float16")
        y = R.matmul(x, wh)
        z = R.add(y, b)
        bf: R.Tensor((4,), dtype="float32") = R.wrap_param(b, dtype="float32")
        out = R.add(R.wrap_param(z), bf)
        return out
