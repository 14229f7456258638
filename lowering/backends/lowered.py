"""The bundled interpreter of lowered IR: linalg/tensor/arith/func run with NumPy."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from xdsl.dialects.builtin import ModuleOp
from xdsl.dialects.func import FuncOp

from relax_dialect.interpreter import PackedRegistry

from ..interpreter import LoweredProgram
from .backend import Backend, Compiled, Program
from .calling import LoweredEntry, flat_values


class LoweredBackend(Backend):
    """Runs the lowered module on the bundled interpreter; packed functions are
    called from the run's registry."""

    name = "lowered"

    def compile(self, program: Program, entry: str) -> Compiled:
        function = program.function(entry)
        external = _packed_bindings(program.lowered(), program.options.packed)
        lowered = LoweredProgram(program.lowered(), external)
        return LoweredEntry(function, lambda args: lowered.run(entry, args))


def _packed_bindings(lowered: ModuleOp, registry: PackedRegistry) -> dict[str, Callable[..., Any]]:
    """The declarations of packed functions bound to the registry's implementations,
    taking and returning flattened values."""
    bindings: dict[str, Callable[..., Any]] = {}
    for op in lowered.body.block.ops:
        if isinstance(op, FuncOp) and "relax.packed" in op.attributes:
            name = op.attributes["relax.packed"].data  # pyright: ignore[reportAttributeAccessIssue]
            kind = op.attributes["relax.packed_kind"].data  # pyright: ignore[reportAttributeAccessIssue]
            packed = registry.lookup(name)
            if packed is not None:
                outputs = len(op.function_type.outputs.data)
                bindings[op.sym_name.data] = _adapter(packed.implementation, kind, outputs)
    return bindings


def _adapter(impl: Callable[..., Any], kind: str, outputs: int) -> Callable[..., Any]:
    """A packed implementation called with flattened values, returning its one
    result, or a list of several (as the bundled interpreter's externals do)."""

    def call(*args: Any) -> Any:
        if kind == "call_dps_packed":
            impl(*args)
            results = list(args[len(args) - outputs :])
        else:
            result = impl(*args)
            results = list(flat_values(result)) if outputs else []
        return results[0] if outputs == 1 else results

    return call
