"""Packed functions on IREE: a Python module of the IREE VM, ``relax_packed``, whose
functions the compiled module imports (the declarations ``@relax_packed.<name>`` of the
lowering). Each takes the VM's values (buffer views for tensors, numbers for scalars),
calls the registry's implementation on NumPy values as the bundled interpreter does
(``calling.packed_bindings``), and returns buffer views made on the device."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import numpy as np
from xdsl.dialects.builtin import (
    Float32Type,
    Float64Type,
    FunctionType,
    IndexType,
    IntegerType,
    ModuleOp,
    TensorType,
)
from xdsl.dialects.func import FuncOp
from xdsl.ir import Attribute

from .convert_relax_to_linalg import PACKED_MODULE
from .interpreter.values import dtype_of
from .toolchain import ToolchainError


def packed_module(
    lowered: ModuleOp, bindings: Mapping[str, Callable[..., Any]], device: Any
) -> Any:
    """The VM module ``relax_packed`` exporting the bound declarations of ``lowered``
    (``bindings`` by symbol: flattened values in, one result or a list out)."""
    import iree.runtime as rt

    class Packed:
        def __init__(self, interface: Any) -> None:
            pass

    interface = rt.PyModuleInterface(PACKED_MODULE, Packed)
    for op in lowered.body.block.ops:
        if isinstance(op, FuncOp) and op.sym_name.data in bindings:
            name = op.sym_name.data.removeprefix(f"{PACKED_MODULE}.")
            call = _exported(bindings[op.sym_name.data], op.function_type, device)
            interface.export(name, _calling_convention(op.function_type), call)
    return interface.create()


def _calling_convention(type: FunctionType) -> str:
    """IREE's signature string: ``0`` then the arguments, ``_``, the results."""
    inputs = "".join(map(_vm_type, type.inputs.data)) or "v"
    outputs = "".join(map(_vm_type, type.outputs.data)) or "v"
    return f"0{inputs}_{outputs}"


def _vm_type(type: Attribute) -> str:
    """The VM's letter for a lowered type: ``r`` a reference (a tensor's buffer view),
    ``i``/``I`` 32/64-bit integers, ``f``/``F`` 32/64-bit floats."""
    match type:
        case TensorType():
            return "r"
        case IndexType():
            return "I"
        case IntegerType():
            return "I" if type.width.data == 64 else "i"
        case Float32Type():
            return "f"
        case Float64Type():
            return "F"
    raise ToolchainError(f"IREE cannot pass a {type} to a packed function")


def _exported(
    implementation: Callable[..., Any], type: FunctionType, device: Any
) -> Callable[..., Any]:
    """The VM function calling ``implementation`` with NumPy values."""
    import iree.runtime as rt

    inputs, outputs = type.inputs.data, type.outputs.data

    def call(_: Any, *args: Any) -> Any:
        values = [_from_vm(arg, t) for arg, t in zip(args, inputs, strict=True)]
        result = implementation(*values)
        results = [result] if len(outputs) == 1 else list(result)
        converted = [
            rt.asdevicearray(device, np.ascontiguousarray(r, dtype_of(t)))._buffer_view.ref
            if isinstance(t, TensorType)
            else r
            for r, t in zip(results, outputs, strict=True)
        ]
        return converted[0] if len(converted) == 1 else tuple(converted) or None

    return call


def _from_vm(value: Any, type: Attribute) -> Any:
    """A VM argument as a NumPy array (copied) or a number."""
    if not isinstance(type, TensorType):
        return value
    import iree.runtime as rt

    view = value.deref(rt.HalBufferView)
    return np.array(view.map().asarray(view.shape, dtype_of(type)))
