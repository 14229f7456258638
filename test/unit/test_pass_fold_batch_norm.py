"""``relax-fold-batch-norm``: ResNet-style convolutions followed by inference batch norms,
with random constants, compute the same on the reference interpreter before and after the
fold, and no batch norm is left."""

from __future__ import annotations

import numpy as np
import pytest
from operator_harness import load
from xdsl.context import Context

from relax_dialect.interpreter import run
from relax_dialect.ops.nn import BatchNormOp
from relax_dialect.passes.fold_batch_norm import FoldBatchNormPass
from relax_dialect.well_formed import check_well_formed


def dense(rng: np.random.Generator, shape: tuple[int, ...], positive: bool = False) -> str:
    values = rng.standard_normal(shape).astype(np.float32)
    if positive:
        values = np.abs(values) + np.float32(0.1)
    flat = ", ".join(repr(float(v)) for v in values.ravel())
    return f"dense<[{', '.join(map(str, shape))}], f32, [{flat}]>"


def program(inputs: int, out: int, attrs: str, norm_attrs: str, layout: str) -> str:
    """Data of 3 channels, weights of ``inputs`` input channels (3 / groups)."""
    rng = np.random.default_rng(out)
    kernel = (out, inputs, 3, 3) if layout == "NCHW" else (3, 3, inputs, out)
    data = "n, 3, 9, 9" if layout == "NCHW" else "n, 9, 9, 3"
    constants = [("w", kernel, False), ("g", (out,), False), ("b", (out,), False)]
    constants += [("m", (out,), False), ("v", (out,), True)]
    lines = "".join(f"  %{name} = relax.constant {dense(rng, s, p)}\n" for name, s, p in constants)
    return (
        f"relax.function @main(%x: !relax.tensor<[{data}], f32>) {{\n{lines}"
        f"  %c = relax.nn.conv2d %x, %w {{{attrs}}}\n"
        f"  %t = relax.nn.batch_norm %c, %g, %b, %m, %v {{{norm_attrs}, training = false}}\n"
        "  %y = relax.tuple_get_item %t[0]\n  %r = relax.nn.relu %y\n  relax.return %r\n}\n"
    )


CASES = {
    "resnet": program(
        3, 8, "padding = [1], strides = [2, 2]", "axis = 1, epsilon = 1.0e-05", "NCHW"
    ),
    "depthwise": program(1, 3, "padding = [1], groups = 3", "axis = 1", "NCHW"),
    "nhwc": program(
        3, 5, 'data_layout = "NHWC", kernel_layout = "HWIO"', "axis = 3, center = false", "NHWC"
    ),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_fold_keeps_the_results(name):
    text = CASES[name]
    folded = load(text)
    FoldBatchNormPass().apply(Context(), folded)
    assert check_well_formed(folded) == []
    assert not any(isinstance(op, BatchNormOp) for op in folded.walk())
    shape = (2, 9, 9, 3) if "NHWC" in text else (2, 3, 9, 9)
    x = np.random.default_rng(1).standard_normal(shape).astype(np.float32)
    want = np.asarray(run(load(text), "main", x))
    got = np.asarray(run(folded, "main", x))
    np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-4)
