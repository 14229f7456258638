"""memref on mutable NumPy arrays: allocation, loads and stores, for destination-passing
kernels written on buffers (``call_tir`` targets)."""

from __future__ import annotations

from typing import Any
from weakref import WeakKeyDictionary

import numpy as np
from xdsl.dialects import memref
from xdsl.dialects.builtin import ModuleOp
from xdsl.interpreter import InterpreterFunctions, register_impls
from xdsl.traits import SymbolTable

from .arith import constant_value
from .core import Kernel, KernelTable
from .values import dtype_of

KERNELS = KernelTable()


@KERNELS.kernel(memref.AllocOp, memref.AllocaOp)
def _alloc(op: memref.AllocOp | memref.AllocaOp) -> Kernel:
    dtype = dtype_of(op.memref.type)
    static = op.memref.type.get_shape()
    dynamic_count = len(op.dynamic_sizes)

    def alloc(*operands: Any) -> np.ndarray:
        sizes = iter(operands[:dynamic_count])
        return np.zeros([int(next(sizes)) if size < 0 else size for size in static], dtype)

    return alloc


@KERNELS.kernel(memref.DeallocOp)
def _dealloc(op: memref.DeallocOp) -> Kernel:
    return lambda buffer: ()


@KERNELS.kernel(memref.GetGlobalOp)
def _get_global(op: memref.GetGlobalOp) -> Kernel:
    """The global's buffer, made from its initial value on first use (one per global
    operation; ``reset_globals`` starts them over)."""
    found = SymbolTable.lookup_symbol(op, op.name_)
    assert isinstance(found, memref.GlobalOp)
    declared = found

    def get_global() -> np.ndarray:
        buffer = _GLOBALS.get(declared)
        if buffer is None:
            buffer = _GLOBALS[declared] = _initial(declared)
        return buffer

    return get_global


_GLOBALS: WeakKeyDictionary[memref.GlobalOp, np.ndarray] = WeakKeyDictionary()
"""The buffers of the globals of the modules being run."""


def _initial(op: memref.GlobalOp) -> np.ndarray:
    """A writable buffer holding the global's initial value."""
    return np.array(constant_value(op.initial_value, op.type))


def reset_globals(module: ModuleOp) -> None:
    """Start every global of ``module`` over from its initial value."""
    for op in module.body.block.ops:
        if isinstance(op, memref.GlobalOp):
            _GLOBALS.pop(op, None)


@KERNELS.kernel(memref.DimOp)
def _dim(op: memref.DimOp) -> Kernel:
    return lambda buffer, index: np.int64(buffer.shape[index])


@KERNELS.kernel(memref.LoadOp)
def _load(op: memref.LoadOp) -> Kernel:
    return lambda buffer, *indices: buffer[tuple(indices)]


@KERNELS.kernel(memref.StoreOp)
def _store(op: memref.StoreOp) -> Kernel:
    def store(value: Any, buffer: np.ndarray, *indices: Any) -> tuple[()]:
        buffer[tuple(indices)] = value
        return ()

    return store


@KERNELS.kernel(memref.CopyOp)
def _copy(op: memref.CopyOp) -> Kernel:
    def copy(source: np.ndarray, destination: np.ndarray) -> tuple[()]:
        destination[...] = source
        return ()

    return copy


@register_impls
@KERNELS.implement
class MemRefFunctions(InterpreterFunctions):
    """memref for xDSL's interpreter, running the same kernels."""
