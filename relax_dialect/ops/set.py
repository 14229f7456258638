"""Set operators with data-dependent shapes (TVM's ``tensor/set.cc``): ``unique``, ``nonzero``."""

from __future__ import annotations

from xdsl.ir import Operation

OPERATIONS: list[type[Operation]] = []
