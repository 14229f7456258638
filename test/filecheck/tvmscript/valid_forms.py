# RUN: relax-opt %s --split-input-file | filecheck %s
# Valid TVMScript forms that TVM 0.25 accepts and the reader once refused: each
# piece reads into the module TVM builds (pieces are split on the dashed comment line).

# A branch that ends with an if binding the branch's variable in both arms.
from tvm.script import ir as I
from tvm.script import relax as R
from tvm.script import tirx as T


@I.ir_module
class Module:
    @R.function
    def nested_if(c: R.Tensor((), "bool"), d: R.Tensor((), "bool"), x: R.Tensor((2,), "float32")):
        if c:
            if d:
                z = R.add(x, x)
            else:
                z = R.multiply(x, x)
        else:
            z = x
        return z

# CHECK-LABEL: relax.function @nested_if
# CHECK:         %z = relax.if %c : !relax.tensor<[2], f32> {
# CHECK-NEXT:      %[[INNER:.*]] = relax.if %d : !relax.tensor<[2], f32> {
# CHECK-NEXT:        %[[A:.*]] = relax.add %x, %x
# CHECK-NEXT:        relax.yield %[[A]]
# CHECK-NEXT:      } else {
# CHECK-NEXT:        %[[M:.*]] = relax.multiply %x, %x
# CHECK-NEXT:        relax.yield %[[M]]
# CHECK-NEXT:      }
# CHECK-NEXT:      relax.yield %[[INNER]]
# CHECK-NEXT:    } else {
# CHECK-NEXT:      %[[ALIAS:.*]] = relax.alias %x : !relax.tensor<[2], f32>
# CHECK-NEXT:      relax.yield %[[ALIAS]]
# CHECK-NEXT:    }
# CHECK-NEXT:    relax.return %z

# -----

# A compound dimension before the parameter that binds its variables.
from tvm.script import ir as I
from tvm.script import relax as R
from tvm.script import tirx as T


@I.ir_module
class Module:
    @R.function
    def compound(x: R.Tensor(("a * b",), "float32"), y: R.Tensor(("a", "b"), "float32")):
        return x

# CHECK-LABEL: relax.function @compound(%x: !relax.tensor<[a * b], f32>, %y: !relax.tensor<[a, b], f32>) {

# -----

# The calls that take an argument tuple, with every argument by position.
from tvm.script import ir as I
from tvm.script import relax as R
from tvm.script import tirx as T


@I.ir_module
class Module:
    I.module_attrs({"relax_xdsl.dps_kernels": "func.func @copy(%a: tensor<4xf32>, %out: tensor<4xf32>) -> tensor<4xf32> {\n  func.return %a : tensor<4xf32>\n}\n"})
    @T.prim_func(private=True)
    def copy(a: T.handle, out: T.handle):
        A = T.match_buffer(a, (4,), "float32")
        OUT = T.match_buffer(out, (4,), "float32")
        T.evaluate(0)

    @R.function
    def calls(y: R.Tensor((4,), "float32"), f: R.Object):
        cls = Module
        a = R.call_dps_packed("my.copy", (y,), R.Tensor((4,), "float32"))
        b = R.call_tir(cls.copy, y, R.Tensor((4,), "float32"))
        c = R.call_tir_inplace(cls.copy, (b,), 0, R.Tensor((4,), "float32"))
        d = R.invoke_pure_closure(f, c, R.Tensor((4,), "float32"))
        return d

# CHECK-LABEL: relax.function @calls
# CHECK-NEXT:    %a = relax.call_dps_packed "my.copy"(%y) : !relax.tensor<[4], f32>
# CHECK-NEXT:    %b = relax.call_tir @copy(%y) : !relax.tensor<[4], f32>
# CHECK-NEXT:    %c = relax.call_tir_inplace @copy(%b) {inplace_indices = [0]} : !relax.tensor<[4], f32>
# CHECK-NEXT:    %d = relax.invoke_pure_closure %f(%c) : !relax.tensor<[4], f32>

# -----

# Empty and adjacent dataflow blocks, as TVM prints them after some passes, in a
# branch and in a closure: one block where there were several, none for an empty one.
from tvm.script import ir as I
from tvm.script import relax as R
from tvm.script import tirx as T


@I.ir_module
class Module:
    @R.function
    def blocks(c: R.Tensor((), "bool"), x: R.Tensor((2,), "float32")):
        if c:
            with R.dataflow():
                a = R.sin(x)
                R.output(a)
            with R.dataflow():
                b = R.multiply(a, x)
                R.output(b)
        else:
            @R.function
            def f(y: R.Tensor((2,), "float32")) -> R.Tensor((2,), "float32"):
                with R.dataflow():
                    R.output()
                return y

            b = f(x)
        return b

# CHECK-LABEL: relax.function @blocks
# CHECK-NEXT:    %b = relax.if %c : !relax.tensor<[2], f32> {
# CHECK-NEXT:      %a, %[[B:.*]] = relax.dataflow {
# CHECK-NEXT:        %[[A:.*]] = relax.sin %x
# CHECK-NEXT:        %[[SUM:.*]] = relax.multiply %[[A]], %x
# CHECK-NEXT:        relax.output %[[A]], %[[SUM]]
# CHECK-NEXT:      }
# CHECK-NEXT:      relax.yield %[[B]]
# CHECK-NEXT:    } else {
# CHECK-NEXT:      %f = relax.lambda (%y: !relax.tensor<[2], f32>) -> !relax.tensor<[2], f32> {
# CHECK-NEXT:        relax.return %y
# CHECK-NEXT:      }

# -----

# Annotations: a typed literal as a prim value, a derive function, TVM's purity defaults;
# function attributes: the linkage, a dictionary, a list of strings.
from tvm.script import ir as I
from tvm.script import relax as R
from tvm.script import tirx as T


@I.ir_module
class Module:
    @R.function
    def annotations(p: R.Prim(value=T.float16(1.5)), f: R.Callable(derive_func="default_derive"), g: R.Callable((R.Object,), R.Object)) -> R.Object:
        R.func_attr({"global_symbol": "annotations", "tir_var_upper_bound": {"n": 1024}, "names": ["a", "b"]})
        return p

# CHECK-LABEL: relax.function @annotations(%p: !relax.prim<f16, 1.5>, %f: !relax.func<derive "default_derive", impure>, %g: !relax.func<(object) -> object>) -> !relax.object attributes {tir_var_upper_bound = {n = 1024 : i64}, names = ["a", "b"]} {
