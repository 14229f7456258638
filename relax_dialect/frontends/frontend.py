"""What a frontend is: an input format's declaration and its reader's signature.

Each frontend module (``frontends/mlir.py``, ``frontends/tvmscript/``...) declares
its ``FRONTEND`` with these; ``relax_dialect.frontends`` registers them.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from xdsl.context import Context
    from xdsl.dialects.builtin import ModuleOp

SNIFF_SIZE = 65_536
"""How many of the input's first bytes a sniffer sees."""


class UnknownFormat(ValueError):
    """No registered frontend has the name or file suffix asked for."""


class FrontendError(Exception):
    """A frontend cannot be used as asked: an option value it cannot use, or a
    dependency that is not installed (a usage error, exit status 2)."""


class Reader(Protocol):
    """A frontend's reader: the module ``source`` defines (``str`` for a text
    frontend, ``bytes`` for a binary one), its operations located in ``name``,
    ``line_offset`` lines below the top of the file. Raises ``DiagnosticError``
    (located) for bad input and ``FrontendError`` for a bad option."""

    def __call__(
        self,
        ctx: Context,
        source: Any,
        name: str,
        options: Mapping[str, object],
        line_offset: int,
    ) -> ModuleOp: ...


@dataclass(frozen=True)
class Option:
    """A command-line option of a frontend, handed to its reader as ``options[dest]``
    (``None``, or ``False`` for a switch, when not given)."""

    flag: str
    help: str
    metavar: str | None = None
    """What the option takes (None: a switch, present or not)."""

    @property
    def dest(self) -> str:
        return self.flag.lstrip("-").replace("-", "_")


@dataclass(frozen=True)
class Frontend:
    """One input format."""

    name: str
    """What ``-f`` takes."""
    title: str
    """The format's name for people (``TVMScript``)."""
    suffixes: tuple[str, ...]
    """File suffixes, without the dot."""
    load: Callable[[], Reader]
    """Imports the reader: a frontend's dependencies load when it is used."""
    sniff: Callable[[bytes], bool] | None = None
    """Whether the input's first ``SNIFF_SIZE`` bytes are in this format (None: it cannot tell)."""
    binary: bool = False
    """Whether the reader takes bytes (else UTF-8 text)."""
    split_marker: str | None = None
    """What separates the pieces of a ``--split-input-file`` input (None: it cannot be split)."""
    options: tuple[Option, ...] = ()

    def decode(self, data: bytes) -> str | bytes:
        """The input as the reader takes it: bytes, or the text (universal newlines,
        without a leading byte-order mark, as Python reads a source file). Raises
        ``UnicodeDecodeError``."""
        if self.binary:
            return data
        return data.decode("utf-8-sig").replace("\r\n", "\n").replace("\r", "\n")

    def read(
        self,
        ctx: Context,
        source: str | bytes,
        name: str,
        options: Mapping[str, object] | None = None,
        line_offset: int = 0,
    ) -> ModuleOp:
        """The module of a ``decode``d input (see ``Reader``)."""
        return self.load()(ctx, source, name, options or {}, line_offset)
