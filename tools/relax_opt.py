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
import re
import sys
import traceback
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any, NoReturn

import numpy as np
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import PassPipeline
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
from relax_dialect.frontends.frontend import FrontendError, Option, UnknownFormat
from relax_dialect.frontends.mlir import forget_resources
from relax_dialect.instrumentation import Instrumentation, instrumented, run_pass, stage
from relax_dialect.memo_printer import MemoMLIRTarget
from relax_dialect.passes.pipelines import Pipeline
from relax_dialect.recheck import recheck_well_formed
from relax_dialect.recursion import deep_recursion, on_large_stack

from ..lowering import wire_tir_executor
from . import catalog
from .ir_printing import EVERY_PASS, IRPrinting, PrintBetweenPasses
from .progress import Progress
from .timing import PassTimes, TimingReport
from .versions import version_text


class UsageError(Exception):
    """A bad command line (exit status 2)."""


class RelaxOptMain(xDSLOptMain):
    """``xdsl-opt`` with source locations, the well-formedness checker after
    parsing and between passes, located diagnostics instead of tracebacks, and
    ``mlir-opt``'s IR printing and timing around every pass (inside pipelines too)."""

    TOOL = "relax-opt"
    DESCRIPTION = (
        "Read a Relax module (MLIR text or TVMScript), check it, run passes on it and "
        "print it (an xdsl-opt/mlir-opt style optimizer driver)."
    )

    def __init__(self, args: Sequence[str] | None = None):
        self.frontend = frontends.lookup("mlir")
        """The frontend of the input (``read_input`` chooses it)."""
        super().__init__(description=self.DESCRIPTION, args=args)

    def register_all_arguments(self, arg_parser: argparse.ArgumentParser) -> None:
        super().register_all_arguments(arg_parser)
        # xDSL's -p and -v are redefined (the passes listed apart, the versions ours):
        # its options are in the parser's group of optional arguments
        arg_parser._optionals.conflict_handler = "resolve"
        arg_parser.formatter_class = _HelpFormatter
        arg_parser.epilog = _Lazy(lambda: catalog.help_epilog(self.available_passes))
        arg_parser.add_argument(
            "-p",
            "--passes",
            default="",
            metavar="PIPELINE",
            help="comma-separated passes, options in braces: 'relax-o2,relax-dce' or "
            "'relax-fold-constant{max-size=4096}' (the passes are listed below)",
        )
        arg_parser.add_argument(
            "--pass-pipeline",
            metavar="PIPELINE",
            help="the passes in mlir-opt's syntax: 'builtin.module(relax-normalize,relax-o2)'",
        )
        arg_parser.add_argument(
            "-v",
            "--version",
            action=_ShowAndExit,
            text=lambda: version_text(self.TOOL),
            help="show the versions of relax-xdsl, xDSL, NumPy, the MLIR toolchain and IREE",
        )
        arg_parser.add_argument(
            "--list-passes",
            action=_ShowAndExit,
            text=lambda: catalog.list_passes(self.available_passes),
            help="list every pass, with its options and their defaults, and exit",
        )
        arg_parser.add_argument(
            "--list-operators",
            action=_ShowAndExit,
            text=catalog.list_operators,
            help="list the Relax operators by family and exit",
        )
        arg_parser.add_argument(
            "--emit",
            choices=["mlir", "tvmscript", "llvm-dialect", "dot", "svg"],
            default="mlir",
            help="output format: the dialect's MLIR text, TVMScript that TVM parses, the "
            "LLVM dialect (a lowered module through mlir-opt-22, e.g. after "
            "-p relax-lower-to-linalg), or each function's dataflow graph as Graphviz DOT "
            "or SVG (rendered by Graphviz's dot)",
        )
        for option in self.frontend_options():
            if option.metavar is None:
                arg_parser.add_argument(option.flag, action="store_true", help=option.help)
            else:
                arg_parser.add_argument(option.flag, metavar=option.metavar, help=option.help)
        arg_parser.add_argument(
            "--mlir-elide-elementsattrs-if-larger",
            type=_size_limit,
            metavar="N",
            help="print constants of more than N elements as dense_resource<__elided__> "
            "(as mlir-opt; the output does not read back)",
        )
        arg_parser.add_argument(
            "--mlir-elide-resource-strings-if-larger",
            type=_size_limit,
            metavar="N",
            help="leave out the dense_resource blobs whose text is longer than N characters "
            "(as mlir-opt; their handles stay, the output does not read back)",
        )
        arg_parser.add_argument(
            "--metadata-out",
            metavar="CONSTANTS.npz",
            help="with --emit tvmscript: write non-scalar constants here, keyed by index, "
            "and refer to them as metadata (else they are printed inline)",
        )
        arg_parser.add_argument(
            "-q",
            "--quiet",
            action="store_true",
            help="show no progress (on a terminal, a status line during long work; "
            "otherwise a summary line after it)",
        )
        _instrumentation_arguments(
            arg_parser.add_argument_group(
                "pass instrumentation (as mlir-opt; passes inside pipelines included)"
            )
        )

    def setup_pipeline(self) -> None:
        spec = self.args.passes
        if self.args.pass_pipeline is not None:
            if spec:
                raise UsageError("give the passes with -p or with --pass-pipeline, not both")
            spec = self.args.pass_pipeline
        spec = _xdsl_pipeline(spec)
        try:
            self.pipeline = PassPipeline.parse_spec(self.available_passes, spec)
        except (Exception, ArgSpecParseError) as error:  # xDSL's is a BaseException
            raise UsageError(f"invalid pass pipeline '{spec}': {error}") from None
        if self.args.disable_verify:  # inside pipelines too, as mlir-opt -verify-each=0
            passes = tuple(
                dataclasses.replace(p, verify_each=False) if isinstance(p, Pipeline) else p
                for p in self.pipeline.passes
            )
            self.pipeline = dataclasses.replace(self.pipeline, passes=passes)

    def apply_passes(self, prog: ModuleOp) -> None:
        """Run the passes, each a stage of the instrumentation, and check the module
        after each (a pipeline checks after its last inner pass, unless told not to)."""
        passes = self.pipeline.passes
        for index, pass_ in enumerate(passes, 1):
            run_pass(pass_, self.ctx, prog)
            checked = isinstance(pass_, Pipeline) and pass_.verify_each
            if self.args.disable_verify or checked:
                continue
            with stage("Verifier", prog):
                diagnostics = recheck_well_formed(prog, again=index < len(passes))
            if diagnostics:
                note = f"after pass {pass_.name}: "
                raise DiagnosticError(
                    [dataclasses.replace(d, message=note + d.message) for d in diagnostics]
                )

    @contextmanager
    def instrumentation(self) -> Iterator[None]:
        """The instrumentation the flags ask for, installed for the block; the
        progress line is cleared (or summarised) and the timing report printed after."""
        args = self.args
        chosen: list[Instrumentation] = []
        progress = None if args.quiet else Progress(self.TOOL, sys.stderr)
        timing = TimingReport() if args.mlir_timing else None
        printing = IRPrinting(
            print_before=EVERY_PASS if args.mlir_print_ir_before_all else args.mlir_print_ir_before,
            print_after=EVERY_PASS
            if args.mlir_print_ir_after_all
            or (args.mlir_print_ir_after_change and not args.mlir_print_ir_after)
            else args.mlir_print_ir_after,
            only_changed=args.mlir_print_ir_after_change,
            after_failure=args.mlir_print_ir_after_failure,
            generic=args.print_op_generic,
        )
        if printing.prints:
            chosen.append(printing)
        if args.print_between_passes:
            chosen.append(PrintBetweenPasses(generic=args.print_op_generic))
        if args.time_passes:
            chosen.append(PassTimes())
        chosen += [i for i in (timing, progress) if i is not None]
        try:
            with instrumented(*chosen):
                yield
        finally:
            if progress is not None:
                progress.finish()
            if timing is not None:
                sys.stderr.write(timing.render())
            for name in printing.not_run():
                print(f"{self.TOOL}: warning: no pass named '{name}' ran", file=sys.stderr)

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

    def frontend_options(self) -> tuple[Option, ...]:
        """The frontends' own options, as this tool takes them."""
        return frontends.options()

    def options(self) -> dict[str, object]:
        """The values of the frontends' own options (``--metadata``), by name."""
        return {option.dest: getattr(self.args, option.dest) for option in self.frontend_options()}

    def load(self, source: str | bytes, name: str, line_offset: int = 0) -> ModuleOp:
        """Read, check and transform a module; raises ``DiagnosticError``."""
        try:
            with stage("Parser"):
                module = self.frontend.read(self.ctx, source, name, self.options(), line_offset)
            if not self.args.disable_verify:
                with stage("Verifier", module):
                    diagnostics = recheck_well_formed(module, again=bool(self.pipeline.passes))
                if diagnostics:
                    raise DiagnosticError(diagnostics)
            self.apply_passes(module)
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
        if self.args.emit in ("dot", "svg"):
            return self.graph(prog)
        if self.args.emit != "tvmscript":
            self.args.target = self._target_with_elision()
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

    def _target_with_elision(self) -> str:
        """The ``-t`` target, with the ``--mlir-elide-*`` options as its own."""
        limits = {
            "elide-elements-if-larger": self.args.mlir_elide_elementsattrs_if_larger,
            "elide-resources-if-larger": self.args.mlir_elide_resource_strings_if_larger,
        }
        options = " ".join(f"{key}={value}" for key, value in limits.items() if value is not None)
        if self.args.target != "mlir" or not options:
            return self.args.target
        return f"mlir{{{options}}}"

    def graph(self, prog: ModuleOp) -> str:
        """The functions' dataflow as Graphviz DOT, or as SVG drawn by ``dot``."""
        from relax_dialect.dataflow_graph import GraphvizError, module_to_dot, render_svg

        dot = module_to_dot(prog)
        if self.args.emit == "dot":
            return dot
        try:
            with stage("dot"):
                return render_svg(dot)
        except GraphvizError as error:
            raise DiagnosticError([Diagnostic(None, str(error))]) from None

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
            module = self.load(source, name, line_offset)
            with stage("Output"):
                return self.output_resulting_program(module), []
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
        self.print_diagnostics(source, diagnostics)
        return 1 if diagnostics else 0

    def print_diagnostics(self, source: str | bytes, diagnostics: Sequence[Diagnostic]) -> None:
        """Each diagnostic on standard error: a located one with its source line
        and a caret (for text input), one without a location after the tool's name."""
        for diagnostic in diagnostics:
            where = "" if diagnostic.location is not None else f"{self.TOOL}: "
            print(f"{where}{diagnostic}", file=sys.stderr)
            print(_source_context(source, diagnostic), end="", file=sys.stderr)

    def write_output(self, output: str) -> None:
        if self.args.output_file is None:
            sys.stdout.write(output)
            return
        try:
            with open(self.args.output_file, "w", encoding="utf-8") as handle:
                handle.write(output)
        except OSError as error:
            raise UsageError(f"cannot write '{self.args.output_file}': {error}") from None


def _source_context(source: str | bytes, diagnostic: Diagnostic) -> str:
    """The source line of a diagnostic with a caret under its column."""
    location = diagnostic.location
    lines = source.splitlines() if isinstance(source, str) else []
    if location is None or not 0 < location.line <= len(lines):
        return ""
    line = lines[location.line - 1]
    return f"{line}\n{' ' * (location.column - 1)}^\n"


class _Lazy:
    """Text made when it is first shown (the pass list of ``--help`` loads every pass)."""

    def __init__(self, make: Callable[[], str]):
        self.make = make

    def __str__(self) -> str:
        return self.make()


class _HelpFormatter(argparse.HelpFormatter):
    """argparse's formatter, leaving lazy text (the pass list) as it is laid out."""

    def _format_text(self, text: str) -> str:
        if isinstance(text, _Lazy):
            return f"{text}\n"
        return super()._format_text(text)


class _ShowAndExit(argparse.Action):
    """Print a text made on demand (versions, pass or operator lists) and exit 0."""

    def __init__(
        self, option_strings: Sequence[str], dest: str, text: Callable[[], str], **kw: Any
    ):
        super().__init__(option_strings, dest, nargs=0, default=argparse.SUPPRESS, **kw)
        self.text = text

    def __call__(self, parser: argparse.ArgumentParser, *args: object) -> None:
        sys.stdout.write(self.text())
        parser.exit()


def _size_limit(text: str) -> int:
    """A size to elide beyond: a non-negative integer, as mlir-opt's unsigned options."""
    if not text.isdigit():
        raise argparse.ArgumentTypeError(f"expected a non-negative integer, got '{text}'")
    return int(text)


def _pass_names(text: str) -> list[str]:
    return [name for name in text.split(",") if name]


def _instrumentation_arguments(group: argparse._ArgumentGroup) -> None:
    """``mlir-opt``'s IR printing and timing flags."""
    for when in ("before", "after"):
        group.add_argument(
            f"--mlir-print-ir-{when}",
            type=_pass_names,
            default=[],
            metavar="PASS[,PASS]",
            help=f"print the module {when} these passes (on standard error)",
        )
        group.add_argument(
            f"--mlir-print-ir-{when}-all",
            action="store_true",
            help=f"print the module {when} every pass",
        )
    group.add_argument(
        "--mlir-print-ir-after-change",
        action="store_true",
        help="print the module after a pass only if the pass changed it (after every "
        "pass, or those of --mlir-print-ir-after)",
    )
    group.add_argument(
        "--mlir-print-ir-after-failure",
        action="store_true",
        help="print the module after a pass that failed",
    )
    group.add_argument(
        "--mlir-timing",
        action="store_true",
        help="print a tree of where the time went (parsing, checks, each pass, output) "
        "on standard error",
    )


_NESTED = re.compile(r"[\w.-]+\s*\(")


def _xdsl_pipeline(spec: str) -> str:
    """A pipeline in xDSL's syntax: MLIR's ``builtin.module(a,b{x=1})`` is unwrapped
    (its options are written alike); a nested pipeline (``func.func(cse)``) is
    refused, as every pass here runs on the module."""
    spec = spec.strip()
    if spec.startswith("builtin.module(") and spec.endswith(")"):
        spec = spec.removeprefix("builtin.module(").removesuffix(")")
    outside_options = re.sub(r"\{[^}]*\}", "", spec)
    nested = _NESTED.search(outside_options)
    if nested is not None:
        raise UsageError(
            f"invalid pass pipeline: nested pipelines ('{nested.group().rstrip('( ')}(...)') "
            "are not supported; every pass runs on the module"
        )
    return re.sub(r"\s*,\s*(?![^{]*\})", ",", spec)  # MLIR allows spaces between passes


GC_THRESHOLDS = (100_000, 50, 1_000)
"""A tool builds millions of long-lived IR objects: collecting the young generation
every 100,000 allocations instead of 700 (and the old one rarely) saves ~10% of a
large compilation; the IR holds few reference cycles to reclaim."""


def main_guarded(tool: type[RelaxOptMain], argv: Sequence[str] | None) -> int:
    """Run a tool, with the lowered interpreter as the executor of ``call_tir``
    targets: usage errors exit 2; nothing escapes as a traceback (set
    ``RELAX_OPT_TRACEBACK`` to see one for an internal error)."""
    gc.set_threshold(*GC_THRESHOLDS)
    wire_tir_executor()
    name = tool.TOOL
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
        running = tool(argv)
        with running.instrumentation():
            return running.run_tool()


def main(argv: Sequence[str] | None = None) -> int:
    return main_guarded(RelaxOptMain, argv)


def run() -> NoReturn:
    """The ``relax-opt`` command."""
    exit_without_teardown(main())


if __name__ == "__main__":
    run()
