"""TIR buffers as tensors: a buffer's current contents are an SSA tensor value,
replaced by ``tensor.insert`` at each store."""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.dialects.builtin import DYNAMIC_INDEX, TensorType

from ....dtype import DataType
from .scalars import mlir_type

Size = int | str | None
"""A size as written: a constant, the name of a symbolic size, or None for any
other expression (sizes compare equal when both are known and the same)."""


@dataclass(eq=False)
class Buffer:
    """A buffer: its name, element type and sizes (an int when static, None when
    symbolic)."""

    name: str
    dtype: DataType
    sizes: tuple[Size, ...]

    @property
    def tensor_type(self) -> TensorType:
        """The tensor type holding the buffer's contents."""
        shape = [size if isinstance(size, int) else DYNAMIC_INDEX for size in self.sizes]
        return TensorType(mlir_type(self.dtype), shape)
