"""Parsing TVMScript with binding annotations set aside.

TVM prints an annotation on every binding (``lv: R.Tensor((n, 64), dtype="float32")
= ...``); they are more than half of what Python's parser reads, and a program
repeats a few of them. ``parse`` replaces each one-line annotation of this form
by a name of the same length before parsing, so that the module's ``ast`` keeps
every position, and returns where it did; the reader reads each distinct
annotation text once (``annotation_node`` parses it, located in the source).
"""

from __future__ import annotations

import ast
import re
import warnings
from collections.abc import Iterator

_ARGUMENT = r"""(?:[^()"'#\\\n]|"[^"\\\n]*")"""
ANNOTATED_BINDING = re.compile(
    r"^[ \t]*[A-Za-z_]\w*[ \t]*:[ \t]*"
    rf"(?P<annotation>[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+\((?:{_ARGUMENT}|(?<![\w.])\({_ARGUMENT}*\))*\))"
    r"(?=[ \t]*=[^=])",
    re.MULTILINE,
)
"""A line ``name: R.Kind(...) = ...``: the annotation calls a dotted name, its
arguments nest parentheses once, only as tuples (so the only call in it is the
outer one), and strings in it are plain double-quoted ones."""

Position = tuple[int, int]
"""A node's line and column offset, as ``ast`` gives them."""


def parse(source: str, filename: str) -> tuple[ast.Module, dict[Position, str]]:
    """The module ``source`` defines (``SyntaxError`` as ``ast.parse`` raises it)
    and the annotations set aside, by position: each is then an ``ast.Name``
    spanning the annotation's text, the annotation of an ``ast.AnnAssign``."""
    spans = list(_annotations(source))
    if spans:
        pieces, set_aside, end = [], {}, 0
        for start, stop, position in spans:
            pieces += [source[end:start], "_" * (stop - start)]
            set_aside[position] = source[start:stop]
            end = stop
        pieces.append(source[end:])
        tree = _parse_quietly("".join(pieces), filename)
        if isinstance(tree, ast.Module) and _annotation_names(tree) >= set_aside.keys():
            return tree, set_aside
    return ast.parse(source, filename), {}


def annotation_node(text: str, position: Position) -> ast.expr:
    """The annotation ``text`` set aside at ``position``, parsed and located there."""
    node = ast.parse(text, mode="eval").body
    line, column = position
    for inner in ast.walk(node):
        if hasattr(inner, "lineno"):
            inner.lineno = inner.end_lineno = line  # pyright: ignore[reportAttributeAccessIssue]
            inner.col_offset += column  # pyright: ignore[reportAttributeAccessIssue]
            inner.end_col_offset += column  # pyright: ignore[reportAttributeAccessIssue]
    return node


def _annotations(source: str) -> Iterator[tuple[int, int, Position]]:
    """Start, end and position of the annotations to set aside: those on lines of
    ASCII text (columns are byte offsets in ``ast``) that parse on their own."""
    valid: dict[str, bool] = {}
    ascii_only = source.isascii()
    line, counted = 1, 0
    for match in ANNOTATED_BINDING.finditer(source):
        line_start = match.start()
        start, stop = match.span("annotation")
        line += source.count("\n", counted, start)
        counted = start
        if not ascii_only and not _is_ascii_line(source, line_start):
            continue
        text = match["annotation"]
        if text not in valid:
            valid[text] = _is_expression(text)
        if valid[text]:
            yield start, stop, (line, start - line_start)


def _is_ascii_line(source: str, start: int) -> bool:
    end = source.find("\n", start)
    return source[start : len(source) if end < 0 else end].isascii()


def _is_expression(text: str) -> bool:
    return _parse_quietly(text, "<annotation>", "eval") is not None


def _parse_quietly(text: str, filename: str, mode: str = "exec") -> ast.AST | None:
    """``ast.parse``, or None where it fails or warns: the source is then parsed
    as written, which reports (and warns) as it would without the set-aside."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        try:
            return ast.parse(text, filename, mode)
        except SyntaxError:
            return None


def _annotation_names(tree: ast.Module) -> set[Position]:
    """Positions of the names that annotate an ``AnnAssign`` anywhere in ``tree``."""
    found: set[Position] = set()
    pending: list[ast.AST] = list(tree.body)
    while pending:
        node = pending.pop()
        if isinstance(node, ast.AnnAssign) and isinstance(node.annotation, ast.Name):
            found.add((node.annotation.lineno, node.annotation.col_offset))
        for field in STATEMENT_LISTS:
            pending += getattr(node, field, ())
    return found


STATEMENT_LISTS = ("body", "orelse", "finalbody", "handlers", "cases")
"""The fields of statements (and except handlers, match cases) holding statements."""
