"""Transcendental functions at vector width in native code (``vector_math``,
``math_approximation``): every element-wise and row-wise operator built on them, compiled by
the native backend and compared with the reference interpreter on wide ranges, special values
(±0, ±inf, NaN, overflow and underflow of ``exp``) and odd sizes of a symbolic dimension."""

from __future__ import annotations

import math

import numpy as np
import pytest
from toolchain_harness import needs_toolchain

from relax_dialect.frontends.tvmscript.frontend import parse_tvmscript
from relax_dialect.interpreter import run
from relax_xdsl.lowering.backends import compile_function
from relax_xdsl.lowering.math_approximation import approximate_math
from relax_xdsl.lowering.pipeline import lower
from relax_xdsl.lowering.toolchain import generic_text
from relax_xdsl.lowering.vector_math import has_libmvec

pytestmark = needs_toolchain

SIZES = (1, 3, 7, 17, 130)
"""Values of the symbolic ``n``: below, at and past a vector of eight lanes."""

SPECIAL = np.array(
    [0.0, -0.0, 1e-30, -1e-30, 3e-4, -5e-4, 0.4999, 0.5, -0.5001, 7.9, -8.0, 88.7, 89.0, -87.0,
     -104.0, -200.0, 1e30, -1e30, 3.4e38, np.inf, -np.inf, np.nan],
    np.float32,
)  # fmt: skip
"""Inputs where approximations go wrong: both sides of every branch, the ends of f32."""

ELEMENTWISE = ("exp", "log", "sin", "cos", "tanh", "erf", "sigmoid")
COMPOSITE = ("nn.gelu", "nn.gelu_tanh", "nn.silu")
ROWWISE = {
    "nn.softmax": "R.nn.softmax(x, axis=-1)",
    "nn.log_softmax": "R.nn.log_softmax(x, axis=-1)",
    "nn.layer_norm": "R.nn.layer_norm(x, g, b, axes=[-1])",
    "nn.rms_norm": "R.nn.rms_norm(x, g, axes=[-1])",
}


def symbol(operator: str) -> str:
    """The function testing ``operator`` (prefixed: a function named ``exp`` would take the
    place of libm's in the shared library)."""
    return "of_" + operator.replace(".", "_")


def module_text() -> str:
    """One function per operator (one compilation): element-wise ones on ``[n]``, row-wise
    ones on ``[3, n]`` (reduced along ``n``) with ``[n]`` scales and shifts."""
    vector = 'R.Tensor(("n",), "float32")'
    rows = 'R.Tensor((3, "n"), "float32")'
    functions = [
        f"    @R.function\n    def {symbol(op)}(x: {vector}) -> {vector}:\n"
        f"        return R.{op}(x)\n"
        for op in ELEMENTWISE + COMPOSITE
    ]
    functions += [
        f"    @R.function\n    def {symbol(op)}(x: {rows}, g: {vector}, b: {vector}) -> {rows}:\n"
        f"        return {call}\n"
        for op, call in ROWWISE.items()
    ]
    header = "from tvm.script import ir as I, relax as R\n\n\n@I.ir_module\nclass Module:\n"
    return header + "\n".join(functions)


@pytest.fixture(scope="module")
def module():
    return parse_tvmscript(module_text(), "vector_math.py")


def wide(n: int, salt: int) -> np.ndarray:
    """``n`` values spread over many magnitudes and both signs."""
    rng = np.random.default_rng(n * 7 + salt)
    return (rng.standard_normal(n) * 10.0 ** rng.uniform(-6, 1.6, n)).astype(np.float32)


@pytest.mark.parametrize("operator", ELEMENTWISE + COMPOSITE)
def test_elementwise_matches_reference_on_special_and_wide_inputs(module, operator):
    """Relative error under 1e-5 everywhere (composites: plus 1e-6 absolute, where GELU's
    ``1 + erf(x)`` cancels), the same NaNs and infinities."""
    native = compile_function(module, symbol(operator), "mlir")
    with np.errstate(all="ignore"):
        for n in SIZES:
            x = np.concatenate([wide(n, 0), SPECIAL[: n % len(SPECIAL)]]) if n > 1 else wide(1, 0)
            got = np.asarray(native(x))
            want = np.asarray(run(module, symbol(operator), x))
            atol = 1e-6 if operator in COMPOSITE else 1e-37
            np.testing.assert_allclose(got, want, rtol=1e-5, atol=atol, err_msg=f"n = {n}")
        special = np.asarray(native(SPECIAL))
        np.testing.assert_allclose(
            special, np.asarray(run(module, symbol(operator), SPECIAL)), rtol=1e-5, atol=1e-37
        )


@pytest.mark.parametrize("operator", sorted(ROWWISE))
def test_rowwise_matches_reference(module, operator):
    """Softmax and the norms, rows of every odd length, one row with an inf and a NaN."""
    native = compile_function(module, symbol(operator), "mlir")
    with np.errstate(all="ignore"):
        for n in SIZES:
            rng = np.random.default_rng(n)
            x = (rng.standard_normal((3, n)) * 20).astype(np.float32)
            x[2, 0] = np.inf
            x[2, -1] = np.nan
            g, b = (rng.standard_normal(n).astype(np.float32) for _ in range(2))
            got = np.asarray(native(x, g, b))
            want = np.asarray(run(module, symbol(operator), x, g, b))
            np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6, err_msg=f"n = {n}")


@pytest.mark.parametrize("name", ["tanh", "erf"])
def test_expansions_within_a_micro_of_the_exact_functions(name):
    """The expansions evaluated in f32 by the lowered backend's interpreter against
    ``math.tanh``/``math.erf`` on a dense grid of magnitudes."""
    text = (
        "from tvm.script import ir as I, relax as R\n\n\n@I.ir_module\nclass Module:\n"
        '    @R.function\n    def main(x: R.Tensor(("n",), "float32")) -> '
        'R.Tensor(("n",), "float32"):\n'
        f"        return R.{name}(x)\n"
    )
    relax = parse_tvmscript(text, "expansion.py")
    lowered = approximate_math(lower(relax))
    assert f'"math.{name}"' not in generic_text(lowered)
    x = np.concatenate([np.geomspace(1e-8, 12, 4000), -np.geomspace(1e-8, 12, 4000)])
    x = x.astype(np.float32)
    got = np.asarray(compile_function(relax, "main", "lowered", lowered=lowered)(x))
    exact = np.array([getattr(math, name)(float(v)) for v in x])
    np.testing.assert_allclose(got, exact, rtol=1e-6, atol=0)


def test_only_f32_is_expanded():
    """f64 keeps the libm call: the expansions are accurate to f32 only."""
    text = (
        "from tvm.script import ir as I, relax as R\n\n\n@I.ir_module\nclass Module:\n"
        '    @R.function\n    def main(x: R.Tensor((4,), "float64")) -> R.Tensor((4,), "float64"):\n'
        "        return R.erf(R.tanh(x))\n"
    )
    generic = generic_text(approximate_math(lower(parse_tvmscript(text, "f64.py"))))
    assert '"math.erf"' in generic and '"math.tanh"' in generic


@pytest.mark.skipif(not has_libmvec(), reason="the C library has no libmvec")
def test_library_calls_vector_functions_not_scalar_libm(module):
    """The compiled library calls libmvec's 8-lane ``expf`` and no scalar ``tanhf``/``erff``."""
    from relax_xdsl.lowering.toolchain import compile_module

    native = compile_module(generic_text(approximate_math(lower(module))))
    symbols = native.path.read_bytes()
    assert b"_ZGV" in symbols and b"expf" in symbols
    assert b"\x00tanhf\x00" not in symbols and b"\x00erff\x00" not in symbols
