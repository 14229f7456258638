# RUN: %verify-diagnostics %s
# TVMScript errors: each piece is a module with one mistake, reported at the
# line and column of the mistake (pieces are split
# on the dashed comment line).

# unknown operator
from tvm.script import ir as I
from tvm.script import relax as R
from tvm.script import tirx as T


@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((2, 3), "float32")):
        # expected-error @+1 {{unknown Relax operator 'R.addd'}}
        y = R.addd(x, x)
        return y

# -----

# unknown keyword
from tvm.script import ir as I
from tvm.script import relax as R
from tvm.script import tirx as T


@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((2, 3), "float32")):
        # expected-error @+1 {{R.sum has no argument 'axes'}}
        y = R.sum(x, axes=[1])
        return y

# -----

# an operator attribute TVM rejects: reported at the call
from tvm.script import ir as I
from tvm.script import relax as R
from tvm.script import tirx as T


@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((2, 3), "float32"), s: R.Tensor((), "float32"), z: R.Tensor((), "int8")):
        # expected-error @+1 {{relax.quantize: out_dtype has data type i32, expected i8, ui8, i16, ui16}}
        y = R.quantize(x, s, z, out_dtype="int32")
        return y

# -----

# slice bounds must be prim values whose value is known
from tvm.script import ir as I
from tvm.script import relax as R
from tvm.script import tirx as T


@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((2, 3), "float32"), s: R.Tensor((2, 1), "float32"), start: R.Prim("int64")):
        # expected-error @+1 {{relax.slice_scatter: start has type prim<i64>, expected an integer prim value with a known value}}
        y = R.slice_scatter(x, s, start, 1, 1, axis=1)
        return y

# -----

# too many arguments
from tvm.script import ir as I
from tvm.script import relax as R
from tvm.script import tirx as T


@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((2, 3), "float32")):
        # expected-error @+1 {{R.exp takes at most 1 argument}}
        y = R.exp(x, x)
        return y

# -----

# missing argument
from tvm.script import ir as I
from tvm.script import relax as R
from tvm.script import tirx as T


@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((2, 3), "float32")):
        # expected-error @+1 {{R.add needs argument 'x2'}}
        y = R.add(x)
        return y

# -----

# axis out of range
from tvm.script import ir as I
from tvm.script import relax as R
from tvm.script import tirx as T


@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((2, 3), "float32")):
        # expected-error @+1 {{relax.sum: axis 2 is out of range for a tensor of 2 dimensions}}
        y = R.sum(x, axis=[2])
        return y

# -----

# incompatible shapes
from tvm.script import ir as I
from tvm.script import relax as R
from tvm.script import tirx as T


@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((2, 3), "float32"), z: R.Tensor((4,), "float32")):
        # expected-error @+1 {{cannot be broadcast together}}
        y = R.add(x, z)
        return y

# -----

# dataflow variable escapes
from tvm.script import ir as I
from tvm.script import relax as R
from tvm.script import tirx as T


@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((2, 3), "float32")):
        with R.dataflow():
            a = R.add(x, x)
            b = R.multiply(a, a)
            R.output(b)
        # expected-error @+1 {{'a' is a dataflow variable, not visible after its block}}
        return a

# -----

# undefined variable
from tvm.script import ir as I
from tvm.script import relax as R
from tvm.script import tirx as T


@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((2, 3), "float32")):
        # expected-error @+1 {{'w' is not defined}}
        y = R.add(x, w)
        return y

# -----

# annotation contradicts inference
from tvm.script import ir as I
from tvm.script import relax as R
from tvm.script import tirx as T


@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((2, 3), "float32")):
        # expected-error @+1 {{contradicts the inferred type tensor<[2, 3], f32>}}
        y: R.Tensor((3, 2), "float32") = R.add(x, x)
        return y

# -----

# return annotation contradicts
from tvm.script import ir as I
from tvm.script import relax as R
from tvm.script import tirx as T


@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((2, 3), "float32")) -> R.Tensor((3, 2), "float32"):
        # expected-error @+1 {{contradicts the return annotation tensor<[3, 2], f32>}}
        return x

# -----

# prim_func with a handle but no buffer (more TIR errors in tir_invalid.py)
from tvm.script import ir as I
from tvm.script import relax as R
from tvm.script import tirx as T


@I.ir_module
class Module:
    @T.prim_func
    # expected-error @+1 {{parameter 'a' is a T.handle without T.match_buffer}}
    def kernel(a: T.handle):
        T.evaluate(0)

# -----

# undefined symbolic variable
from tvm.script import ir as I
from tvm.script import relax as R
from tvm.script import tirx as T


@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((2, 3), "float32")):
        # expected-error @+1 {{'m' is not defined}}
        y = R.reshape(x, (m, 3))
        return y

# -----

# impure op in dataflow
from tvm.script import ir as I
from tvm.script import relax as R
from tvm.script import tirx as T


@I.ir_module
class Module:
    @R.function(pure=False)
    def main(x: R.Tensor((2, 3), "float32")):
        with R.dataflow():
            # expected-error @+1 {{impure}}
            p = R.print(x, format="{}")
            R.output(p)
        return x

# -----

# if without else
from tvm.script import ir as I
from tvm.script import relax as R
from tvm.script import tirx as T


@I.ir_module
class Module:
    @R.function
    def main(c: R.Tensor((), "bool"), x: R.Tensor((2, 3), "float32")):
        # expected-error @+1 {{an if needs an else branch in Relax}}
        if c:
            y = x
        return x

# -----

# number in tensor arithmetic
from tvm.script import ir as I
from tvm.script import relax as R
from tvm.script import tirx as T


@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((2, 3), "float32")):
        # expected-error @+1 {{convert 2 with R.const first}}
        y = x * 2
        return y

# -----

# non-void expression statement
from tvm.script import ir as I
from tvm.script import relax as R
from tvm.script import tirx as T


@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((2, 3), "float32")):
        # expected-error @+1 {{a value that is not the empty tuple must be bound to a variable}}
        R.add(x, x)
        return x

# -----

# missing return
from tvm.script import ir as I
from tvm.script import relax as R
from tvm.script import tirx as T


@I.ir_module
class Module:
    # expected-error @+2 {{the function body must end with a return statement}}
    @R.function
    def main(x: R.Tensor((2, 3), "float32")):
        y = R.add(x, x)

# -----

# syntax error
from tvm.script import ir as I
from tvm.script import relax as R
from tvm.script import tirx as T


@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((2, 3), "float32")):
        # expected-error @+1 {{invalid syntax}}
        y = R.add(x, x
        return y

# -----

# negative dimension
from tvm.script import ir as I
from tvm.script import relax as R
from tvm.script import tirx as T


@I.ir_module
class Module:
    @R.function
    # expected-error @+1 {{tensor dimension -3 is negative (a dimension is a non-negative int64)}}
    def main(x: R.Tensor((-3, 4), "float32")):
        return x

# -----

# dimension beyond int64
from tvm.script import ir as I
from tvm.script import relax as R
from tvm.script import tirx as T


@I.ir_module
class Module:
    @R.function
    # expected-error @+1 {{integer 18446744073709551616 does not fit in int64}}
    def main(x: R.Tensor((18446744073709551616,), "float32")):
        return x

# -----

# the argument tuple of call_tir, call_dps_packed... is written in line
from tvm.script import ir as I
from tvm.script import relax as R
from tvm.script import tirx as T


@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((4,), "float32")):
        t = (x, x)
        # expected-error @+1 {{the arguments must be a tuple written in line, as (t[0], t[1]), not the tuple value t}}
        z = R.call_dps_packed("my.add", t, R.Tensor((4,), "float32"))
        return z

# -----

# a branch's value is a dataflow variable its block does not output
from tvm.script import ir as I
from tvm.script import relax as R
from tvm.script import tirx as T


@I.ir_module
class Module:
    @R.function
    def main(c: R.Tensor((), "bool"), x: R.Tensor((4,), "float32")):
        if c:
            # expected-error @+1 {{'z' is a dataflow variable, not visible after its block (list it in R.output)}}
            with R.dataflow():
                y = R.add(x, x)
                z = R.add(y, x)
                R.output(y)
        else:
            z = x
        return z
