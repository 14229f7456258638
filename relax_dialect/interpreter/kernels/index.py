"""Kernels of the indexing operators."""

from __future__ import annotations

from ...ops.operator import OperatorOp
from .common import KernelFactory

KERNELS: dict[type[OperatorOp], KernelFactory] = {}
