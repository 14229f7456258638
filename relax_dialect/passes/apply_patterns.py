"""``relax-apply-patterns``: apply the user's rewrite patterns, written in Python
(xDSL ``RewritePattern``s, ``BindingPattern``s) or in PDL, with xDSL's greedy
driver (``PatternRewriteWalker`` over a ``GreedyRewritePatternApplier``)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import pdl
from xdsl.dialects.builtin import ModuleOp
from xdsl.interpreters.pdl import PDLRewritePattern
from xdsl.ir import Operation
from xdsl.parser import Parser
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    GreedyRewritePatternApplier,
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
)
from xdsl.utils.exceptions import ParseError, PassFailedException

from ..canonicalization import dataflow
from ..diagnostics import DiagnosticError, at
from ..plugins import plugin_objects

PASS = "relax-apply-patterns"
PDL_SUFFIXES = (".mlir", ".pdl")
"""The suffixes of PDL files (any other spec names Python patterns)."""


@dataclass(frozen=True)
class ApplyPatternsPass(ModulePass):
    """Rewrite with the user's patterns until none applies (MLIR's greedy driver).

    ``patterns`` lists where they come from, tried in that order on each
    operation: ``MODULE:ATTR`` or ``FILE.py[:ATTR]`` (a ``RewritePattern``, or a
    list, tuple or dict of them; ``ATTR`` defaults to ``PATTERNS``), or a PDL file
    ``FILE.mlir`` / ``FILE.pdl`` (its ``pdl.pattern``s)."""

    name = "relax-apply-patterns"

    patterns: tuple[str, ...] = ()

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        apply_patterns(op, [p for spec in self.patterns for p in load_patterns(spec, ctx)])


def load_patterns(spec: str, ctx: Context | None = None) -> list[RewritePattern]:
    """The patterns ``spec`` names (see ``ApplyPatternsPass``); a PDL file is read
    in ``ctx`` (unless it lacks PDL: then in one with every registered dialect)."""
    if spec.endswith(PDL_SUFFIXES):
        return _pdl_patterns(spec, ctx)
    try:
        return plugin_objects(spec, RewritePattern, "PATTERNS")
    except ValueError as error:
        raise PassFailedException(f"{PASS}: {error}") from None


def _pdl_patterns(path: str, ctx: Context | None) -> list[RewritePattern]:
    """The rewrites of the ``pdl.pattern``s of a PDL file, run by xDSL's PDL interpreter."""
    if ctx is None or ctx.get_optional_op(pdl.PatternOp.name) is None:
        from ..frontends import default_context

        ctx = default_context()
    try:
        with open(path, encoding="utf-8") as handle:
            text = handle.read()
        module = Parser(ctx, text, path).parse_module()
    except (OSError, UnicodeDecodeError) as error:
        raise PassFailedException(f"{PASS}: cannot read {path}: {error}") from None
    except ParseError as error:
        location = error.span.get_location()
        message = f"{location.file}:{location.line}:{location.col}: {error.msg}"
        raise PassFailedException(f"{PASS}: {message}") from None
    rewrites = [op for op in module.walk() if isinstance(op, pdl.RewriteOp)]
    if not rewrites:
        raise PassFailedException(f"{PASS}: {path} holds no pdl.pattern")
    return [PDLRewritePattern(rewrite, ctx) for rewrite in rewrites]


def apply_patterns(module: ModuleOp, patterns: Sequence[RewritePattern]) -> bool:
    """Rewrite ``module`` with ``patterns`` until none applies (the Python API of
    ``relax-apply-patterns``); as ``canonicalize`` does, pure bindings left unused
    go and dataflow blocks left empty or adjacent are removed or merged. Whether
    it changed. A pattern that raises is reported at the operation it was
    rewriting (``DiagnosticError``)."""
    if not patterns:
        return False
    applier = GreedyRewritePatternApplier([*map(_Reported, patterns), *dataflow.PATTERNS])
    return PatternRewriteWalker(applier).rewrite_module(module)


@dataclass
class _Reported(RewritePattern):
    """A user's pattern whose failures are located diagnostics, not tracebacks."""

    pattern: RewritePattern

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        try:
            self.pattern.match_and_rewrite(op, rewriter)
        except (PassFailedException, DiagnosticError):
            raise
        except Exception as error:
            failure = f"{type(error).__name__}: {error}"
            message = f"{PASS}: {_name(self.pattern)} failed on {op.name}: {failure}"
            raise DiagnosticError([at(op, message)]) from error


def _name(pattern: RewritePattern) -> str:
    """A pattern's name in messages: its class, or a PDL pattern's symbol."""
    if isinstance(pattern, PDLRewritePattern):
        parent = pattern.pdl_rewrite_op.parent_op()
        if isinstance(parent, pdl.PatternOp) and parent.sym_name is not None:
            return f"PDL pattern @{parent.sym_name.data}"
        return "a PDL pattern"
    return type(pattern).__name__
