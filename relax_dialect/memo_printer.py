"""A printer that prints each distinct attribute once.

Programs repeat the same few types thousands of times (every binding of a
transformer chain has ``tensor<?x64xf32>``); xDSL's ``Printer`` rebuilds each
type's text token by token. ``MemoPrinter`` keeps the text of every attribute it
has printed, keyed by the (immutable, hashable) attribute, and prints later
occurrences as one string. ``MemoMLIRTarget`` is xDSL's ``mlir`` output target
with this printer; ``relax-opt`` uses it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from io import StringIO
from typing import IO

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Attribute
from xdsl.printer import Printer
from xdsl.targets.mlir import MLIRTarget


@dataclass(eq=False, repr=False)
class MemoPrinter(Printer):
    """``Printer`` with the text of single-line attributes memoised (and text written
    to the stream directly, not through ``print``)."""

    _texts: dict[Attribute, str] = field(default_factory=dict[Attribute, str], init=False)

    def print_string(self, text: str, *, indent: int | None = None) -> None:
        if "\n" in text:
            return super().print_string(text, indent=indent)
        self._current_column += len(text)
        self.stream.write(text)  # pyright: ignore[reportOptionalMemberAccess]

    def print_attribute(self, attribute: Attribute) -> None:
        try:
            text = self._texts.get(attribute)
        except TypeError:  # an attribute holding unhashable data
            return super().print_attribute(attribute)
        if text is None:
            stream = StringIO()
            Printer(
                stream=stream,
                print_generic_format=self.print_generic_format,
                print_properties_as_attributes=self.print_properties_as_attributes,
                print_debuginfo=self.print_debuginfo,
            ).print_attribute(attribute)
            text = stream.getvalue()
            if "\n" in text:  # indentation depends on where it is printed
                return super().print_attribute(attribute)
            self._texts[attribute] = text
        self.print_string(text)


def print_module(module: ModuleOp, generic: bool = False) -> str:
    """``module``'s text (MLIR's generic form when ``generic``)."""
    stream = StringIO()
    MemoPrinter(stream=stream, print_generic_format=generic).print_op(module)
    return stream.getvalue()


@dataclass(frozen=True)
class MemoMLIRTarget(MLIRTarget):
    """xDSL's ``mlir`` target, printing with ``MemoPrinter``."""

    def emit(self, ctx: Context, module: ModuleOp, output: IO[str]) -> None:
        printer = MemoPrinter(
            stream=output,
            print_generic_format=self.print_generic_format,
            print_properties_as_attributes=self.print_properties_as_attributes,
            print_debuginfo=self.print_debuginfo,
        )
        printer.print_op(module)
        printer.print_metadata(ctx.loaded_dialects)
        print("\n", file=output)
