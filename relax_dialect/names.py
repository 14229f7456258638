"""The names of values: kept exactly as given, told apart by suffixes no given name uses.

xDSL 0.74 drops a trailing ``_<digits>`` from every SSA name hint it is given
(``w_12`` becomes ``w``), so that the suffixes its printer adds to tell values
of one hint apart (``%x``, ``%x_1``) vanish when the text is read back. A
Relax program's names are its author's: ``w_12`` is a parameter's name, which
``relax-run --inputs`` and TVM key values by. The dialect therefore keeps
SSA name hints exactly as given (``keep_exact_names``, installed when the
package is imported, for the frontends', the passes' and xDSL's own
assignments alike), and its printers (``MemoPrinter`` for MLIR, the TVMScript
printer) tell values apart with ``fresh_name``: a value gets its hint itself
when no value before it in the scope has it, else the first ``hint_1``,
``hint_2``, ... that is neither taken nor the exact hint of another value of
the scope. Printed names are unique, so reading them back gives every value
the name it was printed with, and printing again gives the same text.
"""

from __future__ import annotations

import re
from collections.abc import Container, Iterable, Iterator

from xdsl.ir import Block, IRWithName, Operation, SSAValue

SUFFIXED = re.compile(r"_\d+$")
"""The form of the names a ``NameTable`` makes to tell values apart."""


def _exact_name_hint(value: IRWithName, name: str | None) -> None:
    """The setter of ``SSAValue.name_hint``: ``name`` as it is (a name that is no
    valid SSA name is refused, as xDSL refuses it)."""
    if not SSAValue.is_valid_name(name):
        raise ValueError(f"Invalid SSAValue name format `{name}`.")
    value._name = name  # pyright: ignore[reportPrivateUsage]


def keep_exact_names() -> None:
    """Make every assignment of an SSA value's ``name_hint`` keep the name whole."""
    getter = IRWithName.name_hint.fget  # pyright: ignore[reportAttributeAccessIssue]
    SSAValue.name_hint = property(getter, _exact_name_hint)  # pyright: ignore


def values_of(op: Operation) -> Iterator[SSAValue]:
    """The values ``op`` defines: its results, and its regions' block arguments
    and results, nested ones included."""
    yield from op.results
    for region in op.regions:
        for block in region.blocks:
            yield from _block_values(block)


def _block_values(block: Block) -> Iterator[SSAValue]:
    yield from block.args
    for inner in block.ops:
        yield from values_of(inner)


def suffixed_names(values: Iterable[SSAValue]) -> set[str]:
    """The hints of ``values`` that have the form of a made name (``x_1``)."""
    return {hint for value in values if (hint := value.name_hint) and SUFFIXED.search(hint)}


def fresh_name(hint: str, taken: dict[str, int], reserved: Container[str]) -> str:
    """A name for a value with ``hint`` in a scope, now ``taken``: the hint itself
    when it is free, else the first ``hint_1``, ``hint_2``, ... neither taken nor
    ``reserved`` (the exact names of the scope's values still to be named).
    ``taken`` maps each name given to the next suffix to try for it, so that
    naming many values of one hint takes linear time."""
    suffix = taken.get(hint)
    if suffix is None:
        taken[hint] = 1
        return hint
    while (name := f"{hint}_{suffix}") in taken or name in reserved:
        suffix += 1
    taken[hint] = suffix + 1
    taken[name] = 1
    return name
