"""A signature is one binding site (as TVM checks it): a parameter may use a
compound dimension whose variables a later parameter binds. The TVMScript reader,
the MLIR reader with the checker, and the interpreter agree."""

from __future__ import annotations

import numpy as np
import pytest

from relax_dialect import frontends
from relax_dialect.interpreter import RelaxRuntimeError, run
from relax_dialect.well_formed import check_well_formed

TVMSCRIPT = """
from tvm.script import ir as I
from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor(("a * b",), "float32"), y: R.Tensor(("a", "b"), "float32")):
        z = R.add(x, x)
        return z
"""

MLIR = """
relax.function @main(%x: !relax.tensor<[a * b], f32>, %y: !relax.tensor<[a, b], f32>) {
  %z = relax.add %x, %x : !relax.tensor<[a * b], f32>
  relax.return %z
}
"""


@pytest.mark.parametrize(("frontend", "text"), [("tvmscript", TVMSCRIPT), ("mlir", MLIR)])
def test_a_parameter_may_use_variables_a_later_one_binds(frontend: str, text: str) -> None:
    module = frontends.lookup(frontend).read(frontends.default_context(), text, "input")
    assert check_well_formed(module) == []
    x = np.arange(6, dtype="float32")
    np.testing.assert_array_equal(run(module, "main", x, np.ones((2, 3), "float32")), 2 * x)
    with pytest.raises(RelaxRuntimeError, match="a \\* b"):
        run(module, "main", np.ones(5, "float32"), np.ones((2, 3), "float32"))
