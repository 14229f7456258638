"""Kernel units lowered as one module (``lowering/batched_modules.py``): merged for
``mlir-opt-22``, split back per kernel, each kernel's LLVM IR as if it were lowered alone."""

from __future__ import annotations

import re

from test_kernels import LAYERS
from test_units import units_of
from toolchain_harness import needs_toolchain

from relax_xdsl.lowering import toolchain
from relax_xdsl.lowering.batched_modules import merge_modules, split_module

MODULE = '"builtin.module"() ({\n'
END = "}) : () -> ()\n"


def declaration(name: str) -> str:
    return f'  "llvm.func"() <{{sym_name = "{name}"}}> ({{\n  }}) : () -> ()\n'


def definition(name: str, *callees: str) -> str:
    calls = "".join(f'    "llvm.call"() <{{callee = @{c}}}> : () -> ()\n' for c in callees)
    return f'  "llvm.func"() <{{sym_name = "{name}"}}> ({{\n  ^bb0:\n{calls}  }}) : () -> ()\n'


def test_merged_modules_hold_each_operation_once():
    data = '  "memref.global"() <{sym_name = "relax_data_1", type = memref<4xf32>}> : () -> ()\n'
    first = MODULE + definition("a", "relax_data_1") + data + END
    second = MODULE + definition("b") + data + END
    assert merge_modules([first, second]) == (
        MODULE + definition("a", "relax_data_1") + data + definition("b") + END
    )


def test_each_kernel_keeps_what_it_refers_to():
    """Transitively (the helper's callee), with the operations that define no symbol; the
    other kernels and what only they use are left out; the order is kept."""
    flags = '  "llvm.module_flags"() <{flags = []}> : () -> ()\n'
    ops = [
        declaration("malloc"),
        declaration("free"),
        flags,
        definition("helper", "free"),
        definition("kernel_a", "malloc", "helper"),
        definition("kernel_b", "free"),
    ]
    alias = "#loc = loc(unknown)\n"
    a, b = split_module(alias + MODULE + "".join(ops) + END, ["kernel_a", "kernel_b"])
    assert a == alias + MODULE + "".join(ops[i] for i in (0, 1, 2, 3, 4)) + END
    assert b == alias + MODULE + "".join(ops[i] for i in (1, 2, 5)) + END


def private_constants_unnamed(llvm_ir: str) -> list[str]:
    """The LLVM IR's words, private constants' names (unique in their module) left out."""
    return re.sub(r"@__constant_\w+", "@__constant", llvm_ir).split()


@needs_toolchain
def test_a_batch_lowers_each_kernel_as_alone():
    _, *kernels = units_of(LAYERS)
    tools = toolchain.find_toolchain()
    batched = toolchain._lower_batch(tools, kernels, tile=True, parallel=False)
    for kernel, llvm_ir in zip(kernels, batched, strict=True):
        [alone] = toolchain._lower_batch(tools, [kernel], tile=True, parallel=False)
        assert private_constants_unnamed(llvm_ir) == private_constants_unnamed(alone)
        defined = {k.name for k in kernels if f"@{k.name}(" in llvm_ir}
        assert defined == {kernel.name}
