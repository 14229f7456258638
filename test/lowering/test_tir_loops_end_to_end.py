"""Hand-written TIR kernels read as loops (``scf.for`` carrying tensors, ``scf.if``):
``T.if_then_else`` taking only one branch, a buffer allocated in the kernel and
updated in nested loops, a reduction block under ``T.where``, symbolic sizes; run
on every backend against NumPy."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest
from xdsl.dialects.linalg.ops import GenericOp

from relax_dialect.frontends.tvmscript.frontend import parse_tvmscript
from relax_xdsl.lowering import wire_tir_executor
from relax_xdsl.lowering.backends import compile_function

sys.path.insert(0, str(Path(__file__).resolve().parent))
from convert_harness import iree_available, native_available

PROGRAM = """
from tvm.script import ir as I
from tvm.script import relax as R
from tvm.script import tirx as T


@I.ir_module
class Module:
    @T.prim_func(private=True)
    def shift_right(a: T.handle, b: T.handle):
        n = T.int64()
        A = T.match_buffer(a, (n,), "float32")
        B = T.match_buffer(b, (n,), "float32")
        for i in range(n):
            B[i] = T.if_then_else(i >= 1, A[i - 1], T.float32(0))

    @T.prim_func(private=True)
    def running_sum(A: T.Buffer((4, 5), "float32"), C: T.Buffer((4, 5), "float32")):
        with T.sblock("root"):
            S = T.alloc_buffer((1,), "float32")
            for i in range(4):
                S[0] = T.float32(0)
                for j in range(5):
                    S[0] = S[0] + A[i, j]
                    C[i, j] = S[0]

    @T.prim_func(private=True)
    def first_columns_sum(A: T.Buffer((4, 5), "float32"), R: T.Buffer((4,), "float32")):
        for i, j in T.grid(4, 5):
            with T.sblock("sum"):
                vi, vj = T.axis.remap("SR", [i, j])
                T.where(vj < 4)
                with T.init():
                    R[vi] = T.float32(0)
                R[vi] = R[vi] + A[vi, vj]

    @R.function
    def main(x: R.Tensor((4, 5), "float32"), v: R.Tensor(("n",), "float32")):
        n = T.int64()
        cls = Module
        s = R.call_tir(cls.shift_right, (v,), out_sinfo=R.Tensor((n,), "float32"))
        c = R.call_tir(cls.running_sum, (x,), out_sinfo=R.Tensor((4, 5), "float32"))
        r = R.call_tir(cls.first_columns_sum, (x,), out_sinfo=R.Tensor((4,), "float32"))
        return (s, c, r)
"""


@pytest.mark.parametrize("backend", ["reference", "lowered", "mlir", "iree"])
def test_loop_kernels_compute_what_numpy_does(backend: str) -> None:
    if backend == "mlir":
        native_available()
    elif backend == "iree":
        iree_available()
    wire_tir_executor()
    module = parse_tvmscript(PROGRAM, "loops.py")
    assert not any(isinstance(op, GenericOp) for op in module.walk())
    rng = np.random.default_rng(1)
    x = rng.standard_normal((4, 5)).astype(np.float32)
    v = rng.standard_normal(7).astype(np.float32)
    shifted, running, partial = compile_function(module, "main", backend)(x, v)
    np.testing.assert_array_equal(shifted, np.concatenate([[0], v[:-1]]))
    np.testing.assert_allclose(running, np.cumsum(x, axis=1), rtol=1e-6)
    np.testing.assert_allclose(partial, x[:, :4].sum(axis=1), rtol=1e-6)
