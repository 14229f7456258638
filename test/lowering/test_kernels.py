"""Kernel outlining for native code (``lowering/kernels.py``): every computation in a function
of its own, identical ones shared, the results unchanged."""

from __future__ import annotations

import numpy as np
import pytest
from toolchain_harness import needs_toolchain
from xdsl.dialects import arith, func
from xdsl.dialects.builtin import DenseIntOrFPElementsAttr, ModuleOp, TensorType, f32

from relax_dialect.frontends.tvmscript.frontend import parse_tvmscript
from relax_dialect.interpreter import run
from relax_dialect.memo_printer import print_module
from relax_xdsl.lowering.backends import compile_function
from relax_xdsl.lowering.kernels import KERNEL_PREFIX, outline_kernels
from relax_xdsl.lowering.pipeline import lower

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
