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
from collections.abc import Callable, Container, Iterable, Iterator

from xdsl.ir import IRWithName, Operation, SSAValue
from xdsl.printer import Printer

SUFFIXED = re.compile(r"_\d+$")
"""The form of the names ``fresh_name`` makes to tell values apart."""


def _exact_name_hint(value: IRWithName, name: str | None) -> None:
    """The setter of ``SSAValue.name_hint``: ``name`` as it is (a name that is no
    valid SSA name is refused, as xDSL refuses it)."""
    if not SSAValue.is_valid_name(name):
        raise ValueError(f"Invalid SSAValue name format `{name}`.")
    value._name = name  # pyright: ignore[reportPrivateUsage]


def keep_exact_names() -> None:
    """Make every assignment of an SSA value's ``name_hint`` keep the name whole,
    and xDSL's ``Printer`` give values unique names under such hints."""
    getter = IRWithName.name_hint.fget  # pyright: ignore[reportAttributeAccessIssue]
    SSAValue.name_hint = property(getter, _exact_name_hint)  # pyright: ignore
    Printer.print_ssa_value = _print_ssa_value


def _print_ssa_value(printer: Printer, value: SSAValue) -> str:
    """``Printer.print_ssa_value``, naming ``value`` as ``ssa_name`` does."""
    name = ssa_name(printer, value)
    printer.print_string(f"%{name}")
    return name


def ssa_name(printer: Printer, value: SSAValue, reserved: Container[str] = ()) -> str:
    """``value``'s name in ``printer``, given on first sight: its hint as
    ``fresh_name`` gives it in the printer's scope, else a number. Without the
    exact names of the values still to be printed as ``reserved``, a value whose
    hint another value was told apart by (``x_1``) gets a suffix of its own."""
    known = printer._ssa_values  # pyright: ignore[reportPrivateUsage]
    name = known.get(value)
    if name is None:
        hint = value.name_hint
        if hint:
            name = fresh_name(hint, printer.ssa_names, reserved)
        else:
            name = printer._get_new_valid_name_id()  # pyright: ignore[reportPrivateUsage]
        known[value] = name
    return name


def values_of(op: Operation) -> Iterator[SSAValue]:
    """The values ``op`` and the operations nested in it define: results and
    block arguments."""
    for inner in op.walk():
        yield from inner.results
        for region in inner.regions:
            for block in region.blocks:
                yield from block.args


def suffixed_names(values: Iterable[SSAValue]) -> set[str]:
    """The hints of ``values`` that have the form of a made name (``x_1``)."""
    return {hint for value in values if (hint := value.name_hint) and SUFFIXED.search(hint)}


class LazyNames(Container[str]):
    """A set of names computed when it is first asked about: a scope asks only
    when two of its values have one hint, and most scopes never do."""

    __slots__ = ("_compute", "_names")

    def __init__(self, compute: Callable[[], set[str]]):
        self._compute = compute
        self._names: set[str] | None = None

    def __contains__(self, name: object) -> bool:
        if self._names is None:
            self._names = self._compute()
        return name in self._names


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
