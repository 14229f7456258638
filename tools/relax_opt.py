"""``relax-opt``: parse, check, transform and print Relax IR (an ``xdsl-opt`` derivative).

Exit status: 0 on success; 1 with ``FILE:LINE:COL: error: MESSAGE`` lines on
bad input (parse errors, ill-formed programs, failing passes); 2 on usage
errors. ``--verify-diagnostics`` checks the input's ``// expected-error``
annotations against the diagnostics, as ``mlir-opt`` does.
"""

from __future__ import annotations

import argparse
import dataclasses
import gc
import os
import sys
import time
import traceback
from collections.abc import Sequence
from typing import NoReturn

import numpy as np
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass, PassPipeline
from xdsl.printer import Printer
from xdsl.utils.exceptions import ArgSpecParseError, DiagnosticException, ParseError
from xdsl.xdsl_opt_main import xDSLOptMain

from relax_dialect import frontends
from relax_dialect.diagnostics import (
    Diagnostic,
    DiagnosticError,
    at,
    expected_diagnostics,
    from_parse_error,
    unmatched,
)
from relax_dialect.frontends.frontend import FrontendError, UnknownFormat
from relax_dialect.frontends.mlir import forget_resources
from relax_dialect.memo_printer import MemoMLIRTarget
from relax_dialect.passes.pipelines import Pipeline
from relax_dialect.recheck import recheck_well_formed
from relax_dialect.recursion import deep_recursion, on_large_stack

from ..lowering import wire_tir_executor


class UsageError(Exception):
    """A bad command line (exit status 2)."""


class RelaxOptMain(xDSLOptMain):
    """``xdsl-opt`` with source locations, the well-formedness checker after
    parsing and between passes, and located diagnostics instead of tracebacks."""

    def __init__(self, args: Sequence[str] | None = None):
        self.frontend = frontends.lookup("mlir")
        """The frontend of the input (``read_input`` chooses it)."""
        super().__init__(description="Relax dialect optimizer driver", args=args)

    def register_all_arguments(self, arg_parser: argparse.ArgumentParser) -> None:
        super().register_all_arguments(arg_parser)
        arg_parser.add_argument(
            "--emit",
            choices=["mlir", "tvmscript", "llvm-dialect"],
            default="mlir",
            help="output format: the dialect's MLIR text, TVMScript that TVM parses, or the "
            "LLVM dialect (a lowered module through mlir-opt-22, e.g. after "
            "-p relax-lower-to-linalg)",
        )
        for option in frontends.options():
            if option.metavar is None:
                arg_parser.add_argument(option.flag, action="store_true", help=option.help)
            else:
                arg_parser.add_argument(option.flag, metavar=option.metavar, help=option.help)
        arg_parser.add_argument(
            "--metadata-out",
            metavar="CONSTANTS.npz",
            help="with --emit tvmscript: write non-scalar constants here, keyed by index, "
            "and refer to them as metadata (else they are printed inline)",
        )

    def setup_pipeline(self) -> None:
        start = time.perf_counter()

        def between_passes(
            previous: ModulePass | None, module: ModuleOp, upcoming: ModulePass | None
        ) -> None:
            nonlocal start
            if previous is None:
                start = time.perf_counter()
                return
            if self.args.time_passes:
                print(f"Pass {previous.name} took {time.perf_counter() - start:.6f} seconds")
            # a pipeline checks after its last inner pass (unless told not to)
            checked = isinstance(previous, Pipeline) and previous.verify_each
            if not (self.args.disable_verify or checked) and (
                diagnostics := recheck_well_formed(module, again=upcoming is not None)
            ):
                note = f"after pass {previous.name}: "
                raise DiagnosticError(
                    [dataclasses.replace(d, message=note + d.message) for d in diagnostics]
                )
            if upcoming is not None and self.args.print_between_passes:
                print(f"IR after {previous.name}:")
                Printer(stream=sys.stdout).print_op(module)
                print("\n\n")
            start = time.perf_counter()

        try:
            self.pipeline = PassPipeline.parse_spec(
                self.available_passes, self.args.passes, between_passes
            )
        except (Exception, ArgSpecParseError) as error:  # xDSL's is a BaseException
            raise UsageError(f"invalid pass pipeline '{self.args.passes}': {error}") from None
        if self.args.disable_verify:  # inside pipelines too, as mlir-opt -verify-each=0
            passes = tuple(
                dataclasses.replace(p, verify_each=False) if isinstance(p, Pipeline) else p
                for p in self.pipeline.passes
            )
            self.pipeline = dataclasses.replace(self.pipeline, passes=passes)

    def register_all_targets(self) -> None:
        """MLIR text only (``--emit`` adds TVMScript and the LLVM dialect): xDSL's
        other targets (``x86-asm``, ``wgsl``, ...) print their own dialects, not
        Relax, and stay with ``xdsl-opt``."""
        self.available_targets["mlir"] = lambda: MemoMLIRTarget

    def register_all_frontends(self) -> None:
        """The registered frontends, by name and by suffix (what ``-f`` takes)."""
        for frontend in frontends.REGISTRY.values():
            for key in (*frontend.suffixes, frontend.name):
                self.available_frontends.setdefault(
                    key,
                    lambda io, f=frontend: f.read(
                        self.ctx, f.decode(io.read()), self.get_input_name(), self.options()
                    ),
                )

    def read_input(self) -> tuple[str | bytes, str]:
        """The input as its frontend reads it (text, or bytes) and its name. The
        frontend (``self.frontend``) is the one of ``-f``, else of the file's suffix,
        else the one that recognises the input."""
        path = self.args.input_file
        if path == "-":
            path = None
        name = path or "<stdin>"
        try:
            frontends.candidates(path, self.args.frontend)  # an unknown format before reading
            if path is None:
                data = sys.stdin.buffer.read()
            else:
                with open(path, "rb") as handle:
                    data = handle.read()
            self.frontend = frontends.select(data, path, self.args.frontend)
            return self.frontend.decode(data), name
        except UnknownFormat as error:
            raise UsageError(str(error)) from None
        except (OSError, UnicodeDecodeError) as error:
            raise UsageError(f"cannot read '{name}': {error}") from None

    def options(self) -> dict[str, object]:
        """The values of the frontends' own options (``--metadata``), by name."""
        return {option.dest: getattr(self.args, option.dest) for option in frontends.options()}

    def load(self, source: str | bytes, name: str, line_offset: int = 0) -> ModuleOp:
        """Read, check and transform a module; raises ``DiagnosticError``."""
        try:
            module = self.frontend.read(self.ctx, source, name, self.options(), line_offset)
            again = bool(self.pipeline.passes)
            if not self.args.disable_verify and (diagnostics := recheck_well_formed(module, again)):
                raise DiagnosticError(diagnostics)
            self.pipeline.apply(self.ctx, module)
            return module
        except FrontendError as error:
            raise UsageError(str(error)) from None
        except ParseError as error:
            error.span = dataclasses.replace(error.span, line_offset=line_offset)
            raise DiagnosticError([from_parse_error(error)]) from None
        except DiagnosticException as error:
            raise DiagnosticError([Diagnostic(None, str(error).splitlines()[0])]) from None

    def output_resulting_program(self, prog: ModuleOp) -> str:
        if self.args.emit == "llvm-dialect":
            return self.llvm_dialect(prog)
        if self.args.emit != "tvmscript":
            return super().output_resulting_program(prog)
        from relax_dialect.frontends.tvmscript.printer import print_tvmscript
        from relax_dialect.frontends.tvmscript.spelling import CONSTANTS

        if self.args.metadata_out is None:
            return print_tvmscript(prog)
        metadata: dict[str, list[np.ndarray]] = {}
        text = print_tvmscript(prog, metadata)
        arrays = metadata.get(CONSTANTS, [])
        try:
            np.savez(self.args.metadata_out, **{str(i): a for i, a in enumerate(arrays)})
        except OSError as error:
            raise UsageError(f"cannot write '{self.args.metadata_out}': {error}") from None
        return text

    def llvm_dialect(self, prog: ModuleOp) -> str:
        """The lowered module through the MLIR toolchain down to the LLVM dialect."""
        from ..lowering.toolchain import (  # the lowering loads only when used
            ToolchainError,
            generic_text,
            lower_to_llvm_dialect,
        )

        if any(op.dialect_name() == "relax" for op in prog.walk()):
            raise DiagnosticError(
                [at(prog, "--emit llvm-dialect needs a lowered module (-p relax-lower-to-linalg)")]
            )
        try:
            return lower_to_llvm_dialect(generic_text(prog))
        except ToolchainError as error:
            raise DiagnosticError([Diagnostic(None, str(error))]) from None

    def process(
        self, source: str | bytes, name: str, line_offset: int
    ) -> tuple[str, list[Diagnostic]]:
        """Load one chunk of input and print it."""
        forget_resources(self.ctx)
        try:
            return self.output_resulting_program(self.load(source, name, line_offset)), []
        except DiagnosticError as error:
            return "", error.diagnostics

    def run_tool(self) -> int:
        source, name = self.read_input()
        chunks = [(source, 0)]
        if self.args.split_input_file:
            marker = self.frontend.split_marker
            if marker is None or not isinstance(source, str):
                title = self.frontend.title
                raise UsageError(f"--split-input-file: {title} input cannot be split")
            pieces = source.split(marker)
            offsets = [0]
            for piece in pieces[:-1]:
                offsets.append(offsets[-1] + piece.count("\n"))
            chunks = list(zip(pieces, offsets, strict=True))
        outputs: list[str] = []
        diagnostics: list[Diagnostic] = []
        for chunk, offset in chunks:
            output, found = self.process(chunk, name, offset)
            diagnostics += found
            if not found:
                outputs.append(output)
        emitted = frontends.lookup("tvmscript" if self.args.emit == "tvmscript" else "mlir")
        self.write_output(f"{emitted.split_marker}\n".join(outputs))
        if self.args.verify_diagnostics:
            text = source if isinstance(source, str) else ""
            problems = unmatched(expected_diagnostics(text, name), diagnostics)
            for problem in problems:
                print(problem, file=sys.stderr)
            return 1 if problems else 0
        print_diagnostics(source, diagnostics)
        return 1 if diagnostics else 0

    def write_output(self, output: str) -> None:
        if self.args.output_file is None:
            sys.stdout.write(output)
            return
        try:
            with open(self.args.output_file, "w", encoding="utf-8") as handle:
                handle.write(output)
        except OSError as error:
            raise UsageError(f"cannot write '{self.args.output_file}': {error}") from None


def print_diagnostics(source: str | bytes, diagnostics: Sequence[Diagnostic]) -> None:
    """Each diagnostic on standard error, with its source line and a caret (for
    text input)."""
    for diagnostic in diagnostics:
        print(diagnostic, file=sys.stderr)
        print(_source_context(source, diagnostic), end="", file=sys.stderr)


def _source_context(source: str | bytes, diagnostic: Diagnostic) -> str:
    """The source line of a diagnostic with a caret under its column."""
    location = diagnostic.location
    lines = source.splitlines() if isinstance(source, str) else []
    if location is None or not 0 < location.line <= len(lines):
        return ""
    line = lines[location.line - 1]
    return f"{line}\n{' ' * (location.column - 1)}^\n"


GC_THRESHOLDS = (100_000, 50, 1_000)
"""A tool builds millions of long-lived IR objects: collecting the young generation
every 100,000 allocations instead of 700 (and the old one rarely) saves ~10% of a
large compilation; the IR holds few reference cycles to reclaim."""


def main_guarded(tool: type[RelaxOptMain], argv: Sequence[str] | None, name: str) -> int:
    """Run a tool, with the lowered interpreter as the executor of ``call_tir``
    targets: usage errors exit 2; nothing escapes as a traceback (set
    ``RELAX_OPT_TRACEBACK`` to see one for an internal error)."""
    gc.set_threshold(*GC_THRESHOLDS)
    wire_tir_executor()
    try:
        return on_large_stack(lambda: _run_deep(tool, argv))
    except UsageError as error:
        print(f"{name}: error: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:  # the reader of the output left early (``relax-opt ... | head``)
        return 1
    except RecursionError:
        print(f"{name}: error: the input nests too deeply to be processed", file=sys.stderr)
        return 1
    except Exception as error:
        if os.environ.get("RELAX_OPT_TRACEBACK"):
            traceback.print_exc()
        print(f"{name}: internal error: {type(error).__name__}: {error}", file=sys.stderr)
        return 1


def exit_without_teardown(status: int) -> NoReturn:
    """End the process once its output is flushed, without freeing what it built:
    tearing down a large module's millions of objects one by one takes about as
    long as a pass (0.7 s of a 6 s run at 10,000 bindings), and the operating system
    reclaims the memory at once (clang's ``-disable-free``; mypy's fast exit)."""
    try:
        sys.stdout.flush()
    except OSError:  # a closed pipe: the output did not all arrive
        status = status or 1
    sys.stderr.flush()
    os._exit(status)


def _run_deep(tool: type[RelaxOptMain], argv: Sequence[str] | None) -> int:
    with deep_recursion():
        return tool(argv).run_tool()


def main(argv: Sequence[str] | None = None) -> int:
    return main_guarded(RelaxOptMain, argv, "relax-opt")


def run() -> NoReturn:
    """The ``relax-opt`` command."""
    exit_without_teardown(main())


if __name__ == "__main__":
    run()
