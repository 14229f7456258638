"""``relax.image.resize2d`` in the interpreter, against a pixel-by-pixel NumPy definition."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
from operator_harness import function, load
from xdsl.dialects.builtin import ModuleOp

from relax_dialect.interpreter import run


def resize_module(data_type: str, size: tuple[int, int], attributes: str = "") -> ModuleOp:
    attrs = f" {{{attributes}}}" if attributes else ""
    return function(
        f"%x: {data_type}",
        f"%size = relax.shape [{size[0]}, {size[1]}]",
        f"%y = relax.image.resize2d %x, %size{attrs}",
    )


def random(*shape: int, dtype: str = "float32") -> np.ndarray:
    rng = np.random.default_rng(sum(shape) * 3 + len(shape))
    if dtype == "uint8":
        return rng.integers(0, 256, shape).astype(dtype)
    return (rng.standard_normal(shape) * 4).astype(dtype)


def source(mode: str, x: int, size: int, target: int, start: float = 0, end: float = 1) -> float:
    """The input coordinate of output index ``x`` (ONNX / TVM coordinate modes)."""
    scale = size / target
    if mode == "half_pixel" or (mode == "pytorch_half_pixel" and target > 1):
        return (x + 0.5) * scale - 0.5
    if mode == "asymmetric":
        return x * scale
    if mode == "tf_half_pixel_for_nn":
        return (x + 0.5) * scale
    if mode == "align_corners":
        return x * (size - 1) / (target - 1) if target > 1 else 0.0
    if mode == "tf_crop_and_resize":
        if target == 1:
            return 0.5 * (start + end) * (size - 1)
        return start * (size - 1) + x * (end - start) * (size - 1) / (target - 1)
    return 0.0  # pytorch_half_pixel to a single row


NEAREST = {
    "round": lambda v: round(v),  # half to even, as nearbyint
    "round_prefer_floor": lambda v: math.ceil(v - 0.5),
    "round_prefer_ceil": lambda v: math.floor(v + 0.5),
    "floor": lambda v: math.floor(v + 1e-5),
    "ceil": lambda v: math.ceil(v - 1e-5),
}


def cubic_weights(t: float, alpha: float) -> list[float]:
    """Keys' cubic convolution weights of the taps at -1, 0, 1, 2 for offset t."""

    def kernel(s: float) -> float:
        s = abs(s)
        if s <= 1:
            return (alpha + 2) * s**3 - (alpha + 3) * s**2 + 1
        if s < 2:
            return alpha * s**3 - 5 * alpha * s**2 + 8 * alpha * s - 4 * alpha
        return 0.0

    return [kernel(t + 1), kernel(t), kernel(1 - t), kernel(2 - t)]


def resize_reference(
    image: np.ndarray,
    size: tuple[int, int],
    method: str = "linear",
    mode: str = "half_pixel",
    rounding: str = "round",
    alpha: float = -0.75,
    exclude: bool = False,
    roi: tuple[float, ...] = (0, 0, 0, 0),
    extrapolation: float = 0.0,
) -> np.ndarray:
    """Resize the last two axes of ``image``, one output pixel at a time, in float64."""
    height, width = image.shape[-2:]
    out = np.zeros((*image.shape[:-2], *size))
    rounding = rounding or ("round" if mode == "align_corners" else "floor")

    def pixel(y: int, x: int) -> np.ndarray:
        return image[..., min(max(y, 0), height - 1), min(max(x, 0), width - 1)].astype(float)

    for oy, ox in itertools.product(range(size[0]), range(size[1])):
        y = source(mode, oy, height, size[0], roi[0], roi[2])
        x = source(mode, ox, width, size[1], roi[1], roi[3])
        if mode == "tf_crop_and_resize" and not (0 <= y <= height - 1 and 0 <= x <= width - 1):
            out[..., oy, ox] = extrapolation
            continue
        if method == "nearest_neighbor":
            value = pixel(NEAREST[rounding](y), NEAREST[rounding](x))
        elif method == "linear":
            y0, x0 = math.floor(y), math.floor(x)
            dy, dx = y - y0, x - x0
            value = (
                pixel(y0, x0) * (1 - dy) * (1 - dx)
                + pixel(y0, x0 + 1) * (1 - dy) * dx
                + pixel(y0 + 1, x0) * dy * (1 - dx)
                + pixel(y0 + 1, x0 + 1) * dy * dx
            )
        else:
            y0, x0 = math.floor(y), math.floor(x)
            wy, wx = cubic_weights(y - y0, alpha), cubic_weights(x - x0, alpha)
            if exclude:
                wy = [w if 0 <= y0 - 1 + i < height else 0 for i, w in enumerate(wy)]
                wx = [w if 0 <= x0 - 1 + i < width else 0 for i, w in enumerate(wx)]
                wy, wx = [w / sum(wy) for w in wy], [w / sum(wx) for w in wx]
            value = sum(
                wy[j] * wx[i] * pixel(y0 - 1 + j, x0 - 1 + i)
                for j, i in itertools.product(range(4), range(4))
            )
        out[..., oy, ox] = value
    return out


MODES = ["half_pixel", "align_corners", "asymmetric", "pytorch_half_pixel", "tf_half_pixel_for_nn"]


@pytest.mark.parametrize("method", ["nearest_neighbor", "linear", "cubic"])
@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize(("h", "w", "size"), [(4, 6, (7, 5)), (5, 3, (3, 9)), (3, 4, (1, 8))])
def test_methods_and_coordinate_modes(method: str, mode: str, h: int, w: int, size) -> None:
    attributes = f'method = "{method}", coordinate_transformation_mode = "{mode}"'
    program = resize_module("!relax.tensor<[n, 2, h, w], f32>", size, attributes)
    image = random(2, 2, h, w)
    got = run(program, "main", image)
    assert got.dtype == np.float32  # pyright: ignore[reportAttributeAccessIssue]
    expected = resize_reference(image, size, method, mode)
    np.testing.assert_allclose(got, expected, rtol=1e-5, atol=1e-5)  # pyright: ignore


@pytest.mark.parametrize("rounding", [*NEAREST, ""])
@pytest.mark.parametrize(("mode", "size"), [("asymmetric", (9, 12)), ("half_pixel", (7, 5))])
def test_rounding_methods(rounding: str, mode: str, size: tuple[int, int]) -> None:
    attributes = (
        f'method = "nearest_neighbor", coordinate_transformation_mode = "{mode}", '
        f'rounding_method = "{rounding}"'
    )
    program = resize_module("!relax.tensor<[1, 2, 3, 4], f32>", size, attributes)
    image = random(1, 2, 3, 4)
    expected = resize_reference(image, size, "nearest_neighbor", mode, rounding)
    np.testing.assert_array_equal(run(program, "main", image), expected.astype(np.float32))  # pyright: ignore


def test_cubic_options_and_crop_and_resize() -> None:
    image = random(1, 2, 4, 6)
    program = resize_module(
        "!relax.tensor<[1, 2, 4, 6], f32>",
        (7, 5),
        'method = "cubic", cubic_alpha = -0.5, cubic_exclude = 1',
    )
    expected = resize_reference(image, (7, 5), "cubic", alpha=-0.5, exclude=True)
    np.testing.assert_allclose(run(program, "main", image), expected, rtol=1e-5, atol=1e-5)  # pyright: ignore
    roi = (0.1, -0.2, 0.9, 1.3)
    for method in ("nearest_neighbor", "linear"):
        program = resize_module(
            "!relax.tensor<[1, 2, 4, 6], f32>",
            (7, 5),
            f'method = "{method}", coordinate_transformation_mode = "tf_crop_and_resize", '
            "roi = [0.1, -0.2, 0.9, 1.3], extrapolation_value = -7.0",
        )
        expected = resize_reference(
            image, (7, 5), method, "tf_crop_and_resize", roi=roi, extrapolation=-7.0
        )
        np.testing.assert_allclose(run(program, "main", image), expected, rtol=1e-5, atol=1e-5)  # pyright: ignore


def test_layouts_and_data_types() -> None:
    """NHWC and NCHW4c layouts; integers are interpolated in float32 and truncated."""
    image = random(1, 4, 6, 8)
    expected = resize_reference(image.transpose(0, 3, 1, 2), (7, 5))
    program = resize_module("!relax.tensor<[1, h, w, 8], f32>", (7, 5), 'layout = "NHWC"')
    np.testing.assert_allclose(
        run(program, "main", image),
        expected.transpose(0, 2, 3, 1),
        rtol=1e-5,
        atol=1e-5,  # pyright: ignore
    )
    packed = image.transpose(0, 3, 1, 2).reshape(1, 2, 4, 4, 6).transpose(0, 1, 3, 4, 2)
    program = resize_module("!relax.tensor<[1, 2, h, w, 4], f32>", (7, 5), 'layout = "NCHW4c"')
    got = run(program, "main", packed).transpose(0, 1, 4, 2, 3).reshape(1, 8, 7, 5)  # pyright: ignore
    np.testing.assert_allclose(got, expected, rtol=1e-5, atol=1e-5)
    image = random(1, 2, 4, 6, dtype="uint8")
    program = resize_module("!relax.tensor<[1, 2, 4, 6], ui8>", (7, 5))
    got = run(program, "main", image)
    assert got.dtype == np.uint8  # pyright: ignore[reportAttributeAccessIssue]
    expected = np.trunc(resize_reference(image, (7, 5)))
    assert np.abs(got.astype(int) - expected).max() <= 1  # pyright: ignore
    program = resize_module("!relax.tensor<[1, 2, 4, 6], ui8>", (7, 5), "out_dtype = f32")
    got = run(program, "main", image)
    assert got.dtype == np.float32  # pyright: ignore[reportAttributeAccessIssue]
    np.testing.assert_allclose(got, resize_reference(image, (7, 5)), rtol=1e-5, atol=1e-4)  # pyright: ignore


@pytest.mark.parametrize(("h", "w"), [(2, 3), (5, 5)])
def test_symbolic_size(h: int, w: int) -> None:
    program = load("""
relax.function @main(%x: !relax.tensor<[1, 1, h, w], f32>) -> !relax.tensor<[1, 1, 2 * h, w + 1], f32> {
  %size = relax.shape [2 * h, w + 1]
  %y = relax.image.resize2d %x, %size {method = "nearest_neighbor"}
  relax.return %y
}
""")
    image = random(1, 1, h, w)
    expected = resize_reference(image, (2 * h, w + 1), "nearest_neighbor")
    np.testing.assert_array_equal(run(program, "main", image), expected.astype(np.float32))  # pyright: ignore


# --- grid_sample ----------------------------------------------------------------------------


def mirror(v: float, low: float, high: float) -> float:
    """``v`` reflected into [low, high] (PyTorch's ``reflect_coordinates``)."""
    if high <= low:
        return low
    span = high - low
    distance = abs(v - low)
    periods, extra = divmod(distance, span)
    return low + extra if int(periods) % 2 == 0 else high - extra


def grid_sample_reference(
    image: np.ndarray, grid: np.ndarray, method: str, padding: str, aligned: bool
) -> np.ndarray:
    """Pixel by pixel, in float64: PyTorch's ``grid_sample`` definition (a
    ``[N, 2, H_out, W_out]`` grid; bicubic pads its taps)."""
    n_, c_, height, width = image.shape
    out = np.zeros((n_, c_, *grid.shape[2:]))

    def coordinate(v: float, size: int) -> float:
        return (v + 1) * (size - 1) / 2 if aligned else ((v + 1) * size - 1) / 2

    def padded(v: float, size: int) -> float:
        if padding == "reflection":
            v = mirror(v, 0, size - 1) if aligned else mirror(v, -0.5, size - 0.5)
        return v if padding == "zeros" else min(max(v, 0), size - 1)

    def pixel(n: int, c: int, row: int, column: int) -> float:
        if padding != "zeros" and method == "bicubic":
            row, column = int(padded(row, height)), int(padded(column, width))
        if 0 <= row < height and 0 <= column < width:
            return float(image[n, c, row, column])
        return 0.0

    for n, c, i, j in itertools.product(*map(range, out.shape)):
        y = coordinate(float(grid[n, 1, i, j]), height)
        x = coordinate(float(grid[n, 0, i, j]), width)
        if method == "bicubic":
            y0, x0 = math.floor(y), math.floor(x)
            wy, wx = cubic_weights(y - y0, -0.75), cubic_weights(x - x0, -0.75)
            out[n, c, i, j] = sum(
                wy[a] * wx[b] * pixel(n, c, y0 - 1 + a, x0 - 1 + b)
                for a in range(4)
                for b in range(4)
            )
            continue
        y, x = padded(y, height), padded(x, width)
        if method == "nearest":
            out[n, c, i, j] = pixel(n, c, round(y), round(x))
            continue
        y0, x0 = math.floor(y), math.floor(x)
        dy, dx = y - y0, x - x0
        out[n, c, i, j] = (
            pixel(n, c, y0, x0) * (1 - dy) * (1 - dx)
            + pixel(n, c, y0, x0 + 1) * (1 - dy) * dx
            + pixel(n, c, y0 + 1, x0) * dy * (1 - dx)
            + pixel(n, c, y0 + 1, x0 + 1) * dy * dx
        )
    return out


def grid_positions(*shape: int) -> np.ndarray:
    """Positions in [-1.5, 1.5], away from the half-pixel ties where rounding in
    float32 and float64 may differ."""
    return np.random.default_rng(sum(shape)).uniform(-1.5, 1.5, shape).astype(np.float32)


@pytest.mark.parametrize("method", ["bilinear", "nearest", "bicubic"])
@pytest.mark.parametrize("padding", ["zeros", "border", "reflection"])
@pytest.mark.parametrize("aligned", [False, True])
def test_grid_sample_methods_and_padding_modes(method: str, padding: str, aligned: bool) -> None:
    image, grid = random(2, 3, 5, 6), grid_positions(2, 2, 4, 7)
    attrs = (
        f'method = "{method}", padding_mode = "{padding}", align_corners = {str(aligned).lower()}'
    )
    program = function(
        "%x: !relax.tensor<[2, 3, 5, 6], f32>, %g: !relax.tensor<[2, 2, 4, 7], f32>",
        f"%y = relax.image.grid_sample %x, %g {{{attrs}}}",
    )
    expected = grid_sample_reference(image, grid, method, padding, aligned)
    got = run(program, "main", image, grid)
    assert got.dtype == np.float32 and got.shape == (2, 3, 4, 7)  # pyright: ignore
    np.testing.assert_allclose(got, expected, rtol=1e-4, atol=1e-4)  # pyright: ignore


def test_grid_sample_layouts_and_data_types() -> None:
    """NHWC data is sampled as NCHW; integer data is sampled in f32 and truncated."""
    image, grid = random(1, 4, 5, 3), grid_positions(1, 2, 3, 2)
    program = function(
        "%x: !relax.tensor<[1, h, w, 3], f32>, %g: !relax.tensor<[1, 2, 3, 2], f32>",
        '%y = relax.image.grid_sample %x, %g {layout = "NHWC"}',
    )
    expected = grid_sample_reference(image.transpose(0, 3, 1, 2), grid, "bilinear", "zeros", False)
    got = run(program, "main", image, grid)
    np.testing.assert_allclose(got, expected.transpose(0, 2, 3, 1), rtol=1e-4, atol=1e-4)  # pyright: ignore
    image = random(1, 2, 4, 6, dtype="uint8")
    program = function(
        "%x: !relax.tensor<[1, 2, 4, 6], ui8>, %g: !relax.tensor<[1, 2, 3, 2], f32>",
        '%y = relax.image.grid_sample %x, %g {method = "nearest", padding_mode = "border"}',
    )
    got = run(program, "main", image, grid)
    assert got.dtype == np.uint8  # pyright: ignore[reportAttributeAccessIssue]
    expected = grid_sample_reference(image, grid, "nearest", "border", False)
    np.testing.assert_array_equal(got, expected.astype(np.uint8))  # pyright: ignore
