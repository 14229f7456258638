from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @R.function
    def main(X: R.Tensor((1, 1, 10, 10), dtype="float32"), rois: R.Tensor((3, 4), dtype="float32"), batch_indices: R.Tensor((3,), dtype="int64")) -> R.Tensor((3, 1, 5, 5), dtype="float32"):
        R.func_attr({"num_input": 3})
        with R.dataflow():
            lv: R.Tensor((3, 1), dtype="int64") = R.expand_dims(batch_indices, axis=[1])
            lv1: R.Tensor((3, 1), dtype="float32") = R.astype(lv, dtype="float32")
            lv2: R.Tensor((3, 5), dtype="float32") = R.concat((lv1, rois), axis=1)
            gv: R.Tensor((3, 1, 5, 5), dtype="float32") = R.vision.roi_align(X, lv2, pooled_size=[5, 5], spatial_scale=1.0, sample_ratio=2, aligned=False, layout="NCHW", mode="avg")
            R.output(gv)
        return gv
