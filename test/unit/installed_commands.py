"""The installed commands run as a user runs them: output piped, and buffered as
Python buffers a pipe (without ``PYTHONUNBUFFERED``), so a missing flush shows."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path


def start(name: str, *args: str) -> subprocess.Popen[str]:
    """The installed command ``name`` (``relax-opt``, ``relax-run``, ``xdsl-opt``) on ``args``."""
    command = Path(sys.executable).with_name(name)
    env = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}
    pipe = subprocess.PIPE
    return subprocess.Popen([str(command), *args], stdout=pipe, stderr=pipe, text=True, env=env)
