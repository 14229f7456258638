"""Kernels: each computation of the lowered module outlined into a function of its own, for
native code.

A *kernel* is a linalg operation (not a lone ``linalg.fill``) of a function's body with the
``tensor.empty`` and ``linalg.fill`` that only initialise its outputs, and the constants it
uses. It becomes a private ``func.func @relax_kernel_<digest>`` (``no_inline``) taking the
tensors and scalars it reads from outside. The same computation at the same types and
constants (every layer of a transformer) is one function: a 500-binding chain of MLP layers
has six kernels.

Without it, each Relax function lowers to one LLVM function of thousands of loop nests, on
which ``opt-22 -O3`` takes time growing faster than the function (minutes for a transformer
of a few hundred bindings): outlined, the optimiser sees a few small kernels and a host
function that only allocates and calls. (Kernels stay in the module: ``one-shot-bufferize``
is quadratic or worse in calls to bodiless declarations, 135 s on a 500-call host.)
"""

from __future__ import annotations

import hashlib

from xdsl.dialects import arith, func, tensor
from xdsl.dialects.builtin import (
    ArrayAttr,
    BoolAttr,
    DictionaryAttr,
    ModuleOp,
    StringAttr,
    TensorType,
    UnitAttr,
)
from xdsl.dialects.linalg.ops import FillOp, LinalgStructuredOperation
from xdsl.ir import Block, Operation, Region, SSAValue

from relax_dialect.memo_printer import print_module

KERNEL_PREFIX = "relax_kernel_"
NOT_WRITABLE = DictionaryAttr({"bufferization.writable": BoolAttr.from_bool(False)})
"""A kernel's definition: bufferization never writes into its arguments' buffers."""
NO_ATTRS = DictionaryAttr({})


def _initialisers(op: Operation) -> list[Operation]:
    """The ``tensor.empty`` (and ``linalg.fill`` of it) that only initialise ``op``'s
    outputs, in program order."""
    found: list[Operation] = []
    for output in op.outputs if isinstance(op, LinalgStructuredOperation) else ():
        init = output.owner
        if isinstance(init, FillOp) and init.results[0].has_one_use():
            empty = init.outputs[0].owner
            if isinstance(empty, tensor.EmptyOp) and empty.results[0].has_one_use():
                found.append(empty)
            found.append(init)
        elif isinstance(init, tensor.EmptyOp) and init.results[0].has_one_use():
            found.append(init)
    return found


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
    types = ([a.type for a in arguments], [r.type for r in results])
    attrs = ArrayAttr(
        [NOT_WRITABLE if isinstance(a.type, TensorType) else NO_ATTRS for a in arguments]
    )
    function = func.FuncOp("relax_kernel", types, Region(block), "private", arg_attrs=attrs)
    digest = hashlib.sha256(print_module(ModuleOp([function]), generic=True).encode())
    function.detach()
    function.sym_name = StringAttr(KERNEL_PREFIX + digest.hexdigest()[:20])
    function.attributes["no_inline"] = UnitAttr()
    return function


def outline_kernels(host: ModuleOp) -> None:
    """Outline every kernel of the lowered module ``host`` (in place) into a private function
    that LLVM does not inline back; identical kernels are one function."""
    kernels: dict[tuple[object, ...], func.FuncOp] = {}
    for op in [op for op in host.walk() if _is_kernel(op)]:
        cluster = [*_initialisers(op), op]
        external = _external_values(cluster)
        arguments = [v for v in external if not isinstance(v.owner, arith.ConstantOp)]
        structure = _structure(cluster, external)
        if structure not in kernels:
            kernels[structure] = _kernel_function(cluster, list(op.results), arguments)
        function = kernels[structure]
        call = func.CallOp(function.sym_name.data, arguments, [r.type for r in op.results])
        block = op.parent_block()
        assert block is not None
        block.insert_op_before(call, op)
        for old, new in zip(op.results, call.results, strict=True):
            old.replace_all_uses_with(new)
        for dead in reversed(cluster):
            dead.detach()
            dead.erase()
    host.body.block.add_ops(kernels.values())
