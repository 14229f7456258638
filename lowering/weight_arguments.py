"""Kernels parameterised by their constant arrays (`units`), so that same-shaped layers
share one compiled kernel.

Outlined with its constants (`kernels`), each layer of a network whose weights are constants
is a kernel of its own, and each is compiled (ResNet-18: a kernel per convolution). So each
constant array of a kernel unit (its pre-packed weight, `prepacked_weights`; a folded batch
norm's bias; not a splat or a scalar, which the code folds) becomes a trailing argument of
the kernel, which is then named by a digest of its final text (as every kernel unit is), and
the host passes the constants at each call (the large ones linked as data from the host
unit, `constant_data`). Kernels that differ only by their constants are one unit, and the
host keeps one stub of it.
"""

from __future__ import annotations

import hashlib

from xdsl.dialects import arith, func
from xdsl.dialects.builtin import (
    ArrayAttr,
    FunctionType,
    ModuleOp,
    StringAttr,
    SymbolRefAttr,
    TensorType,
)

from relax_dialect.memo_printer import print_module

from .constant_data import constant_bytes
from .kernels import KERNEL_PREFIX, NOT_WRITABLE


def pass_weights(unit: ModuleOp, stub: func.FuncOp, calls: list[func.CallOp]) -> str:
    """Make the constant arrays of the kernel of ``unit`` its trailing arguments, and those of
    ``stub`` (its definition in the host), which each of its ``calls`` passes; rename them all
    after the kernel's final text (outlining named it before the unit's rewrites, and a name
    must not outlive a change of those: objects define kernels ``weak_odr``, so a cached
    object holding the old code under the same name could reach the link). The kernel's
    name."""
    [kernel] = unit.body.block.ops
    assert isinstance(kernel, func.FuncOp)
    weights = [
        op
        for op in kernel.body.walk()
        if isinstance(op, arith.ConstantOp)
        and isinstance(op.result.type, TensorType)
        and constant_bytes(op) is not None
    ]
    block = kernel.body.block
    for weight in weights:
        weight.result.replace_all_uses_with(block.insert_arg(weight.result.type, len(block.args)))
        weight.detach()
    kernel.function_type = FunctionType.from_lists(
        [a.type for a in block.args], kernel.function_type.outputs.data
    )
    kernel.arg_attrs = ArrayAttr([*(kernel.arg_attrs or ()), *[NOT_WRITABLE] * len(weights)])
    kernel.sym_name = StringAttr("relax_kernel")
    text = print_module(unit, generic=True, digest_data=True)
    name = KERNEL_PREFIX + hashlib.sha256(text.encode()).hexdigest()[:20]
    kernel.sym_name = stub.sym_name = StringAttr(name)
    for call in calls:
        if weights:
            _pass_at(call, name, weights)
        else:
            call.callee = SymbolRefAttr(name)
    stub_block = stub.body.block
    for weight in weights:
        stub_block.insert_arg(weight.result.type, len(stub_block.args))
        weight.erase()
    stub.function_type = kernel.function_type
    return name


def _pass_at(call: func.CallOp, name: str, weights: list[arith.ConstantOp]) -> None:
    """Replace ``call`` by a call of ``name`` that also passes copies of ``weights``."""
    block = call.parent_block()
    assert block is not None
    copies = [weight.clone() for weight in weights]
    block.insert_ops_before(copies, call)
    arguments = [*call.arguments, *(c.result for c in copies)]
    new = func.CallOp(name, arguments, [r.type for r in call.results])
    block.insert_op_before(new, call)
    for old, result in zip(call.results, new.results, strict=True):
        old.replace_all_uses_with(result)
    call.detach()
    call.erase()
