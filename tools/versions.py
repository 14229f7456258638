"""``-v``/``--version``: the versions of relax-xdsl and of what it runs with (xDSL,
NumPy, the MLIR toolchain found, IREE when installed)."""

from __future__ import annotations

import subprocess
from importlib.metadata import PackageNotFoundError, version

IREE_PACKAGES = ("iree-base-compiler", "iree-base-runtime")


def _package(name: str) -> str | None:
    try:
        return version(name)
    except PackageNotFoundError:
        return None


def _toolchain() -> str:
    """The MLIR toolchain's ``mlir-opt`` and LLVM version, or why there is none."""
    from ..lowering.toolchain import ToolchainMissing, find_toolchain

    try:
        toolchain = find_toolchain()
    except ToolchainMissing as missing:
        return f"not found ({missing})"
    try:
        banner = subprocess.run(
            [toolchain.mlir_opt, "--version"], capture_output=True, text=True, timeout=30
        ).stdout
    except (OSError, subprocess.SubprocessError) as error:
        return f"{toolchain.mlir_opt} (its version is unknown: {error})"
    found = next((line.strip() for line in banner.splitlines() if "version" in line), "")
    return f"{toolchain.mlir_opt} ({found or 'version unknown'})"


def version_text(tool: str) -> str:
    """What ``tool --version`` prints."""
    iree = [f"{name} {v}" for name in IREE_PACKAGES if (v := _package(name)) is not None]
    lines = [
        f"{tool} (relax-xdsl) {_package('relax-xdsl') or 'unknown version'}",
        f"  xDSL {_package('xdsl')}",
        f"  NumPy {_package('numpy')}",
        f"  MLIR toolchain: {_toolchain()}",
        f"  IREE: {', '.join(iree) if iree else 'not installed'}",
    ]
    return "\n".join(lines) + "\n"
