"""An imported ONNX model run on a backend and compared with expected outputs, and the
verdict when it does not reproduce them: ``kind: message``, where ``kind`` says whose
fault it is.

=============  ==================================================================
kind           meaning
=============  ==================================================================
refused        the importer refuses the model with a located "not supported" error
not lowered    the lowered or native backend cannot lower the module (a located
               ``LoweringError``, or a construct the backend says it cannot run)
error          another located error: the importer rejects a valid model for
               another reason, or a run-time check fails (a bug)
wrong          the outputs differ from the expected ones (a bug)
crash          an exception that is not a located error, with its type (a bug)
=============  ==================================================================
"""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path

import numpy as np

from relax_dialect.diagnostics import DiagnosticError
from relax_dialect.frontends.onnx import from_onnx, inputs_to_bind
from relax_dialect.interpreter import RelaxRuntimeError
from relax_dialect.values import flatten, to_array, to_value
from relax_xdsl.lowering.backends import backend_named
from relax_xdsl.lowering.backends.backend import Compiled, Program
from relax_xdsl.lowering.interpreter import LoweredCheckError, LoweredExecutionError
from relax_xdsl.lowering.toolchain import ToolchainError

sys.path.insert(0, str(Path(__file__).parents[1] / "tvmscript"))

from generate_onnx_corpus import mismatch

REFUSED, NOT_LOWERED, ERROR, WRONG, CRASH = "refused", "not lowered", "error", "wrong", "crash"
BUGS = (ERROR, WRONG, CRASH)
"""The kinds of failure that are bugs (the others are refusals, located and explained)."""
RUN_ERRORS = (RelaxRuntimeError, LoweredCheckError, LoweredExecutionError, ToolchainError)
"""The located errors a run raises."""


class Failed(Exception):
    """A model that does not reproduce its expected outputs: why, as ``kind: message``;
    ``to_bind``: for an import refused only because values it needs are computed at run
    time, the graph inputs they depend on."""

    def __init__(self, kind: str, message: str):
        super().__init__(f"{kind}: {message}")
        self.kind = kind
        self.to_bind: tuple[str, ...] = ()


def first_line(text: str) -> str:
    return next((line.strip() for line in text.splitlines() if line.strip()), "no message")


def crash(error: Exception) -> Failed:
    return Failed(CRASH, f"{type(error).__name__}: {first_line(str(error))}")


def diagnosed(error: DiagnosticError, kind: str) -> Failed:
    """A located error's first message as a failure of ``kind`` (``error`` when the
    diagnostic has no location)."""
    first = error.diagnostics[0]
    if first.location is None:
        return Failed(ERROR, f"unlocated: {first_line(first.message)}")
    return Failed(kind, first_line(first.message))


def imported(model: object, name: str, bound: dict[str, np.ndarray] | None = None) -> Program:
    """The model (a ``ModelProto``, bytes or a path) imported as a program to run, the
    graph inputs ``bound`` made constants; raises ``Failed`` (``refused``, ``error`` or
    ``crash``) when it cannot be."""
    try:
        return Program(from_onnx(model, bind_inputs=bound, source_name=name))
    except DiagnosticError as error:
        message = error.diagnostics[0].message
        refusal = "not supported" in message or "unsupported" in message
        failure = diagnosed(error, REFUSED if refusal else ERROR)
        failure.to_bind = inputs_to_bind(error) or ()
        raise failure from None
    except Exception as error:  # the contract: never an unexpected exception
        raise crash(error) from None


@contextlib.contextmanager
def judged(diagnostic_kind: str) -> Iterator[None]:
    """Whatever goes wrong inside raised as ``Failed``: a located error as
    ``diagnostic_kind``, a run-time one as ``error``, anything else as ``crash``."""
    try:
        yield
    except DiagnosticError as error:
        raise diagnosed(error, diagnostic_kind) from None
    except RUN_ERRORS as error:
        raise Failed(ERROR, first_line(str(error))) from None
    except Failed:
        raise
    except Exception as error:  # the contract: never an unexpected exception
        raise crash(error) from None


def compiled(program: Program, backend: str) -> Compiled:
    """``main`` compiled by a backend; raises ``Failed`` (``not lowered`` when the lowered or
    native backend cannot lower it)."""
    engine = backend_named(backend)
    if engine.runs_lowered:
        lowered(program, backend)
    with judged(ERROR):
        return engine.compile(program, "main")


def lowered(program: Program, backend: str) -> None:
    """Lower the program for a backend that runs the lowered module; raises ``Failed``
    (``not lowered``) when the backend cannot run it."""
    engine = backend_named(backend)
    with judged(NOT_LOWERED):
        if (problem := engine.unsupported(program)) is not None:
            raise DiagnosticError([problem])
        program.lowered()


def outputs(program: Program, main: Compiled, inputs: Sequence[np.ndarray]) -> list[np.ndarray]:
    """``main``'s outputs (nested tuples flattened) on the inputs; raises ``Failed``."""
    params = program.function("main").params
    if len(params) != len(inputs):
        raise Failed(ERROR, f"main takes {len(params)} parameters for {len(inputs)} inputs")
    with judged(ERROR):
        args = [to_value(array, param.type) for array, param in zip(inputs, params, strict=True)]
        leaves = [to_array(leaf) for leaf in flatten(main(*args))]
    return [np.asarray(leaf) if leaf is not None else np.asarray(None) for leaf in leaves]


def verdict(
    program: Program,
    backend: str,
    inputs: Sequence[np.ndarray],
    expected: Sequence[np.ndarray],
    rtol: float,
    atol: float,
    main: Compiled | None = None,
) -> str | None:
    """Why the program does not give ``expected`` on ``backend`` (``kind: message``), or
    None when it does (floating point within ``rtol``/``atol``, the rest exactly). ``main``:
    the backend's compilation of the program's ``main``, when the caller has it."""
    try:
        actual = outputs(program, main or compiled(program, backend), inputs)
    except Failed as failure:
        return str(failure)
    problem = mismatch(actual, list(expected), rtol, atol)
    return None if problem is None else f"{WRONG}: {problem}"
