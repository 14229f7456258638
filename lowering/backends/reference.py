"""The reference interpreter: the Relax dialect run with NumPy."""

from __future__ import annotations

from .backend import Backend, Compiled, Program


class ReferenceBackend(Backend):
    """Interprets the Relax functions themselves; runs every well-formed module."""

    name = "reference"
    runs_lowered = False

    def compile(self, program: Program, entry: str) -> Compiled:
        machine = program.machine
        machine.function(entry)
        return lambda *args: machine.run(entry, *args)
