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

GO = "go\n"


class Turn:
    """A measuring process's side: two pipe descriptors from the suite, ``"ASK,GO"``."""

    def __init__(self, descriptors: str):
        ask, go = (int(fd) for fd in descriptors.split(","))
        self._ask = os.fdopen(ask, "w")
        self._go = os.fdopen(go)

    def take(self, label: str) -> None:
        """Block until the suite gives this process the machine (``label``: what for)."""
        self._ask.write(label.replace("\n", " ") + "\n")
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

    def next_request(self) -> str | None:
        """What the process asks a turn for, or None once it has exited."""
        request = self._asks.readline()
        if request:
            return request.rstrip("\n")
        self.process.wait()
        self._asks.close()
        self._gives.close()
        return None

    def give(self) -> None:
        try:
            self._gives.write(GO)
            self._gives.flush()
        except BrokenPipeError:  # it died asking: its next request is the end
            pass


def alternate(commands: Sequence[tuple[Sequence[str], IO[bytes]]]) -> list[int]:
    """Run each ``(command, standard output)``, giving turns round the processes until
    all have exited; their exit statuses. Each command accepts ``--turns`` (``Turn``)."""
    takers = [Taker(command, output) for command, output in commands]
    requests = {taker: taker.next_request() for taker in takers}
    while requests:
        for taker, request in list(requests.items()):
            if request is None:
                del requests[taker]
                continue
            taker.give()
            requests[taker] = taker.next_request()  # its turn ends with its next request
    return [taker.process.returncode for taker in takers]
