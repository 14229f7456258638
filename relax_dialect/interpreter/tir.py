"""Execution of the destination-passing ``func.func`` targets of ``relax.call_tir``.

``XDSLTIRExecutor`` implements ``TIRExecutor``, the interface the reference
interpreter calls, with xDSL's interpreter, extended with the operations that such kernels
need and xDSL 0.74 lacks or implements incompletely. Tensors cross the boundary as
``ShapedArray`` values laid out like NumPy arrays of the matching dtype.
"""

from __future__ import annotations

import math as pymath
import operator
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import cache
from numbers import Integral, Real
from typing import Any, cast

import numpy as np
from xdsl.dialects import arith, func, math, tensor
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    DenseIntOrFPElementsAttr,
    Float16Type,
    Float32Type,
    Float64Type,
    IndexType,
    IntegerType,
    MemRefType,
    ModuleOp,
    NoneAttr,
    PackableType,
    TensorType,
    i64,
)
from xdsl.dialects.linalg import ops as linalg
from xdsl.interpreter import (
    Interpreter,
    InterpreterFunctions,
    PythonValues,
    impl,
    register_impls,
)
from xdsl.interpreters.affine import AffineFunctions
from xdsl.interpreters.arith import ArithFunctions
from xdsl.interpreters.builtin import BuiltinFunctions
from xdsl.interpreters.cf import CfFunctions
from xdsl.interpreters.func import FuncFunctions
from xdsl.interpreters.linalg import LinalgFunctions, run_linalg_structured_op
from xdsl.interpreters.memref import MemRefFunctions
from xdsl.interpreters.scf import ScfFunctions
from xdsl.interpreters.shaped_array import ShapedArray
from xdsl.interpreters.tensor import TensorFunctions
from xdsl.interpreters.utils.ptr import RawPtr, TypedPtr
from xdsl.ir import Attribute, Operation
from xdsl.traits import SymbolTable
from xdsl.utils.comparisons import signless_value_range, to_signed, to_unsigned

from .tir_interface import TIRArgument, TIRExecutionError

# Element types: xDSL packs elements with the struct formats that NumPy dtypes share.


@cache
def _storage_dtype(element_type: Attribute) -> np.dtype[Any]:
    """The NumPy dtype laid out like xDSL's packed elements of element_type."""
    match element_type:
        case IndexType():
            return np.dtype(np.int64)
        case Float16Type() | Float32Type() | Float64Type():
            return np.dtype(element_type.format)
        case IntegerType() if element_type.width.data in (1, 8, 16, 32, 64):
            return np.dtype(element_type.format)
        case PackableType():
            raise TIRExecutionError(f"element type {element_type} has no NumPy counterpart")
        case _:
            raise TIRExecutionError(
                f"element type {element_type} cannot be packed by xDSL's interpreter"
            )


def _accepts(element_type: Attribute, dtype: np.dtype[Any]) -> bool:
    """Whether arrays of dtype can stand for elements of element_type: bool for i1,
    floats of the same width, integers of the same width whatever their signedness."""
    storage = _storage_dtype(element_type)
    if isinstance(element_type, IntegerType) and element_type.width.data == 1:
        kinds = "b"
    else:
        kinds = "f" if storage.kind == "f" else "iu"
    return dtype.kind in kinds and dtype.itemsize == storage.itemsize


def _shaped_array(array: np.ndarray, element_type: Attribute) -> ShapedArray[Any]:
    """A new ShapedArray holding a copy of array as elements of element_type."""
    packing_type = i64 if isinstance(element_type, IndexType) else element_type
    data = np.asarray(array, dtype=_storage_dtype(element_type)).tobytes()
    pointer = TypedPtr(RawPtr(bytearray(data)), xtype=cast(PackableType[Any], packing_type))
    return ShapedArray(pointer, list(array.shape))


def _view(shaped: ShapedArray[Any]) -> np.ndarray:
    """A NumPy array (in the storage dtype) that aliases the memory of shaped."""
    raw = shaped.data_ptr.raw
    flat = np.frombuffer(
        raw.memory, _storage_dtype(shaped.element_type), count=shaped.size, offset=raw.offset
    )
    return flat.reshape(shaped.shape)


def _rounded(value: float | np.floating[Any], float_type: Attribute) -> float:
    """value rounded to float_type (overflowing to infinity: the executor ignores
    NumPy's floating-point errors)."""
    return float(_storage_dtype(float_type).type(value))


def _bitwidth(interpreter: Interpreter, integer_type: Attribute) -> int:
    """The width of an integer or index type."""
    if isinstance(integer_type, IntegerType):
        return integer_type.width.data
    return interpreter.index_bitwidth


def _fill_dynamic(static: Iterable[int], dynamic: Iterator[int]) -> list[int]:
    """static with each DYNAMIC_INDEX replaced by the next value of dynamic."""
    return [next(dynamic) if value == DYNAMIC_INDEX else value for value in static]


# Operations that xDSL 0.74 lacks or implements incompletely.


def _float_result(op: Operation, function: Callable[..., Any], *operands: float) -> PythonValues:
    """function of operands computed in double precision (with NumPy's infinities and
    NaNs where Python would raise), rounded to the float type of op's result."""
    value = function(*operands)
    return (_rounded(value, op.results[0].type),)


def _float_op(op_type: type[Operation], function: Callable[..., Any]) -> Any:
    """The implementation of a float operation computing ``function``."""

    @impl(op_type)
    def run(
        functions: InterpreterFunctions, interpreter: Interpreter, op: Operation, args: PythonValues
    ) -> PythonValues:
        return _float_result(op, function, *args)

    return run


def _structured_op(op_type: type[Operation]) -> Any:
    """The implementation of a linalg named operation, by its body."""

    @impl(op_type)
    def run(
        functions: InterpreterFunctions, interpreter: Interpreter, op: Operation, args: PythonValues
    ) -> PythonValues:
        return run_linalg_structured_op(interpreter, op, args)  # pyright: ignore[reportArgumentType]

    return run


@register_impls
class _ArithFunctions(ArithFunctions):
    """xDSL's arith, with dense constants, float arithmetic rounded to its type (xDSL
    computes in double precision and fails to store what overflows the type), float
    division and negation, NaN-ignoring min/max, signed integer min/max and the
    conversions."""

    @impl(arith.ConstantOp)
    def run_constant(
        self, interpreter: Interpreter, op: arith.ConstantOp, args: PythonValues
    ) -> PythonValues:
        if not isinstance(op.value, DenseIntOrFPElementsAttr):
            return super().run_constant(interpreter, op, args).values
        element_type = op.value.get_element_type()
        values = np.frombuffer(op.value.data.data, _storage_dtype(element_type))
        shape = op.value.get_shape()
        array = np.broadcast_to(values, shape) if values.size == 1 else values.reshape(shape)
        return (_shaped_array(array, element_type),)

    run_addf = _float_op(arith.AddfOp, operator.add)
    run_subf = _float_op(arith.SubfOp, operator.sub)
    run_mulf = _float_op(arith.MulfOp, operator.mul)
    run_divf = _float_op(arith.DivfOp, np.divide)
    run_negf = _float_op(arith.NegfOp, np.negative)
    run_maxnumf = _float_op(arith.MaxnumfOp, np.fmax)
    run_minnumf = _float_op(arith.MinnumfOp, np.fmin)

    @impl(arith.MaxSIOp)
    def run_maxsi(
        self, interpreter: Interpreter, op: arith.MaxSIOp, args: PythonValues
    ) -> PythonValues:
        width = _bitwidth(interpreter, op.result.type)
        return (max(to_signed(value, width) for value in args),)

    @impl(arith.MinSIOp)
    def run_minsi(
        self, interpreter: Interpreter, op: arith.MinSIOp, args: PythonValues
    ) -> PythonValues:
        width = _bitwidth(interpreter, op.result.type)
        return (min(to_signed(value, width) for value in args),)

    run_extf = _float_op(arith.ExtFOp, np.float64)
    run_truncf = _float_op(arith.TruncFOp, np.float64)

    @impl(arith.SIToFPOp)
    def run_sitofp(
        self, interpreter: Interpreter, op: arith.SIToFPOp, args: PythonValues
    ) -> PythonValues:
        (value,) = args
        return (_rounded(to_signed(value, _bitwidth(interpreter, op.input.type)), op.result.type),)

    @impl(arith.UIToFPOp)
    def run_uitofp(
        self, interpreter: Interpreter, op: arith.UIToFPOp, args: PythonValues
    ) -> PythonValues:
        (value,) = args
        width = _bitwidth(interpreter, op.input.type)
        return (_rounded(to_unsigned(value, width), op.result.type),)

    @impl(arith.FPToSIOp)
    def run_fptosi(
        self, interpreter: Interpreter, op: arith.FPToSIOp, args: PythonValues
    ) -> PythonValues:
        (value,) = args
        return (to_signed(int(value), _bitwidth(interpreter, op.result.type)),)

    @impl(arith.ExtSIOp)
    def run_extsi(
        self, interpreter: Interpreter, op: arith.ExtSIOp, args: PythonValues
    ) -> PythonValues:
        (value,) = args
        return (to_signed(value, _bitwidth(interpreter, op.input.type)),)

    @impl(arith.ExtUIOp)
    def run_extui(
        self, interpreter: Interpreter, op: arith.ExtUIOp, args: PythonValues
    ) -> PythonValues:
        (value,) = args
        return (to_unsigned(value, _bitwidth(interpreter, op.input.type)),)

    @impl(arith.TruncIOp)
    def run_trunci(
        self, interpreter: Interpreter, op: arith.TruncIOp, args: PythonValues
    ) -> PythonValues:
        (value,) = args
        return (to_signed(value, _bitwidth(interpreter, op.result.type)),)


@register_impls
class _MathFunctions(InterpreterFunctions):
    """math with IEEE semantics (xDSL's exp, log and sqrt raise on overflow, zero and
    negative arguments), and the functions xDSL lacks."""

    run_exp = _float_op(math.ExpOp, np.exp)
    run_log = _float_op(math.LogOp, np.log)
    run_sqrt = _float_op(math.SqrtOp, np.sqrt)
    run_rsqrt = _float_op(math.RsqrtOp, lambda value: 1 / np.sqrt(value))
    run_tanh = _float_op(math.TanhOp, np.tanh)
    run_erf = _float_op(math.ErfOp, pymath.erf)
    run_absf = _float_op(math.AbsFOp, np.abs)
    run_floor = _float_op(math.FloorOp, np.floor)
    run_ceil = _float_op(math.CeilOp, np.ceil)
    run_powf = _float_op(math.PowFOp, np.power)


@register_impls
class _LinalgFunctions(LinalgFunctions):
    """xDSL's linalg, with a fill by a scalar into any output and the elementwise named
    operations xDSL lacks."""

    @impl(linalg.FillOp)
    def run_fill(
        self, interpreter: Interpreter, op: linalg.FillOp, args: PythonValues
    ) -> PythonValues:
        value, output = args
        filled = cast(ShapedArray[Any], output.copy() if op.results else output)
        _view(filled)[...] = value
        return (filled,) if op.results else ()

    run_sub = _structured_op(linalg.SubOp)
    run_max = _structured_op(linalg.MaxOp)
    run_min = _structured_op(linalg.MinOp)
    run_select = _structured_op(linalg.SelectOp)
    run_copy = _structured_op(linalg.CopyOp)


def _slice_index(
    interpreter: Interpreter, op: tensor.ExtractSliceOp | tensor.InsertSliceOp
) -> tuple[slice, ...]:
    """The NumPy index of the slice that op extracts or inserts."""
    offsets = _fill_dynamic(
        op.static_offsets.get_values(), iter(interpreter.get_values(op.offsets))
    )
    sizes = _fill_dynamic(op.static_sizes.get_values(), iter(interpreter.get_values(op.sizes)))
    strides = _fill_dynamic(
        op.static_strides.get_values(), iter(interpreter.get_values(op.strides))
    )
    return tuple(
        slice(offset, offset + size * stride, stride)
        for offset, size, stride in zip(offsets, sizes, strides, strict=True)
    )


def _reshaped(source: ShapedArray[Any], shape: Sequence[int]) -> ShapedArray[Any]:
    """A copy of source with the given shape."""
    return _shaped_array(_view(source).reshape(shape), source.element_type)


@register_impls
class _TensorFunctions(TensorFunctions):
    """xDSL's tensor, with slices (static or dynamic, rank-reducing or not), reshapes
    to dynamic shapes, and collapse_shape/expand_shape."""

    @impl(tensor.ExtractSliceOp)
    def run_extract_slice(
        self, interpreter: Interpreter, op: tensor.ExtractSliceOp, args: PythonValues
    ) -> PythonValues:
        # Dimensions dropped by a rank-reducing slice have a static size 1, so the
        # dynamic dimensions of the result are, in order, the dynamic sizes.
        dynamic_sizes = iter(interpreter.get_values(op.sizes))
        shape = _fill_dynamic(op.result.type.get_shape(), dynamic_sizes)
        source = cast(ShapedArray[Any], args[0])
        region = _view(source)[_slice_index(interpreter, op)]
        return (_shaped_array(region.reshape(shape), source.element_type),)

    @impl(tensor.InsertSliceOp)
    def run_insert_slice(
        self, interpreter: Interpreter, op: tensor.InsertSliceOp, args: PythonValues
    ) -> PythonValues:
        source, destination = cast(tuple[ShapedArray[Any], ShapedArray[Any]], args[:2])
        result = destination.copy()
        region = _view(result)[_slice_index(interpreter, op)]
        region[...] = _view(source).reshape(region.shape)
        return (result,)

    @impl(tensor.ReshapeOp)
    def run_reshape(
        self, interpreter: Interpreter, op: tensor.ReshapeOp, args: PythonValues
    ) -> PythonValues:
        source, shape = cast(tuple[ShapedArray[Any], ShapedArray[int]], args)
        return (_reshaped(source, shape.data),)

    @impl(tensor.CollapseShapeOp)
    def run_collapse_shape(
        self, interpreter: Interpreter, op: tensor.CollapseShapeOp, args: PythonValues
    ) -> PythonValues:
        (source,) = cast(tuple[ShapedArray[Any]], args)
        shape = [
            pymath.prod(source.shape[dim.value.data] for dim in group.data)
            for group in op.reassociation.data
        ]
        return (_reshaped(source, shape),)

    @impl(tensor.ExpandShapeOp)
    def run_expand_shape(
        self, interpreter: Interpreter, op: tensor.ExpandShapeOp, args: PythonValues
    ) -> PythonValues:
        source, *dynamic_shape = args
        shape = _fill_dynamic(op.static_output_shape.get_values(), iter(dynamic_shape))
        return (_reshaped(cast(ShapedArray[Any], source), shape),)


_FUNCTIONS: tuple[InterpreterFunctions, ...] = (
    BuiltinFunctions(),
    FuncFunctions(),
    _ArithFunctions(),
    _MathFunctions(),
    _LinalgFunctions(),
    _TensorFunctions(),
    ScfFunctions(),
    CfFunctions(),
    AffineFunctions(),
    MemRefFunctions(),
)
"""The implementations XDSLTIRExecutor runs with, one set per dialect."""

_SUPPORTED_OPERATIONS = frozenset(
    operation_type
    for functions in _FUNCTIONS
    for operation_type, _ in functions._impls()  # xDSL has no public accessor
)


# The executor.


@dataclass
class _RunningOperations(Interpreter.Listener):
    """The operations being interpreted, innermost last."""

    stack: list[Operation] = field(default_factory=list[Operation])

    def will_interpret_op(self, op: Operation, args: PythonValues) -> None:
        self.stack.append(op)

    def did_interpret_op(self, op: Operation, results: PythonValues) -> None:
        self.stack.pop()


def _function(module: ModuleOp, name: str) -> func.FuncOp:
    """The func.func @name of module, which must have a body."""
    function = SymbolTable.lookup_symbol(module, name)
    if not isinstance(function, func.FuncOp):
        raise TIRExecutionError(f"no func.func @{name} in the module")
    if function.is_declaration:
        raise TIRExecutionError(f"func.func @{name} has no body")
    return function


def _check_supported(module: ModuleOp, function: func.FuncOp) -> None:
    """Raise before running anything if function, or a function it calls, contains an
    operation the interpreter cannot run."""
    pending, seen = [function], {function}
    while pending:
        caller = pending.pop()
        for op in caller.body.walk():
            if type(op) not in _SUPPORTED_OPERATIONS:
                raise TIRExecutionError(
                    f"{op.name} in @{caller.sym_name.data} is not supported by the xDSL interpreter"
                )
            if isinstance(op, func.CallOp):
                callee = _function(module, op.callee.string_value())
                if callee not in seen:
                    seen.add(callee)
                    pending.append(callee)


def _tensor_argument(value: np.ndarray, parameter_type: Attribute, label: str) -> ShapedArray[Any]:
    """value as the argument of a tensor or memref parameter."""
    if not isinstance(parameter_type, TensorType | MemRefType):
        raise TIRExecutionError(f"{label} is an array but its parameter has type {parameter_type}")
    if isinstance(parameter_type, MemRefType) and not isinstance(parameter_type.layout, NoneAttr):
        raise TIRExecutionError(f"{label}: memref layouts are not supported ({parameter_type})")
    shape = parameter_type.get_shape()
    element_type = parameter_type.get_element_type()
    if len(shape) != value.ndim:
        raise TIRExecutionError(
            f"{label} has rank {value.ndim} but its parameter has type {parameter_type}"
        )
    if any(
        dim not in (DYNAMIC_INDEX, actual) for dim, actual in zip(shape, value.shape, strict=True)
    ):
        raise TIRExecutionError(
            f"{label} has shape {list(value.shape)} but its parameter has type {parameter_type}"
        )
    try:
        accepted = _accepts(element_type, value.dtype)
    except TIRExecutionError as error:
        raise TIRExecutionError(f"{label}: {error}") from None
    if not accepted:
        raise TIRExecutionError(
            f"{label} has dtype {value.dtype} but its parameter has type {parameter_type}"
        )
    return _shaped_array(value, element_type)


def _scalar_argument(value: object, parameter_type: Attribute, label: str) -> int | float:
    """value as the argument of an index, integer or float parameter."""
    if isinstance(parameter_type, IndexType | IntegerType) and isinstance(value, Integral):
        width = 64 if isinstance(parameter_type, IndexType) else parameter_type.width.data
        low, high = signless_value_range(width)
        if not low <= int(value) < high:
            raise TIRExecutionError(f"{label} = {value} does not fit in {parameter_type}")
        return to_signed(int(value), width)
    if isinstance(parameter_type, Float16Type | Float32Type | Float64Type) and isinstance(
        value, Real
    ):
        return _rounded(float(value), parameter_type)
    raise TIRExecutionError(f"{label} = {value!r} cannot be passed as {parameter_type}")


def _argument(value: object, parameter_type: Attribute, label: str) -> Any:
    """value as the Python value of xDSL's interpreter for a parameter."""
    if isinstance(value, np.ndarray):
        return _tensor_argument(value, parameter_type, label)
    return _scalar_argument(value, parameter_type, label)


def _output(value: object, like: np.ndarray, label: str) -> np.ndarray:
    """The final contents of an output, as a new array of like's shape and dtype."""
    if not isinstance(value, ShapedArray):
        raise TIRExecutionError(f"{label} is {value!r}, not a tensor")
    shaped = cast(ShapedArray[Any], value)
    if tuple(shaped.shape) != like.shape or not _accepts(shaped.element_type, like.dtype):
        raise TIRExecutionError(
            f"{label} has shape {shaped.shape} and element type {shaped.element_type}; "
            f"expected shape {list(like.shape)} and dtype {like.dtype}"
        )
    contents = _view(shaped)
    return contents != 0 if like.dtype == np.bool_ else contents.astype(like.dtype)


def _describe(error: Exception) -> str:
    """The type and message of error."""
    return f"{type(error).__name__}: {error}" if str(error) else type(error).__name__


class DestinationPassingExecutor(ABC):
    """The frame of a TIRExecutor: finds the callee, checks the number of arguments,
    runs it, and takes its results (or, when it returns nothing, the outputs as it
    left them) as the outputs."""

    def call(
        self,
        module: ModuleOp,
        callee: str,
        inputs: Sequence[TIRArgument],
        outputs: Sequence[np.ndarray],
    ) -> list[np.ndarray]:
        """``TIRExecutor.call``."""
        function = _function(module, callee)
        parameter_types = function.function_type.inputs.data
        if len(parameter_types) != len(inputs) + len(outputs):
            raise TIRExecutionError(
                f"@{callee} takes {len(parameter_types)} arguments but was given "
                f"{len(inputs)} inputs and {len(outputs)} outputs"
            )
        if not all(isinstance(output, np.ndarray) for output in outputs):
            raise TIRExecutionError(f"the outputs of @{callee} must be arrays")
        arguments = self._arguments(module, function, inputs, outputs)
        results = self._run(module, function, arguments)
        result_types = function.function_type.outputs.data
        if not results:
            results, result_types = arguments[len(inputs) :], parameter_types[len(inputs) :]
        elif len(results) != len(outputs):
            raise TIRExecutionError(
                f"@{callee} returned {len(results)} values for {len(outputs)} outputs"
            )
        return [
            self._output(result, output, result_type, f"output {position} of @{callee}")
            for position, (result, output, result_type) in enumerate(
                zip(results, outputs, result_types, strict=True)
            )
        ]

    @abstractmethod
    def _arguments(
        self,
        module: ModuleOp,
        function: func.FuncOp,
        inputs: Sequence[TIRArgument],
        outputs: Sequence[np.ndarray],
    ) -> list[Any]:
        """The values to call function with (the outputs must not be written in place)."""

    @abstractmethod
    def _run(self, module: ModuleOp, function: func.FuncOp, arguments: list[Any]) -> Sequence[Any]:
        """function applied to arguments."""

    @abstractmethod
    def _output(
        self, value: Any, like: np.ndarray, result_type: Attribute, label: str
    ) -> np.ndarray:
        """The final contents of an output of result_type, as a new array like `like`."""


class XDSLTIRExecutor(DestinationPassingExecutor):
    """A TIRExecutor running the callee element by element with xDSL's interpreter."""

    def call(
        self,
        module: ModuleOp,
        callee: str,
        inputs: Sequence[TIRArgument],
        outputs: Sequence[np.ndarray],
    ) -> list[np.ndarray]:
        """DestinationPassingExecutor.call, failing with TIRExecutionError on every
        problem."""
        try:
            with np.errstate(all="ignore"):
                return super().call(module, callee, inputs, outputs)
        except TIRExecutionError:
            raise
        except Exception as error:
            raise TIRExecutionError(f"@{callee}: {_describe(error)}") from error

    def _arguments(
        self,
        module: ModuleOp,
        function: func.FuncOp,
        inputs: Sequence[TIRArgument],
        outputs: Sequence[np.ndarray],
    ) -> list[Any]:
        _check_supported(module, function)
        return [
            _argument(value, parameter_type, f"argument {position} of @{function.sym_name.data}")
            for position, (value, parameter_type) in enumerate(
                zip([*inputs, *outputs], function.function_type.inputs.data, strict=True)
            )
        ]

    def _run(self, module: ModuleOp, function: func.FuncOp, arguments: list[Any]) -> PythonValues:
        """function applied to arguments; any failure becomes a TIRExecutionError
        naming the innermost operation being interpreted."""
        running = _RunningOperations()
        interpreter = Interpreter(module, index_bitwidth=64, listeners=(running,))
        for functions in _FUNCTIONS:
            interpreter.register_implementations(functions)
        try:
            return interpreter.call_op(function, tuple(arguments))
        except Exception as error:
            where = running.stack[-1].name + " in " if running.stack else ""
            raise TIRExecutionError(
                f"{where}@{function.sym_name.data} failed: {_describe(error)}"
            ) from error

    def _output(
        self, value: Any, like: np.ndarray, result_type: Attribute, label: str
    ) -> np.ndarray:
        return _output(value, like, label)
