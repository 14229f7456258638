"""Long host functions split into parts (``lowering/host_parts.py``): where parts end, what
they take and return, and native results equal to the reference's."""

from __future__ import annotations

import numpy as np
import pytest
from test_kernels import HEADER
from toolchain_harness import needs_toolchain
from xdsl.dialects import func, tensor

from relax_dialect.frontends.tvmscript.frontend import parse_tvmscript
from relax_dialect.interpreter import run
from relax_xdsl.lowering import host_parts
from relax_xdsl.lowering.backends import compile_function
from relax_xdsl.lowering.kernels import KERNEL_PREFIX, outline_kernels
from relax_xdsl.lowering.pipeline import lower

PROGRAM = (
    HEADER
    + """    @R.function
    def main(x: R.Tensor(("n", 8), "float32"), w: R.Tensor((8, 8), "float32")
             ) -> R.Tensor(("n", 8), "float32"):
        n = T.int64()
        h = R.nn.relu(R.matmul(x, w))
        flat: R.Tensor((n * 8,), "float32") = R.reshape(h, (n * 8,))
        g = R.multiply(flat, R.const(2.0, "float32"))
        back: R.Tensor((n, 8), "float32") = R.reshape(g, (n, 8))
        cond = R.greater(R.sum(back), R.const(0.0, "float32"))
        if cond:
            y = R.add(back, x)
        else:
            y = R.subtract(back, x)
        z = R.nn.relu(R.matmul(y, w))
        u = R.add(z, h)
        return u
"""
)


def outlined(source: str = PROGRAM):
    module = lower(parse_tvmscript(source, "parts.py"))
    outline_kernels(module)
    return module


def functions(module) -> dict[str, func.FuncOp]:
    return {op.sym_name.data: op for op in module.body.block.ops if isinstance(op, func.FuncOp)}


@pytest.fixture(scope="module")
def cache(tmp_path_factory):
    return tmp_path_factory.mktemp("cache")


@pytest.fixture
def short_parts(monkeypatch):
    monkeypatch.setattr(host_parts, "PART_OPS", 2)
    monkeypatch.setattr(host_parts, "LONGEST_PART", 6)


def test_short_functions_stay_whole():
    module = outlined()
    before = set(functions(module))
    host_parts.split_long_functions(module)
    assert set(functions(module)) == before


def test_a_long_function_calls_its_parts_in_order(short_parts):
    module = outlined()
    length = len(list(functions(module)["main"].body.block.ops))
    host_parts.split_long_functions(module)
    module.verify()
    named = functions(module)
    main_ops = list(named["main"].body.block.ops)
    calls = [op.callee.string_value() for op in main_ops[:-1]]
    assert all(isinstance(op, func.CallOp) for op in main_ops[:-1])
    assert calls == [f"main.part{i}" for i in range(len(calls))] and len(calls) > 2
    parts = [named[name] for name in calls]
    assert all(p.sym_visibility.data == "private" and "no_inline" in p.attributes for p in parts)
    assert sum(len(list(p.body.block.ops)) - 1 for p in parts) == length - 1
    assert all(len(list(p.body.block.ops)) - 1 <= host_parts.LONGEST_PART for p in parts)


def test_kernels_stay_whole(short_parts):
    """A kernel longer than a part (a product and its epilogue) is the schedule's unit."""
    module = outlined()
    host_parts.split_long_functions(module)
    kernels = [name for name in functions(module) if name.startswith(KERNEL_PREFIX)]
    assert kernels and not any(".part" in name for name in kernels)


def test_a_part_does_not_end_handing_on_a_view(short_parts):
    """Views of memory a part does not own would be copied when it returns them."""
    module = outlined()
    host_parts.split_long_functions(module)
    for name, part in functions(module).items():
        if ".part" in name:
            returned = part.body.block.last_op
            for value in returned.operands:
                assert not isinstance(value.owner, tensor.CollapseShapeOp | tensor.ExpandShapeOp)


@needs_toolchain
@pytest.mark.parametrize("rows", [1, 3, 17])
def test_parts_compute_what_the_whole_function_does(short_parts, monkeypatch, cache, rows):
    monkeypatch.setenv("XDG_CACHE_HOME", str(cache))  # the module lowered, the kernels shared
    outlined: list[str] = []
    outline = host_parts._outline_part

    def recorded(ops, name):
        outlined.append(name)
        return outline(ops, name)

    monkeypatch.setattr(host_parts, "_outline_part", recorded)
    module = parse_tvmscript(PROGRAM, f"parts{rows}.py")  # its own program key
    rng = np.random.default_rng(rows)
    x = rng.standard_normal((rows, 8)).astype(np.float32)
    w = rng.standard_normal((8, 8)).astype(np.float32)
    got = compile_function(module, "main", "mlir")(x, w)
    np.testing.assert_allclose(got, run(module, "main", x, w), rtol=1e-5, atol=1e-5)
    assert len(outlined) > 2
