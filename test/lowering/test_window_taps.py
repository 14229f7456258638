"""Pools over their window's taps (``lowering/window_taps.py``): maxima and averages (with and
without the padding in the count), 1, 3, 7, 17 and 130 channels, rows of 1 to 130 columns,
strides 1, 2 and 3, padding (symmetric or not), ``ceil_mode``, dilation, NHWC, integers, 1-D
and 3-D pools and a symbolic batch, compiled
natively as the backend does (kernels, units, the tiling schedule) and compared with the
reference interpreter, NaN and infinities included, and with the same bits on two threads as
on one. The pools it leaves (adaptive ones, Booleans, symbolic spatial sizes, windows of more
than `MOST_TAPS` taps) are left alone and still match the reference."""

from __future__ import annotations

import numpy as np
import pytest
from convert_harness import flatten, load
from lower_harness import (
    Case,
    assert_close_to_reference,
    assert_same_bits_on_two_threads,
    compiled_together,
    inputs,
    sized,
    tensor,
)
from test_lower_pooling import pool
from test_prepacked_weights import kernel_modules, scheduled_remarks
from test_tiling_convolution import KEPT_POOLS, POOLS
from test_tiling_convolution import STRIDED as RESNET
from toolchain_harness import needs_toolchain
from xdsl.dialects.linalg.ops import GenericOp

from relax_dialect.interpreter import run
from relax_xdsl.lowering.schedules.pooling import TAPS
from relax_xdsl.lowering.tiling import host_tile
from relax_xdsl.lowering.window_taps import unroll_windows

pytestmark = pytest.mark.heavy

SIZES = (1, 3)
"""Values of the symbolic size ``n``."""

SHARED = {case.name: case for case in [*POOLS, *KEPT_POOLS]}
"""The pools of the tiling schedule's tests (`test_tiling_convolution`)."""

TAKEN = [
    *(
        SHARED[name]
        for name in (
            "resnet-max-pool",
            "max-pool-130-channels",
            "max-pool-one-channel",
            "max-pool-ceil",
            "max-pool-dilated",
            "max-pool-nhwc",
            "max-pool-i32",
            "max-pool-5x5-stride-3",
            "pool-symbolic-channels",
            "avg-pool",
            "avg-pool-include-pad",
        )
    ),
    pool("taps-one-pixel", "max_pool2d", ("n", 3, 1, 1), "pool_size = [1]"),
    pool("taps-wide", "max_pool2d", ("n", 3, 5, 130), "pool_size = [1, 3], padding = [0, 1]"),
    pool(
        "taps-asymmetric",
        "max_pool2d",
        ("n", 7, 7, 9),
        "pool_size = [2, 3], strides = [2, 1], padding = [0, 1, 2, 2]",
    ),
    pool("taps-1d", "max_pool1d", ("n", 3, 9), RESNET + ", ceil_mode = true"),
    pool("taps-3d", "max_pool3d", (1, "n", 3, 4, 4), "pool_size = [2], strides = [1, 2, 2]"),
    pool(
        "taps-average-ceil-i32",
        "avg_pool2d",
        ("n", 7, 5, 5),
        "pool_size = [2], strides = [2], ceil_mode = true",
        dtype="i32",
    ),
    pool(
        "taps-average-dilated",
        "avg_pool2d",
        ("n", 130, 5, 5),
        "pool_size = [2, 3], strides = [1, 2], padding = [0, 1, 2, 2], dilation = [2]",
    ),
]
"""Max and sum (average) pools taken over their taps."""

LEFT = [
    *(
        SHARED[name]
        for name in ("max-pool-symbolic-height", "pool-symbolic-width", "avg-pool-whole-image")
    ),
    pool("left-adaptive", "adaptive_avg_pool2d", ("n", 3, 5, 7), "output_size = [2, 3]"),
    pool("left-bool", "max_pool2d", ("n", 1, 3, 4), "pool_size = [2]", dtype="bool"),
]
"""Pools that keep their reduction: symbolic spatial sizes, a window of 49 taps, an adaptive
pool, a Boolean one."""


def with_nan(shape: tuple[int | str, ...]):
    """Data of ``shape`` with NaN, infinities and ties among quarters."""

    def make(n: int) -> np.ndarray:
        rng = np.random.default_rng(n)
        data = rng.integers(-8, 9, sized(shape, n)).astype(np.float32) / 4
        specials = np.array([np.nan, np.inf, -np.inf, -0.0], dtype=np.float32)
        where = rng.random(data.shape) < 0.08
        data[where] = rng.choice(specials, int(where.sum()))
        return data

    return make


NAN_SHAPE = ("n", 7, 17, 17)
NAN = Case(
    "taps-nan",
    f"%x: {tensor('n, 7, 17, 17', 'f32')}",
    f"%r = relax.nn.max_pool2d %x {{{RESNET}}}",
    inputs(with_nan(NAN_SHAPE)),
)
"""ResNet's max pool of data with NaN and infinities among the taps."""

CASES = {case.name: case for case in [*TAKEN, *LEFT, NAN]}


def generics(case: Case) -> tuple[str, str, list[GenericOp]]:
    """``case``'s kernels before and after the rewrite, and their generics after it."""
    kernels = kernel_modules(case.function())
    before = "".join(map(str, kernels))
    for kernel in kernels:
        unroll_windows(kernel)
    ops = [op for kernel in kernels for op in kernel.walk() if isinstance(op, GenericOp)]
    return before, "".join(map(str, kernels)), ops


def tapped(case: Case) -> list[GenericOp]:
    """The marked generics of ``case``'s kernels once rewritten."""
    return [op for op in generics(case)[2] if TAPS in op.attributes]


@pytest.mark.parametrize("name", [case.name for case in [*TAKEN, NAN]])
def test_every_region_of_a_pool_is_taken_over_its_taps(name):
    *_, ops = generics(CASES[name])
    marked = [op for op in ops if TAPS in op.attributes]
    assert marked
    assert all(t.data == "parallel" for op in marked for t in op.iterator_types)
    assert not [op for op in ops if any(t.data == "reduction" for t in op.iterator_types)]


@pytest.mark.parametrize("name", [case.name for case in LEFT])
def test_other_pools_are_left_alone(name):
    before, after, _ = generics(CASES[name])
    assert after == before


@needs_toolchain
def test_the_schedule_shares_each_marked_pool_among_the_threads():
    cases = [CASES["resnet-max-pool"], CASES["taps-1d"], CASES["taps-3d"]]
    remarks = scheduled_remarks(
        cases, lambda kernel, _: unroll_windows(kernel), host_tile(), "pool_taps"
    )
    assert remarks == sum(len(tapped(case)) for case in cases)


@pytest.fixture(scope="module")
def native():
    """Every case in one module, compiled as the native backend does (tiled)."""
    return compiled_together(CASES.values())


@needs_toolchain
@pytest.mark.parametrize("name", sorted(set(CASES) - {NAN.name}))
def test_pools_over_taps_match_the_reference(native, name):
    assert_close_to_reference(native, CASES[name], SIZES)


@needs_toolchain
def test_nan_and_infinities_give_the_reference_maxima(native):
    """Any NaN among a window's taps makes its maximum NaN, as ``np.max`` does; infinities
    and ties are exact."""
    reference = load(NAN.function())
    for n in SIZES:
        data = NAN.inputs(n)
        [got] = native.call(NAN.symbol, [a for arg in data for a in flatten(arg)])
        [want] = flatten(run(reference, "main", *data))
        assert np.isnan(want).any() and np.isinf(want).any()
        np.testing.assert_array_equal(got, want)


@needs_toolchain
def test_pools_over_taps_give_the_same_bits_on_two_threads():
    assert_same_bits_on_two_threads([*TAKEN, NAN], SIZES)
