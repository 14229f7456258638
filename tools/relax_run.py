"""``relax-run``: run a function of a Relax module on NumPy inputs.

    relax-run FILE [--entry main] [--inputs IN.npz [--bind-inputs NAME,...]] [--outputs OUT.npz]
              [--backend reference|lowered|mlir|iree|LIST|all] [--no-tile] [--threads N]
              [-p PIPELINE]
              [--plugin MODULE]...

Inputs are the arrays of an ``.npz`` file, keyed by parameter name (the SSA
name, without ``%``) or position (``arg0``, ``arg1``...); a tuple parameter
takes ``name.0``, ``name.1``... The results are written to ``--outputs`` as
``out0``, ``out1``... (nested tuples flattened depth-first) and summarised on
standard output, with the values of the symbolic dimensions. Exit status as
``relax-opt``: 1 for bad input or a failed run-time check (located), 2 for
usage errors.

``--backend`` names an execution engine of ``relax_xdsl.lowering.backends``:
``reference`` interprets the Relax dialect; ``lowered`` lowers it to
linalg/tensor/arith/func and runs the bundled interpreter; ``mlir`` compiles the
lowered module with the MLIR toolchain (``mlir-opt-22`` and friends, with the
tiling/vectorisation schedule of contractions, convolutions and pooling unless ``--no-tile``)
and runs native code;
``iree`` compiles it with IREE (the extra ``relax-xdsl[iree]``) and runs it on
IREE's CPU device. A list of backends runs each, prints its time and whether its results agree with
the first backend's; a backend that cannot run here (a missing toolchain) or
cannot run the module (native code or IREE and packed functions, IREE and
recursion) is then skipped with a
message. ``--benchmark N`` runs each backend N more times after the first call
and prints ``BACKEND: median X ms`` (compilation excluded).
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import re
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import NoReturn

import numpy as np
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import SSAValue
from xdsl.traits import SymbolTable

from relax_dialect.analysis.call_graph import functions
from relax_dialect.diagnostics import DiagnosticError, at, located
from relax_dialect.dtype import FORMATS
from relax_dialect.frontends.frontend import Option
from relax_dialect.instrumentation import Instrumentation, instrumented, stage
from relax_dialect.interpreter import PackedRegistry, PluginError, RelaxRuntimeError
from relax_dialect.interpreter.checks import MatchFailure, match_all
from relax_dialect.npz import read_npz
from relax_dialect.types import struct_info_text
from relax_dialect.values import describe, flatten, named_value, to_array, to_value

from ..lowering.backends import BACKENDS, backend_named
from ..lowering.backends.backend import Backend, Program, RunOptions
from ..lowering.disk_cache import CACHE_HIT
from ..lowering.host import default_memory_limit
from ..lowering.interpreter import LoweredCheckError, LoweredExecutionError
from ..lowering.threads import DEFAULT_THREADS, machine_cores
from ..lowering.toolchain import ToolchainError
from .relax_opt import (
    RelaxOptMain,
    UsageError,
    exit_without_teardown,
    main_guarded,
)

BIND_INPUTS = Option(
    "--bind-inputs",
    "ONNX: make these graph inputs constants, with their values from --inputs, for the "
    "operators that need them at import time (axes, pads, sizes...); the others are fed",
    "NAME[,NAME...]",
)
"""``relax-run``'s form of the ONNX frontend's ``--bind-inputs`` (which takes an ``.npz``)."""


class RelaxRunMain(RelaxOptMain):
    """``relax-opt``'s loading (parse, check, passes), then the interpreter."""

    TOOL = "relax-run"
    DESCRIPTION = (
        "Run a function of a Relax module (MLIR text or TVMScript) on NumPy inputs: "
        "read and check it, run passes on it, execute it on one or more backends and "
        "print (or save) the results."
    )

    def register_all_arguments(self, arg_parser: argparse.ArgumentParser) -> None:
        super().register_all_arguments(arg_parser)
        arg_parser.add_argument("--entry", default="main", help="function to run")
        arg_parser.add_argument("--inputs", help=".npz file with the arguments")
        arg_parser.add_argument("--outputs", help=".npz file to write the results to")
        engines = ", ".join(f"{name} ({entry.summary})" for name, entry in BACKENDS.items())
        arg_parser.add_argument(
            "--backend",
            type=_backends,
            default=["reference"],
            help=f"execution engine: {engines}; a comma-separated list, or 'all', runs each "
            "and compares its results with the first's",
        )
        arg_parser.add_argument(
            "--benchmark",
            type=int,
            default=0,
            metavar="N",
            help="after the first call, call each backend N more times and print its median "
            "time per call (compilation excluded)",
        )
        arg_parser.add_argument(
            "--tile",
            action=argparse.BooleanOptionalAction,
            default=True,
            help="with --backend mlir: tile and vectorise contractions, convolutions and "
            "pooling (the transform-dialect schedule; default on, --no-tile for plain loops)",
        )
        arg_parser.add_argument(
            "--memory-limit",
            type=_bytes,
            default=default_memory_limit(),
            metavar="SIZE",
            help="with --backend mlir: the memory a call may hold at once, in bytes or with "
            "a K/M/G/T suffix; 0 for no limit (default: half of this machine's memory)",
        )
        arg_parser.add_argument(
            "--threads",
            type=int,
            default=DEFAULT_THREADS,
            metavar="N",
            help="with --backend mlir: threads running the parallel loops (OpenMP; default "
            f"{DEFAULT_THREADS}; this machine has {machine_cores()} cores)",
        )
        arg_parser.add_argument(
            "--plugin",
            action="append",
            default=[],
            help="module (dotted name or .py file) defining register_packed_functions(registry)",
        )

    def run_tool(self) -> int:
        source, name = self.read_input()
        registry = PackedRegistry()
        for plugin in self.args.plugin:
            try:
                registry.load_plugin(plugin)
            except PluginError as error:
                raise UsageError(str(error)) from None
        if self.args.benchmark < 0:
            raise UsageError("--benchmark takes a number of calls, 0 or more")
        if self.args.threads < 1:
            raise UsageError("--threads takes a number of threads, 1 or more")
        try:
            module = self.load(source, name)
            _check_entry(module, self.args.entry)
            options = RunOptions(
                registry, self.args.tile, self.args.memory_limit, self.args.threads
            )
            program = Program(module, options)
            function = program.machine.function(self.args.entry)
            params = function.op.params
            args = self.read_arguments(params)
            symbols: dict[str, int] = {}
            with contextlib.suppress(MatchFailure):  # reported, located, by the run itself
                match_all(args, [p.type for p in params], symbols)  # pyright: ignore
            backends = [backend_named(backend) for backend in self.args.backend]
            if sum(backend.runs_lowered for backend in backends) > 1:
                program.lowered()  # once for all, before the timed runs
            runs = [self.execute(backend, program, args) for backend in backends]
        except DiagnosticError as error:
            self.print_diagnostics(source, error.diagnostics)
            return 1
        except RelaxRuntimeError as error:
            self.print_diagnostics(source, [at(error.where, error.message)])
            return 1
        except LoweredCheckError as error:
            self.print_diagnostics(source, [located(str(error))])
            return 1
        except (LoweredExecutionError, ToolchainError, Unrunnable) as error:
            print(f"{self.TOOL}: error: {error}", file=sys.stderr)
            return 1
        result = runs[0].result
        self.summarise(function.name, params, symbols, result)
        self.save(result)
        status = self.compare(runs)
        for run in runs:
            if run.per_call:
                print(f"{run.backend.name}: median {1e3 * statistics.median(run.per_call):.3f} ms")
        return status

    def execute(self, backend: Backend, program: Program, args: Sequence[object]) -> Run:
        """The entry's result on one backend, with the time it took, or a skipped run
        (when others run too) if the backend cannot run here or cannot run the module."""
        reason = backend.unavailable()
        if reason is None and (problem := backend.unsupported(program)) is not None:
            if len(self.args.backend) == 1:
                raise DiagnosticError([problem])
            where = f"{problem.location}: " if problem.location is not None else ""
            reason = where + problem.message
        if reason is not None:
            if len(self.args.backend) == 1:
                raise Unrunnable(reason)
            print(f"{backend.name}: skipped: {reason}", file=sys.stderr)
            return Run(backend, None, 0.0, [])
        start = time.perf_counter()
        build = CompilationRecord()
        with stage(f"compile ({backend.name})"), instrumented(build):
            compiled = backend.compile(program, self.args.entry)
        with stage(f"run ({backend.name})"):
            result = compiled(*args)
        seconds = time.perf_counter() - start
        per_call: list[float] = []
        if self.args.benchmark:
            with stage(f"benchmark ({backend.name})"):
                per_call = _timed(compiled, args, self.args.benchmark)
        how = None
        if backend.runs_lowered:
            how = "compiled code from the cache" if build.cached else "with compilation"
        return Run(backend, result, seconds, per_call, how)

    def compare(self, runs: Sequence[Run]) -> int:
        """With several backends: each one's time, and whether its results agree with
        the first backend's (exit status 1 if any disagrees)."""
        if len(runs) == 1:
            return 0
        first = runs[0]
        expected = flatten(first.result)
        status = 0
        for run in runs:
            if run.result is None:
                continue
            line = f"{run.backend.name}: {run.seconds:.3f} s"
            if run.compilation is not None:
                line += f" ({run.compilation})"
            if run is not first:
                difference = _difference(expected, flatten(run.result))
                agrees = difference is not None and difference <= 1e-4
                status |= not agrees
                verdict = "agrees" if agrees else "DISAGREES"
                shown = "different structure" if difference is None else f"{difference:.2g}"
                line += f", {verdict} with {first.backend.name} (max relative difference {shown})"
            print(line)
        return status

    def frontend_options(self) -> tuple[Option, ...]:
        """The frontends' options, ``--bind-inputs`` naming inputs of ``--inputs``."""
        found = super().frontend_options()
        return tuple(BIND_INPUTS if o.flag == BIND_INPUTS.flag else o for o in found)

    def options(self) -> dict[str, object]:
        """The frontends' options, the inputs ``--bind-inputs`` names with their values."""
        found = super().options()
        if (names := found.get(BIND_INPUTS.dest)) is not None:
            found[BIND_INPUTS.dest] = self.bound_inputs(str(names))
        return found

    def bound_inputs(self, names: str) -> dict[str, np.ndarray]:
        """The arrays of ``--inputs`` that ``--bind-inputs`` names."""
        if self.args.inputs is None:
            raise UsageError("--bind-inputs takes the values of the inputs it names from --inputs")
        arrays = self.input_arrays
        wanted = [name.strip() for name in names.split(",") if name.strip()]
        missing = [name for name in wanted if name not in arrays]
        if missing:
            raise UsageError(
                f"--bind-inputs: no {_quoted(missing)} in --inputs '{self.args.inputs}' "
                f"(it holds {_quoted(sorted(arrays)) or 'no arrays'})"
            )
        return {name: arrays[name] for name in wanted}

    @functools.cached_property
    def input_arrays(self) -> dict[str, np.ndarray]:
        """The arrays of ``--inputs``, by key."""
        if self.args.inputs is None:
            return {}
        try:
            return read_npz(self.args.inputs)
        except (OSError, ValueError) as error:
            raise UsageError(f"cannot read inputs '{self.args.inputs}': {error}") from None

    def read_arguments(self, params: Sequence[SSAValue]) -> list[object]:
        """The arguments from ``--inputs``; keys that match no parameter (nor an input
        ``--bind-inputs`` binds) are warned about, with the keys expected."""
        arrays = self.input_arrays
        bound = self.options().get(BIND_INPUTS.dest) or {}
        args = [
            to_value(_argument(arrays, param, index), param.type)  # pyright: ignore
            for index, param in enumerate(params)
        ]
        keys = [_keys(param, index) for index, param in enumerate(params)]
        unused = [
            k
            for k in arrays
            if k not in bound and not any(_claims(key, k) for ks in keys for key in ks)
        ]
        if unused:
            expected = ", ".join(" or ".join(map(repr, ks)) for ks in keys) or "none"
            match = "key {} matches" if len(unused) == 1 else "keys {} match"
            print(
                f"{self.TOOL}: warning: --inputs '{self.args.inputs}': "
                f"{match.format(_quoted(unused))} no parameter of @{self.args.entry} "
                f"(expected {expected})",
                file=sys.stderr,
            )
        return args

    def summarise(
        self, name: str, params: Sequence[SSAValue], symbols: dict[str, int], result: object
    ) -> None:
        signature = ", ".join(
            f"%{p.name_hint or i}: {struct_info_text(p.type)}" for i, p in enumerate(params)
        )
        print(f"{name}({signature})")
        if symbols:
            print("symbolic dimensions: " + ", ".join(f"{k} = {v}" for k, v in symbols.items()))
        for index, leaf in enumerate(flatten(result)):
            print(f"out{index}: {describe(leaf)}")
            if isinstance(leaf, np.ndarray):
                text = np.array2string(leaf, threshold=12, edgeitems=3, precision=5)
                print("  " + text.replace("\n", "\n  "))

    def save(self, result: object) -> None:
        if self.args.outputs is None:
            return
        arrays = {}
        for index, leaf in enumerate(flatten(result)):
            array = to_array(leaf)
            if array is None:
                message = f"out{index} ({describe(leaf)}) cannot be saved; skipped"
                print(f"{self.TOOL}: warning: {message}", file=sys.stderr)
            else:
                arrays[f"out{index}"] = array
        try:
            np.savez(self.args.outputs, **arrays)
        except OSError as error:
            raise UsageError(f"cannot write outputs '{self.args.outputs}': {error}") from None


class Unrunnable(Exception):
    """The only backend asked for cannot run on this machine."""


@dataclass
class Run:
    """One backend's run: its result (None when skipped), the time of its first call
    with compilation, the times of the ``--benchmark`` calls, and how its code was
    had (compiled, or from the cache)."""

    backend: Backend
    result: object
    seconds: float
    per_call: list[float]
    compilation: str | None = None


class CompilationRecord(Instrumentation):
    """Whether a backend's compile took its code from the cache."""

    def __init__(self) -> None:
        self.cached = False

    def progress(self, what: str, done: int, total: int | None) -> None:
        self.cached |= what == CACHE_HIT


def _timed(compiled: Callable[..., object], args: Sequence[object], calls: int) -> list[float]:
    """The time of each of ``calls`` more calls."""
    times = []
    for _ in range(calls):
        start = time.perf_counter()
        compiled(*args)
        times.append(time.perf_counter() - start)
    return times


def _bytes(text: str) -> int:
    """A size: a number of bytes, or with a K, M, G or T suffix (powers of 1024)."""
    suffix = text[-1:].upper()
    scale = 1 << 10 * ("KMGT".index(suffix) + 1) if suffix and suffix in "KMGT" else 1
    digits = text[:-1] if scale > 1 else text
    if not digits.isdigit():
        raise argparse.ArgumentTypeError(f"'{text}' is not a size (e.g. 4G, 512M, 0)")
    return int(digits) * scale


def _backends(text: str) -> list[str]:
    """The ``--backend`` list."""
    names = list(BACKENDS) if text == "all" else text.split(",")
    for name in names:
        if name not in BACKENDS:
            raise argparse.ArgumentTypeError(
                f"unknown backend '{name}' (expected {', '.join(BACKENDS)} or all)"
            )
    return names


def _difference(expected: Sequence[object], actual: Sequence[object]) -> float | None:
    """The largest difference between two flattened results, relative to the
    expected magnitude (None when their structure, shapes or dtypes differ)."""
    if len(expected) != len(actual):
        return None
    worst = 0.0
    for want, got in zip(map(to_array, expected), map(to_array, actual), strict=True):
        if want is None or got is None or want.shape != got.shape or want.dtype != got.dtype:
            return None
        if want.dtype.kind in "biuf" or want.dtype.name in FORMATS:  # bf16, float8...
            worst = max(worst, _gap(want.astype(np.float64), got.astype(np.float64)))
        elif not np.array_equal(want, got):
            return None
    return worst


def _gap(want: np.ndarray, got: np.ndarray) -> float:
    """The largest difference relative to the expected magnitude: 0 between identical
    values (the same infinity, or NaN and NaN), infinite between a non-finite value
    and anything else."""
    same = (want == got) | (np.isnan(want) & np.isnan(got))
    finite = np.isfinite(want) & np.isfinite(got)
    if not np.all(same | finite):
        return float("inf")
    want, got = want[finite], got[finite]
    with np.errstate(over="ignore"):  # two huge values of opposite signs: an infinite gap
        gap = np.abs(want - got) / np.maximum(np.abs(want), 1.0)
    return float(np.max(gap, initial=0.0))


def _keys(param: SSAValue, index: int) -> tuple[str, ...]:
    """The ``--inputs`` keys of a parameter: its name, if it has one, and position."""
    return (param.name_hint, f"arg{index}") if param.name_hint else (f"arg{index}",)


def _claims(key: str, found: str) -> bool:
    """Whether an archive's key ``found`` is the parameter key ``key`` or one of its
    tuple fields (``key.0``)."""
    return found == key or found.startswith(f"{key}.")


def _quoted(keys: Sequence[str]) -> str:
    return ", ".join(f"'{k}'" for k in keys)


POSITIONAL = re.compile(r"arr_[0-9]+")
"""How ``numpy.savez(path, *arrays)`` names arrays given without names."""


def _argument(arrays: dict[str, np.ndarray], param: SSAValue, index: int) -> object:
    """The input for a parameter, by name or position (tuples from dotted keys)."""
    keys = _keys(param, index)
    for key in keys:
        found = named_value(arrays, key, param.type)  # pyright: ignore[reportArgumentType]
        if found is not None:
            return found
    message = (
        f"no input for parameter {index} ({struct_info_text(param.type)}): give "  # pyright: ignore[reportArgumentType]
        f"{' or '.join(map(repr, keys))} in --inputs"
    )
    if any(POSITIONAL.fullmatch(key) for key in arrays):
        message += (
            f"; the archive's arrays are named {_quoted(sorted(arrays))}, as numpy.savez "
            "names arrays passed without names: pass them by name "
            "(np.savez(path, x=..., w=...)) or as arg0=..., arg1=..."
        )
    elif arrays:
        message += f" (the archive holds {_quoted(sorted(arrays))})"
    raise UsageError(message)


def _check_entry(module: ModuleOp, entry: str) -> None:
    """A usage error when the module has no symbol ``@entry``, naming its functions."""
    if SymbolTable.lookup_symbol(module, entry) is None:
        names = ", ".join(f"@{f.sym_name.data}" for f in functions(module)) or "none"
        raise UsageError(
            f"--entry {entry}: no function @{entry} in the module (its functions: {names})"
        )


def main(argv: Sequence[str] | None = None) -> int:
    return main_guarded(RelaxRunMain, argv)


def run() -> NoReturn:
    """The ``relax-run`` command."""
    exit_without_teardown(main())


if __name__ == "__main__":
    run()
