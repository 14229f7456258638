from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @R.function
    def main(cond: R.Tensor((), dtype="bool")) -> R.Tensor((5,), dtype="float32"):
        R.func_attr({"num_input": 1})
        if cond:
            gv: R.Tensor((5,), dtype="float32") = metadata["relax.expr.Constant"][0]
        else:
            gv: R.Tensor((5,), dtype="float32") = metadata["relax.expr.Constant"][1]
        return gv

# Metadata omitted. Use show_meta=True in script() method to show it.
