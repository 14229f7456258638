"""Shape manipulation in the form TVM prints: `R.reshape(x, R.shape([n * 4]))`,
`R.expand_dims(x, axis=[1])`, `R.permute_dims(x, axes=[1, 0])`, `R.concat((a, b), axis=0)`,
`R.split(x, indices_or_sections=2, axis=0)`, `R.broadcast_to(x, R.shape([...]))`."""
# ruff: noqa
# run: main n=2
from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor(("n", 4), dtype="float32")) -> R.Tuple(R.Tensor(("n * 4",), dtype="float32"), R.Tensor((4, "n * 2"), dtype="float32"), R.Tensor(("n", 4), dtype="float32")):
        n = T.int64()
        with R.dataflow():
            lv: R.Tensor((n * 4,), dtype="float32") = R.reshape(x, R.shape([n * 4]))
            lv1: R.Tensor((n, 1, 4), dtype="float32") = R.expand_dims(x, axis=[1])
            lv2: R.Tensor((n, 4), dtype="float32") = R.squeeze(lv1, axis=[1])
            lv3: R.Tensor((4, n), dtype="float32") = R.permute_dims(lv2, axes=[1, 0])
            lv4: R.Tensor((4, n * 2), dtype="float32") = R.concat((lv3, lv3), axis=1)
            lv5: R.Tuple(R.Tensor((2, n * 2), dtype="float32"), R.Tensor((2, n * 2), dtype="float32")) = R.split(lv4, indices_or_sections=2, axis=0)
            lv6: R.Tensor((2, n * 2), dtype="float32") = lv5[1]
            lv7: R.Tensor((4, n * 2), dtype="float32") = R.tile(lv6, repeats=[2, 1])
            lv8: R.Tensor((n, 4), dtype="float32") = R.flip(x, axis=0)
            lv9: R.Tensor((n, 4), dtype="float32") = R.broadcast_to(lv8, R.shape([n, 4]))
            gv = (lv, lv7, lv9)
            R.output(gv)
        return gv
