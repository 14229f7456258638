"""The host unit's kernel stubs (`units`) as declarations once it is LLVM IR.

A stub's body tells one-shot bufferization what its kernel does at its boundary; after the
translation it is dead weight: the stub is ``weak``, so the library takes the kernel object's
definition, but ``opt-22`` and ``llc-22`` still compiled each body (a fifth of ResNet-18's host
IR, docs/benchmarks.md). As a declaration it costs them nothing, and each call resolves to
the kernel's object when linking.
"""

from __future__ import annotations

import re

from .kernels import KERNEL_PREFIX

_STUB = re.compile(
    rf"^define weak ([^\n]*@{KERNEL_PREFIX}\w+\([^\n]*\))[^\n]*\{{\n.*?^\}}$",
    re.MULTILINE | re.DOTALL,
)
"""A kernel's weak definition, its signature (result, name, parameters) in group 1, to the
closing ``}`` at the start of a line."""


def declare_stubs(llvm_ir: str) -> str:
    """``llvm_ir`` with each kernel's weak definition (a stub) a declaration."""
    return _STUB.sub(r"declare \1", llvm_ir)
