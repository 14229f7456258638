"""Canonicalization patterns of Relax operations, one file per concern.

Each file holds patterns (``rewriting.patterns``: a ``BindingPattern`` replaces a
binding by a value; a ``RootedPattern`` makes any other rewrite of its root
operations), each with a one-line docstring saying what it rewrites, and
``PATTERNS``, its instances in the order they are tried. Every Relax binding and
dataflow block carries the ``Canonicalized`` trait (``ops.traits``), whose
patterns are those listed here for its class: ``canonicalize`` (in ``relax-opt``
and in plain ``xdsl-opt``) applies them next to the upstream dialects' own. The
passes named below apply the same pattern objects with a walk that also refines
StructInfo:

==============  ============================================  ==============================
file            rewrites                                      pass
==============  ============================================  ==============================
``bindings``    aliases, trivial ``match_cast``, tuple fields ``relax-canonicalize-bindings``
``shapes``      shape computations, reshape chains            ``relax-simplify-shapes``
``algebra``     identities that hold under IEEE and TVM       ``canonicalize``
``folding``     one operator of known operands, evaluated     ``relax-fold-constant``
``dataflow``    empty and adjacent dataflow blocks            (every pass keeps the form)
==============  ============================================  ==============================
"""

from __future__ import annotations

from functools import cache
from importlib import import_module

from xdsl.ir import Operation

from ..rewriting.patterns import RootedPattern

PATTERN_FILES = ("bindings", "shapes", "algebra", "folding", "dataflow")
"""The pattern files, in the order their patterns are tried on an operation."""


@cache
def all_patterns() -> tuple[RootedPattern, ...]:
    """Every canonicalization pattern, in ``PATTERN_FILES`` order."""
    return tuple(
        pattern
        for name in PATTERN_FILES
        for pattern in import_module(f"{__name__}.{name}").PATTERNS
    )


@cache
def patterns_for(kind: type[Operation]) -> tuple[RootedPattern, ...]:
    """The canonicalization patterns of an operation class."""
    return tuple(p for p in all_patterns() if issubclass(kind, p.root))
