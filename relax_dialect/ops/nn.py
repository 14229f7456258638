"""Neural-network operators (TVM's ``nn/nn.cc`` and ``nn/attention.cc``): activations,
normalisations, losses, ``dropout``, ``pad``, ``attention``..."""

from __future__ import annotations

from xdsl.ir import Operation

OPERATIONS: list[type[Operation]] = []
