"""Kernels: each computation of the lowered module outlined into a function of its own, for
native code.

A *kernel* is a linalg operation (not a lone ``linalg.fill``) of a function's body with the
``tensor.empty`` and ``linalg.fill`` that only initialise its outputs (behind a grouped
convolution's reshape too), the slices and pads it alone reads (views of its arguments inside
the kernel, instead of copies at the call; a pad is the schedule's vectorised copy), and the
constants it uses; or an *assembly*: the operations that write a ``tensor.empty`` region by
region (a pool's interior and borders, each computed and inserted), one kernel, in which each
region is then reduced into its slice of the whole (`_regions_into_whole`): bufferization writes
them into the one buffer.

A contraction (an operation with a reduction loop: matrix products, convolutions,
pooling, reductions) takes with it its *epilogue*: the chain of element-wise operations each
of which is the only use of the previous result, over the same iteration space (a bias, a
batch norm's scale and shift, an activation, a residual add: the groups ``relax-fuse-ops``
forms), with the reshapes on the way (a batched product's ``expand_shape``). The last
operation of a chain without reshapes carries `EPILOGUE`: the tiling schedule applies the
chain to each tile of the contraction while it is in cache (`schedules/epilogue.py`).
A kernel becomes a private ``func.func @relax_kernel_<digest>`` (``no_inline``) taking the
tensors and scalars it reads from outside. The same computation at the same types and
constants (every layer of a transformer) is one function: a 500-binding chain of MLP layers
has a handful of kernels.

Without it, each Relax function lowers to one LLVM function of thousands of loop nests, on
which ``opt-22 -O3`` takes time growing faster than the function (minutes for a transformer
of a few hundred bindings): outlined, the optimiser sees a few small kernels and a host
function that only allocates and calls. (Kernels stay in the module: ``one-shot-bufferize``
is quadratic or worse in calls to bodiless declarations, 135 s on a 500-call host.)
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith, func, tensor
from xdsl.dialects.builtin import (
    ArrayAttr,
    BoolAttr,
    DenseArrayBase,
    DictionaryAttr,
    ModuleOp,
    StringAttr,
    TensorType,
    UnitAttr,
    i32,
)
from xdsl.dialects.linalg.attrs import IteratorType
from xdsl.dialects.linalg.ops import (
    FillOp,
    GenericOp,
    LinalgStructuredOperation,
)
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.ir.affine import AffineConstantExpr, AffineDimExpr, AffineMap
from xdsl.passes import ModulePass

from relax_dialect.memo_printer import print_module

from .schedules.epilogue import EPILOGUE

KERNEL_PREFIX = "relax_kernel_"
NOT_WRITABLE = DictionaryAttr({"bufferization.writable": BoolAttr.from_bool(False)})
"""A kernel's definition: bufferization never writes into its arguments' buffers."""
NO_ATTRS = DictionaryAttr({})
RESHAPES = (tensor.ExpandShapeOp, tensor.CollapseShapeOp)


def _before_reshape(value: SSAValue) -> tuple[SSAValue, list[Operation]]:
    """If ``value`` is a reshape's result with one use (a grouped convolution's operand), the
    reshape's source and the reshape; else ``value`` and no reshape."""
    reshape = value.owner
    if isinstance(reshape, RESHAPES) and value.has_one_use():
        return reshape.operands[0], [reshape]
    return value, []


def _initialisers(op: Operation) -> list[Operation]:
    """The ``tensor.empty`` (and ``linalg.fill`` of it, and the reshape of that, a grouped
    convolution's) that only initialise ``op``'s outputs, in program order."""
    found: list[Operation] = []
    for result in op.outputs if isinstance(op, LinalgStructuredOperation) else ():
        output, reshapes = _before_reshape(result)
        init = output.owner
        if isinstance(init, FillOp) and init.results[0].has_one_use():
            empty = init.outputs[0].owner
            if isinstance(empty, tensor.EmptyOp) and empty.results[0].has_one_use():
                found.append(empty)
            found += [init, *reshapes]
        elif isinstance(init, tensor.EmptyOp) and init.results[0].has_one_use():
            found += [init, *reshapes]
    return found


def _views(op: Operation) -> list[Operation]:
    """The ``tensor.extract_slice`` and ``tensor.pad`` operations that only feed ``op``'s
    inputs (and so on up; with the reshape of a grouped convolution's padded input), in
    program order: inside the kernel a slice is a view of the argument's buffer, where passing
    it would copy it (a kernel's arguments have the identity layout), and a pad is the
    schedule's vectorised copy, made once before the tiles of a fused epilogue (in the host,
    `memrefCopy`)."""
    found: list[Operation] = []
    if isinstance(op, tensor.PadOp | tensor.ExtractSliceOp):
        read = [op.source]
    else:
        read = op.inputs if isinstance(op, LinalgStructuredOperation) else ()
    for value in read:
        source, reshapes = _before_reshape(value)
        view = source.owner
        if (
            isinstance(view, tensor.ExtractSliceOp | tensor.PadOp)
            and source.has_one_use()
            and view.parent_block() is op.parent_block()
        ):
            found += [*_views(view), view, *reshapes]
    return found


def _insertion(op: Operation) -> tensor.InsertSliceOp | None:
    """The ``tensor.insert_slice`` that is the only use of kernel ``op``'s only result."""
    if not (len(op.results) == 1 and op.results[0].has_one_use()):
        return None
    user = next(iter(op.results[0].uses)).operation
    return user if isinstance(user, tensor.InsertSliceOp) else None


def _assembly(op: Operation) -> list[Operation]:
    """The operations writing a ``tensor.empty`` region by region (each region's kernel
    with its views and initialisers, and its insertion), the first region's kernel being
    ``op``; or none."""
    insert = _insertion(op)
    if insert is None or not isinstance(insert.dest.owner, tensor.EmptyOp):
        return []
    cluster: list[Operation] = [insert.dest.owner]
    while insert is not None:
        cluster += [*_views(op), *_initialisers(op), op, insert]
        following = (
            next(iter(insert.result.uses)).operation if insert.result.has_one_use() else None
        )
        if not isinstance(following, tensor.InsertSliceOp) or following.dest != insert.result:
            break
        op, insert = following.source.owner, following
        if not (isinstance(op, Operation) and _is_kernel(op) and _insertion(op) is insert):
            return []
    return cluster


def _regions_into_whole(block: Block) -> None:
    """Each region of an assembly in ``block`` (a linalg operation writing a fresh tensor, or a
    fill of one, then inserted into the whole) reduced into the ``tensor.extract_slice`` of the
    whole it is inserted at instead (destination-passing): bufferization then writes it in the
    whole's buffer, which ``eliminate-empty-tensors`` did at the price of a second analysis.
    Native code only: IREE's dispatch regions refuse a slice of another tensor as an output."""
    order = {op: i for i, op in enumerate(block.ops)}
    for insert in [op for op in block.ops if isinstance(op, tensor.InsertSliceOp)]:
        region = insert.source.owner
        if not isinstance(region, LinalgStructuredOperation) or len(region.outputs) != 1:
            continue
        fresh = region.outputs[0].owner
        if isinstance(fresh, FillOp) and fresh.results[0].has_one_use():
            fresh = fresh.outputs[0].owner
        whole = insert.dest.owner
        if not (
            isinstance(fresh, tensor.EmptyOp)
            and fresh.results[0].has_one_use()
            and (not isinstance(whole, Operation) or order.get(whole, len(order)) < order[fresh])
        ):
            continue
        offsets, sizes, strides = insert.offsets, insert.sizes, insert.strides
        segments = [1, len(offsets), len(sizes), len(strides)]
        view = tensor.ExtractSliceOp.create(
            operands=[insert.dest, *offsets, *sizes, *strides],
            result_types=[fresh.results[0].type],
            properties={
                "static_offsets": insert.static_offsets,
                "static_sizes": insert.static_sizes,
                "static_strides": insert.static_strides,
                "operandSegmentSizes": DenseArrayBase.from_list(i32, segments),
            },
        )
        block.insert_op_before(view, fresh)
        fresh.results[0].replace_all_uses_with(view.results[0])
        fresh.detach()
        fresh.erase()


def _is_kernel(op: Operation) -> bool:
    """A linalg operation on tensors in a function's body (not in a loop or branch: a call
    there would break the equivalence of a loop's yielded and carried buffers)."""
    return (
        isinstance(op, LinalgStructuredOperation)
        and not isinstance(op, FillOp)
        and isinstance(op.parent_op(), func.FuncOp)
        and bool(op.results)
        and all(isinstance(result.type, TensorType) for result in op.results)
    )


def _is_contraction(op: Operation) -> bool:
    """A kernel with a reduction loop (it anchors an epilogue)."""
    return _is_kernel(op) and any(
        iterator.data == IteratorType.REDUCTION
        for iterator in op.get_iterator_types()  # pyright: ignore[reportAttributeAccessIssue]
    )


def _batch_loops(op: Operation) -> list[int]:
    """The batch loops of a ``linalg.generic`` contraction: the parallel loops every operand
    reads (none for other operations)."""
    if not isinstance(op, GenericOp):
        return []
    maps = [m.data for m in op.indexing_maps]
    read = [{e.position for e in m.results if isinstance(e, AffineDimExpr)} for m in maps]
    return [
        loop
        for loop, iterator in enumerate(op.iterator_types)
        if iterator.data == IteratorType.PARALLEL and all(loop in r for r in read)
    ]


def _batch_leads(op: Operation) -> bool:
    """Whether the batch loops of contraction ``op`` (if any) are the leading dimensions of its
    result: the schedule fuses its epilogue into tiles of one matrix of the batch
    (`schedules.epilogue`)."""
    batch = _batch_loops(op)
    if not batch:
        return True
    assert isinstance(op, GenericOp)
    leading = op.indexing_maps.data[-1].data.results[: len(batch)]
    return {e.position for e in leading if isinstance(e, AffineDimExpr)} == set(batch)


def _reads_elementwise(indexing: AffineMap, shape: tuple[int, ...]) -> bool:
    """Whether ``indexing`` reads an operand of ``shape`` at the iteration's own point: the
    identity, with a constant 0 along unit dimensions (a broadcast's ``(0, d1, ...)``)."""
    return len(indexing.results) == len(shape) == indexing.num_dims and all(
        (isinstance(e, AffineDimExpr) and e.position == i)
        or (isinstance(e, AffineConstantExpr) and e.value == 0 and shape[i] == 1)
        for i, e in enumerate(indexing.results)
    )


def _element_wise_consumer(value: SSAValue) -> GenericOp | None:
    """The only use of ``value``, if it is an element-wise ``linalg.generic`` in the same
    block reading ``value`` once at each point of an iteration space of its shape."""
    if not value.has_one_use():
        return None
    use = next(iter(value.uses))
    user = use.operation
    if not (isinstance(user, GenericOp) and _is_kernel(user) and len(user.outputs) == 1):
        return None
    if user.parent_block() is not value.owner.parent_block() or use.index >= len(user.inputs):
        return None
    shape = value.type.get_shape()  # pyright: ignore[reportAttributeAccessIssue]
    result = user.results[0].type
    maps = [m.data for m in user.indexing_maps]
    parallel = all(it.data == IteratorType.PARALLEL for it in user.iterator_types)
    if not parallel or result.get_shape() != shape:  # pyright: ignore[reportAttributeAccessIssue]
        return None
    if maps[-1] != AffineMap.identity(len(shape)):
        return None
    return user if _reads_elementwise(maps[use.index], shape) else None


def _reshape(value: SSAValue) -> Operation | None:
    """The only use of ``value``, if it is a reshape (``tensor.expand_shape`` or
    ``collapse_shape``, as a batched matmul's result is) in the same block."""
    if not value.has_one_use():
        return None
    user = next(iter(value.uses)).operation
    return (
        user if isinstance(user, RESHAPES) and user.parent_op() is value.owner.parent_op() else None
    )


def _epilogue(op: Operation) -> list[Operation]:
    """The element-wise chain consuming the contraction ``op``'s only result, in order,
    with the reshapes on the way to its first operation."""
    chain: list[Operation] = []
    if not _is_contraction(op) or len(op.results) != 1:
        return chain
    value = op.results[0]
    reshapes: list[Operation] = []
    while (reshape := _reshape(value)) is not None:
        reshapes.append(reshape)
        value = reshape.results[0]
    while (consumer := _element_wise_consumer(value)) is not None:
        chain += [*reshapes, consumer]
        reshapes = []
        value = consumer.results[0]
    return chain


def _external_values(cluster: list[Operation]) -> list[SSAValue]:
    """Values the cluster (nested regions included) uses but does not define, in first use
    order."""
    inside = set(cluster)
    seen: dict[SSAValue, None] = {}
    for root in cluster:
        for op in root.walk():
            for operand in op.operands:
                owner = operand.owner
                defining = owner if isinstance(owner, Operation) else owner.parent_op()
                while defining is not None and defining not in inside:
                    defining = defining.parent_op()
                if defining is None:
                    seen.setdefault(operand)
    return list(seen)


def _structure(cluster: list[Operation], external: list[SSAValue]) -> tuple[object, ...]:
    """What makes two clusters the same kernel: their operations (names, properties,
    attributes, types, operands numbered locally, regions) and the external values' types."""
    numbers: dict[SSAValue, int] = {value: i for i, value in enumerate(external)}
    key: list[object] = [
        v.owner.value if isinstance(v.owner, arith.ConstantOp) else v.type for v in external
    ]
    for root in cluster:
        for op in root.walk():
            for region in op.regions:
                for block in region.blocks:
                    for argument in block.args:
                        numbers[argument] = len(numbers)
            operands = tuple(numbers.get(v, v.type) for v in op.operands)
            key.append(
                (
                    op.name,
                    operands,
                    tuple(op.properties.items()),
                    tuple(op.attributes.items()),
                    tuple(r.type for r in op.results),
                )
            )
            for result in op.results:
                numbers[result] = len(numbers)
    return tuple(key)


def _kernel_function(cluster: list[Operation], results: list[SSAValue], arguments):
    """The function computing ``results`` of ``cluster`` from ``arguments`` (its other
    external values are constants, copied in), named by a digest of its text."""
    external = _external_values(cluster)
    constants = [v for v in external if v not in arguments]
    block = Block(arg_types=[v.type for v in arguments])
    mapping: dict[SSAValue, SSAValue] = dict(zip(arguments, block.args, strict=True))
    for value in constants:
        copy = value.owner.clone()
        block.add_op(copy)
        mapping[value] = copy.results[0]
    for op in cluster:
        block.add_op(op.clone(value_mapper=mapping))
    block.add_op(func.ReturnOp(*(mapping[r] for r in results)))
    _regions_into_whole(block)
    types = ([a.type for a in arguments], [r.type for r in results])
    attrs = ArrayAttr(
        [NOT_WRITABLE if isinstance(a.type, TensorType) else NO_ATTRS for a in arguments]
    )
    function = func.FuncOp("relax_kernel", types, Region(block), "private", arg_attrs=attrs)
    text = print_module(ModuleOp([function]), generic=True, digest_data=True)
    digest = hashlib.sha256(text.encode())
    function.detach()
    function.sym_name = StringAttr(KERNEL_PREFIX + digest.hexdigest()[:20])
    function.attributes["no_inline"] = UnitAttr()
    return function


def outline_kernels(host: ModuleOp) -> None:
    """Outline every kernel of the lowered module ``host`` (in place), each contraction with
    its epilogue, into a private function that LLVM does not inline back; identical kernels
    are one function. The epilogues are marked for the schedule to fuse into the
    contraction's tiles, on one thread as on several (`schedules.epilogue`), but a batched
    product's whose batch is not its result's leading dimensions."""
    kernels: dict[tuple[object, ...], func.FuncOp] = {}
    grouped: set[Operation] = set()
    for op in [op for op in host.walk() if _is_kernel(op)]:
        if op in grouped:
            continue
        assembly = _assembly(op)
        if assembly:
            block = op.parent_block()
            assert block is not None
            order = {o: i for i, o in enumerate(block.ops)}
            cluster = sorted(assembly, key=order.__getitem__)
            grouped.update(cluster)
        else:
            cluster = [*_views(op), *_initialisers(op), op]
        chain = [] if assembly else _epilogue(op)
        for consumer in chain:
            cluster += [*_initialisers(consumer), consumer]
            grouped.add(consumer)
        last = cluster[-1]
        if chain and _batch_leads(op) and not any(isinstance(c, RESHAPES) for c in chain):
            last.attributes[EPILOGUE] = UnitAttr()  # the schedule tiles it, fusing the rest
        external = _external_values(cluster)
        arguments = [v for v in external if not isinstance(v.owner, arith.ConstantOp)]
        structure = _structure(cluster, external)
        if structure not in kernels:
            kernels[structure] = _kernel_function(cluster, list(last.results), arguments)
        function = kernels[structure]
        call = func.CallOp(function.sym_name.data, arguments, [r.type for r in last.results])
        block = last.parent_block()
        assert block is not None
        block.insert_op_before(call, last)
        for old, new in zip(last.results, call.results, strict=True):
            old.replace_all_uses_with(new)
        for dead in reversed(cluster):
            dead.detach()
            dead.erase()
    host.body.block.add_ops(kernels.values())


@dataclass(frozen=True)
class OutlineKernelsPass(ModulePass):
    """Outline each linalg operation of a lowered module, a contraction with its
    element-wise epilogue, into a private function (what native code compiles apart)."""

    name = "outline-kernels"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        outline_kernels(op)
