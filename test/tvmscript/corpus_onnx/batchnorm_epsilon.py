from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((2, 3, 4, 5), dtype="float32"), s: R.Tensor((3,), dtype="float32"), bias: R.Tensor((3,), dtype="float32"), mean: R.Tensor((3,), dtype="float32"), var: R.Tensor((3,), dtype="float32")) -> R.Tensor((2, 3, 4, 5), dtype="float32"):
        R.func_attr({"num_input": 5})
        with R.dataflow():
            lv: R.Tuple(R.Tensor((2, 3, 4, 5), dtype="float32"), R.Tensor((3,), dtype="float32"), R.Tensor((3,), dtype="float32")) = R.nn.batch_norm(x, s, bias, mean, var, axis=1, epsilon=0.0099999997764825821, center=True, scale=True, momentum=0.90000000000000002, training=False)
            lv1: R.Tensor((2, 3, 4, 5), dtype="float32") = lv[0]
            lv2: R.Tensor((3,), dtype="float32") = lv[1]
            lv3: R.Tensor((3,), dtype="float32") = lv[2]
            gv: R.Tensor((2, 3, 4, 5), dtype="float32") = lv1
            R.output(gv)
        return gv
