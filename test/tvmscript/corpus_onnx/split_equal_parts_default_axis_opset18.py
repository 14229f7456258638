from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @R.function
    def main(input: R.Tensor((6,), dtype="float32")) -> R.Tuple(R.Tensor((2,), dtype="float32"), R.Tensor((2,), dtype="float32"), R.Tensor((2,), dtype="float32")):
        R.func_attr({"num_input": 1})
        with R.dataflow():
            lv: R.Tuple(R.Tensor((2,), dtype="float32"), R.Tensor((2,), dtype="float32"), R.Tensor((2,), dtype="float32")) = R.split(input, indices_or_sections=3, axis=0)
            lv1: R.Tensor((2,), dtype="float32") = lv[0]
            lv2: R.Tensor((2,), dtype="float32") = lv[1]
            lv3: R.Tensor((2,), dtype="float32") = lv[2]
            gv: R.Tuple(R.Tensor((2,), dtype="float32"), R.Tensor((2,), dtype="float32"), R.Tensor((2,), dtype="float32")) = lv1, lv2, lv3
            R.output(gv)
        return gv
