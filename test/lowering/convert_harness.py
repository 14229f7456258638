"""What the conversion tests share: lowering a module, MLIR's verdict on the output,
and comparing the lowered program with the reference interpreter."""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Sequence

import numpy as np
import pytest
from xdsl.context import Context
from xdsl.dialects.arith import Arith
from xdsl.dialects.builtin import Builtin, ModuleOp
from xdsl.dialects.func import Func
from xdsl.dialects.linalg import Linalg
from xdsl.dialects.tensor import Tensor

from relax_dialect.dialect import Relax
from relax_dialect.frontends.mlir import parse_module
from relax_dialect.interpreter import run
from relax_dialect.well_formed import check_well_formed
from relax_xdsl.lowering.backends.calling import flat_values
from relax_xdsl.lowering.convert_relax_to_linalg import ConvertRelaxToLinalgPass
from relax_xdsl.lowering.lowerer import LoweringError
from relax_xdsl.lowering.pipeline import LowerToLinalgPass
from relax_xdsl.lowering.toolchain import ToolchainMissing, find_toolchain, generic_text

MLIR_OPT = shutil.which("mlir-opt-22")
needs_mlir = pytest.mark.skipif(MLIR_OPT is None, reason="mlir-opt-22 is not installed")

TO_LLVM = (
    "one-shot-bufferize{bufferize-function-boundaries "
    "function-boundary-type-conversion=identity-layout-map},buffer-deallocation-pipeline,"
    "convert-bufferization-to-memref,func.func(convert-linalg-to-loops),expand-strided-metadata,"
    "lower-affine,convert-scf-to-cf,func.func(llvm-request-c-wrappers),convert-to-llvm,"
    "reconcile-unrealized-casts"
)
"""DESIGN §4's pipeline from the lowered IR to the LLVM dialect."""


def load(text: str) -> ModuleOp:
    """Parse ``text`` as ``test.mlir`` (well formed)."""
    ctx = Context()
    for dialect in (Builtin, Func, Arith, Linalg, Tensor, Relax):
        ctx.load_dialect(dialect)
    module = parse_module(ctx, text, "test.mlir")
    assert check_well_formed(module) == []
    return module


def lower(module: ModuleOp, pipeline: bool = False) -> ModuleOp:
    """``module`` lowered in place (with ``relax-lower-to-linalg`` when ``pipeline``)."""
    (LowerToLinalgPass if pipeline else ConvertRelaxToLinalgPass)().apply(Context(), module)
    return module


def lowering_error(text: str) -> str:
    """The located message of a module that cannot be lowered."""
    with pytest.raises(LoweringError) as error:
        lower(load(text), pipeline=True)
    return str(error.value)


def mlir_opt(text: str, *args: str) -> str:
    """``mlir-opt-22 ARGS`` on ``text``, failing the test on any diagnostic."""
    assert MLIR_OPT is not None
    done = subprocess.run(
        [MLIR_OPT, "--verify-each", *args], input=text, capture_output=True, text=True
    )
    assert done.returncode == 0 and not done.stderr, done.stderr
    return done.stdout


def assert_accepted(module: ModuleOp) -> str:
    """The generic text of a lowered module, checked to parse and verify in MLIR and
    to hold only upstream operations."""
    names = {op.name.split(".")[0] for op in module.walk()}
    upstream = {"builtin", "func", "arith", "math", "linalg", "tensor", "scf", "cf", "memref"}
    assert names <= upstream, names  # memref: the call-depth counter (``call_depth``)
    text = generic_text(module)
    if MLIR_OPT is not None:
        mlir_opt(text)
    return text


def flatten(value: object) -> list[object]:
    """A reference interpreter value as the lowered calling convention's values."""
    return list(flat_values(value))


def run_lowered_or_skip():
    """The bundled interpreter's ``run_lowered`` (skipped until it exists)."""
    try:
        from relax_xdsl.lowering.interpreter import run_lowered
    except ImportError as error:
        pytest.skip(f"the bundled interpreter is not available: {error}")
    return run_lowered


def native_available() -> None:
    """Skip the calling test when the MLIR toolchain is absent."""
    try:
        find_toolchain()
    except ToolchainMissing as missing:
        pytest.skip(f"MLIR toolchain absent: {missing}")


IREE_ALL = os.environ.get("RELAX_E2E_IREE") == "all"
"""``RELAX_E2E_IREE=all``: every end-to-end program on IREE too; else a quick form."""


def iree_available() -> None:
    """Skip the calling test without the extra ``relax-xdsl[iree]``."""
    from relax_xdsl.lowering.iree_toolchain import find_iree_compile

    try:
        find_iree_compile()
    except ToolchainMissing as missing:
        pytest.skip(f"IREE absent: {missing}")


def lowered_failure(text: str, *args: object) -> str:
    """The message of the run-time check that fails when ``text``, lowered, runs."""
    run_lowered = run_lowered_or_skip()
    from relax_xdsl.lowering.interpreter import LoweredCheckError

    with pytest.raises(LoweredCheckError) as error:
        run_lowered(lower(load(text), pipeline=True), "main", list(args))
    return str(error.value)


def compare_with_reference(text: str, args: Sequence[object], entry: str = "main") -> None:
    """The lowered program (bundled interpreter) computes what the reference
    interpreter does on ``args``."""
    run_lowered = run_lowered_or_skip()
    expected = flatten(run(load(text), entry, *args))
    lowered = lower(load(text), pipeline=True)
    flat_args = [item for arg in args for item in flatten(arg)]
    actual = run_lowered(lowered, entry, flat_args)
    assert len(actual) == len(expected)
    for got, want in zip(actual, expected, strict=True):
        want = np.asarray(want)
        got = np.asarray(got)
        assert got.shape == want.shape
        if want.dtype.kind == "f":
            np.testing.assert_allclose(got, want, rtol=2e-5, atol=1e-6, equal_nan=True)
        else:
            np.testing.assert_array_equal(got, want.astype(got.dtype))
