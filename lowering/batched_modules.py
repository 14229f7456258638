"""Kernel units compiled together: their modules merged into one for ``mlir-opt-22``, and
compiled on as one module by ``mlir-translate-22``, ``opt-22`` and ``llc-22`` into one object.

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
