"""TIR kernels against TVM 0.25 (skipped without ``tvm``): the modules of TVM's ONNX
importer (``tir_onnx/``) and the corpus programs with ``T.prim_func`` kernels, read
and run here (reference interpreter, kernels on the bundled interpreter) and
compiled and run by TVM (LLVM, VM), agree on their outputs; and TVM parses, as
well formed, what the printer writes of a module read from TIR (``T.prim_func``
stubs, kernels in the module attributes)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from corpus_harness import CORPUS, entry_inputs, load, run_spec
from inputs import RunSpec
from tir_onnx_harness import MODULES, NAMES, module_and_inputs

from relax_dialect.frontends.tvmscript.printer import print_tvmscript
from relax_dialect.interpreter import run
from relax_xdsl.lowering import wire_tir_executor

tvm_oracle = pytest.importorskip("tvm_oracle", reason="needs apache-tvm 0.25")
tvm = pytest.importorskip("tvm")

TVM_FAILS = {
    "clip": 'TVM 0.25 cannot parse its own R.const("-inf", "float32")',
    "036_call_tir.py": "TVM 0.25's FuseTIR needs kernels in block form (SBlockRealize)",
    "039_call_tir_mixed_module.py": "TVM 0.25's FuseTIR needs kernels in block form (SBlockRealize)",
}
"""Modules TVM does not compile, with the reason (strict xfails)."""
PRIM_FUNC_PROGRAMS = [path for path in CORPUS if "T.prim_func" in path.read_text()]


def params(names: list, key=str) -> list:
    """``names`` as parameters, those of ``TVM_FAILS`` expected to fail."""
    return [
        pytest.param(name, marks=pytest.mark.xfail(strict=True, reason=TVM_FAILS[key(name)]))
        if key(name) in TVM_FAILS
        else name
        for name in names
    ]


def tvm_result(mod: object, inputs: list[np.ndarray]) -> np.ndarray:
    vm = tvm_oracle.build(mod)
    args = [tvm.runtime.tensor(np.array(value, order="C")) for value in inputs]
    return np.asarray(tvm_oracle._to_numpy(vm["main"](*args)))


@pytest.mark.parametrize("name", params(NAMES))
def test_onnx_importer_kernels_agree_with_tvm(name: str) -> None:
    wire_tir_executor()
    module, inputs = module_and_inputs(name)
    ours = np.asarray(run(module, "main", *inputs))
    theirs = tvm_result(tvm.script.from_source((MODULES / f"{name}.py").read_text()), inputs)
    assert ours.dtype == theirs.dtype and ours.shape == theirs.shape
    np.testing.assert_allclose(ours, theirs, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize(
    "path", params(PRIM_FUNC_PROGRAMS, key=lambda p: p.name), ids=lambda p: p.name
)
def test_corpus_kernels_agree_with_tvm(path: Path) -> None:
    wire_tir_executor()
    module = load(path)
    spec = run_spec(path) or RunSpec("main", {"n": 5})
    inputs = entry_inputs(module, spec)
    ours = np.asarray(run(module, spec.entry, *inputs))
    theirs = tvm_result(tvm_oracle.load(path), inputs)
    np.testing.assert_allclose(ours, theirs, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("name", NAMES)
def test_tvm_parses_the_printed_module(name: str) -> None:
    module, _ = module_and_inputs(name)
    mod = tvm.script.from_source(print_tvmscript(module))
    assert tvm.relax.analysis.check_well_formed(mod)
