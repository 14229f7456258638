"""Running a Relax function on a lowered backend, with Relax values in and out.

``LoweredFunction`` lowers a module once (``relax-lower-to-linalg``) and calls
one of its functions on the bundled interpreter (``"lowered"``) or as native
code built by the MLIR toolchain (``"mlir"``). Arguments and results are the
reference interpreter's values (arrays, tuples, ``ShapeValue``, ``PrimValue``);
they are flattened and regrouped by the function's StructInfo as
``type_conversion`` describes. A failed run-time check raises
``LoweredCheckError`` with the located message the lowering put in its
``cf.assert``; arguments are checked against the signature before the call as
the reference interpreter checks them (``RelaxRuntimeError``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import numpy as np
from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.dialects.func import FuncOp

from relax_dialect.analysis.call_graph import function_named
from relax_dialect.interpreter import PackedRegistry, RelaxRuntimeError
from relax_dialect.interpreter.checks import ArgumentMismatch, match_all
from relax_dialect.interpreter.values import PrimValue, ShapeValue
from relax_dialect.memo_printer import print_module
from relax_dialect.types import PrimType, ShapeType, StructInfoType, TensorType, TupleType

from .interpreter import LoweredProgram
from .pipeline import LowerToLinalgPass

BACKENDS = ("lowered", "mlir")
"""The lowered backends: the bundled interpreter, native code from the MLIR toolchain."""


def lower(module: ModuleOp) -> ModuleOp:
    """A lowered copy of ``module`` (raises a located ``LoweringError``)."""
    lowered = module.clone()
    LowerToLinalgPass().apply(Context(), lowered)
    return lowered


def generic_text(module: ModuleOp) -> str:
    """``module`` in MLIR's generic form, as ``mlir-opt`` reads it."""
    return print_module(module, generic=True)


class LoweredFunction:
    """Function ``entry`` of a Relax module, lowered, ready to run on ``backend``."""

    def __init__(
        self,
        module: ModuleOp,
        entry: str,
        backend: str,
        registry: PackedRegistry | None = None,
        tile: bool = False,
        lowered: ModuleOp | None = None,
    ):
        """``lowered``: ``lower(module)`` when the caller already has it."""
        function = function_named(module, entry)
        if function is None:
            raise ValueError(f"the module has no function @{entry}")
        self.entry = entry
        self.params = list(function.params)
        self.types: list[StructInfoType] = [p.type for p in self.params]  # pyright: ignore
        self.ret = function.result_info()
        lowered = lower(module) if lowered is None else lowered
        if backend == "lowered":
            external = _packed_bindings(lowered, registry or PackedRegistry())
            program = LoweredProgram(lowered, external)
            self._call: Callable[[list[Any]], list[Any]] = lambda args: program.run(entry, args)
        elif backend == "mlir":
            from .toolchain import compile_module

            native = compile_module(generic_text(lowered), tile=tile)
            self._call = lambda args: native.call(entry, args)
        else:
            raise ValueError(f"unknown backend '{backend}' (expected one of {BACKENDS})")

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
        results = iter(self._call(flat))
        return _regroup(results, self.ret)


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


def _packed_bindings(lowered: ModuleOp, registry: PackedRegistry) -> dict[str, Callable[..., Any]]:
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
