"""Tensor creation operators (TVM's ``tensor/create.cc``)."""

from __future__ import annotations

from xdsl.ir import Operation

OPERATIONS: list[type[Operation]] = []
