"""Pooling (TVM's ``nn/pooling.cc``)."""

from __future__ import annotations

from xdsl.ir import Operation

OPERATIONS: list[type[Operation]] = []
