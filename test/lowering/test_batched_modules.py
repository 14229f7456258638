"""Kernel units compiled as one module (``lowering/batched_modules.py``): merged for
``mlir-opt-22``, each lowered as if it were alone, into one object defining them all."""

from __future__ import annotations

import os
import re
import subprocess

from test_kernels import LAYERS
from test_units import units_of
from toolchain_harness import needs_toolchain

from relax_xdsl.lowering import toolchain
from relax_xdsl.lowering.batched_modules import merge_modules

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


def definition_of(name: str, llvm_ir: str) -> str:
    """The definition of function ``name`` in ``llvm_ir``, private constants' names (unique
    in their module) left out."""
    found = re.search(rf"^define [^\n]*@{name}\(.*?^}}", llvm_ir, re.MULTILINE | re.DOTALL)
    assert found is not None
    return re.sub(r"@__constant_\w+", "@__constant", found.group())


@needs_toolchain
def test_a_batch_lowers_each_kernel_as_alone(tmp_path):
    """Each kernel's definition in the batch's LLVM IR is the one it has lowered alone, and
    the batch's module is valid LLVM IR."""
    _, *kernels = units_of(LAYERS)
    tools = toolchain.find_toolchain()
    batched = toolchain._lower_batch(tools, kernels, tile=True, parallel=False)
    for kernel in kernels:
        alone = toolchain._lower_batch(tools, [kernel], tile=True, parallel=False)
        assert definition_of(kernel.name, batched) == definition_of(kernel.name, alone)
    source = tmp_path / "batch.ll"
    source.write_text(batched)
    subprocess.run([tools.opt, "-passes=verify", str(source), "-o", os.devnull], check=True)


@needs_toolchain
def test_a_batch_is_one_object_defining_each_kernel_weak(tmp_path, monkeypatch):
    """One object for the kernels, each a weak symbol (a kernel compiled twice, by two
    processes at once, may reach a library in two objects), and no other global definition
    (its helpers internal)."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    _, *kernels = units_of(LAYERS)
    tools = toolchain.find_toolchain()
    toolchain._compile_batch(tools, {f"key{i}": k for i, k in enumerate(kernels)}, True, False)
    [obj] = (tmp_path / "relax-xdsl").glob("*.o")
    listed = subprocess.run(
        ["nm", "--defined-only", "--extern-only", str(obj)],
        text=True,
        capture_output=True,
        check=True,
    )
    defined = dict(line.split()[:0:-1] for line in listed.stdout.splitlines())
    assert defined == {kernel.name: "W" for kernel in kernels}


@needs_toolchain
def test_lowering_unverified_between_passes_gives_the_same_llvm_ir(monkeypatch):
    """``toolchain.LOWERING_FLAGS`` (no verification after each pass) leave the LLVM IR of
    the layers' host and kernels as it is with the verification (each lowered alone: in a
    merged module, the private constants' names vary from run to run)."""
    units = units_of(LAYERS)
    tools = toolchain.find_toolchain()
    assert toolchain.LOWERING_FLAGS

    def lowered() -> list[str]:
        return [toolchain._lower_batch(tools, [unit], True, False) for unit in units]

    unverified = lowered()
    monkeypatch.setattr(toolchain, "LOWERING_FLAGS", ())
    assert lowered() == unverified
