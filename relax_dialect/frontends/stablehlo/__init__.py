"""StableHLO in: the ``stablehlo`` and ``chlo`` dialects (``dialect.py``) and their
conversion to Relax (``convert.py``), the frontend of the MLIR text JAX
(``jax.export``), TensorFlow and PyTorch/XLA emit. This module declares the
frontend only: it imports nothing of the reader, so that tools start without it."""

from __future__ import annotations

import re

from ..frontend import Frontend, Reader

STABLEHLO_OPERATION = re.compile(rb"(?:^|[\s=\"])(?:stablehlo|chlo)\.[a-z_]+")
"""A StableHLO or CHLO operation name, which Relax's MLIR text never holds."""


def _is_stablehlo(head: bytes) -> bool:
    return STABLEHLO_OPERATION.search(head) is not None


def _reader() -> Reader:
    from .reader import read

    return read


FRONTEND = Frontend(
    "stablehlo",
    "StableHLO",
    ("mlir",),
    _reader,
    sniff=_is_stablehlo,
    split_marker="// -----",
)
