"""The lowered calling convention, seen from Relax values.

A backend that runs the lowered module calls a ``func.func`` on flattened values
(arrays for tensors, integers for shape dimensions, scalars for prim values, tuples
spread depth-first, as ``type_conversion`` describes). ``LoweredEntry`` wraps
such a call: it checks Relax arguments against the function's signature as the
reference interpreter does (``RelaxRuntimeError``), flattens them, and regroups
the flat results by the return StructInfo.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import Any

import numpy as np
from xdsl.dialects.builtin import ModuleOp
from xdsl.dialects.func import FuncOp

from relax_dialect.interpreter import PackedRegistry, RelaxRuntimeError
from relax_dialect.interpreter.checks import ArgumentMismatch, match_all
from relax_dialect.ops.functions import FunctionOp
from relax_dialect.types import PrimType, ShapeType, StructInfoType, TensorType, TupleType
from relax_dialect.values import PrimValue, ShapeValue

FlatCall = Callable[[list[Any]], Sequence[Any]]
"""A lowered function called on flattened values, returning flattened results."""


class LoweredEntry:
    """A Relax function, called through its lowered form."""

    def __init__(self, function: FunctionOp, call: FlatCall):
        self.entry = function.sym_name.data
        self.params = list(function.params)
        self.types: list[StructInfoType] = [p.type for p in self.params]  # pyright: ignore
        self.ret = function.result_info()
        self._call = call

    def __call__(self, *args: object) -> object:
        """The result of the function on reference-interpreter values."""
        if len(args) != len(self.params):
            raise ValueError(f"@{self.entry} takes {len(self.params)} arguments, got {len(args)}")
        try:
            match_all(args, self.types, {})
        except ArgumentMismatch as mismatch:
            where = self.params[mismatch.index]
            raise RelaxRuntimeError(where, f"@{self.entry}: {mismatch}") from None
        flat = [leaf for arg in args for leaf in flat_values(arg)]
        return _regroup(iter(self._call(flat)), self.ret)


def flat_values(value: object) -> Iterator[object]:
    """A Relax value as the lowered calling convention's values, depth-first."""
    if isinstance(value, tuple):
        for field in value:
            yield from flat_values(field)
    elif isinstance(value, ShapeValue):
        yield from value.dims
    elif isinstance(value, PrimValue):
        yield value.value
    else:
        yield value


def _regroup(results: Iterator[Any], sinfo: StructInfoType) -> object:
    """The Relax value of type ``sinfo`` made of the next flattened results."""
    if isinstance(sinfo, TupleType):
        return tuple(_regroup(results, field) for field in sinfo.types)
    if isinstance(sinfo, ShapeType):
        return ShapeValue(tuple(int(next(results)) for _ in range(sinfo.rank)))
    if isinstance(sinfo, PrimType):
        dtype = sinfo.data_type
        return PrimValue(np.asarray(next(results)).astype(dtype.to_numpy()).item(), dtype)
    assert isinstance(sinfo, TensorType)
    array = np.asarray(next(results))
    wanted = np.dtype(sinfo.data_type.to_numpy())
    if array.dtype != wanted and array.dtype.itemsize == wanted.itemsize:
        return array.view(wanted)
    return array


def packed_bindings(lowered: ModuleOp, registry: PackedRegistry) -> dict[str, Callable[..., Any]]:
    """The declarations of packed functions bound to the registry's implementations,
    taking and returning flattened values."""
    bindings: dict[str, Callable[..., Any]] = {}
    for op in lowered.body.block.ops:
        if isinstance(op, FuncOp) and "relax.packed" in op.attributes:
            name = op.attributes["relax.packed"].data  # pyright: ignore[reportAttributeAccessIssue]
            kind = op.attributes["relax.packed_kind"].data  # pyright: ignore[reportAttributeAccessIssue]
            packed = registry.lookup(name)
            if packed is not None:
                outputs = len(op.function_type.outputs.data)
                bindings[op.sym_name.data] = _adapter(packed.implementation, kind, outputs)
    return bindings


def _adapter(impl: Callable[..., Any], kind: str, outputs: int) -> Callable[..., Any]:
    """A packed implementation called with flattened values, returning its one
    result, or a list of several (as the bundled interpreter's externals do)."""

    def call(*args: Any) -> Any:
        if kind == "call_dps_packed":
            impl(*args)
            results = list(args[len(args) - outputs :])
        else:
            result = impl(*args)
            results = list(flat_values(result)) if outputs else []
        return results[0] if outputs == 1 else results

    return call
