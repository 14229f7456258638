"""``relax-run``: run a function of a Relax module on NumPy inputs.

    relax-run FILE [--entry main] [--inputs IN.npz] [--outputs OUT.npz]
              [--backend reference|lowered|mlir|LIST|all] [--tile] [-p PIPELINE]
              [--plugin MODULE]...

Inputs are the arrays of an ``.npz`` file, keyed by parameter name (the SSA
name, without ``%``) or position (``arg0``, ``arg1``...); a tuple parameter
takes ``name.0``, ``name.1``... The results are written to ``--outputs`` as
``out0``, ``out1``... (nested tuples flattened depth-first) and summarised on
standard output, with the values of the symbolic dimensions. Exit status as
``relax-opt``: 1 for bad input or a failed run-time check (located), 2 for
usage errors.

``--backend reference`` interprets the Relax dialect; ``lowered`` lowers it to
linalg/tensor/arith/func and runs the bundled interpreter; ``mlir`` compiles the
lowered module with the MLIR toolchain (``mlir-opt-22`` and friends, ``--tile``
adding the tiling/vectorisation schedule for matmuls) and runs native code. A
list of backends runs each, prints its time and whether its results agree with
the first backend's; a missing toolchain then skips ``mlir`` with a message.
"""

from __future__ import annotations

import argparse
import contextlib
import sys
import time
from collections.abc import Sequence
from typing import NoReturn

import numpy as np
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import SSAValue

from relax_dialect.diagnostics import DiagnosticError, at, located
from relax_dialect.interpreter import Machine, PackedRegistry, PluginError, RelaxRuntimeError
from relax_dialect.interpreter.checks import MatchFailure, match_all
from relax_dialect.npz import read_npz
from relax_dialect.types import StructInfoType, TupleType, struct_info_text
from relax_dialect.values import describe, flatten, to_array, to_value

from ..lowering.execution import BACKENDS, LoweredFunction, lower
from ..lowering.interpreter import LoweredCheckError, LoweredExecutionError
from ..lowering.toolchain import ToolchainError, ToolchainMissing
from .relax_opt import (
    RelaxOptMain,
    UsageError,
    exit_without_teardown,
    main_guarded,
    print_diagnostics,
)


class RelaxRunMain(RelaxOptMain):
    """``relax-opt``'s loading (parse, check, passes), then the interpreter."""

    def register_all_arguments(self, arg_parser: argparse.ArgumentParser) -> None:
        super().register_all_arguments(arg_parser)
        arg_parser.add_argument("--entry", default="main", help="function to run")
        arg_parser.add_argument("--inputs", help=".npz file with the arguments")
        arg_parser.add_argument("--outputs", help=".npz file to write the results to")
        arg_parser.add_argument(
            "--backend",
            type=_backends,
            default=["reference"],
            help="execution engine: reference (the Relax interpreter), lowered (the lowered IR "
            "on the bundled interpreter) or mlir (native code from the MLIR toolchain); a "
            "comma-separated list, or 'all', runs each and compares its results with the first's",
        )
        arg_parser.add_argument(
            "--tile",
            action="store_true",
            help="with --backend mlir: tile and vectorise matmuls (transform dialect schedule)",
        )
        arg_parser.add_argument(
            "--plugin",
            action="append",
            default=[],
            help="module (dotted name or .py file) defining register_packed_functions(registry)",
        )

    def run_tool(self) -> int:
        text, name = self.read_input()
        registry = PackedRegistry()
        for plugin in self.args.plugin:
            try:
                registry.load_plugin(plugin)
            except PluginError as error:
                raise UsageError(str(error)) from None
        try:
            module = self.load(text, name)
            machine = Machine(module, registry)
            function = machine.function(self.args.entry)
            params = function.op.params
            args = self.read_arguments(params)
            symbols: dict[str, int] = {}
            times: list[float] = []
            with contextlib.suppress(MatchFailure):  # reported, located, by the run itself
                match_all(args, [p.type for p in params], symbols)  # pyright: ignore
            results = []
            lowered = lower(module) if set(self.args.backend) & set(BACKENDS) else None
            for backend in self.args.backend:
                start = time.perf_counter()
                try:
                    results.append(self.execute(backend, machine, module, lowered, args, registry))
                except ToolchainMissing as missing:
                    if len(self.args.backend) == 1:
                        raise
                    results.append(None)
                    print(f"{backend}: skipped: {missing}", file=sys.stderr)
                times.append(time.perf_counter() - start)
        except DiagnosticError as error:
            print_diagnostics(text, error.diagnostics)
            return 1
        except RelaxRuntimeError as error:
            print_diagnostics(text, [at(error.where, error.message)])
            return 1
        except LoweredCheckError as error:
            print_diagnostics(text, [located(str(error))])
            return 1
        except (LoweredExecutionError, ToolchainError) as error:
            print(f"relax-run: error: {error}", file=sys.stderr)
            return 1
        result = results[0]
        self.summarise(function.name, params, symbols, result)
        self.save(result)
        return self.compare(results, times)

    def execute(
        self,
        backend: str,
        machine: Machine,
        module: ModuleOp,
        lowered: ModuleOp | None,
        args: Sequence[object],
        registry: PackedRegistry,
    ) -> object:
        """The entry's result on one backend."""
        if backend == "reference":
            return machine.run(self.args.entry, *args)
        function = LoweredFunction(
            module, self.args.entry, backend, registry, self.args.tile, lowered
        )
        return function(*args)

    def compare(self, results: Sequence[object], times: Sequence[float]) -> int:
        """With several backends: each one's time, and whether its results agree with
        the first backend's (exit status 1 if any disagrees)."""
        backends = self.args.backend
        if len(backends) == 1:
            return 0
        expected = flatten(results[0])
        status = 0
        for backend, result, seconds in zip(backends, results, times, strict=True):
            if result is None:
                continue
            line = f"{backend}: {seconds:.3f} s (with compilation)"
            if backend == "reference":
                line = f"{backend}: {seconds:.3f} s"
            if result is not results[0]:
                difference = _difference(expected, flatten(result))
                agrees = difference is not None and difference <= 1e-4
                status |= not agrees
                verdict = "agrees" if agrees else "DISAGREES"
                shown = "different structure" if difference is None else f"{difference:.2g}"
                line += f", {verdict} with {backends[0]} (max relative difference {shown})"
            print(line)
        return status

    def read_arguments(self, params: Sequence[SSAValue]) -> list[object]:
        arrays: dict[str, np.ndarray] = {}
        if self.args.inputs is not None:
            try:
                arrays = read_npz(self.args.inputs)
            except (OSError, ValueError) as error:
                raise UsageError(f"cannot read inputs '{self.args.inputs}': {error}") from None
        return [
            to_value(_argument(arrays, param, index), param.type)  # pyright: ignore
            for index, param in enumerate(params)
        ]

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
                print(f"out{index} ({describe(leaf)}) cannot be saved; skipped", file=sys.stderr)
            else:
                arrays[f"out{index}"] = array
        try:
            np.savez(self.args.outputs, **arrays)
        except OSError as error:
            raise UsageError(f"cannot write outputs '{self.args.outputs}': {error}") from None


def _backends(text: str) -> list[str]:
    """The ``--backend`` list."""
    names = ["reference", *BACKENDS] if text == "all" else text.split(",")
    for name in names:
        if name not in ("reference", *BACKENDS):
            raise argparse.ArgumentTypeError(
                f"unknown backend '{name}' (expected reference, {', '.join(BACKENDS)} or all)"
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
        if want.dtype.kind in "biuf":
            want64, got64 = want.astype(np.float64), got.astype(np.float64)
            both_nan = np.isnan(want64) & np.isnan(got64)
            scale = np.maximum(np.abs(want64), 1.0)
            gap = np.where(both_nan, 0.0, np.abs(want64 - got64) / scale)
            worst = max(worst, float(np.max(gap, initial=0.0)))
        elif not np.array_equal(want, got):
            return None
    return worst


def _argument(arrays: dict[str, np.ndarray], param: SSAValue, index: int) -> object:
    """The input for a parameter, by name or position (tuples from dotted keys)."""
    for key in (param.name_hint, f"arg{index}"):
        if key is not None:
            found = _lookup(arrays, key, param.type)  # pyright: ignore[reportArgumentType]
            if found is not None:
                return found
    shown = f"'{param.name_hint}' or " if param.name_hint else ""
    raise UsageError(
        f"no input for parameter {index} ({struct_info_text(param.type)}): give {shown}"
        f"'arg{index}' in --inputs"
    )


def _lookup(arrays: dict[str, np.ndarray], key: str, sinfo: StructInfoType) -> object | None:
    if key in arrays:
        return arrays[key]
    if isinstance(sinfo, TupleType):
        fields = [_lookup(arrays, f"{key}.{i}", t) for i, t in enumerate(sinfo.types)]
        if all(f is not None for f in fields):
            return tuple(fields)
    return None


def main(argv: Sequence[str] | None = None) -> int:
    return main_guarded(RelaxRunMain, argv, "relax-run")


def run() -> NoReturn:
    """The ``relax-run`` command."""
    exit_without_teardown(main())


if __name__ == "__main__":
    run()
