"""Kernel units lowered together: their modules merged into one for ``mlir-opt-22`` and
``mlir-translate-22``, the LLVM IR split back into one module per kernel for ``opt-22``.

On ResNet-18's batches of nine kernels, one module lowers in about 20% less CPU than the
same kernels as nine split inputs (each split input loads the tiling schedule, runs the
transform interpreter and every pass on its own), and it passes to ``mlir-translate-22`` as
bytecode, which it reads in half the time of the generic text (docs/benchmarks.md). The
kernels do not interact: each is a private function that nothing calls, so each lowers as
it would alone (its private constants may take other names, unique in the merged module).
"""

from __future__ import annotations

import re

_MODULE = re.compile(r'^"builtin\.module"\(\).*$', re.MULTILINE)
_TOP_LEVEL = re.compile(r'\n(?=  ")')
"""Where an operation of a module's body starts in the generic form (deeper lines are inside
it; block labels start with ``^``)."""
_DEFINED = re.compile(r'^(?:(?:define|declare)\b[^@]*@|@)("[^"]+"|[\w$.-]+)', re.MULTILINE)
"""The symbol an LLVM IR function or global defines."""
_ATTRIBUTES_COMMENT = "; Function Attrs:"
_REFERENCE = re.compile(r'@("[^"]+"|[\w$.-]+)')


def _parts(text: str) -> tuple[str, list[str], str]:
    """The generic module ``text`` as its head (attribute aliases, the module's first
    line), the operations of its body and its last line."""
    start = _MODULE.search(text)
    assert start is not None, "not a module in the generic form"
    head, rest = text[: start.end()], text[start.end() :].rstrip("\n")
    body, _, footer = rest.rpartition("\n")
    return head, [op for op in _TOP_LEVEL.split(body) if op], footer


def merge_modules(texts: list[str]) -> str:
    """One module holding the operations of the generic modules ``texts`` (alike but for
    their bodies), each operation once (modules may declare the same external data)."""
    headers, operations = set(), dict[str, None]()
    for text in texts:
        header, ops, footer = _parts(text)
        headers.add((header, footer))
        operations.update(dict.fromkeys(ops))
    assert len(headers) == 1, "the modules differ outside their bodies"
    [(header, footer)] = headers
    return "\n".join([header, *operations, footer]) + "\n"


def _entities(llvm_ir: str) -> list[str]:
    """The top-level entities of ``llvm_ir``: each function with the attributes comment above
    it (a definition to its closing ``}``), and each other line (globals, attribute groups,
    metadata)."""
    lines = llvm_ir.split("\n")
    entities, start = [], 0
    while start < len(lines):
        end = start
        while lines[end].startswith(_ATTRIBUTES_COMMENT) and end + 1 < len(lines):
            end += 1
        if lines[end].startswith("define "):
            end = lines.index("}", end)
        entities.append("\n".join(lines[start : end + 1]))
        start = end + 1
    return entities


def split_llvm_ir(llvm_ir: str, names: list[str]) -> list[str]:
    """For each symbol of ``names``, the LLVM IR module ``llvm_ir`` with only the functions
    and globals that define it and, transitively, the symbols it refers to (and every line
    that defines no symbol)."""
    entities = _entities(llvm_ir)
    defining: dict[str, int] = {}
    for index, entity in enumerate(entities):
        if (symbol := _DEFINED.search(entity)) is not None:
            defining[symbol.group(1).strip('"')] = index
    unnamed = set(range(len(entities))) - set(defining.values())
    modules = []
    for name in names:
        kept, pending = set(unnamed), [defining[name]]
        while pending:
            index = pending.pop()
            if index not in kept:
                kept.add(index)
                symbols = (s.strip('"') for s in _REFERENCE.findall(entities[index]))
                pending += [defining[s] for s in symbols if s in defining]
        modules.append("\n".join(entities[i] for i in sorted(kept)))
    return modules
