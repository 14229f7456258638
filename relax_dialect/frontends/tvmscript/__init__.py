"""TVMScript interop: read TVMScript Relax modules into the dialect
(``frontend.parse_tvmscript``) and print the dialect as TVMScript
(``printer.print_tvmscript``). This module declares the frontend only: it
imports nothing of the reader, so that tools start without it."""

from __future__ import annotations

import re

from ..frontend import Frontend, Option, Reader

PYTHON_START = re.compile(rb"(?:\s|#[^\n]*\n)*(?:from |import |@|[rRuU]?(?:\"\"\"|'''))")
"""How TVMScript starts after blank lines and comments: an import, a decorator or
a module docstring, none of which starts MLIR text."""


def _is_python(head: bytes) -> bool:
    return PYTHON_START.match(head) is not None


def _reader() -> Reader:
    from .frontend import read

    return read


FRONTEND = Frontend(
    "tvmscript",
    "TVMScript",
    ("py",),
    _reader,
    sniff=_is_python,
    split_marker="# -----",
    options=(
        Option(
            "--metadata",
            "arrays of the TVMScript input's metadata constants, keyed by index",
            "CONSTANTS.npz",
        ),
    ),
)
