"""Reductions along the last axis under the tiling schedule (``lowering/schedules/reductions.py``):
sums, maxima, minima, means, softmax, layer and RMS norms and attention's softmax compiled
natively with the reduced axis symbolic (empty, shorter than a block, ragged, whole blocks)
and compared with the reference interpreter; and which reductions the schedule vectorises
(the others keep the loop lowering)."""

from __future__ import annotations

import numpy as np
import pytest
from convert_harness import generic_text, load, lower
from lower_harness import Case, floats, inputs, ints, tensor
from test_tiling import SIZES, TILES, assert_matches, function_body, guarded, transformed_text
from toolchain_harness import needs_toolchain

from relax_dialect.interpreter import run
from relax_xdsl.lowering import toolchain
from relax_xdsl.lowering.tiling import schedule
from relax_xdsl.lowering.toolchain import compile_module

pytestmark = [needs_toolchain, pytest.mark.heavy]


def reduce(name: str, op: str, shape: str, dtype: str = "f32", attrs: str = "") -> Case:
    """``op`` applied to one tensor of ``shape`` (``n`` symbolic)."""
    dims = [d if d.isidentifier() else int(d) for d in shape.split(", ")]
    numpy_dtype = {"f32": "float32", "f64": "float64", "f16": "float16", "i32": "int32"}[dtype]
    make = (ints if dtype == "i32" else floats)(*dims, dtype=numpy_dtype)
    return Case(name, f"%x: {tensor(shape, dtype)}", f"%r = {op} %x{attrs}", inputs(make))


def norm(name: str, op: str, shape: str, attrs: str) -> Case:
    """A normalisation over the last axis of ``shape``, with its gamma (and beta)."""
    dims = [d if d.isidentifier() else int(d) for d in shape.split(", ")]
    last = shape.split(", ")[-1]
    weights = ["g", "b"] if "layer_norm" in op else ["g"]
    params = ", ".join(
        [f"%x: {tensor(shape, 'f32')}", *(f"%{w}: {tensor(last, 'f32')}" for w in weights)]
    )
    operands = ", ".join(f"%{w}" for w in ["x", *weights])
    makers = [floats(*dims), *(floats(dims[-1], salt=i + 5) for i in range(len(weights)))]
    return Case(name, params, f"%r = {op} {operands}{attrs}", inputs(*makers))


def attention(name: str, attrs: str = "") -> Case:
    makers = [floats(1, "n", 2, 8, salt=salt) for salt in range(3)]
    params = ", ".join(f"%{x}: {tensor('1, n, 2, 8', 'f32')}" for x in "qkv")
    return Case(name, params, f"%r = relax.nn.attention %q, %k, %v{attrs}", inputs(*makers))


VECTORISED = [
    reduce("sum-rows", "relax.sum", "3, n", attrs=" {axis = [-1]}"),
    reduce("sum-ragged-row", "relax.sum", "n, 130", attrs=" {axis = [1]}"),
    reduce("sum-vector", "relax.sum", "n", attrs=" {axis = [0]}"),
    reduce("sum-int32", "relax.sum", "2, n", "i32", " {axis = [1]}"),
    reduce("max-rank-3", "relax.max", "2, 3, n", attrs=" {axis = [2]}"),
    reduce("min", "relax.min", "n, 70", attrs=" {axis = [-1]}"),
    reduce("mean-kept", "relax.mean", "2, n", attrs=" {axis = [1], keepdims = true}"),
    reduce("softmax", "relax.nn.softmax", "3, n"),
    reduce("log_softmax", "relax.nn.log_softmax", "n, 33"),
    norm("layer_norm", "relax.nn.layer_norm", "3, n", " {axes = [-1]}"),
    norm("layer_norm-rows", "relax.nn.layer_norm", "n, 130", " {axes = [-1]}"),
    norm("rms_norm", "relax.nn.rms_norm", "2, n", ""),
    attention("attention"),
    attention("attention-causal", ' {causal_mask = "TopLeft"}'),
]
"""Cases whose reductions along the last loop the schedule vectorises."""

KEPT = [
    reduce("sum-first-axis", "relax.sum", "n, 3", attrs=" {axis = [0]}"),
    reduce("sum-float64", "relax.sum", "2, n", "f64", " {axis = [1]}"),
    reduce("sum-float16", "relax.sum", "2, n", "f16", " {axis = [1]}"),
    reduce("argmax", "relax.argmax", "2, n", attrs=" {axis = 1}"),
    reduce("sum-two-axes", "relax.sum", "2, n, 3", attrs=" {axis = [1, 2]}"),
]
"""Cases the schedule leaves to the loop lowering (the reduced loop not last, other element
widths, two results, two reduced loops)."""

CASES = {case.name: case for case in VECTORISED + KEPT}
EMPTY_REFUSED = {"max-rank-3", "argmax"}
"""Cases whose maximum of no element is an error (checked at run time) instead of a value."""


def module_text() -> str:
    return generic_text(lower(load("".join(c.function(c.symbol) for c in CASES.values())), True))


@pytest.fixture(scope="module", params=sorted(TILES))
def native(request):
    """The module compiled with one of the schedules (8 or 16 lanes), whatever the host."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(toolchain, "transform_script", lambda: schedule(TILES[request.param]))
        return compile_module(module_text(), tile=True)


@pytest.mark.parametrize("name", sorted(CASES))
def test_vectorised_reductions_match_reference(native, name):
    """Every value, nothing read outside the inputs (guarded), at every size of the row."""
    case = CASES[name]
    reference = load(case.function())
    for n in SIZES if name not in EMPTY_REFUSED else SIZES[1:]:
        args = [guarded(np.asarray(arg)) for arg in case.inputs(n)]
        [got] = native.call(case.symbol, args)
        assert_matches(got, np.asarray(run(reference, "main", *args)))


@pytest.fixture(scope="module")
def transformed() -> str:
    return transformed_text(module_text())


@pytest.mark.parametrize("name", sorted(CASES))
def test_schedule_vectorises_exactly_the_last_axis_reductions(transformed, name):
    body = function_body(transformed, CASES[name].symbol)
    vectorised = name in {case.name for case in VECTORISED}
    assert ('"vector.reduction"' in body) == vectorised
    if not vectorised:
        assert "vector<" not in body
