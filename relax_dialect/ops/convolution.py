"""Convolutions (TVM's ``nn/convolution.cc``)."""

from __future__ import annotations

from xdsl.ir import Operation

OPERATIONS: list[type[Operation]] = []
