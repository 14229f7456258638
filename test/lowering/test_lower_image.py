"""Lowering of ``relax.image.resize2d`` and ``relax.image.grid_sample``: reference
interpreter vs the bundled interpreter vs the MLIR toolchain, at several values of
the symbolic size ``n`` (in the data's shape, the target size, the grid's shape)."""

from __future__ import annotations

from lower_harness import (
    Case,
    Family,
    FamilyTests,
    assert_covered,
    floats,
    inputs,
    ints,
    operators_of,
    rng,
    sized,
    tensor,
)

from relax_dialect.ops import image
from relax_dialect.values import ShapeValue


def resize(name: str, size: str, attrs: str = "", data: str = "2, 3, n, 4", dtype: str = "f32"):
    """``resize2d`` of data (``NCHW`` ``2, 3, n, 4`` unless given) to ``size``."""
    shape = [int(d) if d.strip().isdigit() else d.strip() for d in data.split(",")]
    make = floats(*shape) if dtype == "f32" else ints(*shape, dtype="uint8", low=0, high=255)
    body = f"%s = relax.shape [{size}]\n%r = relax.image.resize2d %x, %s"
    return Case(
        name,
        f"%x: {tensor(data, dtype)}",
        body + (f" {{{attrs}}}" if attrs else ""),
        inputs(make),
    )


MODES = [
    "half_pixel",
    "align_corners",
    "asymmetric",
    "pytorch_half_pixel",
    "tf_half_pixel_for_nn",
]

CASES = [
    *(
        resize(f"linear-{mode}", "2 * n, 3", f'coordinate_transformation_mode = "{mode}"')
        for mode in MODES
    ),
    resize("linear-to-one", "1, 1", 'coordinate_transformation_mode = "align_corners"'),
    resize(
        "linear-pytorch-to-one", "n + 1, 1", 'coordinate_transformation_mode = "pytorch_half_pixel"'
    ),
    resize(
        "crop-and-resize",
        "n + 2, 5",
        'roi = [0.1, 0.2, 0.9, 1.3], coordinate_transformation_mode = "tf_crop_and_resize", '
        "extrapolation_value = -1.0",
    ),
    *(
        resize(
            f"nearest-{rounding or 'default'}",
            "3, n + 3",
            f'method = "nearest_neighbor", rounding_method = "{rounding}", '
            'coordinate_transformation_mode = "asymmetric"',
        )
        for rounding in ["round", "round_prefer_floor", "round_prefer_ceil", "floor", "ceil", ""]
    ),
    resize(
        "nearest-align-corners",
        "n, 7",
        'method = "nearest_neighbor", rounding_method = "", '
        'coordinate_transformation_mode = "align_corners"',
    ),
    resize("cubic", "2 * n, 6", 'method = "cubic"'),
    resize("cubic-exclude", "n + 2, 3", 'method = "cubic", cubic_alpha = -0.5, cubic_exclude = 1'),
    resize(
        "nhwc-u8",
        "n, 6",
        'layout = "NHWC", method = "nearest_neighbor"',
        data="1, n, 3, 2",
        dtype="ui8",
    ),
    resize(
        "nhwc-u8-to-f32",
        "2, n",
        'layout = "NHWC", method = "cubic", out_dtype = f32',
        data="1, n, 3, 2",
        dtype="ui8",
    ),
    resize("to-u8", "n, 3", "out_dtype = ui8", data="1, 1, n, 2"),
    resize("nchw2c", "3, n", 'layout = "NCHW2c"', data="1, 2, n, 3, 2"),
    Case(
        "runtime-size",
        f"%x: {tensor('1, 2, n, 3', 'f32')}, %s: !relax.shape<ndim = 2>",
        "%r = relax.image.resize2d %x, %s",
        lambda n: [floats(1, 2, "n", 3)(n), ShapeValue((n + 1, 2))],
    ),
]


def positions(*shape: int | str):
    """Grid positions in [-1.4, 1.4]: inside the image and a little outside it."""

    def make(n: int):
        return (rng(n, 5).uniform(-1.4, 1.4, sized(shape, n))).astype("float32")

    return make


def grid_sample(name: str, attrs: str, data: str = "2, 3, n, 5", dtype: str = "f32"):
    """``grid_sample`` of data (``NCHW`` ``2, 3, n, 5`` unless given) at a ``2, 2, 4, n + 1`` grid."""
    shape = [int(d) if d.strip().isdigit() else d.strip() for d in data.split(",")]
    make = floats(*shape) if dtype == "f32" else ints(*shape, dtype="uint8", low=0, high=255)
    return Case(
        name,
        f"%x: {tensor(data, dtype)}, %g: {tensor('2, 2, 4, n + 1', 'f32')}",
        f"%r = relax.image.grid_sample %x, %g {{{attrs}}}",
        inputs(make, positions(2, 2, 4, "n + 1")),
    )


CASES += [
    grid_sample(
        f"grid-{method}-{padding}-{'aligned' if aligned else 'edges'}",
        f'method = "{method}", padding_mode = "{padding}", align_corners = {str(aligned).lower()}',
    )
    for method in ("bilinear", "nearest", "bicubic")
    for padding in ("zeros", "border", "reflection")
    for aligned in (False, True)
]
CASES += [
    grid_sample("grid-nhwc-u8", 'layout = "NHWC"', data="2, n, 4, 3", dtype="ui8"),
    grid_sample("grid-nchw2c", 'method = "bicubic", layout = "NCHW2c"', data="2, 1, n, 3, 2"),
]

FAMILY = Family(CASES)


class TestFamily(FamilyTests):
    family = FAMILY


def test_every_operator_is_covered() -> None:
    assert_covered(image.OPERATIONS, operators_of(CASES))
