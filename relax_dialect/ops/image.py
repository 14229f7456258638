"""Image operators (TVM's ``image/resize.cc``): ``image.resize2d``."""

from __future__ import annotations

from xdsl.ir import Operation

OPERATIONS: list[type[Operation]] = []
