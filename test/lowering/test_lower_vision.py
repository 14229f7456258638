"""Lowering of ``relax.vision.roi_align``: reference interpreter vs the bundled
interpreter vs the MLIR toolchain, at several values of the symbolic sizes ``n``
(the data's height, the number of regions)."""

from __future__ import annotations

import numpy as np
from lower_harness import (
    Case,
    Family,
    FamilyTests,
    assert_covered,
    floats,
    inputs,
    operators_of,
    rng,
    tensor,
)

from relax_dialect.ops import vision


def regions(count: int | str, batches: int, salt: int = 0):
    """``count`` regions (``n`` when symbolic) of ``batches`` images about 6 pixels
    wide, some partly or wholly outside the image, some smaller than a pixel."""

    def make(n: int) -> np.ndarray:
        rows = n if count == "n" else int(count)
        r = rng(n, 7 + salt)
        corner = r.uniform(-3, 8, (rows, 2))
        size = r.uniform(0.3, 7, (rows, 2))
        batch = r.integers(0, batches, (rows, 1))
        return np.concatenate([batch, corner, corner + size], axis=1).astype("float32")

    return make


def roi_align(
    name: str, attrs: str, data: str = "2, 3, n, 6", layout: str = "NCHW", dtype: str = "f32"
):
    """``roi_align`` of data (``NCHW`` ``2, 3, n, 6`` unless given) over ``n`` regions."""
    shape = [int(d) if d.strip().isdigit() else d.strip() for d in data.split(",")]
    return Case(
        name,
        f"%x: {tensor(data, dtype)}, %r: {tensor('n, 5', 'f32')}",
        f'%y = relax.vision.roi_align %x, %r {{{attrs}, layout = "{layout}"}}',
        inputs(floats(*shape, dtype="float32" if dtype == "f32" else "float16"), regions("n", 2)),
    )


CASES = [
    roi_align(
        f"{mode}-ratio{ratio}-{'aligned' if aligned else 'legacy'}",
        f"pooled_size = [2, 3], spatial_scale = 0.5, sample_ratio = {ratio}, "
        f'aligned = {str(aligned).lower()}, mode = "{mode}"',
    )
    for mode in ("avg", "max")
    for ratio in (-1, 2)
    for aligned in (False, True)
]
CASES += [
    roi_align(
        "nhwc", "pooled_size = [3, 3], spatial_scale = 1.0", data="2, n, 6, 3", layout="NHWC"
    ),
    roi_align(
        "nhwc-max",
        'pooled_size = [2, 2], spatial_scale = 0.75, mode = "max"',
        data="2, 7, n, 2",
        layout="NHWC",
    ),
]

FAMILY = Family(CASES)


class TestFamily(FamilyTests):
    family = FAMILY


def test_every_operator_is_covered() -> None:
    assert_covered(vision.OPERATIONS, operators_of(CASES))
