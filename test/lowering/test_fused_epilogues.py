"""Contractions with their epilogues (``lowering/kernels.py``, ``lowering/schedules/epilogue.py``):
one kernel per contraction and its element-wise chain, the chain computed on each tile of the
contraction where the schedule fuses it, compared with the reference interpreter at odd values
of a symbolic dimension."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from test_kernels import HEADER, kernels_of
from toolchain_harness import AVX2, host_tile_of, needs_toolchain
from xdsl.dialects import arith, math
from xdsl.dialects.builtin import DYNAMIC_INDEX
from xdsl.dialects.linalg.ops import Conv2DNchwFchwOp

from relax_dialect.frontends.onnx import from_onnx
from relax_dialect.frontends.tvmscript.frontend import parse_tvmscript
from relax_dialect.interpreter import run
from relax_dialect.prim_expr import IntImm
from relax_xdsl.lowering.backends import compile_function
from relax_xdsl.lowering.backends.backend import Program, RunOptions
from relax_xdsl.lowering.backends.native import _lowered_for_native_code
from relax_xdsl.lowering.crash_report import SCHEDULE_REMARK
from relax_xdsl.lowering.kernels import outline_kernels
from relax_xdsl.lowering.math_approximation import approximate_math
from relax_xdsl.lowering.pipeline import lower
from relax_xdsl.lowering.schedules.epilogue import EPILOGUE
from relax_xdsl.lowering.tiling import tiling_passes
from relax_xdsl.lowering.toolchain import _transform_library, find_toolchain
from relax_xdsl.lowering.units import split_units

pytestmark = pytest.mark.heavy

SIZES = (1, 3, 7, 17, 130)
"""Values of the symbolic ``n`` (rows of the products, images of the convolutions)."""

F32 = '"float32"'
NORM = "R.nn.batch_norm({}, g, be, mu, var, axis=1, training=False)[0]"
CHANNELS = ", ".join(f"{p}: R.Tensor((7,), {F32})" for p in ("g", "be", "mu", "var"))

FUNCTIONS = {
    "dense_gelu": (
        f'x: R.Tensor(("n", 130), {F32}), w: R.Tensor((130, 300), {F32}), '
        f"b: R.Tensor((300,), {F32})",
        "R.nn.gelu(R.add(R.matmul(x, w), b))",
        "fuse_product_epilogue",
    ),
    "dense_residual_relu": (
        f'x: R.Tensor(("n", 17), {F32}), w: R.Tensor((17, 7), {F32}), '
        f'b: R.Tensor((7,), {F32}), r: R.Tensor(("n", 7), {F32})',
        "R.nn.relu(R.add(r, R.add(R.matmul(x, w), b)))",
        "fuse_product_epilogue",
    ),
    "static_dense_bias": (
        f"x: R.Tensor((130, 70), {F32}), w: R.Tensor((70, 600), {F32}), b: R.Tensor((600,), {F32})",
        "R.add(R.matmul(x, w), b)",
        "fuse_product_epilogue",
    ),
    "thin_dense_relu": (
        f'x: R.Tensor(("n", 2), {F32}), w: R.Tensor((2, 257), {F32})',
        "R.nn.relu(R.matmul(x, w))",
        "fuse_product_epilogue",
    ),
    "integer_dense_bias": (
        'x: R.Tensor(("n", 7), "int32"), w: R.Tensor((7, 17), "int32"), '
        'b: R.Tensor((17,), "int32")',
        "R.multiply(R.add(R.matmul(x, w), b), R.const(3, 'int32'))",
        "fuse_product_epilogue",
    ),
    "batched_dense_gelu": (
        f'x: R.Tensor((1, "n", 17), {F32}), w: R.Tensor((17, 7), {F32}), b: R.Tensor((7,), {F32})',
        "R.nn.gelu(R.add(R.matmul(x, w), b))",
        None,  # an expand_shape between the product and the chain: one kernel, not tiled
    ),
    "batched_dense_bias_gelu": (
        f'x: R.Tensor((3, "n", 17), {F32}), w: R.Tensor((3, 17, 130), {F32}), '
        f"b: R.Tensor((130,), {F32})",
        "R.nn.gelu(R.add(R.matmul(x, w), b))",
        "fuse_batched_product_epilogue_1",
    ),
    "two_batch_dims_scaled": (
        f'x: R.Tensor((2, "n", 3, 9), {F32}), w: R.Tensor((2, "n", 9, 7), {F32})',
        f"R.multiply(R.matmul(x, w), R.const(0.125, {F32}))",
        "fuse_batched_product_epilogue_2",
    ),
    "integer_batched_bias": (
        'x: R.Tensor((2, 3, "n", 7), "int32"), w: R.Tensor((2, 3, 7, 17), "int32"), '
        'b: R.Tensor((17,), "int32")',
        "R.multiply(R.add(R.matmul(x, w), b), R.const(3, 'int32'))",
        "fuse_batched_product_epilogue_2",
    ),
    "batch_inside_the_result": (
        f'x: R.Tensor((3, "n", 9), {F32}), w: R.Tensor((3, 9, 7), {F32}), b: R.Tensor((7,), {F32})',
        'R.add(R.einsum((x, w), "bij,bjk->ibk"), b)',
        None,  # its batch is not the result's leading dimension: not marked
    ),
    "conv_norm_residual_relu": (
        f'x: R.Tensor(("n", 3, 7, 17), {F32}), w: R.Tensor((7, 3, 3, 3), {F32}), {CHANNELS}, '
        f'r: R.Tensor(("n", 7, 7, 17), {F32})',
        "R.nn.relu(R.add(" + NORM.format("R.nn.conv2d(x, w, padding=[1, 1, 1, 1])") + ", r))",
        "fuse_convolution_epilogue",
    ),
    "padded_conv_bias_relu": (
        f'x: R.Tensor(("n", 130, 3, 37), {F32}), w: R.Tensor((7, 130, 3, 3), {F32}), '
        f"b: R.Tensor((7, 1, 1), {F32})",
        "R.nn.relu(R.add(R.nn.conv2d(x, w, padding=[0, 2, 2, 1]), b))",
        "fuse_convolution_epilogue",
    ),
    "row_conv_residual_relu": (
        f'x: R.Tensor(("n", 17, 1, 130), {F32}), w: R.Tensor((3, 17, 3, 3), {F32}), '
        f'r: R.Tensor(("n", 3, 1, 131), {F32})',
        "R.nn.relu(R.add(R.nn.conv2d(x, w, padding=[1, 0, 1, 3]), r))",
        "fuse_convolution_epilogue",
    ),
    "dilated_conv_relu": (
        f'x: R.Tensor(("n", 3, 17, 17), {F32}), w: R.Tensor((1, 3, 3, 3), {F32})',
        "R.nn.relu(R.nn.conv2d(x, w, padding=[2, 2, 2, 2], dilation=[2, 2]))",
        None,  # dilated: im2col, the epilogue stays in the kernel, after the product
    ),
    "wide_conv_bias_relu": (
        f'x: R.Tensor(("n", 5, 3, 40), {F32}), w: R.Tensor((130, 5, 3, 3), {F32}), '
        f"b: R.Tensor((1, 130, 1, 1), {F32})",
        "R.nn.relu(R.add(R.nn.conv2d(x, w, padding=[1, 1, 1, 1]), b))",
        "fuse_convolution_epilogue",
    ),
    "strided_conv_norm_relu": (
        f'x: R.Tensor(("n", 3, 17, 17), {F32}), w: R.Tensor((7, 3, 3, 3), {F32}), {CHANNELS}',
        "R.nn.relu(" + NORM.format("R.nn.conv2d(x, w, strides=[2, 2], padding=[1, 1, 1, 1])") + ")",
        None,  # im2col: the epilogue stays in the kernel, after the product
    ),
}


def source(functions: dict[str, tuple[str, str]]) -> str:
    """A TVMScript module of ``functions`` (name → parameters, the expression returned)."""
    text = HEADER
    for name, (params, body) in functions.items():
        text += f"""    @R.function
    def {name}({params}):
        with R.dataflow():
            y = {body}
            R.output(y)
        return y

"""
    return text


@pytest.fixture(scope="module")
def module():
    functions = {name: (params, body) for name, (params, body, _) in FUNCTIONS.items()}
    return parse_tvmscript(source(functions), "epilogues.py")


def arguments(module, name: str, n: int) -> list[np.ndarray]:
    """Random inputs of ``@name`` at ``n`` (variances positive)."""
    rng = np.random.default_rng(n)
    function = next(op for op in module.body.block.ops if op.sym_name.data == name)
    found = []
    for arg in function.body.block.args:
        shape = [d.value if isinstance(d, IntImm) else n for d in arg.type.dims]
        dtype = arg.type.data_type.to_numpy()
        value = rng.standard_normal(shape) if dtype.kind == "f" else rng.integers(-9, 9, shape)
        found.append((np.abs(value) + 0.5 if arg.name_hint == "var" else value).astype(dtype))
    return found


def outlined(module):
    """The lowered module, its kernels outlined (as the native backend does)."""
    lowered = approximate_math(lower(module))
    outline_kernels(lowered)
    return lowered


def test_each_contraction_and_its_chain_are_one_kernel(module):
    """One kernel per function: every binding of a chain is in its contraction's (the norm
    inference's too), and the chains without a reshape are marked for the schedule; and one
    kernel computing the norms' per-channel factors (of any channel count)."""
    kernels = kernels_of(outlined(module))
    assert len(kernels) == len(FUNCTIONS) + 1
    marked = [k for k in kernels.values() if any(EPILOGUE in op.attributes for op in k.walk())]
    assert len(marked) == len(FUNCTIONS) - len(UNMARKED)


def test_norms_take_their_square_roots_once_per_channel(module):
    """With the norms' vectors as parameters (nothing folds them), their square roots and
    divisions are taken once per channel, in one kernel of any channel count that every norm
    shares: the convolutions' kernels only subtract, multiply and add."""
    kernels = kernels_of(outlined(module)).values()
    convolutions = [k for k in kernels if any(isinstance(o, Conv2DNchwFchwOp) for o in k.walk())]
    assert convolutions
    assert not any(
        isinstance(o, math.SqrtOp | arith.DivfOp) for k in convolutions for o in k.walk()
    )
    [factors] = [k for k in kernels if any(isinstance(o, math.SqrtOp) for o in k.walk())]
    assert factors.function_type.outputs.data[0].get_shape() == (DYNAMIC_INDEX,)  # pyright: ignore


UNMARKED = ("batched_dense_gelu", "batch_inside_the_result")
"""The functions whose chain is not marked: behind a reshape, or on a batch the schedule's
tiles cannot take (the others are, the strided convolution's too, which the schedule leaves)."""


def schedule_units(module) -> list[subprocess.CompletedProcess]:
    """Each kernel unit of ``module`` after the tiling schedule (its remarks on stderr)."""
    units = split_units(outlined(module), tile=True)
    pipeline = ",".join(tiling_passes(_transform_library()))
    command = [find_toolchain().mlir_opt, f"--pass-pipeline=builtin.module({pipeline})"]
    done = [
        subprocess.run(command, input=u.text, capture_output=True, text=True) for u in units[1:]
    ]
    assert all(d.returncode == 0 for d in done), [d.stderr for d in done]
    return done


def remarks(done: list[subprocess.CompletedProcess], kind: str) -> list[str]:
    """The actions the schedule's remarks name that contain ``kind``, sorted."""
    lines = [line for d in done for line in d.stderr.splitlines() if SCHEDULE_REMARK in line]
    return sorted(line.split(": ")[-1] for line in lines if kind in line)


@pytest.fixture(scope="module")
def scheduled(module) -> list[subprocess.CompletedProcess]:
    """The kernel units scheduled for AVX2 hosts, which the functions are sized for."""
    with host_tile_of(AVX2):
        return schedule_units(module)


@needs_toolchain
def test_the_schedule_fuses_the_chains_it_can(scheduled):
    """The schedule's remarks name the fusion of each marked kernel."""
    wanted = sorted(action for *_, action in FUNCTIONS.values() if action)
    assert remarks(scheduled, "_epilogue") == wanted


@needs_toolchain
def test_fused_convolutions_pad_their_input_once(scheduled):
    """A convolution fused with its epilogue pads its input in its kernel, once: a fill and
    one copy of the interior before the loop of the tiles (an ``scf.forall`` over the images
    and rows), none inside it."""
    action = "fuse_convolution_epilogue"
    fused = [d.stdout for d in scheduled if action in d.stderr]
    assert len(fused) == sum(a == action for *_, a in FUNCTIONS.values())
    for text in fused:
        tiles = re.search(r"scf\.forall \([^)]*\) in \(%", text)  # over the n images
        assert tiles is not None and "tensor.pad" not in text
        assert text.count("linalg.copy") == 1
        assert text.index("linalg.copy") < tiles.start()
        assert "linalg.fill" in text[: tiles.start()]


@needs_toolchain
def test_products_in_tiles_of_columns_pack_their_left_operand_once(scheduled):
    """A product fused into tiles of columns (more than 256 columns) packs its left operand
    (the kernel's argument) once, in at most two loops of blocks in the function's body, not in
    every tile (its loops would be nested four deep), whether the rows are static or symbolic
    (`tiling.IN_LOOP`); an im2col convolution's product in its loop over images does not."""
    left_block = f"tensor<1x1x{AVX2.m}x{AVX2.k}xf32>"
    assert remarks(scheduled, "tile_0_in_loop") == ["tile_0_in_loop"] * 3
    assert not any("im2col" in d.stderr and "tile_0_in_loop" in d.stderr for d in scheduled)
    for text in (d.stdout for d in scheduled if "tile_0_in_loop" in d.stderr):
        writes = re.findall(rf"^( *)%\S+ = vector\.transfer_write .*, {left_block}$", text, re.M)
        assert len(writes) == 1 and len(writes[0]) <= 8


@needs_toolchain
@pytest.mark.parametrize("name", sorted(FUNCTIONS))
def test_fused_kernels_match_the_reference(module, name):
    compiled = compile_function(module, name, "mlir")
    for n in SIZES:
        args = arguments(module, name, n)
        want = np.asarray(run(module, name, *args))
        got = np.asarray(compiled(*args))
        assert got.shape == want.shape and got.dtype == want.dtype
        if want.dtype.kind == "f":
            np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-4, err_msg=f"n = {n}")
        else:
            np.testing.assert_array_equal(got, want, err_msg=f"n = {n}")


@needs_toolchain
def test_norms_after_constant_weights_are_folded_for_native_code():
    """A ResNet imported with its weights as constants: native code lowers the module with
    the batch norms folded into the convolutions (no square root left), and agrees with
    onnxruntime at a batch of 3."""
    pytest.importorskip("onnx")
    onnxruntime = pytest.importorskip("onnxruntime")
    sys.path.insert(0, str(Path(__file__).parents[2] / "bench"))
    from onnx_models import ARCHITECTURES, example_inputs

    model = ARCHITECTURES["resnet18"].model()
    module = from_onnx(model, source_name="resnet18.onnx")
    program = Program(module)
    assert "math.sqrt" in str(program.lowered())
    assert "math.sqrt" not in str(_lowered_for_native_code(program))
    feeds = example_inputs(model, {"batch": 3})
    session = onnxruntime.InferenceSession(
        model.SerializeToString(), providers=["CPUExecutionProvider"]
    )
    [want] = session.run(None, feeds)
    got = compile_function(module, "main", "mlir")(*feeds.values())
    np.testing.assert_allclose(np.asarray(got), want, rtol=1e-4, atol=1e-4)


@needs_toolchain
@pytest.mark.parametrize("name", sorted(FUNCTIONS))
def test_two_threads_agree_with_one(module, name):
    """On OpenMP threads (the chains fused into the tiles, a product's columns or a
    convolution's tiles of output rows shared among the threads) the results are those of one
    thread, bit for bit, at every size."""
    one = compile_function(module, name, "mlir")
    two = compile_function(module, name, "mlir", RunOptions(threads=2))
    for n in SIZES:
        args = arguments(module, name, n)
        np.testing.assert_array_equal(np.asarray(two(*args)), np.asarray(one(*args)))


ATTENTION = {
    "attention": ('2, "n"', "R.nn.attention(q, k, v)"),
    "attention_scaled_causal": (
        '2, "n"',
        'R.nn.attention(q, k, v, scale=0.25, causal_mask="TopLeft")',
    ),
    "attention_bias": ('2, "n"', "R.nn.attention(q, k, v, bias)"),
    "attention_symbolic_batch": ('"n", 7', "R.nn.attention(q, k, v, scale=0.5)"),
}
"""Attention on a symbolic sequence (or batch: the batch and sequence of q, k and v, then the
call): the scores' scale (and mask, bias) is their product's epilogue, computed one head at a
time, the heads shared among the threads."""


@pytest.fixture(scope="module")
def attention():
    functions = {}
    for name, (leading, call) in ATTENTION.items():
        params = ", ".join(
            f"{x}: R.Tensor(({leading}, 3, {d}), {F32})"
            for x, d in zip("qkv", (16, 16, 9), strict=True)
        )
        bias = f', bias: R.Tensor((2, 3, "n", "n"), {F32})' if "bias" in call else ""
        functions[name] = (params + bias, call)
    return parse_tvmscript(source(functions), "attention.py")


@needs_toolchain
def test_attention_scales_its_scores_per_head(attention):
    """Each function's scores kernel fuses its scale (and mask, bias) into tiles of one head,
    whose product is packed and tiled on the tile's thread (no loop of it shared again); the
    second product is one kernel per type of its operands (a static batch, a symbolic one)."""
    done = schedule_units(attention)
    assert remarks(done, "_epilogue") == ["fuse_batched_product_epilogue_2"] * len(ATTENTION)
    assert remarks(done, "tile_2") == ["tile_2"] * 2 + ["tile_2_in_tile"] * len(ATTENTION)


@needs_toolchain
@pytest.mark.parametrize("name", sorted(ATTENTION))
def test_attention_matches_the_reference(attention, name):
    """Against the reference, and on two threads (the heads shared) bit for bit the result of
    one."""
    assert_matches_on_one_and_two_threads(attention, name, SIZES, atol=1e-5)


def assert_matches_on_one_and_two_threads(module, name: str, sizes, atol: float) -> None:
    """``@name`` of ``module`` compiled natively matches the reference at each of ``sizes``,
    and gives on two threads the bits of one."""
    one = compile_function(module, name, "mlir")
    two = compile_function(module, name, "mlir", RunOptions(threads=2))
    for n in sizes:
        args = arguments(module, name, n)
        want = np.asarray(run(module, name, *args))
        got = np.asarray(one(*args))
        np.testing.assert_allclose(got, want, rtol=1e-4, atol=atol, err_msg=f"n = {n}")
        np.testing.assert_array_equal(np.asarray(two(*args)), got)
