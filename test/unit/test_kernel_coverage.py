"""Generated from the operator list (``relax_dialect.ops.OPERATOR_FAMILIES``): every
operator has a NumPy kernel, registered by its family's module, which loads on first
use only."""

from __future__ import annotations

import subprocess
import sys
from importlib import import_module

import pytest

from relax_dialect.dialect import OPERATIONS, STRUCTURE
from relax_dialect.numerics import kernel_factory
from relax_dialect.ops import OPERATOR_FAMILIES, family_of, operator_families
from relax_dialect.ops.operator import OperatorOp

OPERATORS = [
    op for family in operator_families() for op in family.OPERATIONS if issubclass(op, OperatorOp)
]


def test_the_dialect_is_the_structure_and_the_families() -> None:
    families = [op for family in operator_families() for op in family.OPERATIONS]
    assert STRUCTURE + families == OPERATIONS
    assert len(OPERATOR_FAMILIES) == 20 and len(OPERATORS) == 174


@pytest.mark.parametrize("family", OPERATOR_FAMILIES)
def test_each_family_has_its_kernel_module(family: str) -> None:
    import_module(f"relax_dialect.numerics.{family}")


@pytest.mark.parametrize("operator", OPERATORS, ids=lambda op: op.name)
def test_every_operator_has_a_kernel(operator: type[OperatorOp]) -> None:
    assert family_of(operator) is not None, f"{operator.name} is not defined in a family module"
    assert kernel_factory(operator) is not None, (
        f"{operator.name} has no kernel: register one with @evaluates in "
        f"relax_dialect/numerics/{family_of(operator)}.py"
    )


def test_a_kernel_loads_its_family_only() -> None:
    """Evaluating ``relax.add`` imports the binary kernels, not the others."""
    probe = (
        "import sys\n"
        "from relax_dialect.numerics import kernel_factory\n"
        "from relax_dialect.ops.binary import AddOp\n"
        "assert kernel_factory(AddOp) is not None\n"
        "print(*(m for m in sys.modules if m.startswith('relax_dialect.')))\n"
    )
    output = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True
    ).stdout.split()
    kernels = {m.rpartition(".")[2] for m in output if m.startswith("relax_dialect.numerics.")}
    assert kernels == {"arithmetic", "binary", "common"}
    assert not any(m.startswith("relax_dialect.interpreter") for m in output)
