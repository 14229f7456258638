"""Quick mutation fuzzing of the ONNX frontend (the long run is opt-in: ``python
test/fuzz/onnx_mutate.py 10000``, ``RELAX_ONNX_FULL=1`` (10,000 mutants) or
``RELAX_FUZZ_COUNT`` here)."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

pytest.importorskip("onnx")
sys.path.insert(0, str(Path(__file__).parents[1] / "fuzz"))

from onnx_mutate import run

QUICK, FULL = 200, 10_000


def test_onnx_mutants_are_accepted_or_rejected_with_located_errors() -> None:
    default = FULL if os.environ.get("RELAX_ONNX_FULL") == "1" else QUICK
    count = int(os.environ.get("RELAX_FUZZ_COUNT", default))
    campaign = run(count, seed=int(os.environ.get("RELAX_FUZZ_SEED", "0")))
    assert campaign.total == count
    assert campaign.rejected > 0 and campaign.accepted > 0
    assert [problem for _, problem in campaign.failures] == []
