"""The bundled interpreter of lowered IR: linalg/tensor/arith/func run with NumPy."""

from __future__ import annotations

from ..interpreter import LoweredProgram
from .backend import Backend, Compiled, Program
from .calling import LoweredEntry, packed_bindings


class LoweredBackend(Backend):
    """Runs the lowered module on the bundled interpreter; packed functions are
    called from the run's registry."""

    name = "lowered"

    def compile(self, program: Program, entry: str) -> Compiled:
        function = program.function(entry)
        external = packed_bindings(program.lowered(), program.options.packed)
        lowered = LoweredProgram(program.lowered(), external)
        return LoweredEntry(function, lambda args: lowered.run(entry, args))
