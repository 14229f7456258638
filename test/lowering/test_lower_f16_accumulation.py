"""float16 sums accumulate in float32 in native code, as in the reference.

NumPy (the reference interpreter, and ONNX's expected outputs) computes ``matmul`` of float16
in float32 and rounds once, and sums a float16 axis in float32 (softmax's denominator).
Lowered with ``f16`` accumulators, native code rounded every product and partial sum to
``f16``: attention's outputs drifted by up to 5 ulp (the ONNX cases ``attention_4d_fp16``...).
Here the three backends agree within 1 ulp, nearly always exactly (only the order of the
float32 sums differs)."""

from __future__ import annotations

import numpy as np
import pytest
from convert_harness import load, native_available

from relax_xdsl.lowering.backends import backend_named
from relax_xdsl.lowering.backends.backend import Program

pytestmark = pytest.mark.heavy

K = 48
"""The depth of the sums: long enough that rounding each partial sum to f16 shows."""

CASES = {
    "batched-matmul": (
        "%a: !relax.tensor<[2, 3, 4, 48], f16>, %b: !relax.tensor<[2, 3, 48, 6], f16>",
        "%r = relax.matmul %a, %b",
        [(2, 3, 4, K), (2, 3, K, 6)],
    ),
    "matrix-product": (  # linalg.matmul for f32; a generic accumulating in f32 for f16
        "%a: !relax.tensor<[2, 5, 48], f16>, %b: !relax.tensor<[48, 7], f16>",
        "%r = relax.matmul %a, %b",
        [(2, 5, K), (K, 7)],
    ),
    "softmax": (
        "%a: !relax.tensor<[6, 48], f16>",
        "%r = relax.nn.softmax %a {axis = -1}",
        [(6, K)],
    ),
    "log-softmax": (
        "%a: !relax.tensor<[6, 48], f16>",
        "%r = relax.nn.log_softmax %a {axis = -1}",
        [(6, K)],
    ),
    "attention": (
        "%a: !relax.tensor<[2, 4, 4, 48], f16>, %b: !relax.tensor<[2, 40, 2, 48], f16>, "
        "%c: !relax.tensor<[2, 40, 2, 8], f16>",
        '%r = relax.nn.attention %a, %b, %c {scale = 0.25, causal_mask = "BottomRight"}',
        [(2, 4, 4, K), (2, 40, 2, K), (2, 40, 2, 8)],
    ),
}


def program(params: str, body: str) -> Program:
    return Program(load(f"relax.function @main({params}) {{\n  {body}\n  relax.return %r\n}}\n"))


def f16_ulps(actual: np.ndarray, expected: np.ndarray) -> np.ndarray:
    """The distance in f16 ulps of each element (on the ordered integer line)."""

    def ordered(x: np.ndarray) -> np.ndarray:
        bits = np.asarray(x, np.float16).view(np.int16).astype(np.int64)
        return np.where(bits < 0, -32768 - bits, bits)

    return np.abs(ordered(actual) - ordered(expected))


@pytest.mark.parametrize("backend", ["lowered", "mlir"])
@pytest.mark.parametrize("name", sorted(CASES))
def test_f16_sums_round_as_the_reference(name: str, backend: str):
    if backend == "mlir":
        native_available()
    params, body, shapes = CASES[name]
    rng = np.random.default_rng(7)
    arguments = [rng.uniform(-1, 1, shape).astype(np.float16) for shape in shapes]
    built = program(params, body)
    expected = np.asarray(backend_named("reference").compile(built, "main")(*arguments))
    actual = np.asarray(backend_named(backend).compile(built, "main")(*arguments))
    assert actual.dtype == expected.dtype == np.float16
    ulps = f16_ulps(actual, expected)
    assert ulps.max() <= 1, f"{name}: {np.bincount(ulps.ravel())} (elements by ulps)"
    assert np.count_nonzero(ulps) <= 0.02 * ulps.size, np.bincount(ulps.ravel())
