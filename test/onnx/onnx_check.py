"""Build small ONNX models and check the importer's module against onnxruntime
(or given expected outputs) on the reference and lowered backends."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
import pytest

onnx = pytest.importorskip("onnx")
from onnx import TensorProto, helper  # noqa: E402

from relax_dialect.frontends.onnx import from_onnx  # noqa: E402
from relax_dialect.values import flatten, to_value  # noqa: E402
from relax_xdsl.lowering.backends import compile_function  # noqa: E402

RTOL, ATOL = 1e-5, 1e-6
BACKENDS = ("reference", "lowered")

Dims = Sequence[int | str | None] | None


def tensor_info(name: str, dtype: np.dtype | type, shape: Dims) -> onnx.ValueInfoProto:
    code = helper.np_dtype_to_tensor_dtype(np.dtype(dtype))
    return helper.make_tensor_value_info(name, code, shape)


def model(
    nodes: Sequence[onnx.NodeProto],
    inputs: Mapping[str, tuple[np.dtype | type, Dims]],
    outputs: Sequence[str] | Mapping[str, tuple[np.dtype | type, Dims]],
    initializers: Mapping[str, np.ndarray] | None = None,
    opset: int = 17,
) -> onnx.ModelProto:
    """A model of ``nodes``; inputs as ``name: (dtype, shape)``, outputs too, or
    as names only for ONNX to infer their types."""
    if isinstance(outputs, Mapping):
        declared = [tensor_info(n, d, s) for n, (d, s) in outputs.items()]
    else:
        declared = [helper.make_empty_tensor_value_info(n) for n in outputs]
    graph = helper.make_graph(
        list(nodes),
        "test",
        [tensor_info(n, d, s) for n, (d, s) in inputs.items()],
        declared,
        [onnx.numpy_helper.from_array(np.asarray(a), n) for n, a in (initializers or {}).items()],
    )
    made = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])
    if isinstance(outputs, Mapping):
        return made
    return onnx.shape_inference.infer_shapes(made, strict_mode=True)


def single(
    op_type: str,
    feeds: Mapping[str, np.ndarray],
    opset: int = 17,
    initializers: Mapping[str, np.ndarray] | None = None,
    inputs: Sequence[str] | None = None,
    outputs: int = 1,
    ranks: Sequence[int] | None = None,
    **attributes: object,
) -> onnx.ModelProto:
    """A model of one node whose inputs are ``inputs`` (default: the feeds, then
    the initializers, in order) and outputs ``y0``, ``y1``... of types ONNX
    infers, or float tensors of ``ranks`` when it cannot."""
    names = list(inputs) if inputs is not None else [*feeds, *(initializers or {})]
    out = [f"y{i}" for i in range(outputs)]
    node = helper.make_node(op_type, names, out, **attributes)
    declared = (
        out
        if ranks is None
        else {n: (np.float32, [None] * r) for n, r in zip(out, ranks, strict=True)}
    )
    return model(
        [node],
        {n: (a.dtype, a.shape) for n, a in feeds.items()},
        declared,
        initializers,
        opset,
    )


def expected(m: onnx.ModelProto, feeds: Mapping[str, np.ndarray]) -> list[np.ndarray]:
    ort = pytest.importorskip("onnxruntime")
    session = ort.InferenceSession(m.SerializeToString(), providers=["CPUExecutionProvider"])
    return session.run(None, dict(feeds))


def run(m: onnx.ModelProto, feeds: Mapping[str, np.ndarray], backend: str = "reference") -> list:
    module = from_onnx(m)
    function = compile_function(module, "main", backend)
    params = next(op for op in module.body.block.ops).body.block.args  # pyright: ignore
    args = [to_value(feeds[name], p.type) for name, p in zip(feeds, params, strict=True)]
    return [np.asarray(v) for v in flatten(function(*args))]


def check(
    m: onnx.ModelProto,
    feeds: Mapping[str, np.ndarray],
    want: Sequence[np.ndarray] | None = None,
    backends: Sequence[str] = BACKENDS,
) -> None:
    """The model's outputs on each backend equal ``want`` (default: onnxruntime's)."""
    want = expected(m, feeds) if want is None else want
    for backend in backends:
        got = run(m, feeds, backend)
        assert len(got) == len(want), backend
        for g, w in zip(got, want, strict=True):
            w = np.asarray(w)
            assert g.shape == w.shape and g.dtype == w.dtype, (
                backend,
                g.shape,
                w.shape,
                g.dtype,
                w.dtype,
            )
            if w.dtype.kind == "f":
                np.testing.assert_allclose(g, w, rtol=RTOL, atol=ATOL, err_msg=backend)
            else:
                np.testing.assert_array_equal(g, w, err_msg=backend)


__all__ = ["TensorProto", "check", "expected", "helper", "model", "onnx", "run", "single"]
