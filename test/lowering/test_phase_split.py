"""Strided depthwise convolutions split into phases (``lowering/phase_split.py``) and tiled by the
depthwise schedule (``schedules/depthwise.py``): strides 2 and 3 on both axes or one, padding,
dilation, 5 × 5 and asymmetric windows, ragged phases, 3 to 130 channels, 130 output columns,
a single output pixel, NHWC and a symbolic batch, compiled as the native backend compiles
(kernels, units, the tiling schedule) and compared with the reference interpreter; the
convolutions it leaves alone (unit strides, a symbolic height, groups of several channels)."""

from __future__ import annotations

import itertools
import math
import re

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
from test_prepacked_weights import weights
from toolchain_harness import AVX2, AVX512, host_tile_of, needs_toolchain, scheduled
from xdsl.dialects import func
from xdsl.dialects.builtin import ModuleOp, TensorType
from xdsl.dialects.linalg.ops import (
    Conv2DNchwFchwOp,
    Conv2DNgchwGfchwOp,
    ConvOperation,
    FillOp,
    GenericOp,
)
from xdsl.dialects.tensor import PadOp

from relax_xdsl.lowering.forall_ops import ForallOp
from relax_xdsl.lowering.in_place_epilogues import epilogues_in_place
from relax_xdsl.lowering.kernels import KERNEL_PREFIX, outline_kernels
from relax_xdsl.lowering.phase_split import (
    POINT_BYTES,
    _Axis,
    _channels_a_point,
    _zeros,
    split_phases,
)
from relax_xdsl.lowering.pipeline import lower
from relax_xdsl.lowering.schedules.depthwise import PHASED
from relax_xdsl.lowering.schedules.outer_threads import SHARE_LOOP
from relax_xdsl.lowering.tiling import host_tile

pytestmark = pytest.mark.heavy

SIZES = (1, 3)
"""Values of the symbolic size ``n`` (the batch; ``h`` is ``n + 8``)."""


def conv(name: str, data: str, weight: str, attrs: str) -> Case:
    """``relax.nn.conv2d`` of data and weight shapes (``n``, ``h`` symbolic)."""
    shapes = [
        [d if d == "n" else "n+8" if d == "h" else int(d) for d in s.split(", ")]
        for s in (data, weight)
    ]
    return Case(
        name,
        f"%x: {tensor(data, 'f32')}, %w: {tensor(weight, 'f32')}",
        f"%r = relax.nn.conv2d %x, %w {{{attrs}}}",
        inputs(*(floats(*shape, salt=i) for i, shape in enumerate(shapes))),
    )


def constant_filter(name: str, data: str, filters: tuple[int, ...], attrs: str) -> Case:
    """``relax.nn.conv2d`` of data of shape ``data`` with a constant filter (a model's
    initializer: `weight_arguments` makes it the kernel's argument)."""
    binding = f"%r = relax.nn.conv2d %x, %w {{{attrs}}}"
    return Case(
        name,
        f"%x: {tensor(data, 'f32')}",
        f"{relax_constant('w', weights(*filters))}\n{binding}",
        inputs(floats(*(int(d) if d != "n" else d for d in data.split(", ")))),
    )


def depthwise(name: str, data: str, window: str, attrs: str) -> Case:
    """A depthwise convolution of NCHW ``data`` with a ``window`` (``KH, KW``)."""
    channels = data.split(", ")[1]
    return conv(name, data, f"{channels}, 1, {window}", f"groups = {channels}, {attrs}")


SPLIT = [
    depthwise("mobilenet-3x3-2", "n, 17, 20, 20", "3, 3", "strides = [2, 2], padding = [1]"),
    depthwise("ragged-3x3-2", "n, 7, 17, 17", "3, 3", "strides = [2, 2], padding = [1]"),
    depthwise("channels-130", "n, 130, 9, 13", "3, 3", "strides = [2, 2], padding = [1]"),
    depthwise("stride-3", "n, 3, 17, 19", "3, 3", "strides = [3, 3], padding = [1]"),
    depthwise("window-5x5-3", "n, 5, 23, 17", "5, 5", "strides = [3, 3], padding = [2]"),
    depthwise("rows-only", "n, 3, 11, 19", "3, 3", "strides = [2, 1], padding = [1]"),
    depthwise("columns-only", "n, 3, 7, 25", "3, 3", "strides = [1, 3], padding = [1]"),
    depthwise("dilation-as-stride", "n, 3, 17, 17", "3, 3", "strides = [2, 2], dilation = [2]"),
    depthwise("dilated-3-2", "n, 3, 19, 15", "3, 3", "strides = [2, 2], dilation = [3, 1]"),
    depthwise("asymmetric", "n, 5, 11, 23", "3, 2", "strides = [2, 3], padding = [2, 0, 1, 1]"),
    depthwise("one-pixel", "n, 3, 3, 3", "3, 3", "strides = [2, 2]"),
    depthwise("columns-130", "n, 3, 7, 259", "3, 3", "strides = [2, 2], padding = [1]"),
    constant_filter(
        "constant-filter",
        "n, 7, 17, 17",
        (7, 1, 3, 3),
        "groups = 7, strides = [2, 2], padding = [1]",
    ),
    Case(
        "epilogue-in-place",
        f"%x: {tensor('n, 17, 9, 9', 'f32')}, %b: {tensor('1, 17, 1, 1', 'f32')}, "
        f"%d: {tensor('n, 17, 5, 5', 'f32')}",
        f"""{relax_constant("w", weights(17, 1, 3, 3))}
        %c = relax.nn.conv2d %x, %w {{groups = 17, strides = [2, 2], padding = [1]}}
        %a = relax.add %c, %b
        %y = relax.nn.relu %a
        %r = relax.add %y, %d""",
        inputs(floats("n", 17, 9, 9), floats(1, 17, 1, 1, salt=1), floats("n", 17, 5, 5, salt=2)),
    ),
    Case(
        "epilogue-row-broadcast",
        f"%x: {tensor('n, 7, 9, 9', 'f32')}, %b: {tensor('1, 7, 5, 1', 'f32')}",
        f"""{relax_constant("w", weights(7, 1, 3, 3))}
        %c = relax.nn.conv2d %x, %w {{groups = 7, strides = [2, 2], padding = [1]}}
        %r = relax.add %c, %b""",
        inputs(floats("n", 7, 9, 9), floats(1, 7, 5, 1, salt=1)),
    ),
    depthwise("unit-strides", "n, 3, 9, 9", "3, 3", "padding = [1]"),
    depthwise("unit-strides-130", "n, 130, 7, 17", "3, 3", "padding = [1]"),
    depthwise("unit-strides-asymmetric", "n, 17, 3, 23", "5, 3", "padding = [2, 0, 1, 1]"),
    conv(
        "nhwc",
        "n, 13, 17, 7",
        "3, 3, 1, 7",
        'groups = 7, strides = [2, 2], padding = [1], data_layout = "NHWC", kernel_layout = "HWIO"',
    ),
]
"""Depthwise convolutions split into phases: strided, or padded with unit strides (one phase:
the padding written as its zeros around a copy)."""

CHANNELS = [
    conv("group-stem-7x7-2", "n, 3, 69, 69", "8, 3, 7, 7", "strides = [2, 2], padding = [3]"),
    conv("group-pointwise-2", "n, 17, 65, 65", "13, 17, 1, 1", "strides = [2, 2]"),
    conv("group-odd-3x3-2", "n, 5, 67, 67", "7, 5, 3, 3", "strides = [2, 2], padding = [1]"),
    constant_filter(
        "group-constant-stem", "n, 3, 69, 69", (8, 3, 7, 7), "strides = [2, 2], padding = [3]"
    ),
    conv("group-window-5x5-2", "n, 3, 9, 67", "4, 3, 5, 5", "strides = [2, 2], padding = [2]"),
    conv("group-window-5x5-3", "n, 3, 7, 103", "5, 3, 5, 5", "strides = [3, 3], padding = [2]"),
    conv("group-rows-only-2", "n, 3, 17, 35", "4, 3, 3, 3", "strides = [2, 1], padding = [1]"),
    conv("group-unpadded-rows-2", "n, 3, 68, 68", "8, 3, 3, 3", "strides = [2, 2]"),
    conv(
        "group-asymmetric-2-3",
        "n, 3, 11, 103",
        "4, 3, 3, 2",
        "strides = [2, 3], padding = [2, 0, 1, 1]",
    ),
    conv("group-channels-130", "n, 130, 5, 67", "3, 130, 7, 7", "strides = [2, 2], padding = [3]"),
    conv("group-filters-130", "1, 3, 7, 67", "130, 3, 7, 7", "strides = [2, 2], padding = [3]"),
    conv("group-one-channel", "n, 1, 7, 69", "1, 1, 7, 7", "strides = [2, 2]"),
    conv(
        "group-nhwc-hwio",
        "n, 9, 67, 5",
        "7, 7, 5, 8",
        'strides = [2, 2], padding = [3], data_layout = "NHWC", kernel_layout = "HWIO"',
    ),
]
"""Strided convolutions with one group, output rows of at least 32 columns (a register block on
any host) and few products of zero taps once split along the columns: unit column strides over
the columns' phases as channels, the rows read with their stride (``group-unpadded-rows-2``
reads 67 of its 68 rows, as SqueezeNet's stem reads 223 of 224)."""

KEPT = [
    depthwise("unit-strides-unpadded", "n, 3, 9, 9", "3, 3", "strides = [1, 1]"),
    conv("narrow-rows", "n, 3, 17, 17", "4, 3, 7, 7", "strides = [2, 2], padding = [3]"),
    conv("many-filters-3x3-2", "n, 3, 5, 67", "130, 3, 3, 3", "strides = [2, 2], padding = [1]"),
    conv("dilated-strided", "n, 3, 9, 71", "4, 3, 3, 3", "strides = [2, 2], dilation = [2]"),
    depthwise("symbolic-height", "1, 3, h, 9", "3, 3", "strides = [2, 2], padding = [1]"),
    conv("two-channels-a-group", "n, 4, 9, 9", "2, 2, 3, 3", "groups = 2, strides = [2, 2]"),
    conv("depth-multiplier", "n, 3, 9, 9", "6, 1, 3, 3", "groups = 3, strides = [2, 2]"),
]
"""Convolutions left as they are: unit strides without padding (the depthwise schedule reads
them in place), output
rows narrower than a register block, a window of 3 × 3 / 2 with 130 filters (16 taps once split,
9 of its own: too many products of zeros), dilation with one group, a symbolic height, groups of several channels."""

CASES = {case.name: case for case in [*SPLIT, *CHANNELS, *KEPT]}
assert len(CASES) == len(SPLIT) + len(CHANNELS) + len(KEPT)


def kernel(case: Case) -> ModuleOp:
    """The case's kernel of its convolution in a module of its own (as `split_units` takes
    it)."""
    host = lower(load(case.function()))
    outline_kernels(host)
    [found] = [
        ModuleOp([op.clone()])
        for op in host.body.block.ops
        if isinstance(op, func.FuncOp)
        and op.sym_name.data.startswith(KERNEL_PREFIX)
        and any(isinstance(inner, ConvOperation) for inner in op.walk())
    ]
    return found


@pytest.mark.parametrize("name", [case.name for case in SPLIT])
def test_strided_or_padded_depthwise_windows_read_phases(name):
    module = kernel(CASES[name])
    split_phases(module, host_tile())
    ops = list(module.walk())
    assert not any(isinstance(op, Conv2DNgchwGfchwOp) for op in ops)
    assert not any(isinstance(op, PadOp) for op in ops)  # the phases hold the zeros
    [phased] = [op for op in ops if PHASED in op.attributes]
    assert isinstance(phased, GenericOp)
    phases = phased.inputs[0].type.get_shape()  # pyright: ignore[reportAttributeAccessIssue]
    assert len(phases) == 7  # n, g, c, the phases of the rows and columns, y, x


@pytest.mark.parametrize("name", [case.name for case in SPLIT])
def test_each_image_and_channel_is_split_and_convolved_in_one_loop(name):
    """One ``scf.forall`` over the images and blocks of channels holds each block's phases,
    the zeros of its result and its convolution: no phase nor fill of the whole tensor is
    left outside it, and a block's phases fit in `POINT_BYTES`."""
    module = kernel(CASES[name])
    split_phases(module, host_tile())
    [loop] = [op for op in module.walk() if isinstance(op, ForallOp)]
    [phased] = [op for op in loop.walk() if PHASED in op.attributes]
    assert phased.parent_op() is loop
    phases = phased.inputs[0].type.get_shape()  # pyright: ignore[reportAttributeAccessIssue]
    image, block, one = phases[:3]
    assert (image, one) == (1, 1)
    assert block == 1 or math.prod(phases) * 4 <= POINT_BYTES
    channels = loop.results[0].type.get_shape()[1]  # pyright: ignore[reportAttributeAccessIssue]
    assert tuple(loop.staticUpperBound.get_values())[1:] == (channels // block,)
    assert channels % block == 0
    inside = set(loop.walk())
    outside = [op for op in module.walk() if op not in inside]
    assert not any(isinstance(op, FillOp) for op in outside)
    assert not any(
        len(r.type.get_shape()) == 7
        for op in outside
        for r in op.results  # pyright: ignore
        if isinstance(r.type, TensorType)
    )


def test_each_element_of_the_phases_is_written_once():
    """Of each phase, the boxes filled with zeros (`_zeros`) and the block copied from the
    input cover every element exactly once: nothing is left unwritten (the tensor is not
    filled first) nor written twice; axes of 1 to 17 elements, padding 0 to 3, strides 2
    and 3, windows of 1 to 5 taps, dilations 1 and 2."""
    for size, before, stride, taps, dilation in itertools.product(
        (1, 2, 3, 7, 17), (0, 1, 2, 3), (2, 3), (1, 2, 3, 5), (1, 2)
    ):
        outputs = (size + 2 * before - (taps - 1) * dilation - 1) // stride + 1
        if outputs < 1:
            continue
        phasing = _Axis(outputs, taps, stride, dilation, size, before).data
        for row, column in itertools.product(range(phasing.phases), repeat=2):
            rows, columns = phasing.copied(row), phasing.copied(column)
            written = np.zeros((phasing.extent, phasing.extent), int)
            for (top, bottom), (left, right) in _zeros(rows, columns, *written.shape):
                written[top:bottom, left:right] += 1
            if rows[1] > 0 and columns[1] > 0:
                written[rows[0] : rows[0] + rows[1], columns[0] : columns[0] + columns[1]] += 1
            assert (written == 1).all(), (size, before, stride, taps, dilation, row, column)


def test_channels_of_small_images_are_taken_a_few_at_a_time():
    """MobileNetV2's layers: 960 channels of 7² (324 bytes of phases each) 48 at a time, 384
    of 14² 16 at a time, 96 of 112² / 2 (52 KiB each) one at a time; 17 channels (a prime)
    all at once or one at a time."""
    for channels, size, stride, block in [
        (960, 7, 1, 48),
        (384, 14, 1, 16),
        (96, 112, 2, 1),
        (17, 7, 1, 17),
        (17, 56, 1, 1),
    ]:
        axis = _Axis((size - 1) // stride + 1, 3, stride, 1, size, 1).data
        assert _channels_a_point(channels, axis, axis) == block


def test_the_epilogue_written_in_place_is_computed_in_the_loop():
    """A bias, a ReLU and a residual add written into the convolution's result
    (`in_place_epilogues`) are computed for each block of channels inside the loop, after its
    convolution, as one step reading its slices of the bias and of the residual, over each
    channel's plane flattened (rows of 5 columns are one row of 25)."""
    module = kernel(CASES["epilogue-in-place"])
    epilogues_in_place(module)
    split_phases(module, host_tile())
    [loop] = [op for op in module.walk() if isinstance(op, ForallOp)]
    inside = [op for op in loop.walk() if isinstance(op, GenericOp)]
    outside = [op for op in module.walk() if isinstance(op, GenericOp) and op not in inside]
    assert not outside
    *_, convolution, epilogue = inside
    assert PHASED in convolution.attributes
    shapes = [v.type.get_shape() for v in epilogue.operands]  # pyright: ignore
    assert shapes == [(1, 17, 1, 1), (1, 17, 25), (1, 17, 25)]  # bias, residual, result
    body = [op.name for op in epilogue.body.block.ops]
    assert body == ["arith.addf", "arith.cmpf", "arith.select", "arith.addf", "linalg.yield"]


def test_an_epilogue_reading_part_of_a_plane_stays_after_the_loop():
    """A bias broadcast along the rows (``1 × C × H × 1``) cannot be read over a flattened
    plane: its step stays after the loop (and still matches the reference)."""
    module = kernel(CASES["epilogue-row-broadcast"])
    epilogues_in_place(module)
    split_phases(module, host_tile())
    [loop] = [op for op in module.walk() if isinstance(op, ForallOp)]
    inside = [op for op in loop.walk() if isinstance(op, GenericOp)]
    [after] = [op for op in module.walk() if isinstance(op, GenericOp) and op not in inside]
    assert [v.type.get_shape() for v in after.inputs] == [(1, 7, 5, 1)]  # pyright: ignore


@pytest.mark.parametrize("name", [case.name for case in CHANNELS])
def test_strided_convolutions_take_the_phases_as_channels(name):
    """The columns' phases are channels (unit strides along the rows); the rows keep their
    stride."""
    module = kernel(CASES[name])
    [strided] = [op for op in module.walk() if isinstance(op, ConvOperation)]
    rows_stride, _ = strided.strides.get_values()
    split_phases(module, host_tile())
    ops = list(module.walk())
    assert not any(isinstance(op, PadOp) for op in ops)
    [convolution] = [op for op in ops if isinstance(op, ConvOperation)]
    assert isinstance(convolution, Conv2DNchwFchwOp)
    assert tuple(convolution.strides.get_values()) == (rows_stride, 1)


def test_the_stem_is_split_along_its_columns_alone():
    """ResNet-18's stem window (7 × 7 / 2 over 3 channels) becomes 7 rows × 4 columns over 6
    channels (two phases of columns), the rows read with stride 2: 56 taps for its 49, where
    splitting the rows too made 64 (16 over 12 channels)."""
    module = kernel(CASES["group-stem-7x7-2"])
    split_phases(module, host_tile())
    [convolution] = [op for op in module.walk() if isinstance(op, ConvOperation)]
    assert convolution.inputs[1].type.get_shape() == (8, 6, 7, 4)  # pyright: ignore
    assert list(convolution.strides.get_values()) == [2, 1]


@needs_toolchain
def test_the_split_stem_keeps_its_accumulators_in_registers():
    """The split stem's register blocks run a channel loop of 6 steps, unrolled whole
    (`direct_convolution.short_loops`) with AVX2's blocks, whose loops are unrolled by 4: the
    loops over the window's 7 × 4 taps carry the accumulators as vectors. (Unrolled by 4, the
    loop left a loop of its last 2 steps, and the window's loops carried the accumulators in a
    tensor: stored and reloaded at every tap.)"""
    module = kernel(CASES["group-stem-7x7-2"])
    with host_tile_of(AVX2):
        split_phases(module, AVX2)
        result = scheduled([str(module)])
    assert result.returncode == 0, result.stderr
    loops = [line for line in result.stdout.splitlines() if " = scf.for " in line]
    window = [line for line in loops if re.search(r"to %c[47] step %c1 ", line)]
    assert window
    assert all("-> (vector<" in line for line in window), window  # not a tensor


@pytest.mark.parametrize("name", [case.name for case in KEPT])
def test_other_convolutions_are_left_alone(name):
    module = kernel(CASES[name])
    before = str(module)
    split_phases(module, host_tile())
    assert str(module) == before


@needs_toolchain
def test_the_schedules_vectorise_the_phases():
    """Each split kernel is tiled by the depthwise or the direct schedule (its remark) into
    vector code (but the single output pixel, left to the loop lowering as with unit
    strides)."""
    units = []
    for case in [*SPLIT, *CHANNELS]:
        module = kernel(case)
        split_phases(module, host_tile())
        units.append(str(module))
    result = scheduled(units)
    assert result.returncode == 0, result.stderr
    assert result.stderr.count("schedule: depthwise") == len(SPLIT)
    assert result.stderr.count("schedule: direct_convolution") == len(CHANNELS)
    for case, part in zip([*SPLIT, *CHANNELS], result.stdout.split("// -----"), strict=True):
        if case.name != "one-pixel":
            assert "xf32>" in part.split("vector.transfer_read", 1)[1]
    assert PHASED not in result.stdout


def is_copy(op: GenericOp) -> bool:
    """Whether ``op`` copies its one input (its body yields the input's element)."""
    [*computed, yielded] = op.body.block.ops
    return not op.inputs[1:] and not computed and yielded.operands[0] is op.body.block.args[0]


@needs_toolchain
def test_the_phase_copies_are_shared_among_the_threads():
    """Each copy into the phases (rows read at ``y·s + r``: no projected permutation) is
    marked with a loop and split along it into an ``scf.forall`` (`outer_threads.mark_loop`):
    no copy is left in a kernel's body."""
    units = []
    for case in [*SPLIT, *CHANNELS]:
        module = kernel(case)
        split_phases(module, host_tile())
        copies = [op for op in module.walk() if isinstance(op, GenericOp) and is_copy(op)]
        assert copies and all(SHARE_LOOP in op.attributes for op in copies), case.name
        units.append(str(module))
    result = scheduled(units)
    assert result.returncode == 0, result.stderr
    in_body = re.compile(r"^    %\S+ = linalg\.generic .* ins\(%[^,]* : tensor<[^>]*>\) outs")
    assert not any(in_body.match(line) for line in result.stdout.splitlines())


@pytest.fixture(scope="module")
def native():
    """Every case in one module, compiled as the native backend does (tiled)."""
    return compiled_together(CASES.values())


@needs_toolchain
@pytest.mark.parametrize("name", sorted(CASES))
def test_phased_kernels_match_the_reference(native, name):
    assert_close_to_reference(native, CASES[name], SIZES)


@needs_toolchain
def test_two_threads_give_the_same_bits():
    """The split kernels compiled with OpenMP loops (the channels, or the output rows, shared
    among the threads): the same bits on two threads as on one."""
    assert_same_bits_on_two_threads([*SPLIT, *CHANNELS], [3])


@needs_toolchain
@pytest.mark.parametrize("tile", [AVX2, AVX512], ids=["avx2", "avx512"])
def test_strips_of_each_hosts_tile_match_the_reference(tile):
    """The split kernels under the schedule and register tile of AVX2 hosts (strips of 16
    columns, direct blocks of 6 × 16) and of AVX-512 ones (32 columns, 8 × 32), compiled and
    run on any host."""
    cases = [*SPLIT, *CHANNELS]
    with host_tile_of(tile):
        native = compiled_together(cases)
    for case in cases:
        assert_close_to_reference(native, case, SIZES)
