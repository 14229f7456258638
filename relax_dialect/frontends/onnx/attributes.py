"""ONNX node attributes as Python values, checked against the type expected."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .dtypes import stored

if TYPE_CHECKING:
    import onnx

REQUIRED: Any = object()
"""The default of an attribute that must be given."""

_KINDS = {
    1: "float",
    2: "int",
    3: "string",
    4: "tensor",
    5: "graph",
    6: "floats",
    7: "ints",
    8: "strings",
    9: "tensors",
    10: "graphs",
    11: "sparse tensor",
    12: "sparse tensors",
    13: "type",
    14: "types",
}
"""``AttributeProto.AttributeType`` codes, for messages."""


def _kind_of_default(default: Any) -> int | None:
    """The attribute type a default stands for (None: any)."""
    if isinstance(default, bool) or default is REQUIRED or default is None:
        return None
    if isinstance(default, int):
        return 2
    if isinstance(default, float):
        return 1
    if isinstance(default, str):
        return 3
    return None


def expected_kind(schema: onnx.defs.OpSchema | None, name: str, default: Any) -> int | None:
    """The attribute type of ``name``: the schema's, else the default's."""
    if schema is not None and name in schema.attributes:
        return int(schema.attributes[name].type.value)
    return _kind_of_default(default)


def attribute_value(
    attr: onnx.AttributeProto, schema: onnx.defs.OpSchema | None, default: Any
) -> Any:
    """The Python value of an attribute (raises ``ValueError`` for a reference to
    a function's attribute or a type other than the one expected)."""
    from onnx import numpy_helper

    if attr.ref_attr_name:
        raise ValueError(f"attribute '{attr.name}' refers to a function attribute")
    expected = expected_kind(schema, attr.name, default)
    if expected is not None and attr.type != expected:
        found = _KINDS.get(attr.type, "undefined")
        raise ValueError(f"attribute '{attr.name}' must be of type {_KINDS[expected]}, got {found}")
    kind = attr.type
    if kind == 1:
        return float(attr.f)
    if kind == 2:
        return int(attr.i)
    if kind == 3:
        return attr.s.decode("utf-8", "replace")
    if kind == 4:
        return stored(numpy_helper.to_array(attr.t))
    if kind == 5:
        return attr.g
    if kind == 6:
        return [float(v) for v in attr.floats]
    if kind == 7:
        return [int(v) for v in attr.ints]
    if kind == 8:
        return [s.decode("utf-8", "replace") for s in attr.strings]
    if kind == 9:
        return [stored(numpy_helper.to_array(t)) for t in attr.tensors]
    if kind == 10:
        return list(attr.graphs)
    raise ValueError(
        f"attribute '{attr.name}' of type {_KINDS.get(kind, 'undefined')} is not supported"
    )
