"""Whether the MLIR toolchain is installed: the skip marker of the tests that need it."""

from __future__ import annotations

import pytest

from relax_xdsl.lowering.toolchain import ToolchainMissing, find_toolchain

try:
    find_toolchain()
    MISSING = ""
except ToolchainMissing as error:
    MISSING = str(error)

needs_toolchain = pytest.mark.skipif(bool(MISSING), reason=f"MLIR toolchain absent: {MISSING}")
