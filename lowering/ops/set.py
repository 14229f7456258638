"""Set operators: ``unique`` and ``nonzero`` have result lengths that depend on the
data, which the lowering does not compute: each is a located error naming it."""

from __future__ import annotations

from typing import NoReturn

from relax_dialect.ops.set import NonzeroOp, UniqueOp

from ..lowerer import Lowerer
from . import lowers


@lowers(UniqueOp, NonzeroOp)
def lower_data_dependent(lw: Lowerer, op: UniqueOp | NonzeroOp) -> NoReturn:
    lw.error(op, f"{op.name} cannot be lowered: the length of its result depends on the data")
