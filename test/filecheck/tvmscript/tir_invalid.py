# RUN: %verify-diagnostics %s
# TIR outside the subset the frontend reads, and calls that do not fit a TIR
# function: each piece is reported at the construct (pieces are split on the
# dashed comment line).

# a while loop
from tvm.script import ir as I
from tvm.script import relax as R
from tvm.script import tirx as T


@I.ir_module
class Module:
    @T.prim_func(private=True)
    def halve(A: T.Buffer((1,), "int32")):
        # expected-error @+1 {{this statement is outside the TIR subset; legalize the operator in TVM first, or write the kernel as a destination-passing func.func in MLIR}}
        while A[0] > 1:
            A[0] = A[0] // 2

# -----

# an external call
from tvm.script import ir as I
from tvm.script import relax as R
from tvm.script import tirx as T


@I.ir_module
class Module:
    @T.prim_func(private=True)
    def f(A: T.Buffer((4,), "float32"), B: T.Buffer((4,), "float32")):
        for i in range(4):
            # expected-error @+1 {{T.call_extern is outside the TIR subset: legalize it in TVM first, or write the kernel as a destination-passing func.func in MLIR}}
            B[i] = T.call_extern("float32", "my_function", A[i])

# -----

# a vector access
from tvm.script import ir as I
from tvm.script import relax as R
from tvm.script import tirx as T


@I.ir_module
class Module:
    @T.prim_func(private=True)
    def f(A: T.Buffer((8,), "float32"), B: T.Buffer((8,), "float32")):
        for i in range(2):
            # expected-error @+1 {{vector accesses (slices) are outside the TIR subset}}
            B[i * 4 : i * 4 + 4] = A[i * 4 : i * 4 + 4]

# -----

# a strided buffer
from tvm.script import ir as I
from tvm.script import relax as R
from tvm.script import tirx as T


@I.ir_module
class Module:
    @T.prim_func(private=True)
    def f(a: T.handle, b: T.handle):
        # expected-error @+1 {{a buffer with 'strides' is outside the TIR subset}}
        A = T.match_buffer(a, (4,), "float32", strides=(2,))
        B = T.match_buffer(b, (4,), "float32")
        for i in range(4):
            B[i] = A[i]

# -----

# a GPU launch
from tvm.script import ir as I
from tvm.script import relax as R
from tvm.script import tirx as T


@I.ir_module
class Module:
    @T.prim_func(private=True)
    def f(A: T.Buffer((4,), "float32"), B: T.Buffer((4,), "float32")):
        # expected-error @+1 {{T.launch_thread is outside the TIR subset}}
        tx = T.launch_thread("threadIdx.x", 4)
        B[tx] = A[tx]

# -----

# integer division with '/'
from tvm.script import ir as I
from tvm.script import relax as R
from tvm.script import tirx as T


@I.ir_module
class Module:
    @T.prim_func(private=True)
    def f(A: T.Buffer((4,), "int32"), B: T.Buffer((4,), "int32")):
        for i in range(4):
            # expected-error @+1 {{'/' of integers is ambiguous in TIR: use '//' (floor), T.truncdiv or T.floordiv}}
            B[i] = A[i] / 2

# -----

# a data type without MLIR element type
from tvm.script import ir as I
from tvm.script import relax as R
from tvm.script import tirx as T


@I.ir_module
class Module:
    @T.prim_func(private=True)
    # expected-error @+1 {{expected a data type of the TIR subset}}
    def f(A: T.Buffer((4,), "bfloat16"), B: T.Buffer((4,), "bfloat16")):
        for i in range(4):
            B[i] = A[i]

# -----

# a handle without its buffer
from tvm.script import ir as I
from tvm.script import relax as R
from tvm.script import tirx as T


@I.ir_module
class Module:
    @T.prim_func(private=True)
    # expected-error @+1 {{parameter 'b' is a T.handle without T.match_buffer}}
    def f(a: T.handle, b: T.handle):
        A = T.match_buffer(a, (4,), "float32")
        A[0] = T.float32(1)

# -----

# a call passing more than the function takes
from tvm.script import ir as I
from tvm.script import relax as R
from tvm.script import tirx as T


@I.ir_module
class Module:
    @T.prim_func(private=True)
    def f(A: T.Buffer((4,), "float32"), B: T.Buffer((4,), "float32")):
        for i in range(4):
            B[i] = A[i]

    @R.function
    def main(x: R.Tensor((4,), "float32"), y: R.Tensor((4,), "float32")):
        cls = Module
        # expected-error @+1 {{T.prim_func 'f' has 2 parameters, fewer than the call's 2 arguments and 1 fresh outputs}}
        z = R.call_tir(cls.f, (x, y), out_sinfo=R.Tensor((4,), "float32"))
        return z

# -----

# two calls passing the function differently
from tvm.script import ir as I
from tvm.script import relax as R
from tvm.script import tirx as T


@I.ir_module
class Module:
    @T.prim_func(private=True)
    def f(A: T.Buffer((4,), "float32"), B: T.Buffer((4,), "float32")):
        for i in range(4):
            B[i] = A[i] + B[i]

    @R.function
    def main(x: R.Tensor((4,), "float32"), y: R.Tensor((4,), "float32")):
        cls = Module
        z = R.call_tir(cls.f, (x,), out_sinfo=R.Tensor((4,), "float32"))
        # expected-error @+1 {{T.prim_func 'f' is called with 1 arguments and 1 fresh outputs elsewhere, with 2 arguments and 0 fresh outputs here}}
        w = R.call_tir_inplace(cls.f, (x, y), inplace_indices=[1], out_sinfo=R.Tensor((4,), "float32"))
        return w
