"""Native code: the lowered module compiled by the MLIR toolchain (``mlir-opt-22``,
``mlir-translate-22``, ``opt-22``, ``llc-22``) and called through ``ctypes``."""

from __future__ import annotations

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation

from relax_dialect.diagnostics import Diagnostic, at, located
from relax_dialect.dtype import DataType
from relax_dialect.interpreter import RelaxRuntimeError
from relax_dialect.ops.calls import PackedCallOp
from relax_dialect.ops.datatype import ConvertOp
from relax_dialect.ops.values import ConstantOp
from relax_dialect.passes.fold_batch_norm import FoldBatchNormPass
from relax_dialect.passes.fold_constant import FoldConstantPass
from relax_dialect.types import PrimType, TensorType

from ..host_parts import split_long_functions
from ..interpreter import LoweredCheckError
from ..kernels import outline_kernels
from ..math_approximation import approximate_math
from ..pipeline import lower
from ..program_cache import cached_library, program_key, remember
from ..toolchain import (
    NATIVE_FORMATS,
    WIDENED_FORMATS,
    ToolchainMissing,
    compile_units,
    find_toolchain,
)
from ..transposed_operands import read_through_transposes
from ..units import split_units
from .backend import Backend, Compiled, Program
from .calling import LoweredEntry


def _foreign_format(op: Operation) -> DataType | None:
    """An extension float format that native code cannot compute on ``op``'s values,
    if any: a result of a format not in ``NATIVE_FORMATS``, or an operand of one
    that is neither there nor, converted by ``astype``, in ``WIDENED_FORMATS``."""
    if op.regions:  # a function or block: its operations are checked one by one
        return None
    widening = isinstance(op, ConvertOp)
    for value, is_operand in [(v, True) for v in op.operands] + [(v, False) for v in op.results]:
        sinfo = value.type
        if not isinstance(sinfo, TensorType | PrimType):
            continue
        dtype = sinfo.data_type
        if not dtype.is_extension_float or str(dtype) in NATIVE_FORMATS:
            continue
        if not (is_operand and widening and str(dtype) in WIDENED_FORMATS):
            return dtype
    return None


FOLDED_SIZE = 1 << 24
"""Largest result computed at compile time from constants alone, in elements (64 MiB of
``f32``): native code links large constants as data objects (``constant_data``), so the bound
is the compile's memory, not the size of the printed IR (``relax-fold-constant``'s default)."""


def _lowered_for_native_code(program: Program) -> ModuleOp:
    """A copy of the program's lowered module; where the module has constants, that of the
    module with what it computes from constants alone computed first: inference batch norms
    after convolutions with constant weights folded into the weights
    (``relax-fold-batch-norm``, so that the convolution's kernel ends with a bias add), then
    every operator of known operands (``relax-fold-constant``: the transpose of a dense
    layer's constant weights, which the kernel then reads packed at compile time)."""
    if not any(isinstance(op, ConstantOp) for op in program.module.walk()):
        return program.lowered_copy()
    folded = program.module.clone()
    FoldBatchNormPass().apply(Context(), folded)
    FoldConstantPass(max_size=FOLDED_SIZE).apply(Context(), folded)
    return lower(folded)


def native_module(program: Program) -> ModuleOp:
    """The module native code is compiled from: `_lowered_for_native_code` with its math
    approximated, matrix products reading their transposed parameters through the transposes
    (`transposed_operands`), its kernels outlined (`kernels`) and its long host functions split
    (`host_parts`); `units.split_units` cuts it into what is compiled."""
    native_ir = approximate_math(_lowered_for_native_code(program))
    read_through_transposes(native_ir)
    outline_kernels(native_ir)
    split_long_functions(native_ir)
    return native_ir


class NativeBackend(Backend):
    """Compiles the lowered module (what it computes from constants alone computed first,
    inference batch norms folded into constant convolution weights) to a shared library
    (cached by content: by its units, and by the Relax module before lowering,
    ``program_cache``) and calls it;
    ``RunOptions.tile`` adds the tiling and vectorisation schedule."""

    name = "mlir"

    def unavailable(self) -> str | None:
        try:
            find_toolchain()
        except ToolchainMissing as missing:
            return str(missing)
        return None

    def unsupported(self, program: Program) -> Diagnostic | None:
        """Packed functions: native code has no registry to call them from; and
        values of the float formats it cannot compute (``NATIVE_FORMATS``)."""
        for op in program.module.walk():
            if isinstance(op, PackedCallOp):
                return at(
                    op,
                    f"{op.name}: native code cannot call packed function '{op.callee.data}'; "
                    "run it on the reference or lowered backend",
                )
            if (dtype := _foreign_format(op)) is not None:
                return at(
                    op,
                    f"{op.name}: native code cannot compute {dtype} (mlir-opt-22 lowers no "
                    "correctly rounded conversion to it); run it on the reference or lowered "
                    "backend",
                )
        return None

    def compile(self, program: Program, entry: str) -> Compiled:
        function = program.function(entry)
        options = program.options
        parallel = options.threads > 1
        key = program_key(program.module, options.tile, parallel)
        native = cached_library(key)
        if native is None:
            units = split_units(native_module(program), options.tile)
            native = compile_units(units, options.tile, parallel)
            remember(key, native)

        def call(args: list[object]) -> list[object]:
            try:
                return native.call(entry, args, options.memory_limit, options.threads)
            except LoweredCheckError as failure:  # an unlocated one: memory ran out
                if located(str(failure)).location is not None:
                    raise
                raise RelaxRuntimeError(function, f"@{entry}: {failure}") from None

        return LoweredEntry(function, call)
