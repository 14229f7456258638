"""NumPy semantics of the Relax operators (TVM's numerics), one module per operator
family, and their registry.

A family module here has the name of the ``relax_dialect/ops`` module defining its
operators (``binary.py`` evaluates the operators of ``relax_dialect/ops/binary.py``;
the families are ``relax_dialect.ops.OPERATOR_FAMILIES``) and registers a kernel
factory per operator with ``@evaluates(AddOp, SubtractOp, ...)``. ``kernel_for(op)``
imports the family module of ``op`` the first time one of its operators is evaluated
(``kernel_factory``), and builds, once per operation, a function from the operands'
run-time values to the result. ``arithmetic.py`` holds the numerics several families
share. The reference interpreter and ``relax-fold-constant`` evaluate operators here,
and the lowering reuses the numerics (``arithmetic``, the SELU constants, ``print``'s
formatting); nothing here imports any of them.
"""

from __future__ import annotations

from collections.abc import Callable
from importlib import import_module
from typing import TypeVar

from xdsl.ir import Operation

from ..ops import family_of
from ..ops.datatype import ConvertOp
from ..ops.operator import OperatorOp
from .common import Kernel, KernelFactory, through_float32

KERNELS: dict[type[OperatorOp], KernelFactory] = {}
"""The kernel factory of each operator class (of the families loaded so far)."""

KERNEL_ERRORS = (ValueError, TypeError, ArithmeticError, IndexError)
"""What a kernel raises on operands it rejects (the interpreter reports these at run
time; constant folding leaves the operation)."""

_LOADED: set[str] = set()

Factory = TypeVar("Factory", bound=Callable[..., Kernel])


def evaluates(*operators: type[OperatorOp]) -> Callable[[Factory], Factory]:
    """Register the decorated kernel factory (a function of the operation, called once
    per operation) as the kernel of ``operators``."""

    def register(factory: Factory) -> Factory:
        for operator in operators:
            KERNELS[operator] = factory
        return factory

    return register


def kernel_factory(operator: type[Operation]) -> KernelFactory | None:
    """The kernel factory of an operator class (loading its family); None if it has
    none."""
    factory = KERNELS.get(operator)  # pyright: ignore[reportArgumentType]
    if factory is None:
        family = family_of(operator)
        if family is None or family in _LOADED:
            return None
        _LOADED.add(family)
        import_module(f"{__name__}.{family}")
        factory = KERNELS.get(operator)  # pyright: ignore[reportArgumentType]
    return factory


def kernel_for(op: Operation) -> Kernel | None:
    """The NumPy implementation of operator ``op``; None if it has none. Operators on
    the extension float formats compute in ``float32`` (``common.through_float32``), except
    the conversions, which define them."""
    factory = kernel_factory(type(op))
    if factory is None:
        return None
    kernel = factory(op)  # pyright: ignore[reportArgumentType]
    return kernel if isinstance(op, ConvertOp) else through_float32(op, kernel)


__all__ = [
    "KERNELS",
    "KERNEL_ERRORS",
    "Kernel",
    "KernelFactory",
    "evaluates",
    "kernel_factory",
    "kernel_for",
]
