"""Kernel units lowered as one module (``lowering/batched_modules.py``): merged for
``mlir-opt-22``, the LLVM IR split back per kernel, each as if it were lowered alone."""

from __future__ import annotations

import os
import re
import subprocess

from test_kernels import LAYERS
from test_units import units_of
from toolchain_harness import needs_toolchain

from relax_xdsl.lowering import toolchain
from relax_xdsl.lowering.batched_modules import merge_modules, split_llvm_ir

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
    """Transitively (the helper's callee, the global's initialiser), with every line that
    defines no symbol; the other kernels and what only they use are left out; the order is
    kept."""
    lines = [
        "; ModuleID = 'LLVMDialectModule'",
        "@table = private constant [2 x ptr] [ptr @free, ptr @free]",
        "declare ptr @malloc(i64)",
        "declare void @free(ptr)",
        "define void @helper(ptr %0) {",
        "  %2 = load ptr, ptr @table, align 8",
        "  call void %2(ptr %0)",
        "  ret void",
        "}",
        "define ptr @kernel_a(i64 %0) {",
        "  %2 = call ptr @malloc(i64 %0)",
        "  call void @helper(ptr %2)",
        "  ret ptr %2",
        "}",
        "; Function Attrs: nounwind",
        'define void @"kernel_b"(ptr %0) #0 {',
        "1:",
        "  call void @free(ptr %0)",
        "  ret void",
        "}",
        "attributes #0 = { nounwind }",
    ]
    a, b = split_llvm_ir("\n".join(lines), ["kernel_a", "kernel_b"])
    assert a == "\n".join(lines[:14] + lines[20:])
    assert b == "\n".join(lines[:1] + lines[3:4] + lines[14:])


def definition_of(name: str, llvm_ir: str) -> str:
    """The definition of function ``name`` in ``llvm_ir``, private constants' names (unique
    in their module) left out."""
    found = re.search(rf"^define [^\n]*@{name}\(.*?^}}", llvm_ir, re.MULTILINE | re.DOTALL)
    assert found is not None
    return re.sub(r"@__constant_\w+", "@__constant", found.group())


@needs_toolchain
def test_a_batch_lowers_each_kernel_as_alone(tmp_path):
    """Each kernel's definition is the one it has lowered alone, and its module is valid
    LLVM IR defining no other kernel."""
    _, *kernels = units_of(LAYERS)
    tools = toolchain.find_toolchain()
    batched = toolchain._lower_batch(tools, kernels, tile=True, parallel=False)
    for kernel, llvm_ir in zip(kernels, batched, strict=True):
        [alone] = toolchain._lower_batch(tools, [kernel], tile=True, parallel=False)
        assert definition_of(kernel.name, llvm_ir) == definition_of(kernel.name, alone)
        assert {k.name for k in kernels if f"@{k.name}(" in llvm_ir} == {kernel.name}
        source = tmp_path / f"{kernel.name}.ll"
        source.write_text(llvm_ir)
        subprocess.run([tools.opt, "-passes=verify", str(source), "-o", os.devnull], check=True)
