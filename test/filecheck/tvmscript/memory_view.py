# RUN: relax-opt %s | filecheck %s
# RUN: relax-opt %s --emit tvmscript | filecheck %s --check-prefix=PRINT
# RUN: relax-opt %s --emit tvmscript | relax-opt | filecheck %s
# `R.memory.view` as TVM's Python API takes it (a shape positionally, the data
# type by keyword) and printed back the same way.

from tvm.script import ir as I
from tvm.script import relax as R
from tvm.script import tirx as T


@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor(("n", 4), "float32")):
        n = T.int64()
        bits = R.memory.view(x, dtype="int32")
        pairs = R.memory.view(x, R.shape([n, 2, 2]))
        bytes_ = R.memory.view(x, R.shape([n, 16]), dtype="uint8")
        return (bits, pairs, bytes_)

# CHECK: %bits = relax.memory.view %x {dtype = i32} : !relax.tensor<[n, 4], i32>
# CHECK: %pairs = relax.memory.view %x, %{{.*}} : !relax.tensor<[n, 2, 2], f32>
# CHECK: %bytes_ = relax.memory.view %x, %{{.*}} {dtype = ui8} : !relax.tensor<[n, 16], ui8>

# PRINT: bits: R.Tensor((n, 4), dtype="int32") = R.memory.view(x, dtype="int32")
# PRINT: pairs: R.Tensor((n, 2, 2), dtype="float32") = R.memory.view(x, R.shape([n, 2, 2]))
# PRINT: bytes_: R.Tensor((n, 16), dtype="uint8") = R.memory.view(x, R.shape([n, 16]), dtype="uint8")
