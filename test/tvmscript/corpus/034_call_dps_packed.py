"""`R.call_dps_packed("f", (x,), out_sinfo=...)`: destination-passing packed calls with one
output and with a list of two outputs."""

# ruff: noqa
from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((8, 4), "float32"), y: R.Tensor((8, 4), "float32")) -> R.Tuple(
        R.Tensor((8, 4), "float32"), R.Tensor((8,), "float32")
    ):
        with R.dataflow():
            s = R.call_dps_packed("my_ext.add", (x, y), out_sinfo=R.Tensor((8, 4), "float32"))
            pair = R.call_dps_packed(
                "my_ext.norms",
                (s,),
                out_sinfo=[R.Tensor((8, 4), "float32"), R.Tensor((8,), "float32")],
            )
            a = pair[0]
            b = pair[1]
            R.output(a, b)
        return (a, b)
