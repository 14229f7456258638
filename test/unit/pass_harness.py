"""What the pass unit tests share: applying a pipeline as ``relax-opt -p`` does,
and checking that it keeps a program's results on the reference interpreter."""

from __future__ import annotations

import numpy as np
from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import PassPipeline

from relax_dialect.interpreter import run
from relax_dialect.passes import PASSES, pass_class
from relax_dialect.values import flatten
from relax_dialect.well_formed import check_well_formed


def apply(module: ModuleOp, spec: str) -> ModuleOp:
    """A copy of ``module`` after the pipeline ``spec`` (``-p`` syntax), checked well formed."""
    available = {name: (lambda name=name: pass_class(name)) for name in PASSES}
    result = module.clone()
    PassPipeline.parse_spec(available, spec).apply(Context(), result)
    assert check_well_formed(result) == [], str(result)
    return result


def assert_same_results(module: ModuleOp, spec: str, *inputs: object) -> ModuleOp:
    """``module`` after ``spec``, checked to compute what it computed on ``inputs``."""
    after = apply(module, spec)
    expected = flatten(run(module, "main", *inputs))
    actual = flatten(run(after, "main", *inputs))
    assert len(actual) == len(expected)
    for want, got in zip(expected, actual, strict=True):
        np.testing.assert_array_equal(got, want)  # pyright: ignore[reportArgumentType]
    return after
