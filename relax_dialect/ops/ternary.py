"""Element-wise ternary operators (TVM's ``tensor/ternary.cc``): ``ewise_fma``."""

from __future__ import annotations

from xdsl.ir import Operation

OPERATIONS: list[type[Operation]] = []
