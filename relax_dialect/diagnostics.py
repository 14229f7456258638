"""Located diagnostics: ``FILE:LINE:COL: error: MESSAGE``."""

from __future__ import annotations

import re
from dataclasses import dataclass

from xdsl.dialects.builtin import FileLineColLoc, NameLoc, StringAttr
from xdsl.ir import Attribute, Block, BlockArgument, Operation, SSAValue
from xdsl.utils.exceptions import ParseError

from .attributes import int_attr


@dataclass(frozen=True)
class SourceLocation:
    """Where in an input: ``FILE:LINE:COL`` in text; in a binary input (line 0), the
    file and the element named (``model.onnx: node 'conv1' (Conv, opset 17)``)."""

    file: str
    line: int
    column: int
    element: str | None = None

    def __str__(self) -> str:
        if self.line == 0:
            return self.file if self.element is None else f"{self.file}: {self.element}"
        return f"{self.file}:{self.line}:{self.column}"


def element_location(file: StringAttr, element: str) -> NameLoc:
    """The location of an element of a binary input: ``loc("ELEMENT"("FILE":0:0))``
    (built as ``file_location`` builds its own)."""
    description = StringAttr.__new__(StringAttr)
    object.__setattr__(description, "data", element)
    location = NameLoc.__new__(NameLoc)
    object.__setattr__(location, "desc", description)
    object.__setattr__(location, "location", file_location(file, 0, 0))
    return location


@dataclass(frozen=True)
class Diagnostic:
    """An error at a source location (when the IR carries one)."""

    location: SourceLocation | None
    message: str

    def __str__(self) -> str:
        where = f"{self.location}: " if self.location is not None else ""
        return f"{where}error: {self.message}"


class DiagnosticError(Exception):
    """Raised with the diagnostics of an input that cannot be accepted."""

    def __init__(self, diagnostics: list[Diagnostic]):
        super().__init__("\n".join(map(str, diagnostics)))
        self.diagnostics = diagnostics


def file_location(file: StringAttr, line: int, column: int) -> FileLineColLoc:
    """``loc(FILE:LINE:COL)`` for an operation read from source. Built without
    xDSL's generic parameter check (the parameters are well typed here), which
    would cost more than the rest of locating an operation."""
    location = FileLineColLoc.__new__(FileLineColLoc)
    object.__setattr__(location, "filename", file)
    object.__setattr__(location, "line", int_attr(line))
    object.__setattr__(location, "column", int_attr(column))
    return location


def location_of(item: Operation | SSAValue | Block | None) -> SourceLocation | None:
    """The source location of an operation, value or block (via its parent op; an
    unlocated top-level module is located at its first operation)."""
    while item is not None:
        if isinstance(item, Operation):
            if (found := _source_location(item.location)) is not None:
                return found
            parent = item.parent_op()
            if parent is None and item.regions and item.regions[0].blocks:
                parent = item.regions[0].blocks.first.first_op  # pyright: ignore
                if parent is not None and _source_location(parent.location) is None:
                    parent = None
            item = parent
        elif isinstance(item, BlockArgument):
            if (found := _source_location(item.location)) is not None:
                return found
            item = item.block
        elif isinstance(item, SSAValue):
            item = item.owner  # pyright: ignore[reportAssignmentType]
        else:
            item = item.parent_op()
    return None


def _source_location(loc: Attribute) -> SourceLocation | None:
    """A location attribute as a source location (None: unknown)."""
    if isinstance(loc, FileLineColLoc):
        return SourceLocation(loc.filename.data, loc.line.data, loc.column.data)
    if isinstance(loc, NameLoc) and isinstance(inner := loc.location, FileLineColLoc):
        return SourceLocation(
            inner.filename.data, inner.line.data, inner.column.data, loc.desc.data
        )
    return None


def at(item: Operation | SSAValue | Block | None, message: str) -> Diagnostic:
    return Diagnostic(location_of(item), message)


_LOCATED = re.compile(r"(?P<file>.+?):(?P<line>[0-9]+):(?P<column>[0-9]+): (?P<message>.*)", re.S)


def located(text: str) -> Diagnostic:
    """A ``FILE:LINE:COL: message`` text (a lowered run-time check's message) as a
    diagnostic; a text without a location stays unlocated."""
    found = _LOCATED.fullmatch(text)
    if found is None:
        return Diagnostic(None, text)
    where = SourceLocation(found["file"], int(found["line"]), int(found["column"]))
    return Diagnostic(where, found["message"])


def from_parse_error(error: ParseError) -> Diagnostic:
    """A parse error as a one-line diagnostic."""
    location = error.span.get_location()
    return Diagnostic(SourceLocation(location.file, location.line, location.col), error.msg)


_EXPECTED = re.compile(
    r"(?://|#)\s*expected-(?P<kind>error|warning|note|remark)"
    r"\s*(?:@(?P<where>[+-][0-9]+|above|below))?\s*\{\{(?P<message>.*?)\}\}"
)


@dataclass(frozen=True)
class Expectation:
    """An MLIR-style ``// expected-error @+1 {{message}}`` annotation (``#`` in
    TVMScript)."""

    file: str
    line: int
    message: str
    written_at: int


def expected_diagnostics(text: str, file: str) -> list[Expectation]:
    """The ``expected-error`` annotations of a source file."""
    found = []
    for number, line in enumerate(text.splitlines(), start=1):
        for match in _EXPECTED.finditer(line):
            if match["kind"] != "error":
                continue
            where = match["where"]
            target = number
            if where == "above":
                target = number - 1
            elif where == "below":
                target = number + 1
            elif where is not None:
                target = number + int(where)
            found.append(Expectation(file, target, match["message"], number))
    return found


def unmatched(expectations: list[Expectation], diagnostics: list[Diagnostic]) -> list[str]:
    """Problems when comparing produced diagnostics with the expected ones
    (empty when every expected error was produced and nothing else)."""
    remaining = list(expectations)
    problems = []
    for diagnostic in diagnostics:
        loc = diagnostic.location
        match = next(
            (
                e
                for e in remaining
                if loc is not None and e.line == loc.line and e.message in diagnostic.message
            ),
            None,
        )
        if match is None:
            problems.append(f"unexpected {diagnostic}")
        else:
            remaining.remove(match)
    for expectation in remaining:
        problems.append(
            f"{expectation.file}:{expectation.written_at}: error: expected error "
            f'"{expectation.message}" on line {expectation.line} was not produced'
        )
    return problems
