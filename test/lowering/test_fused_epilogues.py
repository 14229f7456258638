"""Contractions with their epilogues (``lowering/kernels.py``, ``lowering/schedules/epilogue.py``):
one kernel per contraction and its element-wise chain, the chain computed on each tile of the
contraction where the schedule fuses it, compared with the reference interpreter at odd values
of a symbolic dimension."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from test_kernels import HEADER, kernels_of
from toolchain_harness import needs_toolchain
from xdsl.dialects.linalg.ops import ConvOperation

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
        None,  # a batched product: the chain stays in the kernel, after the product
    ),
    "two_batch_dims_scaled": (
        f'x: R.Tensor((2, "n", 3, 9), {F32}), w: R.Tensor((2, "n", 9, 7), {F32})',
        f"R.multiply(R.matmul(x, w), R.const(0.125, {F32}))",
        None,
    ),
    "conv_norm_residual_relu": (
        f'x: R.Tensor(("n", 3, 7, 17), {F32}), w: R.Tensor((7, 3, 3, 3), {F32}), {CHANNELS}, '
        f'r: R.Tensor(("n", 7, 7, 17), {F32})',
        "R.nn.relu(R.add(" + NORM.format("R.nn.conv2d(x, w, padding=[1, 1, 1, 1])") + ", r))",
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
    """Six functions, six kernels: every binding of a chain is in its contraction's (the norm
    inference's too), and the chains without a reshape are marked for the schedule."""
    kernels = kernels_of(outlined(module))
    assert len(kernels) == len(FUNCTIONS)
    marked = [k for k in kernels.values() if any(EPILOGUE in op.attributes for op in k.walk())]
    assert len(marked) == len(FUNCTIONS) - len(UNMARKED)


UNMARKED = ("batched_dense_gelu",)
"""The functions whose chain is not marked: behind a reshape (the others are, the batched
products' and the strided convolution's too, which the schedule leaves)."""


@needs_toolchain
def test_the_schedule_fuses_the_chains_it_can(module):
    """The schedule's remarks name the fusion of each marked kernel."""
    units = split_units(outlined(module), tile=True)
    pipeline = ",".join(tiling_passes(_transform_library()))
    command = [find_toolchain().mlir_opt, f"--pass-pipeline=builtin.module({pipeline})"]
    remarks = []
    for unit in units[1:]:
        done = subprocess.run(command, input=unit.text, capture_output=True, text=True)
        assert done.returncode == 0, done.stderr
        remarks += [line for line in done.stderr.splitlines() if SCHEDULE_REMARK in line]
    wanted = sorted(action for *_, action in FUNCTIONS.values() if action)
    fused = sorted(line.split(": ")[-1] for line in remarks if "_epilogue" in line)
    assert fused == wanted


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


def test_threads_fuse_the_chains_of_products_only(module):
    """For OpenMP threads a convolution's chain stays in its kernel but out of its tiles (see
    ``outline_kernels``); the products' chains are still fused."""
    lowered = approximate_math(lower(module))
    outline_kernels(lowered, parallel=True)
    marked = [
        k for k in kernels_of(lowered).values() if any(EPILOGUE in o.attributes for o in k.walk())
    ]
    convolutions = [n for n in FUNCTIONS if "conv" in n]
    assert len(marked) == len(FUNCTIONS) - len(UNMARKED) - len(convolutions)
    assert all(not isinstance(o, ConvOperation) for k in marked for o in k.walk())


@needs_toolchain
@pytest.mark.parametrize("name", sorted(FUNCTIONS))
def test_two_threads_agree_with_one(module, name):
    """On OpenMP threads (the products' chains fused into their tiles, whose columns the
    threads share) the results are those of one thread, bit for bit, at every size."""
    one = compile_function(module, name, "mlir")
    two = compile_function(module, name, "mlir", RunOptions(threads=2))
    for n in SIZES:
        args = arguments(module, name, n)
        np.testing.assert_array_equal(np.asarray(two(*args)), np.asarray(one(*args)))


ATTENTION = {
    "attention": "R.nn.attention(q, k, v)",
    "attention_scaled_causal": 'R.nn.attention(q, k, v, scale=0.25, causal_mask="TopLeft")',
    "attention_bias": "R.nn.attention(q, k, v, bias)",
}
"""Attention on a symbolic sequence: the scores' scale (and mask, bias) is their product's
epilogue, which the schedule leaves after the product (a batched one)."""


@pytest.fixture(scope="module")
def attention():
    params = ", ".join(
        f'{x}: R.Tensor((2, "n", 3, {d}), {F32})' for x, d in zip("qkv", (16, 16, 9), strict=True)
    )
    bias = f', bias: R.Tensor((2, 3, "n", "n"), {F32})'
    functions = {
        name: (params + bias if "bias" in call else params, call)
        for name, call in ATTENTION.items()
    }
    return parse_tvmscript(source(functions), "attention.py")


@needs_toolchain
@pytest.mark.parametrize("name", sorted(ATTENTION))
def test_attention_matches_the_reference(attention, name):
    """Against the reference, and on two threads (the heads shared) bit for bit the result of
    one."""
    one = compile_function(attention, name, "mlir")
    two = compile_function(attention, name, "mlir", RunOptions(threads=2))
    for n in SIZES:
        args = arguments(attention, name, n)
        want = np.asarray(run(attention, name, *args))
        got = np.asarray(one(*args))
        np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-5, err_msg=f"n = {n}")
        np.testing.assert_array_equal(np.asarray(two(*args)), got)
