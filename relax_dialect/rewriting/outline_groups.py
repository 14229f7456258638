"""Outlining groups of bindings into private functions, shared by ``relax-fuse-ops``
and ``relax-fuse-by-pattern``.

A stable API: ``GroupFuser(module, op_name, lift_constants=True).fuse_block(dataflow,
groups, caller)`` replaces each ``Group`` of a dataflow block of the global
function ``caller`` by a ``relax.call`` of a new ``relax.function private``
(inserted before ``caller``) whose body is one dataflow block holding the
group's bindings, with attribute ``Primitive = true`` and the group's own
attributes. The function takes the values the group uses from outside, in
order of first use (a tuple the group only indexes is passed as the fields it
reads), then a ``tir_vars`` shape when its types use symbolic variables its
parameters do not bind; shapes and prim values are copied in, constants
passed unless ``lift_constants=False`` copies them. It returns the group's
values used outside it (a tuple of them when there are several, read back
with ``relax.tuple_get_item``). Its name is ``fused_`` and the ``op_name`` of
each binding (``None`` left out), made unique with a number
(``GroupFuser.unique_name``); a function structurally equal to one the same
fuser made before is called instead of made again.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field

from xdsl.dialects.builtin import BoolAttr, IntegerAttr, ModuleOp, SymbolRefAttr
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue, Use

from ..analysis.call_graph import functions
from ..analysis.symbolic_vars import attribute_free_vars
from ..analysis.symbols import symbol_table
from ..analysis.walk import walk_ops
from ..attributes import ShapeAttr
from ..ops.calls import CallOp
from ..ops.dataflow import DataflowOp, OutputOp
from ..ops.functions import FunctionOp, ReturnOp
from ..ops.values import ConstantOp, PrimValueOp, ShapeOp, TupleGetItemOp, TupleOp
from ..struct_info import definable_vars, used_vars
from ..types import ShapeType, StructInfoType, TupleType

PRIMITIVE = "Primitive"
"""The attribute of a fused function (TVM's ``attr::kPrimitive``)."""
COMPOSITE = "Composite"
"""The attribute naming the pattern a function of ``relax-fuse-by-pattern`` matches."""
CODEGEN = "Codegen"
"""The attribute of functions made for an external code generator."""
NUM_INPUT = "num_input"
TRUE = BoolAttr.from_bool(True)


def has_attribute(function: FunctionOp, name: str) -> bool:
    """Whether a function attribute is set (a boolean or integer one to non-zero)."""
    attr = function.attributes.get(name)
    if isinstance(attr, IntegerAttr):
        return attr.value.data != 0
    return attr is not None


def block_bindings(dataflow: DataflowOp) -> list[Operation]:
    """The bindings of a dataflow block, in order (its terminator left out)."""
    output = dataflow.output_op
    return [op for op in dataflow.body.block.ops if op is not output]


def fusible_functions(module: ModuleOp, skip: Sequence[str]) -> list[FunctionOp]:
    """The module's functions, but those carrying one of the ``skip`` attributes."""
    return [f for f in functions(module) if not any(has_attribute(f, a) for a in skip)]


def dataflow_blocks(function: FunctionOp) -> list[DataflowOp]:
    """The dataflow blocks of a function, nested ones included."""
    return [op for op in walk_ops(function.body) if isinstance(op, DataflowOp)]


@dataclass
class Group:
    """Bindings of one dataflow block that become one function, in block order, and
    the attributes of that function besides ``Primitive`` (``Composite``...).

    The groups of a block are disjoint and convex (no path from one binding of a
    group to another leaves the group); ``relax.tuple`` bindings only the group
    uses join it."""

    ops: list[Operation]
    attributes: dict[str, Attribute] = field(default_factory=dict[str, Attribute])


def _is_literal(op: Operation, lift_constants: bool) -> bool:
    """A binding copied into a fused function rather than passed to it (TVM keeps
    these inline): shapes and prim values (their symbolic variables are passed as
    ``tir_vars``), and constants unless lifted to parameters."""
    return isinstance(op, ShapeOp | PrimValueOp) or (
        isinstance(op, ConstantOp) and not lift_constants
    )


@dataclass
class _Plan:
    """A group's function before it is built: its parameters (a value, or a field of a
    tuple the group only indexes), the literals copied into it, the symbolic variables
    passed as ``tir_vars``, and a key equal for structurally equal functions."""

    params: list[tuple[SSAValue, int | None]]
    literals: list[Operation]
    symbols: list[str]
    key: tuple[object, ...]

    def param_types(self) -> list[StructInfoType]:
        types = [v.type if i is None else v.type.types[i] for v, i in self.params]  # pyright: ignore
        return [*types, *([ShapeType(self.symbols)] if self.symbols else [])]


class _Interner:
    """Small numbers for attributes, equal for equal attributes, and the symbolic
    variables of types by number: each attribute object is hashed once (attributes
    do not cache their hashes, and types are deep)."""

    def __init__(self) -> None:
        self.by_id: dict[int, tuple[int, Attribute]] = {}
        self.by_value: dict[Attribute, int] = {}
        self.values: list[Attribute] = []
        self.variables: dict[int, frozenset[str]] = {}

    def __call__(self, attr: Attribute) -> int:
        found = self.by_id.get(id(attr))
        if found is None:
            number = self.by_value.setdefault(attr, len(self.values))
            if number == len(self.values):
                self.values.append(attr)
            found = self.by_id[id(attr)] = (number, attr)
        return found[0]

    def symbols(self, number: int) -> frozenset[str]:
        """The symbolic variables a type (by its number) uses."""
        found = self.variables.get(number)
        if found is None:
            attr = self.values[number]
            found = frozenset(used_vars(attr)) if isinstance(attr, StructInfoType) else frozenset()
            self.variables[number] = found
        return found


class GroupFuser:
    """Outlines groups of bindings of ``module`` into private functions called in
    their place (TVM's ``OperatorFusor`` and ``FunctionCreator``); ``op_name``
    names a binding in the function's name. One outliner serves a whole pass:
    it keeps the names taken and the functions made, made once when equal."""

    def __init__(
        self,
        module: ModuleOp,
        op_name: Callable[[Operation], str | None],
        *,
        lift_constants: bool = True,
    ):
        self.module = module
        self.op_name = op_name
        self.lift_constants = lift_constants
        self.taken = set(symbol_table(module))
        self.counters: dict[str, int] = {}
        self.created: dict[tuple[object, ...], str] = {}
        self.symbols: dict[str, SymbolRefAttr] = {}
        self.intern = _Interner()

    def unique_name(self, base: str) -> str:
        """``base``, or ``base`` with the first free number appended."""
        name = base
        while name in self.taken:
            count = self.counters.get(base, 0) + 1
            self.counters[base] = count
            name = f"{base}{count}"
        self.taken.add(name)
        return name

    def fuse_block(self, dataflow: DataflowOp, groups: Sequence[Group], caller: FunctionOp) -> None:
        """Replace each group of ``dataflow`` (a block of the global function
        ``caller``) by a call of its function, inserted before ``caller``; the block's
        bindings are reordered so that each call follows what it uses. A group
        none of whose values is used stays as it is (dead code, for ``relax-dce``)."""
        if not groups:
            return
        ops = block_bindings(dataflow)
        position = {op: i for i, op in enumerate(ops)}
        member: dict[Operation, int] = {}
        for index, group in enumerate(groups):
            for op in group.ops:
                member[op] = index
        for index, group in enumerate(groups):
            _inline_tuples(group, index, member, position)
        outputs = _group_outputs(dataflow, ops, groups, member)
        order = _dependency_order(ops, member, position)
        block = dataflow.body.block
        for op in ops:
            block.detach_op(op)
        copied: set[Operation] = set()
        terminator = dataflow.output_op
        for unit in order:
            if isinstance(unit, Operation):
                block.insert_op_before(unit, terminator)
            elif outputs[unit]:
                plan = self._plan(groups[unit], outputs[unit])
                new_ops = self._fuse(groups[unit], outputs[unit], plan, caller)
                block.insert_ops_before(new_ops, terminator)
                copied.update(plan.literals)
            else:  # dead code, left to relax-dce
                block.insert_ops_before(groups[unit].ops, terminator)
        for op in copied:
            if not op.results[0].uses and op.parent is block:
                block.erase_op(op)

    def _plan(self, group: Group, outputs: list[SSAValue]) -> _Plan:
        members = set(group.ops)
        params: list[tuple[SSAValue, int | None]] = []
        literals: list[Operation] = []
        seen: set[SSAValue] = set()
        for op in group.ops:
            for operand in op.operands:
                owner = operand.owner
                if owner in members or operand in seen:
                    continue
                seen.add(operand)
                if isinstance(owner, Operation) and _is_literal(owner, self.lift_constants):
                    literals.append(owner)
                elif (fields := _indexed_fields(operand, members)) is not None:
                    params += [(operand, index) for index in fields]
                else:
                    params.append((operand, None))
        plan = _Plan(params, literals, [], ())
        intern = self.intern
        numbers: dict[object, int] = {}
        for param in params:
            numbers[param if param[1] is not None else param[0]] = len(numbers)
        items: list[object] = []
        symbols: set[str] = set()
        for op in (*literals, *group.ops):
            if isinstance(op, TupleGetItemOp) and (op.tuple_value, op.index.data) in numbers:
                numbers[op.result] = numbers[op.tuple_value, op.index.data]
                continue
            properties = tuple(sorted((k, intern(v)) for k, v in op.properties.items()))
            operands = tuple(numbers[o] for o in op.operands) if op in members else ()
            types = tuple(intern(r.type) for r in op.results)
            items.append((op.name, properties, operands, types))
            for result, number in zip(op.results, types, strict=True):
                numbers[result] = len(numbers)
                symbols |= intern.symbols(number)
            symbols |= attribute_free_vars(op)
        types = plan.param_types()
        for sinfo in types:
            symbols |= intern.symbols(intern(sinfo))
        plan.symbols = sorted(symbols - definable_vars(types))
        attributes = tuple(sorted((k, intern(v)) for k, v in group.attributes.items()))
        signature = tuple(intern(t) for t in plan.param_types())
        outs = tuple(numbers[v] for v in outputs)
        plan.key = (signature, tuple(items), outs, attributes)
        return plan

    def _fuse(
        self, group: Group, outputs: list[SSAValue], plan: _Plan, caller: FunctionOp
    ) -> list[Operation]:
        name = self.created.get(plan.key)
        function = None
        if name is None:
            base = "_".join(["fused", *filter(None, map(self.op_name, group.ops))])
            name = self.created[plan.key] = self.unique_name(base)
            function = self._function(name, group, outputs, plan)
            self.module.body.block.insert_op_before(function, caller)
        new_ops, args = _call_arguments(plan)
        callee = self.symbols.setdefault(name, SymbolRefAttr(name))
        properties: dict[str, Attribute] = {"callee": callee}
        call = CallOp.create(
            operands=args, properties=properties, result_types=[returned_type(outputs)]
        )
        new_ops.append(call)
        results = [call.result]
        if len(outputs) > 1:
            items = [TupleGetItemOp(call.result, i) for i in range(len(outputs))]
            new_ops += items
            results = [item.result for item in items]
        inside = function.body.block.first_op.body.block if function else None  # pyright: ignore

        def outside(use: Use) -> bool:
            return inside is None or use.operation.parent is not inside

        for old, new in zip(outputs, results, strict=True):
            new.name_hint = old.name_hint
            old.replace_uses_with_if(new, outside)
        for op in reversed(group.ops):
            if op.parent is None:  # not moved: a duplicate, or a tuple indexing made a field
                op.erase()
        return new_ops

    def _function(
        self, name: str, group: Group, outputs: list[SSAValue], plan: _Plan
    ) -> FunctionOp:
        body = Block(arg_types=plan.param_types())
        inner = Block()
        mapping: dict[SSAValue, SSAValue] = {}
        field_params: dict[tuple[SSAValue, int], SSAValue] = {}
        for (value, index), param in zip(plan.params, body.args, strict=False):
            if index is None:
                param.name_hint = value.name_hint
                mapping[value] = param
            else:
                param.name_hint = f"{value.name_hint or 'param'}_{index}"
                field_params[value, index] = param
        if plan.symbols:
            body.args[-1].name_hint = "tir_vars"
        for literal in plan.literals:
            copy = literal.clone()
            inner.add_op(copy)
            mapping[literal.results[0]] = copy.results[0]
        for op in group.ops:
            if isinstance(op, TupleGetItemOp) and (op.tuple_value, op.index.data) in field_params:
                mapping[op.result] = field_params[op.tuple_value, op.index.data]
                continue
            inner.add_op(op)
            for index, operand in enumerate(op.operands):
                if operand in mapping:
                    op.operands[index] = mapping[operand]
        inner.add_op(OutputOp([mapping.get(v, v) for v in outputs]))
        dataflow = DataflowOp(Region(inner))
        for result, value in zip(dataflow.results, outputs, strict=True):
            result.name_hint = value.name_hint
        body.add_op(dataflow)
        returned: SSAValue = dataflow.results[0]
        if len(outputs) > 1:
            tuple_op = TupleOp(dataflow.results)
            body.add_op(tuple_op)
            returned = tuple_op.result
        body.add_op(ReturnOp(returned))
        attributes: dict[str, Attribute] = {PRIMITIVE: TRUE, **group.attributes}
        return FunctionOp(
            name, Region(body), returned_type(outputs), public=False, attributes=attributes
        )


def _call_arguments(plan: _Plan) -> tuple[list[Operation], list[SSAValue]]:
    """The bindings a call site needs (tuple fields, ``tir_vars``) and the arguments."""
    new_ops: list[Operation] = []
    args: list[SSAValue] = []
    for value, index in plan.params:
        if index is None:
            args.append(value)
            continue
        get = TupleGetItemOp(value, index)
        get.result.name_hint = f"{value.name_hint or 'param'}_{index}"
        new_ops.append(get)
        args.append(get.result)
    if plan.symbols:
        shape = ShapeOp(ShapeAttr.from_dims(plan.symbols))
        shape.result.name_hint = "tir_vars"
        new_ops.append(shape)
        args.append(shape.result)
    return new_ops, args


def returned_type(outputs: Sequence[SSAValue]) -> StructInfoType:
    """The type of a group's result: its output's, or the tuple of its outputs'
    (the types proven for the bindings, which the call keeps)."""
    types: list[StructInfoType] = [v.type for v in outputs]  # pyright: ignore[reportAssignmentType]
    return types[0] if len(types) == 1 else TupleType(types)


def _inline_tuples(
    group: Group, index: int, member: dict[Operation, int], position: dict[Operation, int]
) -> None:
    """Pull into the group the ``relax.tuple`` bindings only it uses (TVM writes such
    a tuple inline in the call that uses it, so it is part of the call's group)."""
    work = list(group.ops)
    added = False
    while work:
        op = work.pop()
        for operand in op.operands:
            owner = operand.owner
            if (
                isinstance(owner, TupleOp)
                and owner in position
                and owner not in member
                and all(member.get(use.operation) == index for use in operand.uses)
            ):
                member[owner] = index
                group.ops.append(owner)
                work.append(owner)
                added = True
    if added:
        group.ops.sort(key=position.__getitem__)


def _group_outputs(
    dataflow: DataflowOp, ops: list[Operation], groups: list[Group], member: dict[Operation, int]
) -> list[list[SSAValue]]:
    """The values of each group used outside it: first the block's outputs, then the
    others in the order of their first use (as TVM orders them)."""
    exported = set(dataflow.output_op.values)
    outputs: list[list[SSAValue]] = [[] for _ in groups]
    seen: set[SSAValue] = set()
    for index, group in enumerate(groups):
        for op in group.ops:
            for result in op.results:
                if result in exported:
                    outputs[index].append(result)
                    seen.add(result)
    for op in ops:
        consumer = member.get(op)
        for operand in op.operands:
            producer = member.get(operand.owner)  # pyright: ignore[reportArgumentType]
            if producer is not None and producer != consumer and operand not in seen:
                outputs[producer].append(operand)
                seen.add(operand)
    return outputs


def _dependency_order(
    ops: list[Operation], member: dict[Operation, int], position: dict[Operation, int]
) -> list[Operation | int]:
    """Bindings and groups (by index) in an order where each follows what it uses,
    as close to the block's order as possible (TVM's ``TopoSortByGroupDep``)."""
    group_ops: dict[int, list[Operation]] = {}
    for op in ops:
        if op in member:
            group_ops.setdefault(member[op], []).append(op)

    def unit(op: Operation) -> Operation | int:
        return member.get(op, op)

    def dependencies(current: Operation | int) -> Iterator[Operation | int]:
        for op in group_ops[current] if isinstance(current, int) else (current,):
            for operand in op.operands:
                owner = operand.owner
                if owner in position and (dependency := unit(owner)) != current:  # pyright: ignore
                    yield dependency

    order: list[Operation | int] = []
    visited: set[Operation | int] = set()
    for op in ops:
        start = unit(op)
        if start in visited:
            continue
        visited.add(start)
        stack = [(start, dependencies(start))]
        while stack:
            current, pending = stack[-1]
            for dependency in pending:
                if dependency not in visited:
                    visited.add(dependency)
                    stack.append((dependency, dependencies(dependency)))
                    break
            else:
                stack.pop()
                order.append(current)
    return order


def _indexed_fields(value: SSAValue, members: set[Operation]) -> list[int] | None:
    """The indices a group reads from a tuple it only indexes (None if it uses the
    tuple otherwise): such a tuple is passed as the fields read."""
    if not isinstance(value.type, TupleType):
        return None
    fields: list[int] = []
    for use in value.uses:
        op = use.operation
        if op not in members:
            continue
        if not isinstance(op, TupleGetItemOp):
            return None
        if op.index.data not in fields:
            fields.append(op.index.data)
    return fields
