"""``relax-fold-constant``: evaluate pure operations whose operands are known.

The patterns of ``canonicalization.folding`` applied by the walk that refines
StructInfo: operators run on the NumPy kernels the interpreter uses
(``kernel_for``), the targets of ``call_tir`` on the wired executor; the pass has
no operator semantics of its own.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass

from ..canonicalization.folding import Limits, folding_patterns
from ..ops.functions import FunctionOp
from ..rewriting.function_walk import FunctionWalk, rewrite_functions


class FoldConstantWalk(FunctionWalk):
    """The walk of ``relax-fold-constant``: the patterns of
    ``canonicalization.folding``, sharing the known values of the function."""

    def __init__(self, function: FunctionOp, refine: bool, limits: Limits):
        super().__init__(function, refine, patterns=folding_patterns(limits, {}))


@dataclass(frozen=True)
class FoldConstantPass(ModulePass):
    """Evaluate pure operators (and ``call_tir``) whose operands are all known
    at compile time — constants, shapes and prim values with known values,
    tuples of those — and replace each by a constant (or a shape or prim value
    literal); ``shape_of`` of a static shape and fields of constant tuples fold
    too. The operations run on the interpreter's kernels. A result larger than
    ``max-size`` elements is not folded, nor one larger than
    ``max-creation-size`` computed without tensor operands (``zeros``,
    ``arange``...: cheaper to compute at run time than to store), nor a
    ``call_tir`` output larger than ``max-tir-size``."""

    name = "relax-fold-constant"

    max_size: int = 1 << 20
    """Largest folded result, in tensor elements."""
    max_creation_size: int = 1024
    """Largest folded result of an operation without tensor operands (TVM's limit)."""
    max_tir_size: int = 4096
    """Largest folded ``call_tir`` result (a folded result is stored in the program)."""

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        limits = Limits(self.max_size, self.max_creation_size, self.max_tir_size)
        rewrite_functions(op, lambda function, refine: FoldConstantWalk(function, refine, limits))
