"""Indexing operators (TVM's ``tensor/index.cc``): ``take``, ``strided_slice``,
``dynamic_strided_slice``."""

from __future__ import annotations

from xdsl.ir import Operation

OPERATIONS: list[type[Operation]] = []
