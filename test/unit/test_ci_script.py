"""`.ci/run`, what CI runs on a clean checkout: the system packages the tests need, then
exactly the README's test command, stopping at the first failure."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def readme_commands() -> list[str]:
    """The one-line shell commands of the README's ``sh`` blocks."""
    blocks = re.findall(r"```sh\n(.*?)```", (ROOT / "README.md").read_text(), re.DOTALL)
    return [line for block in blocks for line in block.splitlines() if line.strip()]


def test_ci_runs_the_readmes_test_command():
    lines = (ROOT / ".ci" / "run").read_text().splitlines()
    command = lines[-1]
    assert "pytest" in command and "lit" in command
    assert command in readme_commands()


def test_ci_stops_at_a_failure_and_installs_the_toolchain_first():
    script = (ROOT / ".ci" / "run").read_text()
    assert "set -euo pipefail" in script
    install = script.index("apt-get install")
    assert install < script.index(script.splitlines()[-1])  # before the test command
    for package in ("mlir-22-tools", "llvm-22", "libomp-22-dev", "graphviz"):
        assert package in script[install:].splitlines()[0]
