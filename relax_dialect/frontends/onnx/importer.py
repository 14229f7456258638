"""The ONNX importer: a model's graph as the Relax function ``main``.

Nodes are converted in graph order (ONNX requires it) by the converter
registered for their op type and opset (``converters.registry``), each seeing
the node through a ``NodeContext``. Values known at import time (initializers,
``Constant`` nodes, shape computations folded by ``shape_values``) are kept as
arrays beside the Relax values, so that converters read shapes and axes from
them and result types keep their symbolic dimensions. Every node that cannot be
converted is collected; the import then fails with one error naming them all.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np
from xdsl.dialects.builtin import ModuleOp, StringAttr
from xdsl.ir import SSAValue
from xdsl.utils.exceptions import VerifyException

from ...attributes import DenseAttr, NDArray
from ...builder import Builder, Shape, call
from ...diagnostics import Diagnostic, DiagnosticError, SourceLocation, element_location
from ...dtype import INT64, DataType
from ...npz import read_npz
from ...ops.dataflow import DataflowOp
from ...ops.values import ConstantOp
from ...prim_expr import PrimExpr, Var, as_expr
from ...rewriting.dataflow_blocks import is_empty, remove_empty_dataflow
from ...types import StructInfoType, TensorType
from ..frontend import FrontendError
from . import shape_values
from .context import NodeContext, NodeError
from .dtypes import UnsupportedType, data_type, stored
from .reader import default_opset, load_model, onnx_module

if TYPE_CHECKING:
    import onnx
    from xdsl.context import Context


def read(
    ctx: Context, source: bytes, name: str, options: Mapping[str, object], line_offset: int = 0
) -> ModuleOp:
    """The frontend's reader (see ``frontends.Reader``). ``bind_inputs`` is the
    path of an ``.npz`` (``--bind-inputs``) or the arrays themselves, by input name."""
    params_as_inputs = bool(options.get("params_as_inputs"))
    params_out = options.get("params_out")
    bound = _bound_arrays(options.get("bind_inputs"))
    module, params = ModelImporter(*load_model(source, name), name, params_as_inputs, bound).run()
    if params_out is not None:
        try:
            np.savez(str(params_out), **params)
        except OSError as error:
            raise FrontendError(f"cannot write '{params_out}': {error}") from None
    return module


def _bound_arrays(option: object) -> dict[str, np.ndarray]:
    """The arrays of the ``bind_inputs`` option: none, a mapping, or an ``.npz``'s."""
    if option is None:
        return {}
    if isinstance(option, Mapping):
        return {str(name): np.asarray(array) for name, array in option.items()}
    try:
        return read_npz(str(option))
    except (OSError, ValueError) as error:
        raise FrontendError(f"cannot read the inputs to bind '{option}': {error}") from None


def import_model(
    model: Any,
    *,
    params_as_inputs: bool = False,
    bind_inputs: Mapping[str, Any] | None = None,
    source_name: str | None = None,
) -> ModuleOp:
    """``from_onnx``: the module of a ``ModelProto``, its bytes or a path."""
    onnx = onnx_module()
    name = source_name
    if name is None:
        name = "model.onnx" if isinstance(model, onnx.ModelProto | bytes) else str(model)
    bound = _bound_arrays(bind_inputs)
    return ModelImporter(*load_model(model, name), name, params_as_inputs, bound).run()[0]


@dataclass(frozen=True)
class RunTimeValueRefusal(Diagnostic):
    """A node refused because it needs at import time a value computed at run
    time from the graph inputs ``deciding`` (binding them makes it known)."""

    deciding: tuple[str, ...] = ()


def inputs_to_bind(error: DiagnosticError) -> tuple[str, ...] | None:
    """The graph inputs to bind for an import refused only because values it
    needs are computed at run time from them, in the graph's order of first
    mention; None when some refusal has another reason."""
    found: dict[str, None] = {}
    for diagnostic in error.diagnostics:
        if not isinstance(diagnostic, RunTimeValueRefusal) or not diagnostic.deciding:
            return None
        found.update(dict.fromkeys(diagnostic.deciding))
    return tuple(found)


_INVALID = re.compile(r"[^A-Za-z0-9_$.-]")


def sanitized(name: str) -> str:
    """An ONNX name as an SSA name (``onnx::Add_3`` → ``onnx__Add_3``)."""
    text = _INVALID.sub("_", name) or "_"
    return f"_{text}" if text[0].isdigit() else text


def identifier(name: str) -> str:
    """An ONNX name as a symbolic variable's name (a Python identifier)."""
    text = re.sub(r"\W", "_", name) or "_"
    return f"_{text}" if text[0].isdigit() else text


class ModelImporter:
    """One model's import: the state its graph and subgraphs share."""

    def __init__(
        self,
        model: onnx.ModelProto,
        element_types: dict[str, int],
        file: str,
        params_as_inputs: bool,
        bound: Mapping[str, np.ndarray] | None = None,
    ):
        self.model = model
        self.file = file
        self.file_attr = StringAttr(file)
        self.params_as_inputs = params_as_inputs
        self.bound = dict(bound or {})
        """Graph inputs made constants, with their values (``bind_inputs``)."""
        self.bound_dims: dict[str, int] = {}
        """The ``dim_param``s a bound input's value fixes, by variable name."""
        self.inputs: tuple[str, ...] = ()
        """The graph inputs that are parameters of ``main``."""
        self.builder = Builder()
        self.opsets = {
            o.domain if o.domain != "ai.onnx" else "": o.version for o in model.opset_import
        }
        self.opsets[""] = default_opset(model)
        self.failures: list[Diagnostic] = []
        self.dims: set[str] = set()
        """Every symbolic variable name given so far."""
        self._schemas: dict[tuple[str, str, int], Any] = {}
        self._element_types = element_types
        """What ONNX's shape inference gives (see ``reader.load_model``)."""

    def run(self) -> tuple[ModuleOp, dict[str, np.ndarray]]:
        """The module, and the initializers by parameter name (for ``--params-out``)."""
        graph = self.model.graph
        top = GraphImporter(self, None)
        initializers = {t.name: t for t in graph.initializer}
        inputs = [i for i in graph.input if i.name not in initializers]
        self.bind(inputs, initializers)
        inputs = [i for i in inputs if i.name not in self.bound]
        self.inputs = tuple(i.name for i in inputs)
        self.dims.update(  # first, so that no fresh variable takes a name given later
            identifier(dim.dim_param)
            for info in inputs
            for dim in info.type.tensor_type.shape.dim
            if dim.dim_param not in ("", "?")
        )
        params: dict[str, StructInfoType] = {}
        names: list[str] = []
        for info in inputs:
            names.append(info.name)
            params[self._unique(sanitized(info.name), params)] = self.input_type(info)
        arrays = {name: top.tensor_array(tensor) for name, tensor in initializers.items()}
        weights: dict[str, np.ndarray] = {}
        if self.params_as_inputs:
            for name, array in arrays.items():
                key = self._unique(sanitized(name), params)
                params[key] = TensorType(array.shape, data_type_of(array, self.file))
                weights[key] = array
                names.append(name)
        if not graph.output:
            raise self.model_error("the graph has no outputs: a model computes at least one")
        dataflow = not any(_has_control_flow(node) for node in graph.node)
        with self.builder.function("main", params) as frame:
            for name, value in zip(names, frame.params, strict=True):
                top.bind(name, value)
            for name, array in [*arrays.items(), *self.bound.items()]:
                top.known_arrays[name] = array
            if dataflow:
                with self.builder.dataflow() as results:
                    outputs = top.convert(graph)
                    for value in outputs:
                        self.builder.emit_output(value)
                outputs = _without_empty_dataflow(results)
            else:
                outputs = top.convert(graph)
            self.builder.emit_func_output(outputs[0] if len(outputs) == 1 else outputs)
        if self.failures:
            raise DiagnosticError(self.failures)
        if not self.params_as_inputs:
            weights = {sanitized(name): array for name, array in arrays.items()}
        return self.builder.module, weights

    def bind(self, inputs: Sequence[onnx.ValueInfoProto], initializers: Mapping[str, Any]) -> None:
        """Check the bound values against the inputs they bind (their names, element
        types and shapes) and note the ``dim_param``s they fix."""
        declared = {info.name: info for info in inputs}
        for name, array in self.bound.items():
            if name not in declared:
                known = ", ".join(f"'{i.name}'" for i in inputs) or "none"
                what = (
                    "an initializer, a constant already"
                    if name in initializers
                    else f"not an input of the graph (its inputs: {known})"
                )
                raise self.input_error(name, f"cannot bind '{name}': it is {what}")
            tensor = declared[name].type.tensor_type
            wanted = self.element_type_of(declared[name])
            try:
                got = DataType.from_numpy(array.dtype)
            except ValueError as error:
                raise self.input_error(name, f"the value bound: {error}") from None
            if got != wanted:
                raise self.input_error(
                    name, f"the value bound is {got.tvm_name()}, the input is {wanted.tvm_name()}"
                )
            if tensor.HasField("shape"):
                self._bind_shape(name, tensor.shape.dim, array.shape)

    def _bind_shape(self, name: str, dims: Sequence[Any], shape: tuple[int, ...]) -> None:
        """Check a bound value's shape against its input's declared dimensions."""
        declared = [d.dim_value if d.HasField("dim_value") else d.dim_param or "?" for d in dims]
        problem = f"the value bound has shape {list(shape)}, the input is declared {declared}"
        if len(dims) != len(shape):
            raise self.input_error(name, problem)
        for dim, size in zip(dims, shape, strict=True):
            if dim.HasField("dim_value") and dim.dim_value >= 0 and dim.dim_value != size:
                raise self.input_error(name, problem)
            if dim.HasField("dim_param") and dim.dim_param not in ("", "?"):
                variable = identifier(dim.dim_param)
                if self.bound_dims.setdefault(variable, size) != size:
                    raise self.input_error(
                        name,
                        f"{problem}: '{dim.dim_param}' is {self.bound_dims[variable]} "
                        "in another bound input",
                    )

    def input_error(self, name: str, message: str) -> DiagnosticError:
        """An error about graph input ``name`` (``model.onnx: input 'x': error: ...``)."""
        location = SourceLocation(self.file, 0, 0, f"input '{name}'")
        return DiagnosticError([Diagnostic(location, message)])

    def input_type(self, info: onnx.ValueInfoProto) -> StructInfoType:
        """The tensor type of a graph input: each ``dim_param`` a symbolic variable
        of that name (or the size a bound input's value gives it), each unnamed
        dimension a fresh one."""
        dtype = self.element_type_of(info)
        tensor = info.type.tensor_type
        if not tensor.HasField("shape"):
            return TensorType(None, dtype)
        dims: list[int | PrimExpr] = []
        for axis, dim in enumerate(tensor.shape.dim):
            if dim.HasField("dim_value") and dim.dim_value >= 0:
                dims.append(dim.dim_value)
            elif dim.HasField("dim_param") and dim.dim_param not in ("", "?"):
                variable = identifier(dim.dim_param)
                dims.append(self.bound_dims.get(variable, Var(variable)))
            else:
                dims.append(Var(self.fresh_dim(f"{identifier(info.name)}_{axis}")))
        return TensorType(dims, dtype)

    def element_type_of(self, info: onnx.ValueInfoProto) -> DataType:
        """The element type of a graph input (a model error unless it is a tensor
        of an element type Relax has)."""
        kind = info.type.WhichOneof("value")
        if kind != "tensor_type":
            raise self.model_error(
                f"input '{info.name}' is a {kind or 'value of no type'}; only tensors are supported"
            )
        try:
            return data_type(info.type.tensor_type.elem_type)
        except UnsupportedType as error:
            raise self.model_error(f"input '{info.name}': {error}") from None

    def element_code(self, name: str) -> int | None:
        """The ``TensorProto.DataType`` code ONNX gives a value of the main graph, if any."""
        return self._element_types.get(name)

    def element_type(self, name: str) -> DataType | None:
        """The element type ONNX infers for a value of the main graph, if any."""
        code = self._element_types.get(name)
        try:
            return None if code is None else data_type(code)
        except UnsupportedType:
            return None

    def fresh_dim(self, prefix: str) -> str:
        """``prefix``, or ``prefix_N``: a symbolic variable name not given yet."""
        name = prefix
        counter = 0
        while name in self.dims:
            counter += 1
            name = f"{prefix}_{counter}"
        self.dims.add(name)
        return name

    def schema(self, node: onnx.NodeProto) -> Any:
        """ONNX's schema of a node's operator at the model's opset (None: unknown)."""
        domain = node.domain if node.domain != "ai.onnx" else ""
        key = (node.op_type, domain, self.opsets.get(domain, 1))
        if key not in self._schemas:
            defs = onnx_module().defs
            try:
                self._schemas[key] = defs.get_schema(node.op_type, key[2], domain)
            except defs.SchemaError:
                self._schemas[key] = None
        return self._schemas[key]

    def model_error(self, message: str) -> DiagnosticError:
        return DiagnosticError([Diagnostic(SourceLocation(self.file, 0, 0), message)])

    @staticmethod
    def _unique(name: str, taken: Mapping[str, object]) -> str:
        candidate, counter = name, 0
        while candidate in taken:
            counter += 1
            candidate = f"{name}_{counter}"
        return candidate


def _first_line(error: Exception) -> str:
    text = str(error).strip()
    return text.splitlines()[0] if text else type(error).__name__


def _empty(struct_info: object) -> np.ndarray | None:
    """The value of a tensor type of a static shape without elements, if it is one."""
    if not isinstance(struct_info, TensorType) or struct_info.dims is None:
        return None
    shape = [getattr(dim, "value", None) for dim in struct_info.dims]
    if 0 not in shape or not all(isinstance(size, int) for size in shape):
        return None
    try:
        return np.zeros(shape, struct_info.data_type.to_numpy())
    except ValueError:  # an element type NumPy has not
        return None


def _subgraph_reads(node: onnx.NodeProto) -> list[str]:
    """The names the nodes of a node's subgraphs (nested ones included) read."""
    from onnx import AttributeProto

    graphs = [a.g for a in node.attribute if a.type == AttributeProto.GRAPH]
    graphs += [g for a in node.attribute if a.type == AttributeProto.GRAPHS for g in a.graphs]
    return [
        name
        for graph in graphs
        for inner in graph.node
        for name in [*inner.input, *_subgraph_reads(inner)]
        if name
    ]


def _has_control_flow(node: onnx.NodeProto) -> bool:
    """Whether the node has a subgraph, or a converter that emits control flow:
    the function then has no dataflow block."""
    from onnx import AttributeProto

    from .converters.registry import emits_control_flow

    subgraphs = (AttributeProto.GRAPH, AttributeProto.GRAPHS)
    return any(a.type in subgraphs for a in node.attribute) or emits_control_flow(
        node.op_type, node.domain
    )


def data_type_of(array: np.ndarray, file: str) -> DataType:
    """The data type of an array's elements (a model error when Relax has none)."""
    try:
        return DataType.from_numpy(array.dtype)
    except ValueError as error:
        raise DiagnosticError([Diagnostic(SourceLocation(file, 0, 0), str(error))]) from None


class GraphImporter:
    """One graph's names: its values, those known at import time, and the
    enclosing graph's (a subgraph sees them)."""

    def __init__(self, model: ModelImporter, parent: GraphImporter | None):
        self.model = model
        self.parent = parent
        self.values: dict[str, SSAValue] = {}
        self.known_arrays: dict[str, np.ndarray] = {}
        """Values known at import time: numeric arrays, or object arrays of ints
        and ``PrimExpr``s (symbolic shape values)."""
        self.failed: set[str] = set()
        """Outputs of nodes that could not be converted."""
        self.bound: set[SSAValue] = set()
        self.producers: dict[str, onnx.NodeProto] = {}
        """The nodes of the graph being converted, by output name."""

    @property
    def builder(self) -> Builder:
        return self.model.builder

    def schema(self, node: onnx.NodeProto) -> Any:
        return self.model.schema(node)

    def fresh_dim(self, prefix: str) -> str:
        return self.model.fresh_dim(identifier(prefix))

    # --- names -----------------------------------------------------------------------

    def bind(self, name: str, value: SSAValue) -> None:
        self.values[name] = value
        self.bound.add(value)

    def _find(self, name: str) -> GraphImporter | None:
        scope: GraphImporter | None = self
        while scope is not None:
            if name in scope.values or name in scope.known_arrays or name in scope.failed:
                return scope
            scope = scope.parent
        return None

    def value(self, name: str) -> SSAValue:
        """The Relax value of a name; a value known at import time is bound at its
        first use (a constant, or a tensor of its symbolic entries)."""
        scope = self._find(name)
        if scope is None:
            raise NodeError(f"'{name}' is not defined before its use")
        if name in scope.values:
            return scope.values[name]
        known = scope.known_arrays[name]
        if known.dtype == object:
            value = self.symbolic_value(known, name)
        else:
            value = self.constant_value(known, name)
        scope.bind(name, value)
        return value

    def symbolic_value(self, known: np.ndarray, name: str) -> SSAValue:
        """The tensor of symbolic integers ``known``: ``relax.shape_to_tensor`` of
        its entries as a shape, in the name's shape and element type."""
        dims = tuple(as_expr(entry) for entry in known.reshape(-1))
        tensor = self.builder.emit(call("relax.shape_to_tensor", Shape(dims)))
        if known.ndim != 1:
            tensor = self.builder.emit(call("relax.reshape", tensor, Shape(known.shape)))
        dtype = self.model.element_type(name)
        if dtype is not None and dtype != INT64:
            tensor = self.builder.emit(call("relax.astype", tensor, dtype=dtype))
        tensor.name_hint = sanitized(name)
        return tensor

    def deciding_inputs(self, name: str) -> tuple[str, ...]:
        """The parameters of ``main`` (graph inputs, in the graph's order) that the
        value of ``name`` depends on: its producers traced back through this graph
        and the enclosing ones (a node with subgraphs depends on the outer names
        they read too)."""
        found: set[str] = set()
        seen: set[str] = set()
        pending = [name]
        while pending:
            current = pending.pop()
            if current in seen:
                continue
            seen.add(current)
            node = self._producer(current)
            if node is not None:
                pending += [*node.input, *_subgraph_reads(node)]
            elif current in self.model.inputs:
                found.add(current)
        return tuple(i for i in self.model.inputs if i in found)

    def _producer(self, name: str) -> onnx.NodeProto | None:
        """The node computing ``name``, in this graph or an enclosing one."""
        scope: GraphImporter | None = self
        while scope is not None:
            if name in scope.producers:
                return scope.producers[name]
            if name in scope.values or name in scope.known_arrays:
                return None  # a subgraph's input or a constant of its own
            scope = scope.parent
        return None

    def known(self, name: str) -> np.ndarray | None:
        """A name's value when known at import time (maybe symbolic): a value
        computed then, or a tensor of a static shape with no elements (its one
        possible value, such as the ``axes`` input declared ``[0]``)."""
        scope = self._find(name)
        if scope is None:
            return None
        if name in scope.known_arrays:
            return scope.known_arrays[name]
        value = scope.values.get(name)
        return None if value is None else _empty(value.type)

    def constant(self, name: str) -> np.ndarray | None:
        """A name's value when known as numbers at import time."""
        known = self.known(name)
        return None if known is None or known.dtype == object else known

    def constant_value(self, array: np.ndarray, name: str | None = None) -> SSAValue:
        """A constant binding of a NumPy array."""
        if array.dtype == object:
            raise NodeError("a symbolic value cannot be a constant")
        data_type_of(array, self.model.file)
        data = NDArray.adopt(array if array.flags.c_contiguous else array.copy())
        constant = DenseAttr(data)
        return self.builder.add_binding(
            lambda t: ConstantOp(constant, t), sanitized(name) if name else None
        )

    def tensor_array(self, tensor: onnx.TensorProto) -> np.ndarray:
        """An initializer's data."""
        from onnx import numpy_helper

        try:
            data_type(tensor.data_type)
            return stored(numpy_helper.to_array(tensor))
        except (UnsupportedType, ValueError, TypeError) as error:
            raise self.model.model_error(f"initializer '{tensor.name}': {error}") from None

    # --- conversion ------------------------------------------------------------------

    def convert(self, graph: onnx.GraphProto) -> list[SSAValue]:
        """Convert the graph's nodes; its outputs (every failure recorded first)."""
        from .converters.registry import lookup

        self.producers = {output: node for node in graph.node for output in node.output if output}
        for index, node in enumerate(graph.node):
            domain = node.domain if node.domain != "ai.onnx" else ""
            opset = self.model.opsets.get(domain, 1)
            name = node.name or f"{node.op_type}_{index}"
            where = f"node '{name}' ({node.op_type}, opset {opset})"
            converter = lookup(node.op_type, domain, opset)
            if converter is None:
                self._fail(node, where, self._missing(node.op_type, domain, opset))
                continue
            if any(self._has_failed(i) for i in node.input if i):
                self.failed.update(node.output)
                continue
            enclosing = self.builder.location  # a subgraph's node is inside another's
            self.builder.location = element_location(self.model.file_attr, where)
            try:
                ctx = NodeContext(self, node, name, opset)
                folded = shape_values.fold(ctx)
                if folded is not None:  # bound when first used (see ``value``)
                    self.known_arrays[node.output[0]] = folded
                    continue
                outputs = self._outputs(ctx, converter(ctx))
            except NodeError as error:
                self._fail(node, where, error.reason, error.deciding)
                continue
            except (VerifyException, ValueError, TypeError, ArithmeticError, IndexError) as error:
                self._fail(node, where, _first_line(error))
                continue
            finally:
                self.builder.location = enclosing
            for output, value in zip(node.output, outputs, strict=False):
                if output and value is not None:
                    if value not in self.bound and value.name_hint is None:
                        value.name_hint = sanitized(output)
                    self.bind(output, value)
        missing = [o.name for o in graph.output if self._find(o.name) is None]
        if missing and not self.model.failures:
            raise self.model.model_error(f"graph output '{missing[0]}' is not computed by any node")
        if self.model.failures:
            return []
        return [self.value(o.name) for o in graph.output]

    def subgraph(
        self, graph: onnx.GraphProto, inputs: Sequence[SSAValue], name: str
    ) -> list[SSAValue]:
        """Convert a subgraph in the current block (see ``NodeContext.import_subgraph``)."""
        if len(inputs) != len(graph.input):
            raise NodeError(f"subgraph '{name}' takes {len(graph.input)} inputs, got {len(inputs)}")
        scope = GraphImporter(self.model, self)
        for info, value in zip(graph.input, inputs, strict=True):
            scope.bind(info.name, value)
        for tensor in graph.initializer:
            scope.known_arrays[tensor.name] = scope.tensor_array(tensor)
        failures = len(self.model.failures)
        outputs = scope.convert(graph)
        if len(self.model.failures) > failures:
            raise NodeError(f"subgraph '{name}' cannot be converted")
        return outputs

    def _has_failed(self, name: str) -> bool:
        """Whether ``name`` is an output of a node that could not be converted."""
        scope = self._find(name)
        return scope is not None and name in scope.failed

    def _outputs(self, ctx: NodeContext, result: Any) -> Sequence[SSAValue | None]:
        if isinstance(result, SSAValue):
            return [result]
        outputs = list(result)
        if len(outputs) < sum(1 for o in ctx.node.output if o):
            raise NodeError(f"the converter gave {len(outputs)} outputs for {ctx.num_outputs}")
        return outputs

    def _missing(self, op_type: str, domain: str, opset: int) -> str:
        from .converters.registry import earliest, refusal

        reason = refusal(op_type, domain)
        if reason is not None:
            return reason
        first = earliest(op_type, domain)
        where = f"domain '{domain}'" if domain else "ONNX"
        if first is not None:
            return f"{op_type} before opset {first} is not supported"
        return f"operator {op_type} of {where} is not supported"

    def _fail(
        self, node: onnx.NodeProto, where: str, reason: str, deciding: tuple[str, ...] = ()
    ) -> None:
        self.failed.update(node.output)
        location = SourceLocation(self.model.file, 0, 0, where)
        self.model.failures.append(
            RunTimeValueRefusal(location, reason, deciding)
            if deciding
            else Diagnostic(location, reason)
        )


def _without_empty_dataflow(results: Sequence[SSAValue]) -> list[SSAValue]:
    """The graph's outputs: the dataflow block's results, or, when no node bound anything
    (outputs that are inputs, as of an ``Identity`` or a one-input ``Max``), the values it
    exports, the empty block removed (normal form rule 4)."""
    if not results:  # nodes failed to convert: their diagnostics follow
        return []
    dataflow = results[0].owner
    assert isinstance(dataflow, DataflowOp)
    if not is_empty(dataflow):
        return list(results)
    exported = list(dataflow.output_op.values)
    remove_empty_dataflow(dataflow)
    return exported
