"""Quick mutation fuzzing of the readers (MLIR, TVMScript, StableHLO) and the checker (the long run is opt-in:
``python test/fuzz/mutate.py 10000``, or ``RELAX_FUZZ_COUNT`` here)."""

from __future__ import annotations

import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parents[1] / "fuzz"))

from mutate import run


def test_mutants_are_accepted_or_rejected_with_located_errors() -> None:
    count = int(os.environ.get("RELAX_FUZZ_COUNT", "600"))
    campaign = run(count, seed=int(os.environ.get("RELAX_FUZZ_SEED", "0")))
    assert campaign.total == count
    assert campaign.rejected > 0 and campaign.accepted > 0
    assert campaign.failures == []


def test_tvmscript_mutants_are_accepted_or_rejected_with_located_errors() -> None:
    count = int(os.environ.get("RELAX_FUZZ_COUNT", "300"))
    campaign = run(count, seed=int(os.environ.get("RELAX_FUZZ_SEED", "0")), language="tvmscript")
    assert campaign.total == count
    assert campaign.rejected > 0 and campaign.accepted > 0
    assert campaign.failures == []


def test_stablehlo_mutants_are_accepted_or_rejected_with_located_errors() -> None:
    count = int(os.environ.get("RELAX_FUZZ_COUNT", "150"))
    campaign = run(count, seed=int(os.environ.get("RELAX_FUZZ_SEED", "0")), language="stablehlo")
    assert campaign.total == count
    assert campaign.rejected > 0 and campaign.accepted > 0
    assert campaign.failures == []
