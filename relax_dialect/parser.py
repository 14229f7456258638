"""xDSL's MLIR parser, extended to record where every operation was written."""

from __future__ import annotations

import re
from bisect import bisect_right

from xdsl.context import Context
from xdsl.dialects.builtin import FileLineColLoc, IntAttr, ModuleOp, StringAttr, UnknownLoc
from xdsl.ir import Operation
from xdsl.parser import Parser


class RelaxParser(Parser):
    """Attaches ``loc(FILE:LINE:COL)`` to each parsed operation and function
    parameter that does not carry an explicit location, so that diagnostics
    point at the source (xDSL itself leaves them unknown)."""

    def __init__(self, ctx: Context, text: str, name: str, line_offset: int = 0):
        super().__init__(ctx, text, name)
        self._line_starts = [0, *(m.end() for m in re.finditer("\n", text))]
        self._line_offset = line_offset
        self._file = StringAttr(name)
        self.pending_results: list[str] = []
        """Names of the results of the operations being parsed (innermost last)."""
        self.dataflow_names: set[str] = set()
        """Names defined inside dataflow blocks that are already closed."""

    def location_at(self, position: int) -> FileLineColLoc:
        """The location of a character offset of the input."""
        line = bisect_right(self._line_starts, position)
        column = position - self._line_starts[line - 1] + 1
        return FileLineColLoc(self._file, IntAttr(line + self._line_offset), IntAttr(column))

    def parse_operation(self) -> Operation:
        start = self.pos
        pending = len(self.pending_results)
        try:
            op = super().parse_operation()
        finally:
            del self.pending_results[pending:]
        if isinstance(op.location, UnknownLoc):
            op.location = self.location_at(start)
        if op.name == "relax.dataflow":
            self.dataflow_names.update(
                r.name_hint for inner in op.regions[0].ops for r in inner.results if r.name_hint
            )
        return op

    def _parse_op_result_list(self):  # pyright: ignore[reportIncompatibleMethodOverride]
        results = super()._parse_op_result_list()
        self.pending_results.extend(span.text[1:] for span, _ in results)
        return results


def parse_module(ctx: Context, text: str, name: str, line_offset: int = 0) -> ModuleOp:
    """Parse MLIR text into a module whose operations carry source locations."""
    return RelaxParser(ctx, text, name, line_offset).parse_module()
