"""NumPy semantics of the Relax operators, one module per operator family.

Shared by the interpreter and by passes that evaluate operators (constant
folding): ``kernel_for(op)`` builds, once per operation, a function from the
operands' run-time values to the result.
"""

from __future__ import annotations

from xdsl.ir import Operation

from . import (
    binary,
    convolution,
    core,
    create,
    datatype,
    image,
    index,
    linear_algebra,
    manipulate,
    nn,
    pooling,
    search,
    set,
    sorting,
    statistical,
    ternary,
    unary,
)
from .common import Kernel, KernelFactory

FAMILIES = (
    unary,
    binary,
    ternary,
    search,
    statistical,
    linear_algebra,
    manipulate,
    index,
    create,
    datatype,
    sorting,
    set,
    nn,
    convolution,
    pooling,
    image,
    core,
)
KERNELS: dict[type[Operation], KernelFactory] = {
    op: factory for family in FAMILIES for op, factory in family.KERNELS.items()
}


def kernel_for(op: Operation) -> Kernel | None:
    """The NumPy implementation of operator ``op``; None if it has none."""
    factory = KERNELS.get(type(op))
    return None if factory is None else factory(op)  # pyright: ignore[reportArgumentType]


__all__ = ["KERNELS", "Kernel", "kernel_for"]
