"""ONNX's backend node suite through ``from_onnx`` (``node_suite.py``): every case on the
reference backend, a sample on the lowered and native ones (native code compiled 40 cases
at a time); every case everywhere with ``RELAX_ONNX_FULL=1``. Each case fails exactly as
``KNOWN_FAILURES.txt`` says, or passes when it has no line there: a fix and a regression
both show (then rewrite the list)."""

from __future__ import annotations

import os

import pytest

pytest.importorskip("onnx")

import functools

from node_suite import (
    BACKEND_NAMES,
    BOUND,
    NATIVE,
    READ,
    batched_verdicts,
    expected_failure,
    known_failures,
    listed_cases,
    listed_version,
    onnx_version,
    suite,
    verdicts,
)

from relax_xdsl.lowering.backends import backend_named

pytestmark = pytest.mark.heavy

FULL = os.environ.get("RELAX_ONNX_FULL") == "1"
SAMPLES = {"reference": 1, "lowered": 1 if FULL else 10, "mlir": 1 if FULL else 50}
"""Every how-many-th case each backend runs."""
KNOWN = known_failures()
NAMES = listed_cases()
"""The cases' names, listed: the suite is regenerated only where a test runs a case."""


def sample(backend: str) -> list[str]:
    return NAMES[:: SAMPLES[backend]]


@functools.cache
def native_verdicts() -> dict[str, dict[str, str]]:
    """The native backend's verdicts on its sample, compiled in batches."""
    return batched_verdicts([suite().named(name) for name in sample(NATIVE)])


@pytest.mark.parametrize(
    ("name", "backend"),
    [
        pytest.param(name, backend, id=f"{backend}/{name}")
        for backend in SAMPLES
        for name in sample(backend)
    ],
)
def test_case_fails_only_as_listed(name: str, backend: str) -> None:
    if listed_version() != onnx_version():
        pytest.skip(f"the known failures are of onnx {listed_version()}, not {onnx_version()}")
    if (reason := backend_named(backend).unavailable()) is not None:
        pytest.skip(reason)
    case = suite().named(name)
    found = native_verdicts()[case.name] if backend == NATIVE else verdicts(case, [backend])
    actual = found.get(READ) or found.get(backend)
    expected = expected_failure(KNOWN, case.name, backend)
    bound, listed = found.get(BOUND), KNOWN.get((case.name, BOUND))
    assert (actual, bound) == (expected, listed), (
        f"{case.name} on {backend}: {actual or 'passes'} with {bound or 'no'} inputs bound, "
        f"listed as {expected or 'passing'} with {listed or 'no'} inputs bound "
        "(python test/onnx/node_suite.py --write-known-failures)"
    )


def test_suite_is_regenerated_and_known_failures_name_its_cases() -> None:
    assert listed_version() == onnx_version(), (
        "KNOWN_FAILURES.txt is of another onnx: pip install -e '.[test]' (its pinned onnx), "
        "or rewrite it (python test/onnx/node_suite.py --write-known-failures)"
    )
    assert [case.name for case in suite().cases] == NAMES, (
        "NODE_CASES.txt does not list the suite's cases: rewrite it "
        "(python test/onnx/node_suite.py --write-known-failures)"
    )
    assert len(NAMES) >= 1300
    assert len(suite().others) >= 20
    assert {case for case, _ in KNOWN} <= set(NAMES)
    assert {stage for _, stage in KNOWN} <= {READ, BOUND, *BACKEND_NAMES}
