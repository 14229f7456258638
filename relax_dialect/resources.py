"""Large constant data as MLIR's ``dense_resource`` blobs.

A constant of more than ``RESOURCE_BYTES`` bytes prints as a handle,
``dense<[512, 768], f32, dense_resource<w>>``, whose bytes follow the module in
the ``{-# dialect_resources: { builtin: { w: "0x..." } } #-}`` section, as MLIR
writes blobs (a 4-byte little-endian alignment, then the little-endian data):
the operations stay readable whatever the size of the weights. xDSL keeps the
blobs in the builtin dialect's resource storage, one for the process; the
parser reads a handle before its blob, so a constant read from one holds data
(``attributes.ResourceData``) that loads (``load_pending``) once the whole
input, blobs included, is read.
"""

from __future__ import annotations

from typing import Protocol

import numpy as np
from xdsl.dialect_interfaces.op_asm import OpAsmDialectInterface
from xdsl.dialects.builtin import Builtin

RESOURCE_BYTES = 1024
"""Constant data larger than this prints as a blob after the module."""

_PENDING: list[Pending] = []
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


def blob_bytes(key: str) -> bytes:
    """The data of the blob stored as ``key`` (``ValueError`` when there is none)."""
    text = storage().lookup(key)
    if not text:
        raise ValueError(f"resource '{key}' has no blob")
    return bytes.fromhex(text.removeprefix("0x"))[4:]


class Pending(Protocol):
    """Data read from a handle, to load once the input's blobs are read."""

    def load(self) -> object: ...


def wait_for_blob(data: Pending) -> None:
    """Load ``data`` at the next ``load_pending``."""
    _PENDING.append(data)


def load_pending() -> None:
    """Load the data of every handle read so far (raises ``ValueError`` for a
    handle the input gives no blob of)."""
    try:
        for data in _PENDING:
            data.load()
    finally:
        _PENDING.clear()
