"""The reference interpreter: run Relax functions on NumPy values.

    from relax_dialect.interpreter import run
    result = run(module, "main", x, w)

Arrays passed for parameters of shape or prim type become shape and prim
values (see ``to_value``). ``Machine`` keeps compiled functions between calls
and takes a packed-function registry and a ``call_tir`` executor.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from xdsl.dialects.builtin import ModuleOp

from ..dtype import DataType
from ..types import PrimType, ShapeType, StructInfoType, TupleType
from .machine import Machine, RelaxRuntimeError
from .packed import PackedRegistry, PluginError
from .tir_interface import TIRExecutor
from .values import NULL, Closure, PackedFunc, PrimValue, ShapeValue, flatten

__all__ = [
    "NULL",
    "Closure",
    "Machine",
    "PackedFunc",
    "PackedRegistry",
    "PluginError",
    "PrimValue",
    "RelaxRuntimeError",
    "ShapeValue",
    "TIRExecutor",
    "flatten",
    "run",
    "to_array",
    "to_value",
]


def run(module: ModuleOp, entry: str = "main", *args: object, **options: object) -> object:
    """Call ``entry`` with the given arguments (NumPy arrays for tensors; see
    ``to_value`` for the others). Options are ``Machine``'s."""
    machine = Machine(module, **options)  # pyright: ignore[reportArgumentType]
    function = machine.function(entry)
    types = function.op.param_types()
    if len(args) != len(types):
        raise RelaxRuntimeError(None, f"@{entry} takes {len(types)} arguments, got {len(args)}")
    return machine.run(entry, *(to_value(a, t) for a, t in zip(args, types, strict=True)))


def to_value(data: object, sinfo: StructInfoType) -> object:
    """A Python/NumPy input as the run-time value a parameter of type ``sinfo``
    expects: an integer array for a shape, a scalar for a prim value, a tuple
    for a tuple; arrays stay tensors."""
    if isinstance(sinfo, ShapeType) and not isinstance(data, ShapeValue):
        return ShapeValue(tuple(int(d) for d in np.asarray(data).reshape(-1)))
    if isinstance(sinfo, PrimType) and not isinstance(data, PrimValue):
        dtype = sinfo.data_type
        scalar = np.asarray(data, dtype=dtype.to_numpy()).item()
        return PrimValue(scalar, dtype)
    if isinstance(sinfo, TupleType) and isinstance(data, Sequence) and not isinstance(data, str):
        return tuple(to_value(d, t) for d, t in zip(data, sinfo.types, strict=True))
    if isinstance(data, np.generic | int | float | bool) and not isinstance(data, np.ndarray):
        return np.asarray(data)
    return data


def to_array(value: object) -> np.ndarray | None:
    """A run-time value as an array to save (None for closures and objects)."""
    if isinstance(value, np.ndarray):
        return value
    if isinstance(value, ShapeValue):
        return np.array(value.dims, dtype=np.int64)
    if isinstance(value, PrimValue):
        return np.array(value.value, dtype=value.dtype.to_numpy())
    if isinstance(value, str):
        return np.array(value)
    if isinstance(value, DataType):
        return np.array(str(value))
    return None
