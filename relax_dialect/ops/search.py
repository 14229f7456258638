"""Search operators (TVM's ``tensor/search.cc``): ``where``, ``argmax``, ``argmin``."""

from __future__ import annotations

from xdsl.ir import Operation

OPERATIONS: list[type[Operation]] = []
