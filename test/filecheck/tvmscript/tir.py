# RUN: relax-opt %s --split-input-file | filecheck %s
# TIR (T.prim_func) read into the destination-passing func.func kernels call_tir
# calls: the call's arguments, then its tir_vars, then its outputs (an in-place
# output again as its argument); loops are scf.for carrying the buffers they
# store into, stores tensor.insert, reads tensor.extract; a loop nest of one
# computation block is a linalg.generic (and one more for its T.init()).

# CHECK-LABEL: func.func @add_one(%A: tensor<?xf32>, %n: i64, %B: tensor<?xf32>) -> tensor<?xf32> {
# CHECK:         %[[N:.*]] = arith.index_cast %n : i64 to index
# CHECK:         %[[OUT:.*]] = scf.for %[[I:.*]] = %{{.*}} to %[[N]] step %{{.*}} iter_args(%[[B:.*]] = %B) -> (tensor<?xf32>) {
# CHECK:           %[[A:.*]] = tensor.extract %A[%{{.*}}] : tensor<?xf32>
# CHECK:           %[[SUM:.*]] = arith.addf %[[A]], %{{.*}} : f32
# CHECK:           %[[STORED:.*]] = tensor.insert %[[SUM]] into %[[B]][%{{.*}}] : tensor<?xf32>
# CHECK:           scf.yield %[[STORED]] : tensor<?xf32>
# CHECK:         func.return %[[OUT]] : tensor<?xf32>
# CHECK:       relax.call_tir @add_one(%x) tir_vars %{{.*}} : !relax.tensor<[n], f32>

from tvm.script import ir as I
from tvm.script import relax as R
from tvm.script import tirx as T


@I.ir_module
class Module:
    @T.prim_func(private=True)
    def add_one(a: T.handle, b: T.handle, n: T.int64):
        A = T.match_buffer(a, (n,), "float32")
        B = T.match_buffer(b, (n,), "float32")
        for i in range(n):
            B[i] = A[i] + T.float32(1.0)

    @R.function
    def main(x: R.Tensor(("n",), "float32")) -> R.Tensor(("n",), "float32"):
        n = T.int64()
        cls = Module
        y = R.call_tir(cls.add_one, (x,), out_sinfo=R.Tensor((n,), "float32"), tir_vars=R.shape([n]))
        return y

# -----

# In place: the output is the first argument again; a symbolic size is the
# dimension of the first buffer naming it.

# CHECK-LABEL: func.func @scale_rows(%A: tensor<?x4xf32>, %S: tensor<?xf32>, %A_1: tensor<?x4xf32>) -> tensor<?x4xf32> {
# CHECK:         %[[DIM:.*]] = tensor.dim %A, %{{.*}} : tensor<?x4xf32>
# CHECK:         %[[N:.*]] = arith.index_cast %[[DIM]] : index to i64
# CHECK:         scf.for %{{.*}} iter_args(%[[ROWS:.*]] = %A) -> (tensor<?x4xf32>) {
# CHECK:           scf.for %{{.*}} iter_args(%[[ROW:.*]] = %[[ROWS]]) -> (tensor<?x4xf32>) {
# CHECK:             tensor.extract %[[ROW]]
# CHECK:             tensor.extract %S
# CHECK:             arith.mulf
# CHECK:             tensor.insert %{{.*}} into %[[ROW]]

from tvm.script import ir as I
from tvm.script import relax as R
from tvm.script import tirx as T


@I.ir_module
class Module:
    @T.prim_func(private=True)
    def scale_rows(a: T.handle, s: T.handle):
        n = T.int64()
        A = T.match_buffer(a, (n, 4), "float32")
        S = T.match_buffer(s, (n,), "float32")
        for i, j in T.grid(n, 4):
            A[i, j] = A[i, j] * S[i]

    @R.function
    def main(x: R.Tensor(("n", 4), "float32"), s: R.Tensor(("n",), "float32")) -> R.Tensor(("n", 4), "float32"):
        n = T.int64()
        cls = Module
        y = R.call_tir_inplace(cls.scale_rows, (x, s), inplace_indices=[0], out_sinfo=R.Tensor((n, 4), "float32"))
        return y

# -----

# A reduction block: the init is a parallel linalg.generic, the update a
# reduction over the read; float T.max selects on an ordered comparison. A
# function no call uses takes the buffers it stores into last as its outputs.

# CHECK-LABEL: func.func @row_max(%A: tensor<3x4xf32>, %B: tensor<3xf32>) -> tensor<3xf32> {
# CHECK:         %[[INIT:.*]] = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} outs(%B : tensor<3xf32>) {
# CHECK:           %[[LOWEST:.*]] = arith.constant -3.40282347e+38 : f32
# CHECK:           linalg.yield %[[LOWEST]] : f32
# CHECK:         %[[MAX:.*]] = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%A : tensor<3x4xf32>) outs(%[[INIT]] : tensor<3xf32>) {
# CHECK:         ^{{.*}}(%[[X:.*]]: f32, %[[ACC:.*]]: f32):
# CHECK:           %[[GT:.*]] = arith.cmpf ogt, %[[ACC]], %[[X]] : f32
# CHECK:           %[[SEL:.*]] = arith.select %[[GT]], %[[ACC]], %[[X]] : f32
# CHECK:           linalg.yield %[[SEL]] : f32
# CHECK:         func.return %[[MAX]] : tensor<3xf32>

from tvm.script import ir as I
from tvm.script import relax as R
from tvm.script import tirx as T


@I.ir_module
class Module:
    @T.prim_func(private=True)
    def row_max(A: T.Buffer((3, 4), "float32"), B: T.Buffer((3,), "float32")):
        for i, k in T.grid(3, 4):
            with T.sblock("max"):
                vi, vk = T.axis.remap("SR", [i, k])
                T.reads(A[vi, vk])
                T.writes(B[vi])
                with T.init():
                    B[vi] = T.min_value("float32")
                B[vi] = T.max(B[vi], A[vi, vk])

# -----

# In a generic both branches of T.if_then_else are evaluated: the guarded read
# has its index clamped into the buffer. '//' and '%' are floor division and
# modulo.

# CHECK-LABEL: func.func @shift(%A: tensor<6xi32>, %B: tensor<6xi32>) -> tensor<6xi32> {
# CHECK:         linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} outs(%B : tensor<6xi32>) {
# CHECK:           %[[I:.*]] = arith.index_cast %{{.*}} : index to i32
# CHECK:           %[[TAKEN:.*]] = arith.cmpi sge, %[[I]], %{{.*}} : i32
# CHECK:           %[[LAST:.*]] = arith.subi %{{.*}}, %{{.*}} : index
# CHECK:           %[[LOW:.*]] = arith.minsi %{{.*}}, %[[LAST]] : index
# CHECK:           %[[INSIDE:.*]] = arith.maxsi %[[LOW]], %{{.*}} : index
# CHECK:           %[[READ:.*]] = tensor.extract %A[%[[INSIDE]]] : tensor<6xi32>
# CHECK:           arith.select %[[TAKEN]], %[[READ]], %{{.*}} : i32
# CHECK:           arith.floordivsi %[[I]], %{{.*}} : i32

from tvm.script import ir as I
from tvm.script import relax as R
from tvm.script import tirx as T


@I.ir_module
class Module:
    @T.prim_func(private=True)
    def shift(A: T.Buffer((6,), "int32"), B: T.Buffer((6,), "int32")):
        for i in range(6):
            with T.sblock("shift"):
                vi = T.axis.spatial(6, i)
                B[vi] = T.if_then_else(vi >= 2, A[vi - 2], 0) + vi // 4 - vi % 4

# -----

# A block with a predicate (T.where) runs under an scf.if, in loops; T.Cast
# truncates a float to an integer.

# CHECK-LABEL: func.func @guarded(%A: tensor<8xf32>, %B: tensor<8xf32>) -> tensor<8xf32> {
# CHECK:         scf.for %{{.*}} iter_args(%[[B:.*]] = %B) -> (tensor<8xf32>) {
# CHECK:           %[[PRED:.*]] = arith.cmpi slt, %{{.*}}, %{{.*}} : i32
# CHECK:           %[[NEW:.*]] = scf.if %[[PRED]] -> (tensor<8xf32>) {
# CHECK:             arith.fptosi %{{.*}} : f32 to i32
# CHECK:             arith.sitofp %{{.*}} : i32 to f32
# CHECK:             tensor.insert %{{.*}} into %[[B]]
# CHECK:           } else {
# CHECK:             scf.yield %[[B]] : tensor<8xf32>
# CHECK:           scf.yield %[[NEW]] : tensor<8xf32>

from tvm.script import ir as I
from tvm.script import relax as R
from tvm.script import tirx as T


@I.ir_module
class Module:
    @T.prim_func(private=True)
    def guarded(A: T.Buffer((8,), "float32"), B: T.Buffer((8,), "float32")):
        for i in range(8):
            with T.sblock("half"):
                vi = T.axis.spatial(8, i)
                T.where(i < 4)
                B[vi] = T.Cast("float32", T.Cast("int32", A[vi]))
