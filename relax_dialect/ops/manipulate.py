"""Shape manipulation operators (TVM's ``tensor/manipulate.cc``)."""

from __future__ import annotations

from xdsl.ir import Operation

OPERATIONS: list[type[Operation]] = []
