"""Real architectures (``bench/onnx_models.py``, small sizes) imported by ``from_onnx`` and
run on every backend, against onnxruntime, at two sets of sizes through one import (the
batch, sequence and cache length stay symbolic; native code for three of them unless
``RELAX_ONNX_FULL=1``); and the "light" model graphs shipped with ``onnx``'s backend test
data, against their expected outputs, when the data is there (native code only with
``RELAX_ONNX_FULL=1``)."""

from __future__ import annotations

import functools
import os
import sys
from pathlib import Path

import numpy as np
import pytest

onnx = pytest.importorskip("onnx")
onnxruntime = pytest.importorskip("onnxruntime")

from running import Failed, imported, verdict  # noqa: E402

from relax_dialect.types import struct_info_text  # noqa: E402
from relax_xdsl.lowering.backends import BACKENDS, backend_named  # noqa: E402
from relax_xdsl.lowering.backends.backend import Program  # noqa: E402

sys.path.insert(0, str(Path(__file__).parents[2] / "bench"))

from onnx_models import ARCHITECTURES, example_inputs  # noqa: E402

pytestmark = pytest.mark.heavy

RTOL, ATOL = 1e-3, 1e-4
FULL = os.environ.get("RELAX_ONNX_FULL") == "1"
NATIVE_QUICK = ("squeezenet", "bert", "vit")
"""The architectures compiled to native code in the default run (the quickest to compile)."""
KNOWN_FAILURES: dict[str, str] = {}
"""Architectures that fail today, and why (strict: a fix shows)."""
IREE_KNOWN_FAILURES: dict[str, str] = {}
"""Architectures IREE does not compile today (on IREE the architectures run only with
``RELAX_ONNX_FULL=1``, a minute or more each)."""


def architectures() -> list:
    return [
        pytest.param(name, marks=pytest.mark.xfail(strict=True, reason=KNOWN_FAILURES[name]))
        if name in KNOWN_FAILURES
        else name
        for name in ARCHITECTURES
    ]


LIGHT = Path(onnx.__file__).parent / "backend" / "test" / "data" / "light"
LIGHT_MODELS = (
    "bvlc_alexnet",
    "densenet121",
    "inception_v1",
    "inception_v2",
    "resnet50",
    "shufflenet",
    "squeezenet",
    "vgg19",
    "zfnet512",
)
"""The model graphs of ``onnx/backend/test/data/light`` (constant weights, 224×224)."""


@functools.cache
def architecture_program(name: str) -> Program:
    return imported(ARCHITECTURES[name].model(), f"{name}.onnx")


def onnxruntime_outputs(model: object, inputs: dict[str, np.ndarray]) -> list[np.ndarray]:
    session = onnxruntime.InferenceSession(
        model.SerializeToString(), providers=["CPUExecutionProvider"]
    )
    return session.run(None, inputs)


def skip_unavailable(backend: str) -> None:
    if (reason := backend_named(backend).unavailable()) is not None:
        pytest.skip(reason)


@pytest.mark.parametrize("backend", list(BACKENDS))
@pytest.mark.parametrize("name", architectures())
def test_architecture_agrees_with_onnxruntime(name: str, backend: str) -> None:
    if backend == "mlir" and name not in NATIVE_QUICK and not FULL:
        pytest.skip("compiled only with RELAX_ONNX_FULL=1 (a minute or more each)")
    if backend == "iree" and not FULL:
        pytest.skip("compiled by IREE only with RELAX_ONNX_FULL=1 (a minute or more each)")
    skip_unavailable(backend)
    if backend == "iree" and name in IREE_KNOWN_FAILURES:
        pytest.xfail(IREE_KNOWN_FAILURES[name])
    architecture = ARCHITECTURES[name]
    model = architecture.model()
    try:
        program = architecture_program(name)
    except Failed as failure:
        pytest.fail(f"{name}: {failure}")
    for dims in (architecture.dims, other_sizes(architecture.dims)):
        inputs = example_inputs(model, dims, seed=dims["batch"])
        expected = onnxruntime_outputs(model, inputs)
        problem = verdict(program, backend, list(inputs.values()), expected, RTOL, ATOL)
        assert problem is None, f"{name} at {dims} on {backend}: {problem}"


def other_sizes(dims: dict[str, int]) -> dict[str, int]:
    """Other values of the symbolic dimensions, for a second run of one import: batch 1,
    the others (sequence, cache length) one longer."""
    return {name: 1 if name == "batch" else size + 1 for name, size in dims.items()}


@pytest.mark.parametrize("name", architectures())
def test_architecture_signature_keeps_symbolic_dimensions(name: str) -> None:
    architecture = ARCHITECTURES[name]
    function = architecture_program(name).function("main")
    signature = " ".join(struct_info_text(param.type) for param in function.params)
    for dim in architecture.dims:
        assert dim in signature, f"{name}: no '{dim}' in {signature}"
    assert "batch" in struct_info_text(function.result_info())


def dummy_input(value: object) -> np.ndarray:
    """The input ONNX's backend test runs a light model on (``generate_dummy_data``)."""
    shape = [d.dim_value or 1 for d in value.type.tensor_type.shape.dim]
    size = int(np.prod(shape))
    return (np.arange(size).reshape(shape) / size).astype(np.float32)


@pytest.mark.parametrize("backend", ["reference", "mlir"])
@pytest.mark.parametrize("name", LIGHT_MODELS)
def test_light_model_reproduces_onnx_outputs(name: str, backend: str) -> None:
    path = LIGHT / f"light_{name}.onnx"
    if not path.exists():
        pytest.skip(f"no {path} in this onnx package")
    if backend == "mlir" and not FULL:
        pytest.skip("compiled only with RELAX_ONNX_FULL=1")
    skip_unavailable(backend)
    model = onnx.load(str(path))
    initializers = {tensor.name for tensor in model.graph.initializer}
    inputs = [dummy_input(v) for v in model.graph.input if v.name not in initializers]
    expected = [
        onnx.numpy_helper.to_array(onnx.load_tensor(str(LIGHT / f"light_{name}_output_{i}.pb")))
        for i in range(len(model.graph.output))
    ]
    try:
        program = imported(path, path.name)
    except Failed as failure:
        pytest.fail(f"{name}: {failure}")
    assert verdict(program, backend, inputs, expected, RTOL, ATOL) is None
