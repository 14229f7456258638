"""Cheap construction of the operations and attributes the lowering emits.

A lowered module has tens of thousands of operations, and building one through
its xDSL constructor costs about twice ``Operation.create``: IRDL's generic
argument processing, and attributes (types, affine maps, constants) built and
verified anew although they repeat throughout the module. So:

* ``build(cls, *args)`` is ``cls(*args)``: the first time for given operand
  types and other arguments it calls the constructor and records the result
  types, properties and attributes it chose; later it creates the operation
  from that record (``cls.create``);
* operations with regions or segment sizes are built as their constructors
  would build them: ``generic_op``, ``fill_op``, ``contraction_op`` (the named
  ``linalg`` ops' constructors build their body through xDSL's ``Builder``,
  which costs ten simple operations), ``pad_op``, ``insert_slice_op``;
* attributes that repeat are memoised (``integer_attr``, ``float_attr``,
  ``tensor_of``, ``array_of``, ``segments``, ``i64_array``). They are
  immutable, so the memos are valid across modules.

``test/lowering/test_building.py`` checks each against its constructor.
"""

from __future__ import annotations

import struct
from collections.abc import Hashable, Sequence
from functools import lru_cache
from typing import TypeVar

from xdsl.dialects import tensor
from xdsl.dialects.arith import AddfOp, AddiOp, MulfOp, MuliOp
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    UNKNOWN_LOC,
    AffineMapAttr,
    AnyFloat,
    ArrayAttr,
    DenseArrayBase,
    FloatAttr,
    IndexType,
    IntegerAttr,
    TensorType,
    UnitAttr,
    i32,
    i64,
)
from xdsl.dialects.linalg.attrs import IteratorTypeAttr
from xdsl.dialects.linalg.ops import FillOp, GenericOp, LinalgStructuredOperation, YieldOp
from xdsl.dialects.tensor import InsertSliceOp, PadOp
from xdsl.ir import Attribute, Block, BlockArgument, Operation, OpResult, Region, SSAValue
from xdsl.ir.affine import AffineMap

OpT = TypeVar("OpT", bound=Operation)

_Record = tuple[tuple[Attribute, ...], dict[str, Attribute], dict[str, Attribute]] | None
_RECORDS: dict[Hashable, _Record] = {}
"""What constructors chose, by class and arguments (operands by their types, as
tokens); None when the operation is not built from records (it has regions, or its
operands are not the values among the arguments)."""
_TOKENS: dict[Hashable, int] = {}
"""A number per distinct argument (type or parameter), up to equality."""
_BY_ID: dict[int, int] = {}
"""The token of the first object met of each, by identity (the keys of ``_TOKENS``
keep those objects, so their ids stay theirs): types and parameters mostly repeat
as the same objects, and hashing an attribute walks all its parameters."""
_MAX_RECORDS = 1 << 14


def build(cls: type[OpT], *args: object) -> OpT:
    """``cls(*args)``, where the operation's operands are the values among ``args``
    (an argument is a value, a sequence of values, or a hashable parameter compared
    by equality) and the constructor depends on nothing but the values' types and
    the parameters."""
    if len(_RECORDS) >= _MAX_RECORDS or len(_TOKENS) >= _MAX_RECORDS:
        _RECORDS.clear()  # records use tokens: forgotten together
        _TOKENS.clear()
        _BY_ID.clear()
    operands: list[SSAValue] = []
    key: list[object] = [cls]
    for arg in args:
        if type(arg) in _VALUE_CLASSES:
            operands.append(arg)  # pyright: ignore[reportArgumentType]
            arg = arg.type  # pyright: ignore[reportAttributeAccessIssue]
        elif isinstance(arg, (list, tuple)):
            if all(type(v) in _VALUE_CLASSES for v in arg):
                operands.extend(arg)
                key.append(tuple(_token(v.type) for v in arg))
            elif any(type(v) in _VALUE_CLASSES for v in arg):
                return cls(*args)  # values among other items: not recorded
            else:
                key.append(tuple(_token(p) for p in arg))
            continue
        token = _BY_ID.get(id(arg))
        key.append(token if token is not None else _token(arg))
    frozen = tuple(key)
    record = _RECORDS.get(frozen, False)
    if record is False:
        op = cls(*args)
        _RECORDS[frozen] = _record(op, operands)
        return op
    if record is None:
        return cls(*args)
    result_types, properties, attributes = record
    return cls.create(
        operands=operands,
        result_types=result_types,
        properties=properties,
        attributes=attributes,
        location=UNKNOWN_LOC,  # what ``create`` would import for each operation
    )


def _token(arg: object) -> int:
    """The token of ``arg``: found by identity, else by equality."""
    token = _BY_ID.get(id(arg))
    if token is None:
        token = _TOKENS.get(arg)  # pyright: ignore[reportArgumentType]
        if token is None:
            token = _TOKENS[arg] = len(_TOKENS)  # pyright: ignore[reportArgumentType]
            _BY_ID[id(arg)] = token
    return token


_VALUE_CLASSES = frozenset((OpResult, BlockArgument))
"""The classes of the values ``build`` takes as operands (by exact class: ``isinstance``
on the abstract ``SSAValue`` is slow). A value of another class is taken as a
parameter: such an operation is built by its constructor each time."""


def _record(op: Operation, operands: Sequence[SSAValue]) -> _Record:
    same = len(op.operands) == len(operands) and all(
        a is b for a, b in zip(op.operands, operands, strict=True)
    )
    if not same or op.regions or op.successors:
        return None
    return tuple(op.result_types), dict(op.properties), dict(op.attributes)


def generic_op(
    inputs: Sequence[SSAValue],
    inits: Sequence[SSAValue],
    body: Block,
    indexing_maps: ArrayAttr[AffineMapAttr],
    iterator_types: ArrayAttr[Attribute],
) -> GenericOp:
    """``linalg.generic`` over ``inputs`` into ``inits`` (results of their types)."""
    return GenericOp.create(
        operands=[*inputs, *inits],
        result_types=[v.type for v in inits],
        properties={
            "indexing_maps": indexing_maps,
            "iterator_types": iterator_types,
            "operandSegmentSizes": segments(len(inputs), len(inits)),
        },
        regions=[Region(body)],
        location=UNKNOWN_LOC,
    )


def marked_convolution(
    convolution: LinalgStructuredOperation,
    inputs: Sequence[SSAValue],
    init: SSAValue,
    maps: Sequence[AffineMap],
    parallel: int,
    mark: str,
) -> GenericOp:
    """The multiply-add body of the named ``convolution`` (taken from it) as a
    ``linalg.generic`` over ``inputs`` into ``init`` through ``maps``, its first ``parallel``
    loops parallel and the others reductions, marked ``mark`` for the tiling schedule."""
    loops = maps[0].num_dims
    iterators = [IteratorTypeAttr.parallel()] * parallel
    iterators += [IteratorTypeAttr.reduction()] * (loops - parallel)
    generic = generic_op(
        inputs,
        [init],
        convolution.body.detach_block(0),
        ArrayAttr([AffineMapAttr(m) for m in maps]),
        ArrayAttr(iterators),
    )
    generic.attributes[mark] = UnitAttr()
    return generic


def fill_op(value: SSAValue, into: SSAValue) -> FillOp:
    """``linalg.fill`` of tensor ``into`` with scalar ``value``."""
    body = Block(arg_types=[value.type, into.type.get_element_type()])  # pyright: ignore
    body.add_op(build(YieldOp, body.args[0]))
    return FillOp.create(
        operands=[value, into],
        result_types=[into.type],
        properties={"operandSegmentSizes": segments(1, 1)},
        regions=[Region(body)],
        location=UNKNOWN_LOC,
    )


def contraction_op(
    cls: type[OpT],
    inputs: Sequence[SSAValue],
    outputs: Sequence[SSAValue],
    properties: dict[str, Attribute],
) -> OpT:
    """A named linalg contraction (``linalg.matmul``, the convolutions) with its
    multiply-accumulate body, as ``cls(inputs, outputs, result types, **properties)``
    builds it through xDSL's ``Builder`` (``properties`` in the order the constructor
    sets them). Operands of different element types are left to the constructor."""
    types = [v.type.get_element_type() for v in (*inputs, *outputs)]  # pyright: ignore
    result_types = [v.type for v in outputs]
    if any(t != types[-1] for t in types):
        return cls(inputs, outputs, result_types, **properties)
    mul, add = (MulfOp, AddfOp) if isinstance(types[-1], AnyFloat) else (MuliOp, AddiOp)
    body = Block(arg_types=types)
    product = build(mul, body.args[0], body.args[1])
    total = build(add, product.results[0], body.args[-1])
    body.add_ops([product, total, build(YieldOp, total.results[0])])
    return cls.create(
        operands=[*inputs, *outputs],
        result_types=result_types,
        properties={**properties, "operandSegmentSizes": segments(len(inputs), len(outputs))},
        regions=[Region(body)],
        location=UNKNOWN_LOC,
    )


def pad_op(
    source: SSAValue,
    low: Sequence[int | SSAValue],
    high: Sequence[int | SSAValue],
    padding: SSAValue,
    result_type: Attribute,
) -> PadOp:
    """``tensor.pad`` of ``source`` by ``low``/``high`` (static or ``index`` values)
    with the scalar ``padding``."""
    body = Block(arg_types=[IndexType()] * len(low))
    body.add_op(build(tensor.YieldOp, padding))
    dynamic_low = [b for b in low if not isinstance(b, int)]
    dynamic_high = [a for a in high if not isinstance(a, int)]
    return PadOp.create(
        operands=[source, *dynamic_low, *dynamic_high],
        result_types=[result_type],
        properties={
            "static_low": static_part(low),
            "static_high": static_part(high),
            "operandSegmentSizes": segments(1, len(dynamic_low), len(dynamic_high)),
        },
        regions=[Region(body)],
        location=UNKNOWN_LOC,
    )


def insert_slice_op(
    source: SSAValue,
    dest: SSAValue,
    offsets: Sequence[int | SSAValue],
    sizes: Sequence[int | SSAValue],
    strides: Sequence[int],
) -> InsertSliceOp:
    """``tensor.insert_slice`` of ``source`` into ``dest`` (offsets and sizes static or
    ``index`` values, strides static)."""
    dynamic_offsets, dynamic_sizes, properties = slice_parts(offsets, sizes, strides)
    properties["operandSegmentSizes"] = segments(1, 1, len(dynamic_offsets), len(dynamic_sizes), 0)
    return InsertSliceOp.create(
        operands=[source, dest, *dynamic_offsets, *dynamic_sizes],
        result_types=[dest.type],
        properties=properties,
        location=UNKNOWN_LOC,
    )


def slice_parts(
    offsets: Sequence[int | SSAValue], sizes: Sequence[int | SSAValue], strides: Sequence[int]
) -> tuple[list[SSAValue], list[SSAValue], dict[str, Attribute]]:
    """A slice's dynamic offsets, dynamic sizes and static properties (offsets and sizes
    static or ``index`` values, strides static), as slice operations take them."""
    dynamic_offsets = [o for o in offsets if not isinstance(o, int)]
    dynamic_sizes = [s for s in sizes if not isinstance(s, int)]
    properties: dict[str, Attribute] = {
        "static_offsets": static_part(offsets),
        "static_sizes": static_part(sizes),
        "static_strides": i64_array(*strides),
    }
    return dynamic_offsets, dynamic_sizes, properties


def static_part(amounts: Sequence[int | SSAValue]) -> DenseArrayBase:
    """The static part of a mixed list (``DYNAMIC_INDEX`` where a value is given)."""
    return i64_array(*(a if isinstance(a, int) else DYNAMIC_INDEX for a in amounts))


# -- attributes ------------------------------------------------------------------------


@lru_cache(maxsize=4096)
def integer_attr(value: int, type: Attribute) -> IntegerAttr:
    return IntegerAttr(value, type)  # pyright: ignore[reportArgumentType]


def float_attr(value: float, type: Attribute) -> FloatAttr:
    """``FloatAttr(value, type)``, memoised by the value's bits (``-0.0`` is not
    ``0.0``)."""
    return _float_attr(struct.pack("<d", value), type)


@lru_cache(maxsize=4096)
def _float_attr(bits: bytes, type: Attribute) -> FloatAttr:
    return FloatAttr(struct.unpack("<d", bits)[0], type)  # pyright: ignore[reportArgumentType]


@lru_cache(maxsize=4096)
def tensor_of(element: Attribute, shape: tuple[int, ...]) -> TensorType[Attribute]:
    return TensorType(element, shape)


@lru_cache(maxsize=4096)
def array_of(items: tuple[Attribute, ...]) -> ArrayAttr[Attribute]:
    return ArrayAttr(items)


@lru_cache(maxsize=256)
def segments(*sizes: int) -> DenseArrayBase:
    """An ``operandSegmentSizes`` property."""
    return DenseArrayBase.from_list(i32, sizes)


@lru_cache(maxsize=1024)
def i64_array(*values: int) -> DenseArrayBase:
    """An ``array<i64: ...>`` property (static sizes, offsets, paddings)."""
    return DenseArrayBase.from_list(i64, values)
