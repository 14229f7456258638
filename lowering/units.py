"""Compilation units of native code: each kernel (``kernels.py``) compiled on its own, the
host functions in a unit of their own.

A kernel unit is a module holding one kernel function, compiled with a few others into one
object (``toolchain._batches``) that defines their symbols, each ``weak_odr``: a
kernel compiled twice (by two processes at once) may then reach a library in two objects.
The host unit keeps the rest of the module and, in place of each kernel, a *stub*: a
weak definition (LLVM's ``weak`` linkage: the linker takes the kernel object's definition,
and LLVM never inlines or analyses through it) whose body tells one-shot bufferization what
the kernel does at its boundary: it reads its tensor arguments (``bufferization.access``) and
returns fresh buffers (``bufferization.alloc_tensor`` copying its outputs), as the kernel's
real body does. With bodiless declarations instead, the analysis must assume every result
may alias every operand, which is quadratic in the calls (minutes for a few hundred).
Once the host is LLVM IR, its stubs become declarations (`stub_declarations`).

So each kernel is compiled (tiled, bufferized, optimised at ``KERNEL_LEVEL``) once, cached by its
text (identical kernels of several programs too), in parallel with the others, and the host
function of thousands of calls is optimised at ``HOST_LEVEL`` and ``HOST_CODEGEN_LEVEL``,
where ``-O3`` takes minutes and buys nothing: it allocates and calls.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from xdsl.dialects import bufferization, func, tensor
from xdsl.dialects.builtin import (
    ArrayAttr,
    DictionaryAttr,
    ModuleOp,
    StringAttr,
    TensorType,
)
from xdsl.dialects.linalg.ops import LinalgStructuredOperation
from xdsl.dialects.llvm import LinkageAttr

from relax_dialect.memo_printer import print_module

from .constant_data import drop_unused_constants, link_large_constants
from .flat_rows import flatten_rows
from .implicit_gemm import gather_convolutions
from .in_place_epilogues import epilogues_in_place
from .kernels import KERNEL_PREFIX
from .parameter_filters import parameter_filter_products
from .phase_split import split_phases
from .pointwise_convolution import pointwise_products
from .prepacked_weights import prepack_weights
from .tiling import host_tile
from .unit_broadcasts import drop_unit_broadcasts
from .unpacked_products import mark_unpacked_products
from .weight_arguments import pass_weights
from .window_taps import unroll_windows

KERNEL_LEVEL = "-O2"
"""``opt-22``/``llc-22`` level of the kernels and of a module compiled whole: ``-O3`` took 60%
more of the tools' time on ResNet-18 and the BERT layer for the same run time (the tiled
kernels are vectorised before LLVM sees them; ``-O2`` keeps LLVM's loop and SLP vectorisers
for the others), see docs/benchmarks.md."""
HOST_LEVEL = "-O1"
"""``opt-22`` level of the host unit: ``-O3`` spent over five minutes on a host function of
5,000 calls, ``-O1`` 8.8 s; see docs/benchmarks.md."""
HOST_CODEGEN_LEVEL = "-O0"
"""``llc-22`` level of the host unit: on the same function ``-O1`` ran over half a minute of
CPU, ``-O0`` (fast instruction selection and register allocation) 2.8 s."""
SPLIT_FROM_KERNELS = 4
"""Modules with fewer kernels compile as one unit (four tools' start-ups per unit cost more
than they save on small programs)."""

READ_ONLY = DictionaryAttr({"bufferization.access": StringAttr("read")})
NO_ATTRS = DictionaryAttr({})


@dataclass(frozen=True)
class Unit:
    """MLIR text compiled into one object."""

    name: str
    text: str
    level: str
    """The ``opt-22`` optimisation level."""
    codegen_level: str
    """The ``llc-22`` optimisation level."""
    entry: bool
    """Whether it holds the public functions (their C wrappers, the entry shim)."""
    data: dict[str, bytes] = field(default_factory=dict[str, bytes])
    """The bytes of the external globals it reads (`constant_data`), by symbol."""
    scheduled: bool = True
    """Whether the tiling schedule applies to it, when compiling tiled: not to the host, whose
    linalg operations are those inside loops and branches (the schedule's rewrites break the
    equivalence of a loop's carried buffers, as outlining them would)."""


def whole_module(text: str) -> Unit:
    """The whole module as one unit."""
    return Unit("module", text, KERNEL_LEVEL, KERNEL_LEVEL, entry=True)


def _unit(
    name: str, module: ModuleOp, levels: tuple[str, str], entry: bool, scheduled: bool = True
) -> Unit:
    """The unit of ``module``, its large constants linked as data (`constant_data`)."""
    data = link_large_constants(module)
    text = print_module(module, generic=True)
    return Unit(name, text, *levels, entry=entry, data=data, scheduled=scheduled)


def _kernels(module: ModuleOp) -> list[func.FuncOp]:
    return [
        op
        for op in module.body.block.ops
        if isinstance(op, func.FuncOp) and op.sym_name.data.startswith(KERNEL_PREFIX)
    ]


def _stub(kernel: func.FuncOp) -> None:
    """Turn ``kernel`` (in place) into its weak stub (its other operations erased)."""
    returned = kernel.body.block.last_op
    assert isinstance(returned, func.ReturnOp)
    root = returned.operands[0].owner
    if isinstance(root, tensor.InsertSliceOp):  # an assembly: its destination, empty
        while isinstance(root, tensor.InsertSliceOp):
            root = root.dest.owner
        assert isinstance(root, tensor.EmptyOp)
        returned.operands = [root.results[0]]
    else:
        assert isinstance(root, LinalgStructuredOperation)
        for output, result in zip(root.outputs, root.results, strict=True):
            fresh = bufferization.AllocTensorOp(result.type, copy=output)
            kernel.body.block.insert_op_before(fresh, root)
            result.replace_all_uses_with(fresh.results[0])
        root.detach()
        root.erase()
    for op in reversed(list(kernel.body.block.ops)):  # an epilogue's contraction
        if op.results and not any(result.uses for result in op.results):
            op.detach()
            op.erase()
    inputs = kernel.function_type.inputs.data
    kernel.arg_attrs = ArrayAttr(
        [READ_ONLY if isinstance(t, TensorType) else NO_ATTRS for t in inputs]
    )
    kernel.attributes["llvm.linkage"] = LinkageAttr("weak")


def split_units(module: ModuleOp, tile: bool) -> list[Unit]:
    """The units of the outlined ``module`` (which becomes the host's, stubs in place of its
    kernels): one per kernel, whose strided windows read their input split into phases
    (`phase_split`) and constant weights are packed at compile time when tiled
    (`prepacked_weights`), and the host; untiled, the whole module when it has fewer than
    ``SPLIT_FROM_KERNELS`` kernels. Large constants are linked as data (`constant_data`)."""
    kernels = _kernels(module)
    if len(kernels) < SPLIT_FROM_KERNELS and not tile:
        return [_unit("module", module, (KERNEL_LEVEL, KERNEL_LEVEL), entry=True)]
    units: dict[str, Unit] = {}
    calls: dict[str, list[func.CallOp]] = {kernel.sym_name.data: [] for kernel in kernels}
    for op in module.walk():
        if isinstance(op, func.CallOp) and op.callee.root_reference.data in calls:
            calls[op.callee.root_reference.data].append(op)
    for kernel in kernels:
        unit = ModuleOp([kernel.clone()])
        if tile:
            epilogues_in_place(unit)
            split_phases(unit, host_tile())
            pointwise_products(unit, host_tile())
            flatten_rows(unit, host_tile())
            gather_convolutions(unit, host_tile())
            parameter_filter_products(unit, host_tile())
            prepack_weights(unit, host_tile())
            mark_unpacked_products(unit, host_tile())
            unroll_windows(unit)
            drop_unit_broadcasts(unit)
        name = pass_weights(unit, kernel, calls[kernel.sym_name.data])
        if name in units:  # the same kernel as another but for its weights
            kernel.detach()
            kernel.erase()
            continue
        for defined in _kernels(unit):
            defined.attributes["llvm.linkage"] = LinkageAttr("weak_odr")
        units[name] = _unit(name, unit, (KERNEL_LEVEL, KERNEL_LEVEL), entry=False)
        _stub(kernel)
    drop_unused_constants(module)
    host = _unit("host", module, (HOST_LEVEL, HOST_CODEGEN_LEVEL), entry=True, scheduled=False)
    return [host, *units.values()]
