"""TIR buffers as tensors: a buffer's current contents are an SSA tensor value,
replaced by ``tensor.insert`` at each store."""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.dialects.builtin import DYNAMIC_INDEX, TensorType

from ....dtype import DataType
from .scalars import mlir_type


@dataclass(eq=False)
class Buffer:
    """A buffer: its name, element type and sizes (an int when static, None when
    symbolic)."""

    name: str
    dtype: DataType
    sizes: tuple[int | None, ...]

    @property
    def tensor_type(self) -> TensorType:
        """The tensor type holding the buffer's contents."""
        shape = [DYNAMIC_INDEX if size is None else size for size in self.sizes]
        return TensorType(mlir_type(self.dtype), shape)
