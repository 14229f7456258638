"""The StableHLO frontend's reader: the MLIR text parsed with the StableHLO,
CHLO, ``func`` and builtin dialects, then converted to Relax."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping

from xdsl.context import Context
from xdsl.dialects.builtin import Builtin, ModuleOp
from xdsl.dialects.func import Func
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


def parse_stablehlo(source: str, name: str, line_offset: int = 0) -> ModuleOp:
    """The StableHLO module of MLIR text, verified; located errors."""
    try:
        module = parse_module(stablehlo_context(), source, name, line_offset)
    except ParseError as error:
        error.span = dataclasses.replace(error.span, line_offset=line_offset)
        raise DiagnosticError([from_parse_error(error)]) from None
    for op in module.walk():
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
