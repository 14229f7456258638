from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @R.function
    def main() -> R.Tensor((5, 5), dtype="float32"):
        R.func_attr({"num_input": 0})
        with R.dataflow():
            gv: R.Tensor((5, 5), dtype="float32") = metadata["relax.expr.Constant"][0]
            R.output(gv)
        return gv

# Metadata omitted. Use show_meta=True in script() method to show it.
