"""The modules TVM 0.25's ONNX importer makes with ``T.prim_func`` kernels
(``test/tvmscript/tir_onnx/``, as TVM printed them), read by the TVMScript frontend
and run on every backend: against NumPy where NumPy computes the operator, the
others (resize) against the reference interpreter (which runs the kernels on the
bundled interpreter). ``test/tvmscript/test_tir_tvm_differential.py`` compares
them with TVM's own compiled results."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

from relax_xdsl.lowering import wire_tir_executor
from relax_xdsl.lowering.backends import compile_function

TEST = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(TEST / "lowering"), str(TEST / "tvmscript")]
from convert_harness import IREE_ALL, iree_available, native_available  # noqa: E402
from tir_onnx_harness import NAMES, NUMPY, module_and_inputs  # noqa: E402

BACKENDS = ("reference", "lowered", "mlir", *(("iree",) if IREE_ALL else ()))
"""IREE compiles each module for seconds: in ``RELAX_E2E_IREE=all`` runs only."""


def test_every_module_is_covered() -> None:
    assert set(NUMPY) | {name for name in NAMES if name.startswith("resize")} == set(NAMES)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("name", NAMES)
def test_tir_kernels_run_as_numpy_computes(name: str, backend: str) -> None:
    if backend == "mlir":
        native_available()
    elif backend == "iree":
        iree_available()
    wire_tir_executor()
    module, inputs = module_and_inputs(name)
    result = np.asarray(compile_function(module, "main", backend)(*inputs))
    if name in NUMPY:
        expected = NUMPY[name](*inputs)
    else:
        expected = np.asarray(compile_function(module, "main", "reference")(*inputs))
    assert result.dtype == expected.dtype and result.shape == expected.shape
    np.testing.assert_allclose(result, expected, rtol=1e-5, atol=1e-6)
