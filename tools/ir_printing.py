"""Printing the IR around passes, the passes inside pipelines included: MLIR's
``--mlir-print-ir-before/after...`` flags (on standard error, under MLIR's
``// -----// IR Dump After PassName (pass-name) //----- //`` headers) and xDSL's
``--print-between-passes`` (on standard output)."""

from __future__ import annotations

import sys
from collections.abc import Collection
from dataclasses import dataclass, field
from typing import TextIO

from xdsl.dialects.builtin import ModuleOp

from relax_dialect.instrumentation import Instrumentation, Stage
from relax_dialect.memo_printer import print_module
from relax_dialect.recheck import Snapshot, ir_snapshot

EVERY_PASS = None
"""Print around every pass (``...-all``)."""


@dataclass
class IRPrinting(Instrumentation):
    """The module before and after the passes chosen (pipelines themselves are
    not printed, their inner passes are, as MLIR skips its pass adaptors)."""

    print_before: Collection[str] | None = ()
    """Names of the passes to print before (``EVERY_PASS``: all)."""
    print_after: Collection[str] | None = ()
    """Names of the passes to print after (``EVERY_PASS``: all)."""
    only_changed: bool = False
    """After a pass, print only if it changed the module."""
    after_failure: bool = False
    """Print the module after a pass that failed."""
    generic: bool = False
    stream: TextIO = field(default_factory=lambda: sys.stderr)
    _snapshots: list[Snapshot] = field(default_factory=list)
    _ran: set[str] = field(default_factory=set)

    @property
    def prints(self) -> bool:
        """Whether it prints anything at all."""
        chosen = (self.print_before, self.print_after)
        return any(c is EVERY_PASS or c for c in chosen) or self.after_failure

    def not_run(self) -> list[str]:
        """The passes named to print around that did not run (a misspelt name)."""
        named = [*(self.print_before or ()), *(self.print_after or ())]
        return [name for name in dict.fromkeys(named) if name not in self._ran]

    def before(self, stage: Stage, module: ModuleOp | None) -> None:
        if not stage.is_leaf_pass or module is None:
            return
        self._ran.add(stage.name)
        if self.only_changed:
            self._snapshots.append(ir_snapshot(module))
        if _chosen(stage.name, self.print_before):
            self._dump(f"Before {_title(stage)}", module)

    def after(self, stage: Stage, module: ModuleOp | None, failed: bool) -> None:
        if not stage.is_leaf_pass or module is None:
            return
        changed = not self.only_changed or self._snapshots.pop() != ir_snapshot(module)
        if failed:
            if self.after_failure:
                self._dump(f"After {_title(stage, ' Failed')}", module)
        elif changed and _chosen(stage.name, self.print_after):
            self._dump(f"After {_title(stage)}", module)

    def _dump(self, banner: str, module: ModuleOp) -> None:
        self.stream.write(f"// -----// IR Dump {banner} //----- //\n")
        self.stream.write(print_module(module, self.generic))
        self.stream.write("\n\n")
        self.stream.flush()


def _chosen(name: str, passes: Collection[str] | None) -> bool:
    return passes is EVERY_PASS or name in passes


def _title(stage: Stage, state: str = "") -> str:
    """``ClassName (pass-name)``, as MLIR names a pass in its headers."""
    return f"{type(stage.pass_).__name__}{state} ({stage.name})"


@dataclass
class PrintBetweenPasses(Instrumentation):
    """xDSL's ``--print-between-passes``: ``IR after PASS:`` and the module on
    standard output between two passes (not after the last, whose module is the
    output); a pipeline's inner passes count."""

    generic: bool = False
    _finished: str | None = None

    def before(self, stage: Stage, module: ModuleOp | None) -> None:
        if stage.pass_ is None or module is None or self._finished is None:
            return
        print(f"IR after {self._finished}:")
        sys.stdout.write(print_module(module, self.generic))
        print("\n\n")
        self._finished = None

    def after(self, stage: Stage, module: ModuleOp | None, failed: bool) -> None:
        if stage.pass_ is not None and not failed:
            self._finished = stage.name
