"""Reading an ONNX model: the protobuf, its external data, ``onnx.checker`` and
shape inference, with a clean located error for what cannot be read."""

from __future__ import annotations

import os
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


def load_model(source: Any, name: str) -> onnx.ModelProto:
    """The checked model of a ``ModelProto``, serialized bytes or a path, with its
    external data loaded (from the directory of ``name``, or of the path) and
    the shapes ONNX infers recorded (non-strict: what it cannot infer is left)."""
    onnx = onnx_module()
    if isinstance(source, onnx.ModelProto):
        model = source
        base = os.path.dirname(name)
    else:
        if not isinstance(source, bytes):
            path = os.fspath(source)
            base = os.path.dirname(path)
            try:
                with open(path, "rb") as handle:
                    source = handle.read()
            except OSError as error:
                raise FrontendError(f"cannot read '{path}': {error}") from None
        else:
            base = os.path.dirname(name)
        model = _parse(onnx, source, name)
    _load_external_data(onnx, model, base, name)
    check_opsets(model, name)
    try:
        onnx.checker.check_model(model)
    except (onnx.checker.ValidationError, ValueError) as error:
        raise model_error(name, f"invalid ONNX model: {_first_line(error)}") from None
    try:
        return onnx.shape_inference.infer_shapes(model, data_prop=True)
    except Exception:
        return model


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


def _load_external_data(onnx: Any, model: onnx.ModelProto, base: str, name: str) -> None:
    from onnx.external_data_helper import load_external_data_for_model, uses_external_data

    if not any(uses_external_data(t) for t in model.graph.initializer):
        return
    try:
        load_external_data_for_model(model, base or ".")
    except (OSError, ValueError, onnx.checker.ValidationError) as error:
        raise model_error(name, f"cannot load external data: {_first_line(error)}") from None


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
