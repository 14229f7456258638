"""Sorting operators (TVM's ``tensor/sorting.cc``): ``sort``, ``argsort``, ``topk``."""

from __future__ import annotations

from xdsl.ir import Operation

OPERATIONS: list[type[Operation]] = []
