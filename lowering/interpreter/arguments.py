"""Checking and converting the arguments of a lowered function to run-time values."""

from __future__ import annotations

from numbers import Integral, Real
from typing import Any

import numpy as np
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    Float16Type,
    Float32Type,
    Float64Type,
    IndexType,
    IntegerType,
    MemRefType,
    NoneAttr,
    TensorType,
)
from xdsl.ir import Attribute

from .core import LoweredExecutionError
from .values import UnsupportedType, dtype_of, unsigned_dtype


def _array(value: np.ndarray, parameter_type: Attribute, label: str) -> np.ndarray:
    if not isinstance(parameter_type, TensorType | MemRefType):
        raise LoweredExecutionError(
            f"{label} is an array but its parameter has type {parameter_type}"
        )
    if isinstance(parameter_type, MemRefType) and not isinstance(parameter_type.layout, NoneAttr):
        raise LoweredExecutionError(f"{label}: memref layouts are not supported ({parameter_type})")
    shape = parameter_type.get_shape()
    if len(shape) != value.ndim:
        raise LoweredExecutionError(
            f"{label} has rank {value.ndim} but its parameter has type {parameter_type}"
        )
    if any(dim not in (DYNAMIC_INDEX, size) for dim, size in zip(shape, value.shape, strict=True)):
        raise LoweredExecutionError(
            f"{label} has shape {list(value.shape)} but its parameter has type {parameter_type}"
        )
    try:
        dtype = dtype_of(parameter_type)
    except UnsupportedType as error:
        raise LoweredExecutionError(f"{label}: {error}") from None
    if value.dtype == dtype:
        return value
    if value.dtype == unsigned_dtype(dtype) and dtype.kind == "i":
        return value.view(dtype)
    raise LoweredExecutionError(
        f"{label} has dtype {value.dtype} but its parameter has type {parameter_type}"
    )


def _scalar(value: object, parameter_type: Attribute, label: str) -> Any:
    if isinstance(parameter_type, IndexType | IntegerType) and isinstance(value, Integral):
        width = 64 if isinstance(parameter_type, IndexType) else parameter_type.width.data
        number = int(value)
        if not -(1 << (width - 1)) <= number < 1 << width:
            raise LoweredExecutionError(f"{label} = {value} does not fit in {parameter_type}")
        if width == 1:
            return np.bool_(number & 1)
        wrapped = number - (1 << width) if number >= 1 << (width - 1) else number
        return dtype_of(parameter_type).type(wrapped)
    if isinstance(parameter_type, Float16Type | Float32Type | Float64Type) and isinstance(
        value, Real
    ):
        return dtype_of(parameter_type).type(value)
    raise LoweredExecutionError(f"{label} = {value!r} cannot be passed as {parameter_type}")


def argument(value: object, parameter_type: Attribute, label: str) -> Any:
    """value as the run-time value of a parameter of parameter_type; label names it in
    errors."""
    if isinstance(value, np.ndarray):
        return _array(value, parameter_type, label)
    return _scalar(value, parameter_type, label)
