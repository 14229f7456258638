"""``relax-dce``: dead code elimination (TVM's ``DeadCodeElimination``)."""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation
from xdsl.passes import ModulePass
from xdsl.utils.exceptions import PassFailedException

from ..analysis.call_graph import functions, is_public, remove_unreachable
from ..analysis.effects import function_purity
from ..analysis.symbols import symbol_name, symbol_table
from ..rewriting.dead_code import eliminate_dead_code


@dataclass(frozen=True)
class DeadCodeEliminationPass(ModulePass):
    """Remove bindings whose value is unused and computed without side effects,
    dataflow outputs nobody reads and the bindings only they needed, dataflow
    blocks left empty, and private functions (``relax.function private``,
    ``func.func private`` kernels) that no public function or
    ``entry-functions`` member reaches through calls, ``relax.global_var``,
    ``relax.make_closure`` or ``call_tir``. ``relax.match_cast`` stays: it checks
    at run time and may bind symbolic variables."""

    name = "relax-dce"

    entry_functions: tuple[str, ...] = ()
    """Private functions to keep as roots, like TVM's ``entry_functions``."""

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        if not functions(op):
            return
        symbols = symbol_table(op)
        for name in self.entry_functions:
            if name not in symbols:
                raise PassFailedException(f"relax-dce: entry function @{name} is not defined")

        def is_root(top: Operation) -> bool:
            return is_public(top) or symbol_name(top) in self.entry_functions

        remove_unreachable(op, is_root)
        purity = function_purity(op)
        for function in functions(op):
            eliminate_dead_code(function.body.block, purity)
        remove_unreachable(op, is_root)
