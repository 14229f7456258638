"""The host unit's kernel stubs as declarations once it is LLVM IR
(``lowering/stub_declarations.py``): only kernels' weak definitions change, and the host
stays valid LLVM IR calling each kernel it declares."""

from __future__ import annotations

import os
import re
import subprocess

from test_kernels import LAYERS
from test_units import units_of
from toolchain_harness import needs_toolchain

from relax_xdsl.lowering import toolchain
from relax_xdsl.lowering.kernels import KERNEL_PREFIX
from relax_xdsl.lowering.stub_declarations import declare_stubs

KERNEL = f"{KERNEL_PREFIX}0123"


def test_only_kernel_stubs_become_declarations():
    kept = [
        "define weak void @other(ptr %0) {",
        "  ret void",
        "}",
        "define { ptr, i64 } @main(i64 %0, ptr %1) {",
        f"  %3 = call {{ ptr, i64 }} @{KERNEL}(i64 %0, ptr %1)",
        "  ret { ptr, i64 } %3",
        "}",
    ]
    stub = [
        "; Function Attrs: nounwind",
        f"define weak {{ ptr, i64 }} @{KERNEL}(i64 %0, ptr %1) #0 {{",
        "2:",
        "  %3 = insertvalue { ptr, i64 } poison, ptr %1, 0",
        "  ret { ptr, i64 } %3",
        "}",
    ]
    attributes = "attributes #0 = { nounwind }"
    declared = declare_stubs("\n".join([*kept, *stub, attributes]))
    declaration = f"declare {{ ptr, i64 }} @{KERNEL}(i64 %0, ptr %1)"
    assert declared == "\n".join([*kept, stub[0], declaration, attributes])


@needs_toolchain
def test_the_host_declares_each_kernel(tmp_path):
    """The host of the layers' units defines no kernel once its stubs are declarations, and
    is valid LLVM IR."""
    host, *kernels = units_of(LAYERS)
    tools = toolchain.find_toolchain()
    llvm_ir = toolchain._lower_batch(tools, [host], tile=True, parallel=False)
    declared = declare_stubs(llvm_ir)
    for kernel in kernels:
        assert re.search(rf"^define weak [^\n]*@{kernel.name}\(", llvm_ir, re.MULTILINE)
        assert re.search(rf"^declare [^\n]*@{kernel.name}\(", declared, re.MULTILINE)
        assert not re.search(rf"^define [^\n]*@{kernel.name}\(", declared, re.MULTILINE)
    source = tmp_path / "host.ll"
    source.write_text(declared)
    subprocess.run([tools.opt, "-passes=verify", str(source), "-o", os.devnull], check=True)
