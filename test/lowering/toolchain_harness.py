"""Whether the MLIR toolchain is installed: the skip marker of the tests that need it; the
tiling schedule run on kernel units; a module compiled as the native backend compiles it;
schedules sized for another host's vector registers."""

from __future__ import annotations

import subprocess
from collections.abc import Iterator, Sequence
from contextlib import contextmanager

import pytest
from xdsl.dialects.builtin import ModuleOp

from relax_xdsl.lowering import toolchain, units
from relax_xdsl.lowering.kernels import outline_kernels
from relax_xdsl.lowering.threads import machine_cores
from relax_xdsl.lowering.tiling import RegisterTile, schedule, tiling_passes
from relax_xdsl.lowering.toolchain import (
    NativeModule,
    ToolchainMissing,
    _transform_library,
    compile_units,
    find_toolchain,
)
from relax_xdsl.lowering.transposed_operands import read_through_transposes
from relax_xdsl.lowering.units import split_units

try:
    find_toolchain()
    MISSING = ""
except ToolchainMissing as error:
    MISSING = str(error)

needs_toolchain = pytest.mark.skipif(bool(MISSING), reason=f"MLIR toolchain absent: {MISSING}")

AVX2 = RegisterTile(6, 16, 16)
"""The register tile of AVX2 hosts, which the structural tests' cases are sized for (rows
narrower than a block, ragged blocks): they pin it, so that they test the same decisions on
every host."""

AVX512 = RegisterTile(8, 32, 32)
"""The register tile of AVX-512 hosts."""


@contextmanager
def host_tile_of(tile: RegisterTile) -> Iterator[RegisterTile]:
    """Kernel rewrites and the tiling schedule sized for ``tile`` whatever the host's
    registers (the code still runs on the host)."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(toolchain, "transform_script", lambda: schedule(tile, machine_cores()))
        patch.setattr(units, "host_tile", lambda: tile)
        yield tile


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
    """The lowered ``module`` compiled as the native backend compiles it, tiled: products
    reading their transposed parameters through the transposes, kernels outlined (in place),
    each compiled as a unit of its own."""
    read_through_transposes(module)
    outline_kernels(module)
    return compile_units(split_units(module, True), tile=True, parallel=parallel)
