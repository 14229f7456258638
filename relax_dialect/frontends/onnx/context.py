"""``NodeContext``: what a converter sees of the node it converts and of the graph.

A converter reads the node's inputs (Relax values, or their values when known at
import time), its attributes as Python values, emits Relax operators through the
project's ``Builder`` and returns the node's outputs. It reports a node it cannot
convert with ``unsupported`` (a valid node this importer does not handle) or
``error`` (a malformed node); the importer lists every such node at once.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import TYPE_CHECKING, Any, NoReturn

import numpy as np
from xdsl.ir import SSAValue
from xdsl.irdl import BaseAttr

from ...attributes import DataTypeAttr
from ...builder import Builder, call
from ...dtype import DataType
from ...ops import operator_class
from ...prim_expr import PrimExpr
from ...types import TensorType
from .attributes import REQUIRED, attribute_value

if TYPE_CHECKING:
    import onnx

    from .importer import GraphImporter


class NodeError(Exception):
    """A node that cannot be converted: ``unsupported`` when the node is valid
    ONNX that the importer does not handle, else malformed."""

    def __init__(self, reason: str, unsupported: bool = False, deciding: tuple[str, ...] = ()):
        super().__init__(reason)
        self.reason = reason
        self.unsupported = unsupported
        self.deciding = deciding
        """For a value needed at import time but computed at run time: the graph
        inputs it depends on (binding them makes it known)."""


class NodeContext:
    """A node being converted, with the graph state it may read and extend."""

    def __init__(self, graph: GraphImporter, node: onnx.NodeProto, name: str, opset: int):
        self.graph = graph
        self.node = node
        self.name = name
        """The node's name, or one made from its op type and position."""
        self.opset = opset
        """The model's opset of the node's domain."""

    # --- the node --------------------------------------------------------------------

    @property
    def op_type(self) -> str:
        return self.node.op_type

    @property
    def num_inputs(self) -> int:
        return len(self.node.input)

    @property
    def num_outputs(self) -> int:
        return len(self.node.output)

    def has_input(self, i: int) -> bool:
        """Whether input ``i`` is given (present, with a non-empty name)."""
        return i < len(self.node.input) and self.node.input[i] != ""

    def input(self, i: int) -> SSAValue:
        """Input ``i`` as a Relax value (a node error when it is absent)."""
        if not self.has_input(i):
            self.error(f"input {i} is required")
        return self.graph.value(self.node.input[i])

    def optional_input(self, i: int) -> SSAValue | None:
        """Input ``i``, or None when it is absent or has an empty name."""
        return self.input(i) if self.has_input(i) else None

    def inputs(self) -> list[SSAValue | None]:
        """Every input, None for the empty ones."""
        return [self.optional_input(i) for i in range(self.num_inputs)]

    def attr(self, name: str, default: Any = REQUIRED) -> Any:
        """Attribute ``name`` as a Python value: int, float, str, list of those,
        ``np.ndarray`` (a tensor) or ``onnx.GraphProto`` (a subgraph); ``default``
        when absent (a node error when it has none, or when the attribute's type is
        not the one the operator's schema, else the default, declares)."""
        found = next((a for a in self.node.attribute if a.name == name), None)
        if found is None:
            if default is REQUIRED:
                self.error(f"attribute '{name}' is required")
            return default
        try:
            return attribute_value(found, self.graph.schema(self.node), default)
        except ValueError as problem:
            self.error(str(problem))

    def has_attr(self, name: str) -> bool:
        return any(a.name == name for a in self.node.attribute)

    def run_time_input(self, index: int, since: int) -> SSAValue | None:
        """Input ``index`` when the opset has it (from ``since``), it is given and
        its value is known only at run time; else None."""
        if self.opset < since or not self.has_input(index) or self.constant(index) is not None:
            return None
        return self.input(index)

    def ints(self, name: str, index: int, since: int) -> list[int] | None:
        """Integers given as attribute ``name`` before opset ``since`` and as input
        ``index`` from then on (``axes`` of ``Squeeze``...); None when not given.
        An input must be known at import time."""
        if self.opset < since:
            return self.attr(name, None)
        if not self.has_input(index):
            return None
        known = self.constant(index)
        if known is None:
            self.computed_at_run_time(index, f"input {index} ({name})")
        if known.dtype.kind not in "iu":
            self.error(f"input {index} ({name}) must hold integers")
        return [int(v) for v in known.reshape(-1)]

    # --- values known at import time -------------------------------------------------

    def constant(self, i: int) -> np.ndarray | None:
        """Input ``i``'s value when known at import time (an initializer, a
        ``Constant``, a folded computation); None otherwise or when absent."""
        if not self.has_input(i):
            return None
        return self.graph.constant(self.node.input[i])

    def shape_value(self, i: int) -> list[int | PrimExpr] | None:
        """The entries of the integer input ``i`` (1-D, or a 0-d scalar as one
        entry) when known, symbolically or not (from shape folding)."""
        if not self.has_input(i):
            return None
        known = self.graph.known(self.node.input[i])
        if known is None or known.ndim > 1 or known.dtype.kind not in "iuO":
            return None
        return [entry if isinstance(entry, PrimExpr) else int(entry) for entry in known.flat]

    def scalar_value(self, i: int) -> int | float | PrimExpr | None:
        """The value of input ``i`` when it is a single element known at import
        time (a number, or a symbolic integer)."""
        if not self.has_input(i):
            return None
        known = self.graph.known(self.node.input[i])
        if known is None or known.size != 1:
            return None
        entry = known.reshape(()).item() if known.dtype != object else known.flat[0]
        return entry

    # --- types -----------------------------------------------------------------------

    def element_code(self, i: int) -> int | None:
        """Input ``i``'s ONNX element type (``TensorProto.DataType``), when ONNX gives
        it: what tells ``INT4`` from the ``int8`` holding it."""
        return self.graph.model.element_code(self.node.input[i]) if self.has_input(i) else None

    def tensor_type(self, value: SSAValue) -> TensorType:
        """The StructInfo of a value that must be a tensor."""
        if not isinstance(value.type, TensorType):
            self.error(f"expected a tensor, got {value.type}")
        return value.type

    def shape(self, value: SSAValue) -> list[int | PrimExpr] | None:
        """The dimensions of a tensor (ints where constant); None when unknown."""
        dims = self.tensor_type(value).dims
        if dims is None:
            return None
        return [_plain(dim) for dim in dims]

    def rank(self, value: SSAValue) -> int | None:
        """The rank of a tensor; None when unknown."""
        rank = self.tensor_type(value).rank
        return None if rank < 0 else rank

    def dtype(self, value: SSAValue) -> str:
        """A tensor's data type in the project's spelling (``float32``, ``int64``)."""
        return self.tensor_type(value).data_type.tvm_name()

    # --- building --------------------------------------------------------------------

    @property
    def builder(self) -> Builder:
        return self.graph.builder

    def emit(self, op: str, *args: Any, name: str | None = None, **attrs: Any) -> SSAValue:
        """Bind the operator ``op`` (``relax.add``) on ``args``: values, nested
        calls, numbers, shapes, NumPy arrays (as ``Builder.emit`` takes them);
        list attributes become tuples, data type names data types."""
        values = {k: _attribute(op, k, v) for k, v in attrs.items()}
        return self.builder.emit(call(op, *args, **values), name)

    def const(self, array: np.ndarray | int | float | bool, dtype: str | None = None) -> SSAValue:
        """A constant tensor (``dtype`` converts it first)."""
        data = np.asarray(array) if dtype is None else np.asarray(array, dtype=dtype)
        return self.graph.constant_value(data)

    def fresh_dim(self, prefix: str) -> str:
        """A symbolic variable name used nowhere else in the module."""
        return self.graph.fresh_dim(prefix)

    def match_cast(
        self, value: SSAValue, shape: Sequence[int | str | PrimExpr], dtype: str
    ) -> SSAValue:
        """``value`` bound with the tensor type ``shape``/``dtype``, checked at run
        time (for data-dependent results: ``shape`` may name fresh variables)."""
        return self.builder.match_cast(value, TensorType(list(shape), dtype))

    def import_subgraph(
        self, graph: onnx.GraphProto, inputs: Sequence[SSAValue], name: str
    ) -> list[SSAValue]:
        """Convert a subgraph's nodes here, as bindings of the current block, its
        inputs bound to ``inputs`` and the enclosing graphs' names visible; returns
        its outputs. Build a function of it by opening one on ``builder`` first
        (``builder.closure``) and passing its parameters as ``inputs``."""
        return self.graph.subgraph(graph, inputs, f"{self.name}/{name}")

    # --- errors ----------------------------------------------------------------------

    def unsupported(self, reason: str) -> NoReturn:
        """Give up on a valid node this importer does not handle (listed with the
        other unsupported nodes)."""
        raise NodeError(reason, unsupported=True)

    def error(self, reason: str) -> NoReturn:
        """Give up on a malformed node."""
        raise NodeError(reason)

    def computed_at_run_time(self, index: int, what: str) -> NoReturn:
        """Give up on a node that needs input ``index`` (``what``) at import time,
        naming the graph inputs its value depends on: binding them (``bind_inputs``,
        ``--bind-inputs``) makes it known."""
        deciding = self.graph.deciding_inputs(self.node.input[index])
        reason = f"{what} computed at run time is not supported: it must be known at import time"
        if deciding:
            names = ", ".join(f"'{name}'" for name in deciding)
            plural = len(deciding) > 1
            reason += (
                f" (it depends on graph input{'s' if plural else ''} {names}; "
                f"bind {'them' if plural else 'it'} with --bind-inputs)"
            )
        raise NodeError(reason, unsupported=True, deciding=deciding)


def _attribute(op: str, key: str, value: Any) -> Any:
    """An attribute value as the operator takes it."""
    if isinstance(value, list):
        return tuple(value)
    if isinstance(value, str) and _takes_data_type(op, key):
        return DataType.parse(value) or value
    return value


@cache
def _takes_data_type(op: str, key: str) -> bool:
    """Whether attribute ``key`` of operator ``op`` holds a data type."""
    cls = operator_class(op)
    prop = None if cls is None else cls.get_irdl_definition().properties.get(key)
    constraint = None if prop is None else prop.constr
    return isinstance(constraint, BaseAttr) and constraint.attr is DataTypeAttr


def _plain(dim: PrimExpr) -> int | PrimExpr:
    """A dimension as an int when it is a constant."""
    value = getattr(dim, "value", None)
    return value if isinstance(value, int) and not isinstance(value, bool) else dim
