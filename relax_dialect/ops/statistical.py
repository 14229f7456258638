"""Reductions and scans (TVM's ``tensor/statistical.cc``)."""

from __future__ import annotations

from xdsl.ir import Operation

OPERATIONS: list[type[Operation]] = []
