"""Reading an ONNX model: the protobuf, its external data, ``onnx.checker`` and
shape inference, with a clean located error for what cannot be read."""

from __future__ import annotations

import contextlib
import math
import os
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from ...diagnostics import Diagnostic, DiagnosticError, SourceLocation
from ..frontend import FrontendError

if TYPE_CHECKING:
    import onnx

OPSETS = range(7, 29)
"""The opsets of the default domain the importer reads (ONNX 1.23 defines up to 28)."""

INSTALL = "the ONNX frontend needs the 'onnx' package: pip install 'relax-xdsl[onnx]'"


def onnx_module() -> Any:
    """The ``onnx`` package (a ``FrontendError`` saying how to install it if absent)."""
    try:
        import onnx
    except ImportError:
        raise FrontendError(INSTALL) from None
    return onnx


def model_error(name: str, message: str) -> DiagnosticError:
    """An error about the model as a whole (``model.onnx: error: ...``)."""
    return DiagnosticError([Diagnostic(SourceLocation(name, 0, 0), message)])


def load_model(source: Any, name: str) -> tuple[onnx.ModelProto, dict[str, int]]:
    """The checked model of a ``ModelProto``, serialized bytes or a path, with its
    external data loaded (from the directory of ``name``, or of the path), and the
    element types ONNX's shape inference gives its values (non-strict: what it
    cannot infer is left out). The checker reads the serialized model, so that a
    model given as bytes is not serialized again (its weights are most of its
    bytes); shape inference reads it without the data of its large weights."""
    onnx = onnx_module()
    if isinstance(source, onnx.ModelProto):
        model, data, base = source, None, os.path.dirname(name)
    else:
        if isinstance(source, bytes):
            data, base = source, os.path.dirname(name)
        else:
            path = os.fspath(source)
            base = os.path.dirname(path)
            try:
                with open(path, "rb") as handle:
                    data = handle.read()
            except OSError as error:
                raise FrontendError(f"cannot read '{path}': {error}") from None
        model = _parse(onnx, data, name)
    check_opsets(model, name)
    if _load_external_data(onnx, model, base, name) or data is None:
        data = model.SerializeToString()
    try:
        onnx.checker.check_model(data)
    except (onnx.checker.ValidationError, ValueError) as error:
        raise model_error(name, f"invalid ONNX model: {_first_line(error)}") from None
    return model, _inferred_element_types(onnx, model)


INFERRED_WEIGHT_ELEMENTS = 1024
"""Weights of more elements go to shape inference without their data (their
shape is what it needs; the values it propagates are those of small tensors)."""


def _inferred_element_types(onnx: Any, model: onnx.ModelProto) -> dict[str, int]:
    """The element type of each value of the main graph and its subgraphs: given
    (inputs and initializers) or inferred by ONNX."""
    light = onnx.ModelProto(ir_version=model.ir_version)
    light.opset_import.extend(model.opset_import)
    light.functions.extend(model.functions)
    graph, light_graph = model.graph, light.graph
    for field in ("node", "input", "output", "value_info"):
        getattr(light_graph, field).extend(getattr(graph, field))
    for tensor in graph.initializer:
        if math.prod(tensor.dims) > INFERRED_WEIGHT_ELEMENTS:
            light_graph.initializer.add(
                name=tensor.name, dims=tensor.dims, data_type=tensor.data_type
            )
        else:
            light_graph.initializer.append(tensor)
    with contextlib.suppress(Exception):  # non-strict: inference that fails adds nothing
        light_graph = onnx.shape_inference.infer_shapes(light, data_prop=True).graph
    codes = {tensor.name: tensor.data_type for tensor in graph.initializer}
    codes.update(_element_codes(graph.input))
    codes.update(_subgraph_element_codes(light_graph))
    codes.update(_element_codes((*light_graph.value_info, *light_graph.output)))
    return codes


def _element_codes(infos: Iterable[onnx.ValueInfoProto]) -> dict[str, int]:
    return {
        info.name: info.type.tensor_type.elem_type
        for info in infos
        if info.type.WhichOneof("value") == "tensor_type"
    }


def _subgraph_element_codes(graph: onnx.GraphProto) -> dict[str, int]:
    """The element types given or inferred inside the subgraphs of ``graph``'s nodes
    (``If`` branches, ``Loop`` and ``Scan`` bodies), nested ones included."""
    codes: dict[str, int] = {}
    for node in graph.node:
        for attribute in node.attribute:
            single = [attribute.g] if attribute.HasField("g") else []
            for subgraph in (*single, *attribute.graphs):
                codes.update({t.name: t.data_type for t in subgraph.initializer})
                infos = (*subgraph.input, *subgraph.value_info, *subgraph.output)
                codes.update(_element_codes(infos))
                codes.update(_subgraph_element_codes(subgraph))
    return codes


def _parse(onnx: Any, data: bytes, name: str) -> onnx.ModelProto:
    from google.protobuf.message import DecodeError

    model = onnx.ModelProto()
    try:
        model.ParseFromString(data)
    except (DecodeError, RuntimeWarning, ValueError) as error:
        raise model_error(
            name, f"not an ONNX model (the protobuf cannot be read: {error})"
        ) from None
    if not model.HasField("graph") or not model.ir_version:
        raise model_error(name, "not an ONNX model (no graph or IR version)")
    return model


def _load_external_data(onnx: Any, model: onnx.ModelProto, base: str, name: str) -> bool:
    """Load the data of the initializers stored in files; whether there were any."""
    from onnx.external_data_helper import load_external_data_for_model, uses_external_data

    if not any(uses_external_data(t) for t in model.graph.initializer):
        return False
    try:
        load_external_data_for_model(model, base or ".")
    except (OSError, ValueError, onnx.checker.ValidationError) as error:
        raise model_error(name, f"cannot load external data: {_first_line(error)}") from None
    return True


def check_opsets(model: onnx.ModelProto, name: str) -> None:
    """The default domain's opset must be one the importer reads."""
    version = default_opset(model)
    if version not in OPSETS:
        raise model_error(
            name,
            f"opset {version} of the default ONNX domain is not supported "
            f"(supported: {OPSETS.start} to {OPSETS.stop - 1})",
        )


def default_opset(model: onnx.ModelProto) -> int:
    """The model's opset of the default domain (1 when it imports none)."""
    return next((o.version for o in model.opset_import if o.domain in ("", "ai.onnx")), 1)


def _first_line(error: BaseException) -> str:
    text = str(error).strip()
    return text.splitlines()[0] if text else type(error).__name__
