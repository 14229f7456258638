from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @R.function
    def main(input: R.Tensor((3, 5), dtype="float32"), target: R.Tensor((3,), dtype="int64")) -> R.Tensor((3,), dtype="float32"):
        R.func_attr({"num_input": 2})
        with R.dataflow():
            lv: R.Tensor((3, 1), dtype="int64") = R.expand_dims(target, axis=[1])
            lv1: R.Tensor((3, 1), dtype="float32") = R.gather_elements(input, lv, axis=1)
            lv2: R.Tensor((3, 1), dtype="float32") = R.negative(lv1)
            lv3: R.Tensor((3, 1), dtype="float32") = R.strided_slice(lv2, (R.prim_value(1),), (R.prim_value(0),), (R.prim_value(1),), (R.prim_value(1),), assume_inbound=False)
            gv: R.Tensor((3,), dtype="float32") = R.squeeze(lv3, axis=[1])
            R.output(gv)
        return gv
