"""Convolutions' epilogues written in place (``lowering/in_place_epilogues.py``): the chain's
operations write into the value they read, the fused tiles compute in the result's slice, and
native code agrees with the reference at odd channels and sizes, a symbolic batch, and on two
threads bit for bit."""

from __future__ import annotations

import subprocess

import pytest
from test_fused_epilogues import assert_matches_on_one_and_two_threads, outlined, source
from test_kernels import HEADER, kernels_of
from toolchain_harness import AVX2, host_tile_of, needs_toolchain
from xdsl.dialects import tensor
from xdsl.dialects.linalg.ops import FillOp

from relax_dialect.frontends.tvmscript.frontend import parse_tvmscript
from relax_xdsl.lowering.in_place_epilogues import CONVOLUTIONS, epilogues_in_place
from relax_xdsl.lowering.schedules.epilogue import EPILOGUE
from relax_xdsl.lowering.tiling import tiling_passes
from relax_xdsl.lowering.toolchain import _transform_library, find_toolchain
from relax_xdsl.lowering.units import split_units

F32 = '"float32"'
CLIP = "R.clip(R.add({}, b), R.prim_value(0.0), R.prim_value(6.0))"


def _pointwise(channels: int, filters: int, size: int) -> tuple[str, str]:
    return (
        f'x: R.Tensor(("n", {channels}, {size}, {size}), {F32}), '
        f"w: R.Tensor(({filters}, {channels}, 1, 1), {F32}), "
        f"b: R.Tensor((1, {filters}, 1, 1), {F32})",
        CLIP.format("R.nn.conv2d(x, w)"),
    )


def _depthwise(channels: int, size: int, stride: int) -> tuple[str, str]:
    conv = (
        f"R.nn.conv2d(x, w, strides=[{stride}, {stride}], padding=[1, 1, 1, 1], groups={channels})"
    )
    return (
        f'x: R.Tensor(("n", {channels}, {size}, {size}), {F32}), '
        f"w: R.Tensor(({channels}, 1, 3, 3), {F32}), b: R.Tensor((1, {channels}, 1, 1), {F32})",
        CLIP.format(conv),
    )


FUNCTIONS = {
    "pointwise_1_to_130_at_17": _pointwise(1, 130, 17),
    "pointwise_17_to_3_at_17": _pointwise(17, 3, 17),
    "pointwise_130_to_7_at_7": _pointwise(130, 7, 7),
    "pointwise_bias_3_to_5_at_17": (
        f'x: R.Tensor(("n", 3, 17, 17), {F32}), w: R.Tensor((5, 3, 1, 1), {F32}), '
        f"b: R.Tensor((1, 5, 1, 1), {F32})",
        "R.add(R.nn.conv2d(x, w), b)",
    ),
    "depthwise_7_at_17": _depthwise(7, 17, 1),
    "depthwise_3_at_17_stride_2": _depthwise(3, 17, 2),
    "depthwise_17_at_3": _depthwise(17, 3, 1),
    "depthwise_residual_130_at_7": (
        f'x: R.Tensor(("n", 130, 7, 7), {F32}), w: R.Tensor((130, 1, 3, 3), {F32}), '
        f"b: R.Tensor((1, 130, 1, 1), {F32})",
        "R.add(x, R.add(R.nn.conv2d(x, w, padding=[1, 1, 1, 1], groups=130), b))",
    ),
}
"""MobileNetV2's layers (a convolution, a bias, a clip or a residual) at odd channels and
sizes: 1 × 1 ones the direct convolution computes (rows of 17; a bias alone, whose chain of one
is left as it was) and im2col (rows of 7), and depthwise ones, strided and not."""
BATCHES = (1, 3)
"""Values of the symbolic batch ``n``."""


@pytest.fixture(scope="module")
def module():
    return parse_tvmscript(source(FUNCTIONS), "in_place.py")


def test_each_step_of_a_chain_writes_into_what_it_reads(module):
    """After the rewrite, a kernel's ``tensor.empty`` is the convolution's (filled with
    zeros) or the output of a chain's only step: each other step writes into the
    convolution's result or the previous step's."""
    for kernel in kernels_of(outlined(module)).values():
        epilogues_in_place(kernel)
        for empty in [op for op in kernel.walk() if isinstance(op, tensor.EmptyOp)]:
            [use] = empty.results[0].uses
            if not isinstance(use.operation, FillOp):
                assert EPILOGUE in use.operation.attributes
                assert any(isinstance(v.owner, CONVOLUTIONS) for v in use.operation.operands)


def test_a_result_read_twice_is_not_overwritten():
    """A convolution's result read by two operations keeps its buffer."""
    text = (
        HEADER
        + f"""    @R.function
    def twice(x: R.Tensor(("n", 3, 17, 17), {F32}), w: R.Tensor((5, 3, 1, 1), {F32})):
        with R.dataflow():
            c = R.nn.conv2d(x, w)
            y = R.multiply(R.nn.relu(c), c)
            R.output(y)
        return y
"""
    )
    for kernel in kernels_of(outlined(parse_tvmscript(text, "twice.py"))).values():
        before = str(kernel)
        epilogues_in_place(kernel)
        assert str(kernel) == before


STATIC_BATCH = {
    "pointwise_static_batch_relu": (
        f"x: R.Tensor((2, 17, 17, 17), {F32}), w: R.Tensor((5, 17, 1, 1), {F32}), "
        f"b: R.Tensor((1, 5, 1, 1), {F32})",
        "R.nn.relu(R.add(R.nn.conv2d(x, w), b))",
    )
}
"""A 1 × 1 layer of a static batch (the ONNX model zoo's SqueezeNet at batch 1 has them):
written in place, its fusion crashed mlir-opt-22."""


@pytest.fixture(scope="module")
def static_batch():
    return parse_tvmscript(source(STATIC_BATCH), "static_batch.py")


def test_a_static_batch_is_left_as_it_was(static_batch):
    for kernel in kernels_of(outlined(static_batch)).values():
        before = str(kernel)
        epilogues_in_place(kernel)
        assert str(kernel) == before


@needs_toolchain
def test_a_static_batch_compiles_and_matches_the_reference(static_batch):
    assert_matches_on_one_and_two_threads(static_batch, "pointwise_static_batch_relu", (1,), 1e-4)


@pytest.fixture(scope="module")
def fused_tiles() -> str:
    """The scheduled kernel of a 1 × 1 layer whose epilogue is fused into its rows' tiles
    (sized for AVX2 hosts' blocks)."""
    name = "pointwise_17_to_3_at_17"
    one = source({name: FUNCTIONS[name]})
    with host_tile_of(AVX2):
        [unit] = split_units(outlined(parse_tvmscript(one, "one.py")), tile=True)[1:]
        pipeline = ",".join(tiling_passes(_transform_library()))
    command = [find_toolchain().mlir_opt, f"--pass-pipeline=builtin.module({pipeline})"]
    done = subprocess.run(command, input=unit.text, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert "fuse_convolution_epilogue" in done.stderr
    return done.stdout


@needs_toolchain
def test_fused_tiles_compute_in_the_result(fused_tiles):
    """The fused 1 × 1 convolution's tile fills the result's slice itself: the scheduled
    kernel has one ``tensor.empty`` (the result; three before, the convolution's and the
    bias's results of each tile)."""
    assert fused_tiles.count("tensor.empty") == 1


@needs_toolchain
def test_fused_tiles_accumulate_from_zeros_in_registers(fused_tiles):
    """The tile's fill is fused into each register block and folded away: no fill is left
    (the blocks read a row of the result filled in memory before)."""
    assert "linalg.fill" not in fused_tiles


@needs_toolchain
@pytest.mark.parametrize("name", sorted(FUNCTIONS))
def test_layers_match_the_reference_on_one_and_two_threads(module, name):
    assert_matches_on_one_and_two_threads(module, name, BATCHES, atol=1e-4)
