"""Large constant data as MLIR's ``dense_resource`` blobs.

A constant of more than ``RESOURCE_BYTES`` bytes prints as a handle,
``dense<[512, 768], f32, dense_resource<w>>``, whose bytes follow the module in
the ``{-# dialect_resources: { builtin: { w: "0x..." } } #-}`` section, as MLIR
writes blobs (a 4-byte little-endian alignment, then the little-endian data):
the operations stay readable whatever the size of the weights. xDSL keeps the
blobs in the builtin dialect's resource storage, one for the process; the
parser reads a handle before its blob, so a constant read from one holds a
``ResourceData`` whose array is loaded (``load_pending``) once the whole input,
blobs included, is read.
"""

from __future__ import annotations

from functools import cached_property

import numpy as np
from xdsl.dialect_interfaces.op_asm import OpAsmDialectInterface
from xdsl.dialects.builtin import Builtin

from .attributes import NDArray

RESOURCE_BYTES = 1024
"""Constant data larger than this prints as a blob after the module."""

_PENDING: list[ResourceData] = []
"""Data read from handles whose blobs the input has not given yet."""


def storage() -> OpAsmDialectInterface:
    """The builtin dialect's resource storage (one for the process)."""
    interface = Builtin.get_interface(OpAsmDialectInterface)
    assert interface is not None
    return interface


def blob_text(array: np.ndarray) -> str:
    """MLIR's hexadecimal blob of an array: its alignment, then its bytes."""
    data = np.ascontiguousarray(array, array.dtype.newbyteorder("<")).tobytes()
    alignment = max(array.dtype.itemsize, 1).to_bytes(4, "little")
    return "0x" + (alignment + data).hex().upper()


def store(array: np.ndarray, hint: str) -> str:
    """The key of a blob of ``array``'s data in the storage: ``hint``, or
    ``hint_N`` when another blob has that key."""
    blobs = storage()._blob_storage  # pyright: ignore[reportPrivateUsage]
    text = blob_text(array)
    key, counter = hint, 0
    while blobs.get(key) not in (None, "", text):
        key, counter = f"{hint}_{counter}", counter + 1
    blobs[key] = text
    return key


class ResourceData(NDArray):
    """The data of a blob read from its handle: shape and element type known at
    once, the array when its blob has been read."""

    def __init__(self, key: str, shape: tuple[int, ...], dtype: np.dtype):
        self.key = key
        self._shape = shape
        self._dtype = dtype
        _PENDING.append(self)

    @property
    def shape(self) -> tuple[int, ...]:
        return self._shape

    @property
    def dtype(self) -> np.dtype:
        return self._dtype

    @cached_property
    def array(self) -> np.ndarray:  # pyright: ignore[reportIncompatibleVariableOverride]
        text = storage().lookup(self.key)
        if not text:
            raise ValueError(f"resource '{self.key}' has no blob")
        raw = bytes.fromhex(text.removeprefix("0x"))[4:]
        count = int(np.prod(self._shape, dtype=np.int64))
        expected = count * self._dtype.itemsize
        if len(raw) != expected:
            raise ValueError(f"resource '{self.key}' holds {len(raw)} bytes, expected {expected}")
        array = np.frombuffer(raw, self._dtype.newbyteorder("<")).astype(self._dtype)
        array = array.reshape(self._shape)
        array.flags.writeable = False
        return array

    @cached_property
    def _key(self) -> tuple[str, tuple[int, ...], bytes]:
        return (self.array.dtype.str, self.array.shape, self.array.tobytes())


def load_pending() -> None:
    """Load the data of every handle read so far (raises ``ValueError`` for a
    handle the input gives no blob of)."""
    try:
        for data in _PENDING:
            data.array  # noqa: B018 (loads it)
    finally:
        _PENDING.clear()
