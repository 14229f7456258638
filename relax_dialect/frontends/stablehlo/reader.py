"""The StableHLO frontend's reader: the MLIR text parsed with the StableHLO,
CHLO, ``func`` and builtin dialects, then converted to Relax."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Mapping

from xdsl.context import Context
from xdsl.dialects.builtin import Builtin, ModuleOp
from xdsl.dialects.func import Func
from xdsl.parser.core import ForwardDeclaredValue
from xdsl.utils.exceptions import ParseError, VerifyException

from ...diagnostics import DiagnosticError, at, from_parse_error
from ..mlir import parse_module
from .convert import convert
from .dialect import CHLO, StableHLO


def stablehlo_context() -> Context:
    """A context with the dialects StableHLO programs use."""
    ctx = Context()
    for dialect in (Builtin, Func, StableHLO, CHLO):
        ctx.load_dialect(dialect)
    return ctx


STRING = r'"(?:[^"\\\n]|\\.)*"'
LOCATION_START = re.compile(STRING + r"|//[^\n]*|(?<![\w.$#])loc\(|^#loc[\w.$-]*\s*=", re.M)
"""A string or a comment (skipped), or the start of a location (``loc(`` or the
definition of a location alias ``#loc3 = loc(...)``)."""


def blank_locations(text: str) -> str:
    """``text`` with its debug locations (``loc("f.py":3:5 to :9)``,
    ``loc(callsite(#loc1 at #loc2))``, ``#loc1 = loc(...)``) blanked out, every
    other character where it was: JAX's ``jax.export`` writes locations xDSL
    cannot read (aliases defined after their uses, call sites, ranges); the
    operations are located in the text instead."""
    pieces: list[str] = []
    done = 0
    for match in LOCATION_START.finditer(text):
        if match.start() < done or match.group()[0] in '"/':
            continue
        end = _closing_parenthesis(text, text.find("loc(", match.start()) + 3)
        if end is None:
            break
        pieces.append(text[done : match.start()])
        pieces.append(re.sub(r"[^\n]", " ", text[match.start() : end]))
        done = end
    pieces.append(text[done:])
    return "".join(pieces)


def _closing_parenthesis(text: str, start: int) -> int | None:
    """Where the parenthesis opened at ``start`` closes (after it), strings
    skipped; None when it does not."""
    depth = 0
    position = start
    while position < len(text):
        character = text[position]
        if character == '"':
            closing = re.compile(STRING).match(text, position)
            if closing is None:
                return None
            position = closing.end()
            continue
        if character == "(":
            depth += 1
        elif character == ")":
            depth -= 1
            if depth == 0:
                return position + 1
        position += 1
    return None


def parse_stablehlo(source: str, name: str, line_offset: int = 0) -> ModuleOp:
    """The StableHLO module of MLIR text (its debug locations ignored),
    verified; located errors."""
    try:
        module = parse_module(stablehlo_context(), blank_locations(source), name, line_offset)
    except ParseError as error:
        error.span = dataclasses.replace(error.span, line_offset=line_offset)
        raise DiagnosticError([from_parse_error(error)]) from None
    for op in module.walk():
        if any(isinstance(v, ForwardDeclaredValue) for v in op.operands):
            message = f"{op.name}: uses a value outside the scope that defines it"
            raise DiagnosticError([at(op, message)])
        try:
            op.verify_()
        except VerifyException as error:
            raise DiagnosticError([at(op, f"{op.name}: {error}")]) from None
    return module


def read(
    ctx: Context, source: str, name: str, options: Mapping[str, object], line_offset: int = 0
) -> ModuleOp:
    """The frontend's reader (see ``frontends.Reader``): the Relax module of a
    StableHLO module."""
    return convert(parse_stablehlo(source, name, line_offset))
