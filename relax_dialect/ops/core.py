"""Operators of TVM's ``op.cc``: shapes and sizes, null, print and assert, in-place
and closure calls."""

from __future__ import annotations

from xdsl.ir import Operation

OPERATIONS: list[type[Operation]] = []
