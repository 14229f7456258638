from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @R.function
    def main() -> R.Tensor((), dtype="bool"):
        R.func_attr({"num_input": 0})
        with R.dataflow():
            gv: R.Tensor((), dtype="bool") = R.const(False, "bool")
            R.output(gv)
        return gv
