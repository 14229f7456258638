"""``relax-run`` on the ONNX corpus (``corpus_onnx/``, the programs TVM 0.25's ONNX importer
makes of ONNX's node tests): each program is read, checked and run, and gives ONNX's expected
outputs; every case on the reference backend, a sample on the lowered and native ones (their
compilations cost more), and on IREE with ``RELAX_E2E_IREE=all``. The cases of ``KNOWN_FAILURES.txt`` must fail, so that one that
starts passing is noticed (then its line goes)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from onnx_corpus import CASES, CORPUS, expected_failure, failure, known_failures

from relax_xdsl.lowering.backends import BACKENDS, backend_named

pytestmark = pytest.mark.heavy

KNOWN = known_failures()
IREE_ALL = os.environ.get("RELAX_E2E_IREE") == "all"
SAMPLES = {"reference": 1, "lowered": 1, "mlir": 10, **({"iree": 20} if IREE_ALL else {})}
"""Every how-many-th case each backend runs (IREE with ``RELAX_E2E_IREE=all`` only: each
case compiles for seconds)."""
STAGES = {*BACKENDS, "read", "tvmscript"}


def cases(backend: str) -> list:
    every = SAMPLES[backend]
    return [
        pytest.param(
            case,
            backend,
            id=f"{backend}/{case}",
            marks=[pytest.mark.xfail(strict=True, reason=reason)]
            if (reason := expected_failure(KNOWN, case, backend) or compiled_failure(case, backend))
            else [],
        )
        for case in CASES[::every]
    ]


def compiled_failure(case: str, backend: str) -> str | None:
    """IREE compiles the module native code compiles: a case native code cannot run
    (it does not lower) fails on IREE too, unless it has its own line."""
    return expected_failure(KNOWN, case, "mlir") if backend == "iree" else None


@pytest.mark.parametrize(("case", "backend"), [p for b in SAMPLES for p in cases(b)])
def test_relax_run_reproduces_onnx_outputs(case: str, backend: str, tmp_path: Path) -> None:
    if (reason := backend_named(backend).unavailable()) is not None:
        pytest.skip(reason)
    assert failure(case, backend, tmp_path) is None


def test_corpus_is_complete_and_known_failures_name_its_cases() -> None:
    assert len(CASES) >= 300
    for case in CASES:
        assert (CORPUS / f"{case}.npz").exists() and (CORPUS / f"{case}.expected.npz").exists()
    assert {case for case, _ in KNOWN} <= set(CASES)
    assert {stage for _, stage in KNOWN} <= STAGES
