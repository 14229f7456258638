"""Whether the MLIR toolchain is installed: the skip marker of the tests that need it; the
tiling schedule run on kernel units; a module compiled as the native backend compiles it."""

from __future__ import annotations

import subprocess
from collections.abc import Sequence

import pytest
from xdsl.dialects.builtin import ModuleOp

from relax_xdsl.lowering.kernels import outline_kernels
from relax_xdsl.lowering.tiling import tiling_passes
from relax_xdsl.lowering.toolchain import (
    NativeModule,
    ToolchainMissing,
    _transform_library,
    compile_units,
    find_toolchain,
)
from relax_xdsl.lowering.units import split_units

try:
    find_toolchain()
    MISSING = ""
except ToolchainMissing as error:
    MISSING = str(error)

needs_toolchain = pytest.mark.skipif(bool(MISSING), reason=f"MLIR toolchain absent: {MISSING}")


def scheduled(units: Sequence[str]) -> subprocess.CompletedProcess[str]:
    """``mlir-opt-22`` running the tiling schedule on each of the modules ``units`` (one
    output per unit, separated by ``// -----``; the schedule's remarks on stderr)."""
    pipeline = ",".join(tiling_passes(_transform_library()))
    command = [
        find_toolchain().mlir_opt,
        "--split-input-file",
        f"--pass-pipeline=builtin.module({pipeline})",
    ]
    return subprocess.run(command, input="\n// -----\n".join(units), capture_output=True, text=True)


def compiled_as_the_backend(module: ModuleOp, parallel: bool = False) -> NativeModule:
    """The lowered ``module`` compiled as the native backend compiles it, tiled: kernels
    outlined (in place), each compiled as a unit of its own."""
    outline_kernels(module)
    return compile_units(split_units(module, True), tile=True, parallel=parallel)
