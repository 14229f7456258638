"""Data-type conversion (TVM's ``tensor/datatype.cc``): ``astype``."""

from __future__ import annotations

from xdsl.ir import Operation

OPERATIONS: list[type[Operation]] = []
