from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @R.function
    def main(X: R.Tensor((1, 1, 3, 2), dtype="float32"), Grid: R.Tensor((1, 2, 4, 2), dtype="float32")) -> R.Tensor((1, 1, 2, 2), dtype="float32"):
        R.func_attr({"num_input": 2})
        with R.dataflow():
            lv: R.Tensor((1, 2, 2, 4), dtype="float32") = R.permute_dims(Grid, axes=[0, 3, 1, 2])
            gv: R.Tensor((1, 1, 2, 2), dtype="float32") = R.image.grid_sample(X, lv, method="bilinear", layout="NCHW", padding_mode="zeros", align_corners=True)
            R.output(gv)
        return gv
