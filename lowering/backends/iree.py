"""IREE: the lowered module compiled by ``iree-compile`` for the host CPU and run by
``iree.runtime`` (the optional extra ``relax-xdsl[iree]``); packed functions come from
the run's registry through a Python module of the IREE VM (``iree_packed``).

A module whose functions loop over tensors (an ``scf.for`` carrying one: sorting
networks, scatters) runs on IREE's ``local-sync`` device: IREE 3.13 allocates such a
loop's tensors on the device queue in each iteration, and its ``local-task`` runtime
then fails now and then with "transient buffer has not been committed"
(``docs/lowering/iree.md``). Every other module runs on ``local-task``."""

from __future__ import annotations

from functools import partial

from xdsl.dialects import scf
from xdsl.dialects.builtin import ModuleOp, TensorType

from relax_dialect.analysis.call_graph import functions, recursive_groups
from relax_dialect.diagnostics import Diagnostic, DiagnosticError, at
from relax_dialect.interpreter import RelaxRuntimeError
from relax_dialect.ops.calls import CallOp, PackedCallOp

from ..interpreter import LoweredExecutionError
from ..iree_input import iree_input
from ..iree_packed import packed_module
from ..iree_toolchain import IreeModule, compile_vmfb, find_iree_compile
from ..toolchain import ToolchainMissing, generic_text
from .backend import Backend, Compiled, Program
from .calling import LoweredEntry, packed_bindings


class IreeBackend(Backend):
    """Compiles the lowered module to an IREE VM module (cached by content) and calls
    it on the local CPU device (``iree_input`` says what it compiles differently)."""

    name = "iree"

    def unavailable(self) -> str | None:
        try:
            find_iree_compile()
        except ToolchainMissing as missing:
            return str(missing)
        return None

    def unsupported(self, program: Program) -> Diagnostic | None:
        """Packed functions the run's registry lacks (the compiled module imports them),
        and calls that can recur (``iree-compile`` does not finish on a recursive
        module)."""
        recursive = recursive_groups(program.module)
        registry = program.options.packed
        for function in functions(program.module):
            cycle = recursive.get(function.sym_name.data, frozenset())
            for op in function.walk():
                if isinstance(op, PackedCallOp) and registry.lookup(op.callee.data) is None:
                    what = f"no packed function named '{op.callee.data}' is registered"
                    return at(op, f"{op.name}: {what}")
                if isinstance(op, CallOp) and op.callee_name in cycle:
                    return at(op, f"relax.call: IREE cannot run recursion (@{op.callee_name})")
        return None

    def compile(self, program: Program, entry: str) -> Compiled:
        """Also refuses what ``unsupported`` names (``DiagnosticError``): on a recursive
        module ``iree-compile`` would run until its time limit."""
        if (problem := self.unsupported(program)) is not None:
            raise DiagnosticError([problem])
        function = program.function(entry)
        lowered = program.lowered()
        bindings = packed_bindings(lowered, program.options.packed)
        imports = partial(packed_module, lowered, bindings) if bindings else None
        vmfb = compile_vmfb(generic_text(iree_input(lowered)))
        module = IreeModule(vmfb, imports, device_for(lowered))

        def call(args: list[object]) -> list[object]:
            try:
                return module.call(entry, args)
            except LoweredExecutionError as failure:  # IREE's own checks, on the arguments
                raise RelaxRuntimeError(function, f"@{entry}: {failure}") from None

        return LoweredEntry(function, call)


def device_for(lowered: ModuleOp) -> str:
    """IREE's runtime device for the lowered module: ``local-sync`` when a loop carries
    a tensor, ``local-task`` otherwise."""
    for op in lowered.walk():
        if isinstance(op, scf.ForOp) and any(isinstance(t, TensorType) for t in op.result_types):
            return "local-sync"
    return "local-task"
