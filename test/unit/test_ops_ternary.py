"""relax.ewise_fma in the interpreter, against NumPy."""

from __future__ import annotations

import numpy as np
import pytest
from operator_harness import load

from relax_dialect.interpreter import run

FMA = """
relax.function @main(%a: !relax.tensor<[n, 3], {t}>, %b: !relax.tensor<[n, 3], {t}>, %c: !relax.tensor<[n, 3], {t}>) -> !relax.tensor<[n, 3], {t}> {{
  %y = relax.ewise_fma %a, %b, %c
  relax.return %y
}}
"""


@pytest.mark.parametrize("n", [0, 1, 4])
@pytest.mark.parametrize(
    ("dtype", "name"), [("float32", "f32"), ("int64", "i64"), ("float16", "f16")]
)
def test_ewise_fma(n: int, dtype: str, name: str) -> None:
    a, b, c = (
        np.random.default_rng(n + i).integers(-50, 50, (n, 3)).astype(dtype) for i in range(3)
    )
    actual = run(load(FMA.format(t=name)), "main", a, b, c)
    np.testing.assert_array_equal(actual, a * b + c, strict=True)


def test_ewise_fma_on_scalars() -> None:
    module = load("""
relax.function @main(%a: !relax.tensor<[], f64>) -> !relax.tensor<[], f64> {
  %y = relax.ewise_fma %a, %a, %a
  relax.return %y
}
""")
    actual = run(module, "main", np.array(1.5))
    np.testing.assert_array_equal(actual, np.array(3.75), strict=True)
