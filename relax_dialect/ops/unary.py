"""Element-wise unary operators (TVM's ``src/relax/op/tensor/unary.cc``)."""

from __future__ import annotations

from xdsl.ir import Operation

OPERATIONS: list[type[Operation]] = []
