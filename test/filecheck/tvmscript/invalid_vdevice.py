# RUN: %verify-diagnostics %s
# Virtual devices in TVMScript: each piece is a module with one mistake,
# reported where it is written.

# a device that is not declared
from tvm.script import ir as I
from tvm.script import relax as R


@I.ir_module
class Module:
    I.module_global_infos({"vdevice": [I.vdevice("llvm")]})

    @R.function
    # expected-error @+1 {{virtual device 'cuda:0' is not declared (declared: llvm:0:global)}}
    def main(x: R.Tensor((2, 3), "float32", "cuda:0")):
        return x

# -----

# no global infos at all
from tvm.script import ir as I
from tvm.script import relax as R


@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((2, 3), "float32")):
        # expected-error @+1 {{no virtual device is declared: add I.module_global_infos to the module}}
        y = R.to_vdevice(x, "llvm")
        return y

# -----

# a memory scope that contradicts the declaration
from tvm.script import ir as I
from tvm.script import relax as R


@I.ir_module
class Module:
    I.module_global_infos({"vdevice": [I.vdevice("llvm", 0, "global.texture")]})

    @R.function
    def main(x: R.Tensor((2, 3), "float32")):
        # expected-error @+1 {{virtual device 'llvm:0:global': the declared device has memory scope 'global.texture'}}
        y: R.Tensor((2, 3), "float32", "llvm:0:global") = R.abs(x)
        return y

# -----

# operands on two devices
from tvm.script import ir as I
from tvm.script import relax as R


@I.ir_module
class Module:
    I.module_global_infos({"vdevice": [I.vdevice("llvm"), I.vdevice("cuda")]})

    @R.function
    def main(x: R.Tensor((2, 3), "float32", "llvm"), y: R.Tensor((2, 3), "float32", "cuda")):
        # expected-error @+1 {{relax.add: operands are on different virtual devices 'llvm:0:global' and 'cuda:0:global'; copy one with relax.to_vdevice}}
        z = R.add(x, y)
        return z

# -----

# hint_on_device takes a device
from tvm.script import ir as I
from tvm.script import relax as R


@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((2, 3), "float32")):
        # expected-error @+1 {{R.hint_on_device takes the data and R.device(type, index)}}
        y = R.hint_on_device(x, "cuda")
        return y

# -----

# a global info other than vdevice
from tvm.script import ir as I
from tvm.script import relax as R


@I.ir_module
class Module:
    # expected-error @+1 {{the only global info supported is 'vdevice'}}
    I.module_global_infos({"dummy": []})

    @R.function
    def main(x: R.Tensor((2, 3), "float32")):
        return x

# -----

# a declaration that is not I.vdevice(...)
from tvm.script import ir as I
from tvm.script import relax as R


@I.ir_module
class Module:
    # expected-error @+1 {{expected I.vdevice(target, vdevice_id, memory_scope)}}
    I.module_global_infos({"vdevice": ["llvm"]})

    @R.function
    def main(x: R.Tensor((2, 3), "float32")):
        return x
