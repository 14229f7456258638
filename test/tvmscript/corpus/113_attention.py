"""`R.nn.attention(q, k, v)` on `[batch, seq, heads, head_dim]` tensors: default scale, an
explicit `scale=`, `causal_mask="TopLeft"` and `"BottomRight"` with a longer key sequence."""
# ruff: noqa
# run: main
from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @R.function
    def main(q: R.Tensor((1, 3, 2, 4), "float32"), k: R.Tensor((1, 5, 2, 4), "float32"), v: R.Tensor((1, 5, 2, 6), "float32")) -> R.Tuple(R.Tensor((1, 3, 2, 6), "float32"), R.Tensor((1, 3, 2, 6), "float32"), R.Tensor((1, 3, 2, 6), "float32"), R.Tensor((1, 3, 2, 6), "float32")):
        a = R.nn.attention(q, k, v)
        b = R.nn.attention(q, k, v, scale=0.25)
        c = R.nn.attention(q, k, v, causal_mask="TopLeft")
        d = R.nn.attention(q, k, v, scale=0.5, causal_mask="BottomRight")
        return (a, b, c, d)
