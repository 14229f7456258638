"""How a call passes a TIR function its parameters."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Convention:
    """How a call passes a TIR function's parameters: the number of arguments,
    and per output the argument it writes in place (-1 for a fresh output)."""

    inputs: int
    outputs: tuple[int, ...]

    def __str__(self) -> str:
        fresh = sum(1 for index in self.outputs if index == -1)
        return f"{self.inputs} arguments and {fresh} fresh outputs"
