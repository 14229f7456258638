"""ONNX models → the Relax dialect (``relax-opt model.onnx``, ``from_onnx``).

This module declares the frontend only: ``onnx`` (an optional dependency) and the
importer load when a model is read."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..frontend import Frontend, Option, Reader

if TYPE_CHECKING:
    import os
    from collections.abc import Mapping

    from xdsl.dialects.builtin import ModuleOp

    from ...diagnostics import DiagnosticError


def _is_onnx(head: bytes) -> bool:
    """Whether the input starts as a serialized ``ModelProto`` does: its first
    field is ``ir_version`` (field 1, a varint: byte ``0x08``), as every
    exporter writes it."""
    return head[:1] == b"\x08" and len(head) > 1 and head[1] < 0x80


def _reader() -> Reader:
    from .importer import read

    return read


FRONTEND = Frontend(
    "onnx",
    "ONNX",
    ("onnx",),
    _reader,
    sniff=_is_onnx,
    binary=True,
    options=(
        Option(
            "--params-as-inputs",
            "ONNX: make the initializers parameters of main (after the inputs) "
            "instead of constants",
        ),
        Option(
            "--bind-inputs",
            "ONNX: make the graph inputs this .npz names constants, of its arrays, for the "
            "operators that need them at import time (axes, pads, sizes...)",
            "VALUES.npz",
        ),
        Option(
            "--params-out",
            "ONNX: write the initializers to this .npz, keyed by parameter name",
            "FILE.npz",
        ),
    ),
)


def from_onnx(
    model: Any | bytes | str | os.PathLike[str],
    *,
    params_as_inputs: bool = False,
    bind_inputs: Mapping[str, Any] | None = None,
    source_name: str | None = None,
) -> ModuleOp:
    """The Relax module of an ONNX model (an ``onnx.ModelProto``, its serialized
    bytes, or a path): one public function ``main`` whose parameters are the
    graph's inputs and, with ``params_as_inputs``, its initializers after them.
    ``bind_inputs`` specialises the model on some inputs: each named graph input
    becomes a constant of the array given (its element type and shape checked;
    the ``dim_param``s its shape fixes are fixed in the other inputs too).
    Raises ``DiagnosticError`` naming every node it cannot convert; when values
    needed at import time are computed at run time, ``inputs_to_bind`` of it
    names the graph inputs they depend on."""
    from .importer import import_model

    return import_model(
        model,
        params_as_inputs=params_as_inputs,
        bind_inputs=bind_inputs,
        source_name=source_name,
    )


def inputs_to_bind(error: DiagnosticError) -> tuple[str, ...] | None:
    """The graph inputs to bind (``bind_inputs``) so that an import ``error``
    (of ``from_onnx``) goes away, when it is only about values computed at run
    time that the operators need at import time; else None."""
    from .importer import inputs_to_bind as deciding

    return deciding(error)
