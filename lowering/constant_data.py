"""Large constants of native code linked as data, not compiled.

Written into the IR, a constant travels as text through every tool: ``mlir-translate-22``
prints it as LLVM IR (61 MB of text for the 9.4 MB filter of ResNet-18's 512-channel 3 × 3
convolution, 43 s) and ``opt-22`` parses it back (23 s); ResNet-18 with its 45 MB of weights
in the IR took 12 minutes to compile. So a kernel's dense constant of more than `DATA_BYTES`
bytes becomes a read of an external global, ``memref.get_global`` of a ``memref.global``
declaration named after a digest of its data (``bufferization.to_tensor ... restrict``: never
written), and its bytes a data object that the assembler makes at once from the raw data
(``.incbin``, ``toolchain._data_objects``), linked into the library beside the kernels. The
host unit's constants that only kernels used are dropped (`drop_unused_constants`); its other
large constants, and those of a module compiled as one unit, are linked as data too."""

from __future__ import annotations

import hashlib
from pathlib import Path

from xdsl.dialects import arith, bufferization, memref
from xdsl.dialects.builtin import (
    AnyFloat,
    DenseIntOrFPElementsAttr,
    IntegerAttr,
    IntegerType,
    MemRefType,
    ModuleOp,
    StringAttr,
    SymbolRefAttr,
    TensorType,
    UnitAttr,
    i64,
)
from xdsl.rewriter import Rewriter

DATA_BYTES = 1 << 16
"""Constants larger than this are linked as data (smaller ones cost the tools little)."""
ALIGNMENT = 64
"""Of the data: a cache line, enough for any vector load."""
PREFIX = "relax_constant_"


def link_large_constants(module: ModuleOp) -> dict[str, bytes]:
    """Replace (in place) each large dense constant of ``module`` by a read of an external
    global; the globals' data by symbol."""
    data: dict[str, bytes] = {}
    for op in [op for op in module.walk() if isinstance(op, arith.ConstantOp)]:
        raw = constant_bytes(op)
        if raw is None or len(raw) <= DATA_BYTES:
            continue  # small constants cost the tools little
        type = op.result.type
        assert isinstance(type, TensorType)
        memref_type = MemRefType(type.get_element_type(), type.get_shape())
        name = PREFIX + hashlib.sha256(str(type).encode() + raw).hexdigest()[:32]
        if name not in data:
            data[name] = raw
            module.body.block.add_op(_declaration(name, memref_type))
        address = memref.GetGlobalOp(SymbolRefAttr(name), memref_type)
        tensor = bufferization.ToTensorOp(address, restrict=True)
        Rewriter.replace_op(op, [address, tensor])
    return data


def constant_bytes(op: arith.ConstantOp) -> bytes | None:
    """The bytes of a dense constant of more than one element, not a splat, whose elements
    are whole bytes (as memory holds them); None for any other."""
    value = op.value
    if not isinstance(value, DenseIntOrFPElementsAttr):
        return None
    raw = value.data.data
    element = value.get_element_type()
    if not isinstance(element, IntegerType | AnyFloat):
        return None
    width = element.bitwidth
    if len(value) < 2 or width % 8 or len(raw) != len(value) * width // 8:
        return None  # a scalar, a splat, or elements of bits
    return raw


def _declaration(name: str, type: MemRefType) -> memref.GlobalOp:
    """``memref.global constant @name : type`` without a value: defined by a data object."""
    return memref.GlobalOp.create(
        properties={
            "sym_name": StringAttr(name),
            "sym_visibility": StringAttr("public"),
            "type": type,
            "constant": UnitAttr(),
            "alignment": IntegerAttr(ALIGNMENT, i64),
        }
    )


def drop_unused_constants(module: ModuleOp) -> None:
    """Erase the constants of ``module`` that nothing uses (the host's, once the kernels that
    used them are outlined): ``mlir-opt`` would, after reading them."""
    for op in [op for op in module.walk() if isinstance(op, arith.ConstantOp)]:
        if not op.result.uses:
            op.detach()
            op.erase()


def assembly(name: str, data: Path, size: int) -> str:
    """The assembly of a read-only global ``name`` of ``size`` bytes read from ``data``."""
    return f"""\
    .section .rodata.{name},"a"
    .globl {name}
    .type {name}, @object
    .size {name}, {size}
    .balign {ALIGNMENT}
{name}:
    .incbin "{data}"
"""
