"""Taking turns: processes that measure the same stages at different sizes, one at a time.

The host's speed drifts over minutes (docs/benchmarks.md, "The host's speed"),
so a stage timed at 10,000 bindings early in the run and at 100,000 twenty
minutes later compares two machines. Measuring the sizes in processes that
take turns sample by sample times both in the same minutes, while each process
holds only its own program (its peak memory stays its own).

A measuring process asks for a turn before each piece of work it times
(``Turn.take``); its turn lasts until it asks again or exits. The suite
(``alternate``) gives turns round the processes, one process running at a time.
"""

from __future__ import annotations

import os
import subprocess
from collections.abc import Sequence
from typing import IO

ASK, GO = "ask\n", "go\n"


class Turn:
    """A measuring process's side: two pipe descriptors from the suite, ``"ASK,GO"``."""

    def __init__(self, descriptors: str):
        ask, go = (int(fd) for fd in descriptors.split(","))
        self._ask = os.fdopen(ask, "w")
        self._go = os.fdopen(go)

    def take(self) -> None:
        """Block until the suite gives this process the machine."""
        self._ask.write(ASK)
        self._ask.flush()
        if self._go.readline() != GO:
            raise RuntimeError("the suite stopped giving turns")


class Taker:
    """The suite's side of one measuring process, started with ``--turns ASK,GO``."""

    def __init__(self, command: Sequence[str], output: IO[bytes]):
        asks, ask = os.pipe()
        go, gives = os.pipe()
        turns = ["--turns", f"{ask},{go}"]
        self.process = subprocess.Popen([*command, *turns], stdout=output, pass_fds=(ask, go))
        os.close(ask)
        os.close(go)
        self._asks = os.fdopen(asks)
        self._gives = os.fdopen(gives, "w")

    def asks(self) -> bool:
        """Wait until the process asks for a turn (True) or exits (False)."""
        if self._asks.readline() == ASK:
            return True
        self.process.wait()
        self._asks.close()
        self._gives.close()
        return False

    def give_turn(self) -> bool:
        """Give the process the machine and wait until its turn ends: it asks again
        (True) or exits (False)."""
        try:
            self._gives.write(GO)
            self._gives.flush()
        except BrokenPipeError:  # it died asking: the pipe's end says so
            pass
        return self.asks()


def alternate(commands: Sequence[tuple[Sequence[str], IO[bytes]]]) -> list[int]:
    """Run each ``(command, standard output)``, giving turns round the processes until
    all have exited; their exit statuses. Each command accepts ``--turns`` (``Turn``)."""
    takers = [Taker(command, output) for command, output in commands]
    asking = [taker for taker in takers if taker.asks()]
    while asking:  # one round: one turn each, one after the other
        asking = [taker for taker in asking if taker.give_turn()]
    return [taker.process.returncode for taker in takers]
