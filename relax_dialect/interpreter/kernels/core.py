"""Kernels of the operators of TVM's ``op.cc``: shapes and sizes, null, print and
assert, in-place and closure calls."""

from __future__ import annotations

from ...ops.operator import OperatorOp
from .common import KernelFactory

KERNELS: dict[type[OperatorOp], KernelFactory] = {}
