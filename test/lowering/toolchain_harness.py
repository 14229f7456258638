"""Whether the MLIR toolchain is installed: the skip marker of the tests that need it; the
tiling schedule run on kernel units."""

from __future__ import annotations

import subprocess
from collections.abc import Sequence

import pytest

from relax_xdsl.lowering.tiling import tiling_passes
from relax_xdsl.lowering.toolchain import ToolchainMissing, _transform_library, find_toolchain

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
