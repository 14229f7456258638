"""``call_tir`` targets in TVMScript: a ``T.prim_func`` stub per ``func.func``.

TVM cannot parse the destination-passing ``func.func`` kernels that
``relax.call_tir`` calls (linalg, tensor and arith code). A printed module
gives TVM what it needs to parse and check the Relax functions, a private
``T.prim_func`` of the same name with the ``func.func``'s parameters (a
buffer per tensor or memref, a scalar per ``index``, integer or float) in
TVM's order, which TVM checks against the calls: the inputs, the outputs
``call_tir`` allocates, then the ``tir_vars`` (the ``func.func`` takes the
``tir_vars`` first, and ``call_tir_inplace``'s in-place outputs too); its
body is ``T.evaluate(0)``::

    @T.prim_func(private=True)
    def double(a: T.handle, out: T.handle):
        d = T.int64()
        A = T.match_buffer(a, (d,), "float32")
        d_1 = T.int64()
        OUT = T.match_buffer(out, (d_1,), "float32")
        T.evaluate(0)

and carries the real kernels, the MLIR text of every top-level operation
that is not a ``relax.function``, in the module attribute
``I.module_attrs({"relax_xdsl.dps_kernels": "..."})``, from which our
frontend restores them (it accepts no other ``T.prim_func``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from io import StringIO

from xdsl.dialects.builtin import (
    BFloat16Type,
    Float16Type,
    Float32Type,
    Float64Type,
    IndexType,
    IntegerType,
    ShapedType,
    Signedness,
)
from xdsl.dialects.func import FuncOp
from xdsl.ir import Attribute, Operation
from xdsl.printer import Printer

from ...ops.calls import CallTIRInplaceOp, TIRCallBase
from ...ops.operator import python_value
from ...types import TupleType
from .expressions import tuple_text

_FLOATS = {Float16Type: "float16", BFloat16Type: "bfloat16", Float32Type: "float32"}


def kernels_text(ops: Sequence[Operation]) -> str:
    """The MLIR text of ``ops``, one after the other."""
    stream = StringIO()
    printer = Printer(stream=stream)
    for op in ops:
        printer.print_op(op)
        stream.write("\n")
    return stream.getvalue()


def scalar_dtype(element: Attribute) -> str | None:
    """TVM's name of a builtin scalar type (None when TVM has none)."""
    if isinstance(element, IndexType):
        return "int64"
    if isinstance(element, IntegerType):
        width = element.width.data
        if width == 1:
            return "bool"
        unsigned = element.signedness.data == Signedness.UNSIGNED
        return f"{'uint' if unsigned else 'int'}{width}"
    if isinstance(element, Float64Type):
        return "float64"
    return _FLOATS.get(type(element))


def tvm_order(count: int, call: TIRCallBase | None) -> list[int]:
    """The positions of a kernel's ``count`` parameters in TVM's order for a
    call of it (the order of the ``func.func`` without one)."""
    if call is None:
        return list(range(count))
    inputs = len(call.args)
    result = call.result.type
    outputs = len(result.types) if isinstance(result, TupleType) else 1
    first_output = count - outputs
    fresh = list(range(first_output, count))
    if isinstance(call, CallTIRInplaceOp):
        indices = python_value(call.inplace_indices)
        fresh = [p for p, index in zip(fresh, indices, strict=True) if index == -1]
    return [*range(inputs), *fresh, *range(inputs, first_output)]


def prim_func_stub(
    kernel: FuncOp, name: str, call: TIRCallBase | None, fresh: Callable[[str], str]
) -> list[str]:
    """The lines of the ``T.prim_func`` standing for ``kernel`` (printed as
    ``name``, with parameters in TVM's order for ``call``); ``fresh`` makes the
    names of its parameters, buffers and sizes unique."""
    block = kernel.body.blocks.first
    hints = [arg.name_hint for arg in block.args] if block is not None else []
    inputs = kernel.function_type.inputs.data
    params, body = [], []
    for index in tvm_order(len(inputs), call):
        param_type = inputs[index]
        hint = hints[index] if index < len(hints) else None
        param = fresh(hint or f"arg{index}")
        element = param_type.get_element_type() if isinstance(param_type, ShapedType) else None
        if element is not None and (dtype := scalar_dtype(element)) is not None:
            assert isinstance(param_type, ShapedType)
            sizes = [str(size) if size >= 0 else fresh("d") for size in param_type.get_shape()]
            body += [f"{size} = T.int64()" for size in sizes if not size.isdigit()]
            shape = tuple_text(sizes)
            body.append(f'{fresh(param.upper())} = T.match_buffer({param}, {shape}, "{dtype}")')
            params.append(f"{param}: T.handle")
        elif element is None and (dtype := scalar_dtype(param_type)) is not None:
            params.append(f"{param}: T.{dtype}")
        else:
            params.append(f"{param}: T.handle")
    return [
        "@T.prim_func(private=True)",
        f"def {name}({', '.join(params)}):",
        *(f"    {line}" for line in body),
        "    T.evaluate(0)",
    ]
