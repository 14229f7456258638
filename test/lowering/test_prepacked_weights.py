"""Constant weights packed at compile time (``lowering/prepacked_weights.py``) and large constants
linked as data (``lowering/constant_data.py``): matrix products with a constant operand on
either side and convolutions with a constant filter (narrow, strided, dilated, a 7 × 7 stem,
1 × 1, a single pixel, one and two images, a filter large enough to be linked as data), at odd
sizes and a symbolic batch, compiled natively as the backend does (kernels, units, the tiling schedule) and
compared with the reference interpreter; the same shapes with the weights as parameters keep
the packing on each call."""

from __future__ import annotations

import re
from collections.abc import Sequence

import numpy as np
import pytest
from convert_harness import load
from lower_harness import (
    Case,
    assert_close_to_reference,
    assert_same_bits_on_two_threads,
    compiled_together,
    floats,
    inputs,
    relax_constant,
    tensor,
)
from toolchain_harness import AVX2, needs_toolchain, scheduled
from xdsl.dialects import arith, func, memref
from xdsl.dialects.builtin import ModuleOp
from xdsl.dialects.linalg.ops import Conv2DNchwFchwOp, MatmulOp

from relax_xdsl.lowering.constant_data import DATA_BYTES, link_large_constants
from relax_xdsl.lowering.kernels import KERNEL_PREFIX, outline_kernels
from relax_xdsl.lowering.pack_ops import PackOp
from relax_xdsl.lowering.pipeline import lower
from relax_xdsl.lowering.prepacked_weights import constant_array, pack_array, prepack_weights
from relax_xdsl.lowering.schedules.outer_threads import SHARE_LOOP
from relax_xdsl.lowering.tiling import RegisterTile, host_tile
from relax_xdsl.lowering.units import split_units

pytestmark = pytest.mark.heavy

SIZES = (1, 3, 7, 17, 130)
"""Values of the symbolic size ``n`` (rows of a dense layer's input, the batch of images)."""


def weights(*shape: int, salt: int = 7) -> np.ndarray:
    return np.random.default_rng(salt).standard_normal(shape).astype(np.float32)


def dense(name: str, k: int, m: int, left: bool = False, parameter: bool = False) -> Case:
    """``x @ W`` (``W @ x`` when ``left``) with ``W`` a ``k × m`` constant (``m × k`` on the
    left), or a parameter."""
    shape = (m, k) if left else (k, m)
    x_shape = f"{k}, n" if left else f"n, {k}"
    product = "%w, %x" if left else "%x, %w"
    w = weights(*shape)
    params = f"%x: {tensor(x_shape, 'f32')}"
    body = f"%r = relax.matmul {product}"
    makers = [floats(*(int(d) if d != "n" else d for d in x_shape.split(", ")))]
    if parameter:
        params += f", %w: {tensor(', '.join(map(str, shape)), 'f32')}"
        makers.append(lambda n, w=w: w)
    else:
        body = f"{relax_constant('w', w)}\n{body}"
    return Case(name, params, body, inputs(*makers))


def conv(
    name: str, data: str, filters: tuple[int, ...], attrs: str = "", parameter: bool = False
) -> Case:
    """``relax.nn.conv2d`` of data of shape ``data`` (``n`` symbolic) with a constant filter
    (or a parameter)."""
    w = weights(*filters)
    params = f"%x: {tensor(data, 'f32')}"
    binding = "%r = relax.nn.conv2d %x, %w" + (f" {{{attrs}}}" if attrs else "")
    makers = [floats(*(int(d) if d != "n" else d for d in data.split(", ")))]
    if parameter:
        params += f", %w: {tensor(', '.join(map(str, filters)), 'f32')}"
        makers.append(lambda n, w=w: w)
        body = binding
    else:
        body = f"{relax_constant('w', w)}\n{binding}"
    return Case(name, params, body, inputs(*makers))


PREPACKED = [
    dense("dense-1x1", 1, 1),
    dense("dense-3x7", 3, 7),
    dense("dense-17x130", 17, 130),
    dense("dense-130x17", 130, 17),
    dense("left-7x3", 7, 3, left=True),
    dense("left-130x17", 130, 17, left=True),
    conv("narrow-3x3", "n, 8, 7, 7", (17, 8, 3, 3), "padding = [1]"),
    conv("strided-3x3", "n, 3, 17, 17", (7, 3, 3, 3), "strides = [2, 2], padding = [1]"),
    conv("stem-7x7", "n, 3, 23, 23", (8, 3, 7, 7), "strides = [2, 2], padding = [3]"),
    conv("dilated", "n, 3, 17, 17", (5, 3, 3, 3), "dilation = [2, 3], padding = [2, 3]"),
    conv("strided-1x1", "n, 130, 7, 7", (3, 130, 1, 1), "strides = [2, 2]"),
    conv("one-pixel", "n, 1, 1, 1", (1, 1, 1, 1)),
    conv("one-image", "1, 5, 9, 9", (6, 5, 3, 3), "padding = [1]"),
    conv("two-images", "2, 5, 9, 9", (6, 5, 3, 3), "strides = [2, 1], padding = [1]"),
    conv("linked-as-data", "n, 64, 7, 7", (64, 64, 3, 3), "padding = [1]"),
]
"""Cases whose constant operand the kernels read packed."""

PARAMETERS = [
    dense("param-dense-17x130", 17, 130, parameter=True),
    conv("param-narrow-3x3", "n, 8, 7, 7", (17, 8, 3, 3), "padding = [1]", parameter=True),
]
"""The same shapes with the weights as parameters: packed on each call, as before."""

KEPT = [conv("direct", "n, 4, 18, 18", (6, 4, 3, 3), "padding = [1]")]
"""A constant filter that the direct convolution computes in place (no packing at all)."""

SHARED = Case(
    "shared-weight",
    f"%x: {tensor('n, 130', 'f32')}, %y: {tensor('1, 130', 'f32')}",
    f"""{relax_constant("w", weights(130, 130))}
    %h = relax.matmul %x, %w
    %g = relax.matmul %y, %w
    %r = relax.add %h, %g""",
    inputs(floats("n", 130), floats(1, 130, salt=3)),
)
"""One constant of over 64 KiB packed the same way in two kernels: one data object."""

TWO_FILTERS = Case(
    "two-filters",
    f"%x: {tensor('n, 64, 7, 7', 'f32')}",
    f"""{relax_constant("w", weights(64, 64, 3, 3))}
    {relax_constant("v", weights(64, 64, 3, 3, salt=8))}
    %h = relax.nn.conv2d %x, %w {{padding = [1]}}
    %r = relax.nn.conv2d %h, %v {{padding = [1]}}""",
    inputs(floats("n", 64, 7, 7)),
)
"""Two same-shaped layers with filters of their own, large enough to be linked as data: one
kernel, passed each filter by the host (`weight_arguments`)."""

CASES = {case.name: case for case in [*PREPACKED, *PARAMETERS, *KEPT, SHARED, TWO_FILTERS]}


def kernel_modules(text: str) -> list[ModuleOp]:
    """The kernels of a lowered module, each in a module of its own (as `split_units` takes
    them)."""
    host = lower(load(text))
    outline_kernels(host)
    return [
        ModuleOp([op.clone()])
        for op in host.body.block.ops
        if isinstance(op, func.FuncOp) and op.sym_name.data.startswith(KERNEL_PREFIX)
    ]


def scheduled_remarks(cases: Sequence[Case], rewrite, tile: RegisterTile, action: str) -> int:
    """How many of the ``cases``' kernels, rewritten by ``rewrite`` with blocks of ``tile``,
    the schedule transforms with ``action`` (its remarks)."""
    kernels = []
    for case in cases:
        [kernel] = kernel_modules(case.function())
        rewrite(kernel, tile)
        kernels.append(str(kernel))
    result = scheduled(kernels)
    assert result.returncode == 0, result.stderr
    return result.stderr.count(f"schedule: {action}")


def test_pack_array_lays_blocks_out_as_linalg_pack():
    array = np.arange(7 * 5, dtype=np.float32).reshape(7, 5)
    packed = pack_array(array, (3, 2))
    assert packed.shape == (3, 3, 3, 2)
    for i in range(9):
        for j in range(6):
            want = array[i, j] if i < 7 and j < 5 else 0
            assert packed[i // 3, j // 2, i % 3, j % 2] == want


@pytest.mark.parametrize("name", [case.name for case in PREPACKED])
def test_constant_operands_are_packed_at_compile_time(name):
    tile = host_tile()
    [kernel] = kernel_modules(CASES[name].function())
    prepack_weights(kernel, tile)
    ops = list(kernel.walk())
    assert not any(isinstance(op, MatmulOp | Conv2DNchwFchwOp) for op in ops)
    packs = [op for op in ops if isinstance(op, PackOp)]
    assert len(packs) == 2  # the other operand and the result, on each call
    blocks = {(tile.m, tile.k), (tile.k, tile.n)}
    constants = [a for op in ops if (a := _constant(op)) is not None]
    assert any(a.ndim == 4 and tuple(a.shape[2:]) in blocks for a in constants)


@pytest.mark.parametrize("name", [case.name for case in PARAMETERS + KEPT])
def test_parameters_and_direct_convolutions_are_left_alone(name):
    """Left alone with AVX2 hosts' blocks, which the cases are sized for."""
    [kernel] = kernel_modules(CASES[name].function())
    before = str(kernel)
    prepack_weights(kernel, AVX2)
    assert str(kernel) == before


def test_large_constants_become_external_globals():
    [kernel] = kernel_modules(CASES["linked-as-data"].function())
    prepack_weights(kernel, host_tile())
    packed = next(
        a for op in kernel.walk() if (a := _constant(op)) is not None and a.nbytes > DATA_BYTES
    )
    [(symbol, data)] = link_large_constants(kernel).items()
    assert data == packed.tobytes()
    reads = [
        op.name_.root_reference.data for op in kernel.walk() if isinstance(op, memref.GetGlobalOp)
    ]
    assert reads == [symbol]
    left = [_constant(op) for op in kernel.walk()]
    assert all(a.nbytes <= DATA_BYTES for a in left if a is not None)


def test_same_shaped_layers_share_one_kernel_passed_their_weights():
    module = lower(load(TWO_FILTERS.function()))
    outline_kernels(module)
    host, *kernels = split_units(module, True)
    assert len(kernels) == 1 and not kernels[0].data
    [kernel] = kernels
    assert kernel.text.count('"func.func"') == 1 and kernel.name in kernel.text
    assert len(host.data) == 2 and host.text.count(f"@{kernel.name}") == 2  # two calls
    assert host.text.count(f'sym_name = "{kernel.name}"') == 1  # one stub
    assert host.text.count('"memref.get_global"') == 2


def _constant(op) -> np.ndarray | None:
    return constant_array(op.result) if isinstance(op, arith.ConstantOp) else None


@needs_toolchain
def test_the_schedule_tiles_the_prepacked_products():
    """Each pre-packed kernel is matched by the schedule's pre-packed variant (its remark)."""
    units = []
    for case in PREPACKED:
        [kernel] = kernel_modules(case.function())
        prepack_weights(kernel, host_tile())
        units.append(str(kernel))
    result = scheduled(units)
    assert result.returncode == 0, result.stderr
    assert result.stderr.count("schedule: tile_prepacked") == len(PREPACKED)


IM2COL = ["strided-3x3", "stem-7x7", "dilated", "strided-1x1", "two-images"]
"""Cases whose convolution copies its windows (im2col) before the product."""


@needs_toolchain
def test_the_im2col_copies_are_shared_among_the_threads():
    """Each im2col copy, read through rows ``y·s + i`` (no projected permutation), is marked
    and split by its channels into an ``scf.forall`` (`outer_threads.mark_loop`): no
    six-loop operation is left in a kernel's body."""
    units = []
    for name in IM2COL:
        [kernel] = kernel_modules(CASES[name].function())
        prepack_weights(kernel, host_tile())
        marked = [op for op in kernel.walk() if SHARE_LOOP in op.attributes]
        assert len(marked) == 1, name
        units.append(str(kernel))
    result = scheduled(units)
    assert result.returncode == 0, result.stderr
    in_body = re.compile(r"^    %\S+ = linalg\.generic .*iterator_types = \[(\"parallel\", ){5}")
    assert not any(in_body.match(line) for line in result.stdout.splitlines())


@pytest.fixture(scope="module")
def native():
    """Every case in one module, compiled as the native backend does (tiled)."""
    return compiled_together(CASES.values())


@needs_toolchain
@pytest.mark.parametrize("name", sorted(CASES))
def test_prepacked_kernels_match_the_reference(native, name):
    assert_close_to_reference(native, CASES[name], SIZES)


@needs_toolchain
def test_two_threads_give_the_bits_of_one():
    """Compiled for OpenMP threads (the packing of the operand computed at run time shared
    among them, as the products' blocks): the same bits on two threads as on one."""
    assert_same_bits_on_two_threads(list(CASES.values()), SIZES)
