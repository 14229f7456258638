"""Every registered pass, the pipelines and ``canonicalize`` on random programs: the result
is well formed, computes what the program computed (reference interpreter,
same inputs), and a second application changes nothing.

``RELAX_PASS_SEEDS=500 pytest test/passes/test_pass_semantics.py`` runs 500
programs per pass instead of 20 (see ``test/passes/README.md``). A failure
names the pass and the seed; ``python test/passes/random_programs.py SEED``
prints the program.
"""

from __future__ import annotations

import difflib
import os
from functools import cache
from pathlib import Path

import numpy as np
import pytest
from random_programs import Program, generate
from xdsl.context import Context
from xdsl.dialects.arith import Arith
from xdsl.dialects.builtin import Builtin, ModuleOp
from xdsl.dialects.func import Func
from xdsl.passes import PassPipeline
from xdsl.transforms.canonicalize import CanonicalizePass

from relax_dialect.dialect import Relax
from relax_dialect.interpreter import run
from relax_dialect.passes import PASSES, pass_class
from relax_dialect.values import flatten
from relax_dialect.well_formed import check_well_formed

pytestmark = pytest.mark.heavy

SEEDS = int(os.environ.get("RELAX_PASS_SEEDS", "20"))
AVAILABLE = {
    **{name: (lambda name=name: pass_class(name)) for name in PASSES},
    "canonicalize": lambda: CanonicalizePass,
}
"""The passes by name: the dialect's, and xDSL's ``canonicalize`` (the operations'
canonicalization patterns)."""
TESTED = [name for name in AVAILABLE if name != "relax-check-well-formed"]
APPROXIMATE = {
    "canonicalize",
    "relax-fold-constant",
    "relax-fuse-ops",
    "relax-fuse-by-pattern",
    "relax-o1",
    "relax-o2",
}
"""Passes whose results are compared with a tolerance: they may evaluate
floating-point operations in another order."""
USER_PATTERNS = Path(__file__).parents[1] / "filecheck" / "passes" / "Inputs" / "apply_patterns.py"
"""The user patterns ``relax-apply-patterns`` applies (``x + x`` to ``x * 2``, ...)."""
BOUND_PARAMS = ("w", "v", "b", "e")
"""Entry parameters ``relax-bind-params`` binds to constants when present."""


def missing(name: str) -> bool:
    """Whether the pass (or a pass of the pipeline) has no module yet."""
    try:
        loaded = AVAILABLE[name]()
        for inner in getattr(loaded, "PASSES", ()):
            pass_class(inner)
    except ModuleNotFoundError:
        return True
    return False


def cases() -> list[object]:
    not_yet = pytest.mark.xfail(strict=True, reason="not implemented yet")
    return [
        pytest.param(name, seed, marks=[not_yet] if missing(name) else [])
        for name in TESTED
        for seed in range(SEEDS)
    ]


@cache
def program(seed: int) -> Program:
    return generate(seed)


def context() -> Context:
    ctx = Context()
    for dialect in (Builtin, Func, Arith, Relax):
        ctx.load_dialect(dialect)
    return ctx


def configure(name: str, p: Program, tmp: Path) -> tuple[str, list[np.ndarray]]:
    """The pipeline spec that runs pass ``name`` on ``p``, and the inputs of the
    transformed entry (parameters bound to constants are no longer inputs)."""
    if name == "relax-bind-symbolic-vars":
        bindings = ",".join(f"{var}={size}" for var, size in p.sizes.items())
        return f'{name}{{bindings="{bindings}"}}', p.inputs
    if name == "relax-bind-params":
        bound = {k: v for k, v in p.params.items() if k in BOUND_PARAMS}
        np.savez(tmp / "params.npz", **bound)  # pyright: ignore[reportArgumentType]
        rest = [v for k, v in p.params.items() if k not in bound]
        return f'{name}{{func="{p.entry}" params="{tmp / "params.npz"}"}}', rest
    if name == "relax-fuse-by-pattern":
        return f'{name}{{patterns="builtin"}}', p.inputs
    if name == "relax-apply-patterns":
        return f'{name}{{patterns="{USER_PATTERNS}"}}', p.inputs
    return name, p.inputs


def well_formed(module: ModuleOp, when: str) -> None:
    diagnostics = check_well_formed(module)
    assert not diagnostics, f"{when}: ill-formed result:\n" + "\n".join(
        [d.message for d in diagnostics] + [str(module)]
    )


def assert_same(expected: list[object], actual: list[object], exact: bool) -> None:
    assert len(actual) == len(expected), f"{len(actual)} results instead of {len(expected)}"
    for i, (want, got) in enumerate(zip(expected, actual, strict=True)):
        assert isinstance(want, np.ndarray) and isinstance(got, np.ndarray), (want, got)
        assert (got.dtype, got.shape) == (want.dtype, want.shape), f"result {i}"
        if exact or want.dtype.kind != "f":
            np.testing.assert_array_equal(got, want, err_msg=f"result {i}")
        else:
            np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6, err_msg=f"result {i}")


def check_pass(name: str, p: Program, tmp: Path) -> None:
    """Apply pass ``name`` to ``p``; check the result's well-formedness, its
    results on the inputs, and that a second application changes nothing."""
    before = flatten(run(p.module, p.entry, *p.inputs))
    spec, inputs = configure(name, p, tmp)
    pipeline = PassPipeline.parse_spec(AVAILABLE, spec)
    module = p.module.clone()
    pipeline.apply(context(), module)
    well_formed(module, name)
    assert_same(before, flatten(run(module, p.entry, *inputs)), name not in APPROXIMATE)
    once = str(module)
    pipeline.apply(context(), module)
    well_formed(module, f"{name} applied twice")
    twice = str(module)
    if once != twice:
        diff = difflib.unified_diff(once.splitlines(), twice.splitlines(), "once", "twice", "", "")
        pytest.fail(f"{name} is not idempotent:\n" + "\n".join(diff))


@pytest.mark.parametrize(("name", "seed"), cases())
def test_pass_preserves_meaning_and_is_idempotent(name: str, seed: int, tmp_path: Path) -> None:
    check_pass(name, program(seed), tmp_path)


CONSTRUCTS = {
    "dataflow block",
    "plain bindings",
    "if",
    "nested if",
    "tuple",
    "nested tuple",
    "tuple_get_item",
    "match_cast binding new variables",
    "match_cast re-stating a known shape",
    "call",
    "closure",
    "invoke",
    "private function",
    "unused private function",
    "constant-only computation",
    "duplicate binding",
    "dead binding",
    "alias",
    "alias of a weaker type",
    "arithmetic dimension in a signature",
    "symbolic variable m",
}
"""What the programs of a CI run must contain, between them."""


def test_programs_cover_the_constructs() -> None:
    seen = {feature for seed in range(SEEDS) for feature in program(seed).features}
    assert seen >= CONSTRUCTS, f"never generated: {sorted(CONSTRUCTS - seen)}"
    assert len({f for f in seen if f.startswith("relax.")}) >= 60, "too few distinct operations"
