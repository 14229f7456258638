"""A small transformer block: rms_norm, q/k/v projections reshaped to
`[batch, seq, heads, head_dim]`, causal `R.nn.attention`, output projection, residual,
layer_norm and a silu-gated MLP; symbolic sequence length."""
# ruff: noqa
# run: main s=5
from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((1, "s", 8), "float32"), g: R.Tensor((8,), "float32"), wq: R.Tensor((8, 8), "float32"), wk: R.Tensor((8, 8), "float32"), wv: R.Tensor((8, 8), "float32"), wo: R.Tensor((8, 8), "float32"), ln_g: R.Tensor((8,), "float32"), ln_b: R.Tensor((8,), "float32"), w_up: R.Tensor((8, 16), "float32"), w_gate: R.Tensor((8, 16), "float32"), w_down: R.Tensor((16, 8), "float32")) -> R.Tensor((1, "s", 8), "float32"):
        s = T.int64()
        with R.dataflow():
            h = R.nn.rms_norm(x, g, axes=[-1])
            q = R.reshape(R.matmul(h, wq), (1, s, 2, 4))
            k = R.reshape(R.matmul(h, wk), (1, s, 2, 4))
            v = R.reshape(R.matmul(h, wv), (1, s, 2, 4))
            att = R.nn.attention(q, k, v, causal_mask="TopLeft")
            att2: R.Tensor((1, s, 8), "float32") = R.reshape(att, (1, s, 8))
            proj = R.matmul(att2, wo)
            res = R.add(x, proj)
            n2 = R.nn.layer_norm(res, ln_g, ln_b, axes=[-1])
            up = R.matmul(n2, w_up)
            gate = R.nn.silu(R.matmul(n2, w_gate))
            mlp = R.matmul(R.multiply(up, gate), w_down)
            out = R.add(res, mlp)
            R.output(out)
        return out
