"""Kernel units lowered together: their modules merged into one for ``mlir-opt-22``, its
LLVM-dialect result split back into one module per kernel for ``mlir-translate-22``.

One module of nine kernels lowers in about 20% less CPU than the same kernels as nine split
inputs (each split input loads the tiling schedule, runs the transform interpreter and every
pass on its own; docs/benchmarks.md), and the kernels do not interact: each is a private
function that nothing calls, so each lowers as it would alone (its private constants may
take other names, unique in the merged module). Both steps work on the generic form, where
each operation of a module's body starts a line indented by two spaces (deeper lines are
inside it; block labels start with ``^``).
"""

from __future__ import annotations

import re

_MODULE = re.compile(r'^"builtin\.module"\(\).*$', re.MULTILINE)
_TOP_LEVEL = re.compile(r'\n(?=  ")')
"""Where an operation of the module's body starts."""
_SYMBOL = re.compile(r'^  "[^"]+"\(\) <\{.*?\bsym_name = "([^"]+)"')
_REFERENCE = re.compile(r'@(?:"([^"]+)"|([\w$.-]+))')


def _parts(text: str) -> tuple[str, list[str], str]:
    """The generic module ``text`` as its head (attribute aliases, the module's first
    line), the operations of its body and its last line."""
    start = _MODULE.search(text)
    assert start is not None, "not a module in the generic form"
    head, rest = text[: start.end()], text[start.end() :].rstrip("\n")
    body, _, footer = rest.rpartition("\n")
    return head, [op for op in _TOP_LEVEL.split(body) if op], footer


def merge_modules(texts: list[str]) -> str:
    """One module holding the operations of the modules ``texts`` (alike but for their
    bodies), each operation once (modules may declare the same external data)."""
    headers, operations = set(), dict[str, None]()
    for text in texts:
        header, ops, footer = _parts(text)
        headers.add((header, footer))
        operations.update(dict.fromkeys(ops))
    assert len(headers) == 1, "the modules differ outside their bodies"
    [(header, footer)] = headers
    return "\n".join([header, *operations, footer]) + "\n"


def split_module(text: str, names: list[str]) -> list[str]:
    """For each symbol of ``names``, the module ``text`` with only the operations that define
    it and, transitively, the symbols it refers to (and the operations defining none)."""
    header, ops, footer = _parts(text)
    defining: dict[str, int] = {}
    for index, op in enumerate(ops):
        if (symbol := _SYMBOL.match(op)) is not None:
            defining[symbol.group(1)] = index
    unnamed = set(range(len(ops))) - set(defining.values())
    modules = []
    for name in names:
        kept, pending = set(unnamed), [defining[name]]
        while pending:
            index = pending.pop()
            if index not in kept:
                kept.add(index)
                references = (quoted or plain for quoted, plain in _REFERENCE.findall(ops[index]))
                pending += [defining[r] for r in references if r in defining]
        modules.append("\n".join([header, *(ops[i] for i in sorted(kept)), footer]) + "\n")
    return modules
