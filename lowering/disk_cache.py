"""The on-disk cache of compiled code (native libraries, IREE modules):
``$XDG_CACHE_HOME/relax-xdsl`` (or ``~/.cache/relax-xdsl``), written atomically."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

CACHE_HIT = "compiled code from the cache"
"""What a compiler reports (``instrumentation.report``) when its code came from the cache."""


def cache_dir() -> Path:
    """The cache directory, created on first use (a private one under the temporary
    directory when the home cache cannot be created)."""
    root = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "relax-xdsl"
    try:
        root.mkdir(parents=True, exist_ok=True)
    except OSError:
        root = Path(tempfile.gettempdir()) / f"relax-xdsl-{os.getuid()}"
        root.mkdir(exist_ok=True)
    return root


def write_atomic(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` so that concurrent readers see all of it or nothing."""
    fd, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
    with os.fdopen(fd, "wb") as file:
        file.write(data)
    os.replace(temporary, path)
