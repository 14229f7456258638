"""`relax.nn.attention_bias`, which TVMScript writes as `R.nn.attention(q, k, v, bias)` (a
fourth operand) and also as `R.nn.attention_bias(...)`; the bias broadcast from
`[1, heads, seq, seq_kv]`."""
# ruff: noqa
# run: main
from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @R.function
    def main(q: R.Tensor((2, 3, 2, 4), "float32"), k: R.Tensor((2, 3, 2, 4), "float32"), v: R.Tensor((2, 3, 2, 4), "float32"), bias: R.Tensor((1, 2, 3, 3), "float32"), full: R.Tensor((2, 2, 3, 3), "float32")) -> R.Tuple(R.Tensor((2, 3, 2, 4), "float32"), R.Tensor((2, 3, 2, 4), "float32"), R.Tensor((2, 3, 2, 4), "float32")):
        a = R.nn.attention(q, k, v, bias)
        b = R.nn.attention(q, k, v, full, scale=0.1, causal_mask="TopLeft")
        c = R.nn.attention_bias(q, k, v, bias, scale=0.3)
        return (a, b, c)
