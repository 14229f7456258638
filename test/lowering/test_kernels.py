"""Kernel outlining for native code (``lowering/kernels.py``): every computation in a function
of its own, identical ones shared, the results unchanged."""

from __future__ import annotations

import re

import numpy as np
import pytest
from toolchain_harness import needs_toolchain
from xdsl.dialects import arith, func
from xdsl.dialects.builtin import DenseIntOrFPElementsAttr, ModuleOp, TensorType, f32

from relax_dialect.frontends.tvmscript.frontend import parse_tvmscript
from relax_dialect.interpreter import run
from relax_dialect.memo_printer import print_module
from relax_xdsl.lowering import toolchain
from relax_xdsl.lowering.backends import compile_function
from relax_xdsl.lowering.backends.backend import RunOptions
from relax_xdsl.lowering.kernels import KERNEL_PREFIX, outline_kernels
from relax_xdsl.lowering.pipeline import lower
from relax_xdsl.lowering.threads import openmp_library
from relax_xdsl.lowering.toolchain import find_toolchain
from relax_xdsl.lowering.units import split_units

pytestmark = pytest.mark.heavy

HEADER = "from tvm.script import ir as I, relax as R, tirx as T\n\n\n@I.ir_module\nclass Module:\n"

LAYERS = (
    HEADER
    + """    @R.function
    def main(x: R.Tensor(("n", 8), "float32"), w: R.Tensor((8, 8), "float32"),
             b: R.Tensor((8,), "float32")) -> R.Tensor(("n", 8), "float32"):
        with R.dataflow():
            h = R.nn.relu(R.add(R.matmul(x, w), b))
            h = R.nn.relu(R.add(R.matmul(h, w), b))
            h = R.nn.relu(R.add(R.matmul(h, w), b))
            y = R.add(R.multiply(x, R.const(2.0, "float32")), R.const(1.0, "float32"))
            z = R.add(R.multiply(y, R.const(3.0, "float32")), R.const(1.0, "float32"))
            out = R.add(h, z)
            R.output(out)
        return out
"""
)


def kernels_of(module) -> dict[str, func.FuncOp]:
    return {
        op.sym_name.data: op
        for op in module.body.block.ops
        if isinstance(op, func.FuncOp) and op.sym_name.data.startswith(KERNEL_PREFIX)
    }


def test_identical_kernels_are_one_function_and_constants_tell_them_apart():
    """Three layers, each a matmul with its bias add and ReLU: one kernel for the first two,
    another for the third, whose epilogue goes on to the final add; the scalings of ``x``
    (no contraction) are a kernel each, and they differ by a constant, so they are two
    kernels (the shared +1 is one)."""
    outlined = lower(parse_tvmscript(LAYERS, "layers.py"))
    outline_kernels(outlined)
    kernels = kernels_of(outlined)
    main = next(op for op in outlined.body.block.ops if op.sym_name.data == "main")
    calls = [op.callee.root_reference.data for op in main.walk() if isinstance(op, func.CallOp)]
    assert len(calls) == 7 and set(calls) == set(kernels)
    assert len(kernels) == 5
    assert all(k.sym_visibility and k.sym_visibility.data == "private" for k in kernels.values())
    assert all("no_inline" in k.attributes for k in kernels.values())


@needs_toolchain
@pytest.mark.parametrize("n", [1, 3, 7, 17, 130])
def test_outlined_native_code_matches_reference(n):
    module = parse_tvmscript(LAYERS, "layers.py")
    rng = np.random.default_rng(n)
    args = [rng.standard_normal(s).astype(np.float32) for s in ((n, 8), (8, 8), (8,))]
    got = compile_function(module, "main", "mlir")(*args)
    np.testing.assert_allclose(got, run(module, "main", *args), rtol=1e-5, atol=1e-5)


def test_kernel_names_digest_the_constants_data():
    """A kernel is named after its text with each large constant's bytes as a digest (no
    hexadecimal text of its weights): one element apart, two names; the same data, one."""
    weights = np.arange(300, dtype=np.float32).reshape(3, 100)
    other = weights.copy()
    other[2, 99] = 0.5
    texts = {}
    for name, data in {"w": weights, "same": weights.copy(), "other": other}.items():
        constant = arith.ConstantOp(
            DenseIntOrFPElementsAttr.from_list(TensorType(f32, [3, 100]), data.reshape(-1).tolist())
        )
        texts[name] = print_module(ModuleOp([constant]), generic=True, digest_data=True)
    assert texts["w"] == texts["same"] != texts["other"]
    assert "sha256:" in texts["w"] and weights.tobytes().hex().upper()[:64] not in texts["w"]


POOLS_AND_PHASES = (
    HEADER
    + """    @R.function
    def main(
        a: R.Tensor(("n", 7, 17, 17), "float32"),
        b: R.Tensor(("n", 3, 1, 3), "float32"),
        c: R.Tensor(("n", 130, 7, 9), "float32"),
        d: R.Tensor(("n", 5, 17, 7), "float32"),
        w: R.Tensor((5, 3, 3, 3), "float32"),
    ):
        with R.dataflow():
            p = R.nn.max_pool2d(a, pool_size=(3, 3), strides=(2, 2), padding=(1, 1, 1, 1))
            q = R.nn.avg_pool2d(b, pool_size=(3, 3), padding=(1, 1, 1, 1))
            r = R.nn.avg_pool2d(
                c, pool_size=(3, 2), strides=(2, 3), padding=(1, 0, 2, 1), ceil_mode=True,
                count_include_pad=True,
            )
            s = R.nn.max_pool2d(a, pool_size=(2, 3), dilation=(2, 3), padding=(2, 3, 1, 2))
            t = R.nn.conv2d_transpose(
                d, w, strides=(2, 3), padding=(1, 1), output_padding=(1, 2)
            )
            u = R.nn.conv2d_transpose(d, w, strides=(3, 2), padding=(2, 0), dilation=(2, 1))
            out = (p, q, r, s, t, u)
            R.output(out)
        return out
"""
)
"""Padded pools (their interior and borders written in place by one kernel) and transposed
convolutions (their output phases reading slices of one padded input as views) at odd sizes:
1, 3, 7, 17 and 130, ``ceil_mode``, dilation, windows of only padding, averages with and
without the padding counted, strides 2 and 3."""


def test_a_padded_pool_is_one_kernel_writing_its_regions():
    """The 3 × 3 / 2 max pool of 17 × 17 data: its interior (the windows inside the data), its
    first and last rows and columns, one kernel inserting five regions into one output; only
    the borders read a padded copy, of the rows and columns they need, inside the kernel."""
    outlined = lower(parse_tvmscript(POOLS_AND_PHASES, "pools.py"))
    outline_kernels(outlined)
    [pool] = [k for k in kernels_of(outlined).values() if "tensor<?x7x9x9xf32>" in str(k)]
    inserted = [
        op.source.type.get_shape()[2:] for op in pool.walk() if op.name == "tensor.insert_slice"
    ]
    assert sorted(inserted) == [(1, 9), (1, 9), (7, 1), (7, 1), (7, 7)]
    padded = [op.results[0].type.get_shape()[2:] for op in pool.walk() if op.name == "tensor.pad"]
    assert sorted(padded) == [(3, 19), (3, 19), (15, 3), (15, 3)]
    assert not any(
        op.name == "tensor.pad" and op.results[0].type.get_shape()[2:] == (19, 19)
        for op in outlined.walk()
    )


@needs_toolchain
def test_a_pool_kernel_bufferizes_its_regions_into_its_output():
    """Kernel units are bufferized without ``eliminate-empty-tensors``: the pool's regions are
    reduced into slices of its output (destination-passing), so the only buffers are the
    output and the borders' padded copies, and nothing is copied into the output (a region
    computed into a tensor of its own took a buffer and a copy each)."""
    outlined = lower(parse_tvmscript(POOLS_AND_PHASES, "pools.py"))
    outline_kernels(outlined)
    units = split_units(outlined, tile=True)
    [pool] = [u for u in units if not u.entry and "tensor<?x7x9x9xf32>" in u.text]
    llvm_ir = toolchain._lower_batch(find_toolchain(), [pool], tile=True, parallel=False)
    pads = pool.text.count('"tensor.pad"')
    assert pads == 4
    assert llvm_ir.count("call ptr @malloc(") == 1 + pads
    assert not re.search(r"@(memrefCopy|llvm\.memcpy)", llvm_ir)


@needs_toolchain
@pytest.mark.parametrize("threads", [1, 2])
def test_pools_and_phases_match_reference_natively(threads):
    if threads > 1 and openmp_library(find_toolchain().runtime) is None:
        pytest.skip("libomp is not installed (apt-get install libomp-22-dev)")
    module = parse_tvmscript(POOLS_AND_PHASES, "pools.py")
    compiled = compile_function(module, "main", "mlir", RunOptions(threads=threads))
    for n in (1, 3):
        rng = np.random.default_rng(n)
        shapes = ((n, 7, 17, 17), (n, 3, 1, 3), (n, 130, 7, 9), (n, 5, 17, 7), (5, 3, 3, 3))
        args = [rng.standard_normal(s).astype(np.float32) for s in shapes]
        for got, want in zip(compiled(*args), run(module, "main", *args), strict=True):
            np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)
