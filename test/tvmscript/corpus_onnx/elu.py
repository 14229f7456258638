from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((3, 4, 5), dtype="float32")) -> R.Tensor((3, 4, 5), dtype="float32"):
        R.func_attr({"num_input": 1})
        with R.dataflow():
            lv: R.Tensor((3, 4, 5), dtype="float32") = R.exp(x)
            lv1: R.Tensor((3, 4, 5), dtype="float32") = R.subtract(R.const(1.0, "float32"), lv)
            lv2: R.Tensor((3, 4, 5), dtype="float32") = R.nn.relu(lv1)
            lv3: R.Tensor((3, 4, 5), dtype="float32") = R.multiply(R.const(-2.0, "float32"), lv2)
            lv4: R.Tensor((3, 4, 5), dtype="float32") = R.nn.relu(x)
            gv: R.Tensor((3, 4, 5), dtype="float32") = R.add(lv3, lv4)
            R.output(gv)
        return gv
