"""``relax-fuse-ops``: results before and after fusion on the reference interpreter,
the pattern kinds of operators, and ``GroupFuser``, the outlining that
``relax-fuse-by-pattern`` shares."""

from __future__ import annotations

import numpy as np
import pytest
from operator_harness import load
from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp, StringAttr

from relax_dialect.analysis.call_graph import function_named
from relax_dialect.analysis.walk import walk_ops
from relax_dialect.interpreter import run
from relax_dialect.ops.fusion import OpPattern, operator_pattern
from relax_dialect.ops.operator import OperatorOp
from relax_dialect.passes.fuse_ops import FuseOpsPass
from relax_dialect.rewriting.outline_groups import (
    PRIMITIVE,
    Group,
    GroupFuser,
    block_bindings,
    dataflow_blocks,
)
from relax_dialect.values import flatten
from relax_dialect.well_formed import check_well_formed

PROGRAMS = {
    "conv2d_epilogue": """
relax.function @main(%x: !relax.tensor<[1, 2, 5, 5], f32>, %w: !relax.tensor<[2, 2, 3, 3], f32>) -> !relax.tensor<[1, 2, 5, 5], f32> {
  %gv = relax.dataflow {
    %c = relax.constant dense<[], f32, 0.5>
    %a = relax.add %x, %c
    %b = relax.nn.conv2d %a, %w {padding = [1, 1, 1, 1]}
    %d = relax.add %c, %b
    %e = relax.add %b, %d
    %f = relax.nn.conv2d %e, %w {padding = [1, 1, 1, 1]}
    %g = relax.nn.relu %f
    relax.output %g
  }
  relax.return %gv
}
""",
    "split_fields": """
relax.function @main(%x: !relax.tensor<[1, 2, 5, 5], f32>, %w: !relax.tensor<[2, 2, 3, 3], f32>) -> !relax.tensor<[2, 5, 5], f32> {
  %gv = relax.dataflow {
    %s = relax.split %x {indices_or_sections = 2, axis = 1}
    %s0 = relax.tuple_get_item %s[0]
    %s1 = relax.tuple_get_item %s[1]
    %e = relax.exp %s0
    %t = relax.tanh %s1
    %m = relax.multiply %e, %t
    %q = relax.squeeze %m {axis = [0]}
    %r = relax.tuple(%q, %q)
    %c = relax.concat %r {axis = 0}
    relax.output %c
  }
  relax.return %gv
}
""",
    "symbolic": """
relax.function @main(%x: !relax.tensor<[1, 2, 5, 5], f32>, %w: !relax.tensor<[2, 2, 3, 3], f32>) -> !relax.tensor<ndim = 4, f32> {
  %gv = relax.dataflow {
    %y = relax.match_cast %x : !relax.tensor<[1, 2, n, n], f32>
    %r = relax.sum %y {axis = [0, 1]}
    %sh = relax.shape [n, n]
    %zero = relax.constant dense<[], f32, 0.0>
    %z = relax.full %sh, %zero
    %k = relax.prim_value 1
    %u = relax.triu %z, %k
    %a = relax.add %u, %r
    %sh2 = relax.shape [1, 1, n, n]
    %b = relax.broadcast_to %a, %sh2
    relax.output %b
  }
  relax.return %gv
}
""",
}


def inputs() -> list[np.ndarray]:
    rng = np.random.default_rng(0)
    return [
        rng.standard_normal((1, 2, 5, 5)).astype("float32"),
        rng.standard_normal((2, 2, 3, 3)).astype("float32"),
    ]


def assert_same_results(before: ModuleOp, after: ModuleOp) -> None:
    assert check_well_formed(after) == []
    expected = flatten(run(before, "main", *inputs()))
    actual = flatten(run(after, "main", *inputs()))
    for e, a in zip(expected, actual, strict=True):
        np.testing.assert_allclose(np.asarray(a), np.asarray(e), rtol=1e-5, atol=1e-6)


def primitive_functions(module: ModuleOp) -> list[str]:
    return [
        op.sym_name.data  # pyright: ignore[reportAttributeAccessIssue]
        for op in module.body.block.ops
        if PRIMITIVE in op.attributes
    ]


@pytest.mark.parametrize("name", PROGRAMS)
def test_same_results_after_fusion(name: str) -> None:
    module = load(PROGRAMS[name])
    fused = module.clone()
    FuseOpsPass().apply(Context(), fused)
    assert primitive_functions(fused)
    assert_same_results(module, fused)


def test_options() -> None:
    module = load(PROGRAMS["conv2d_epilogue"])
    off = module.clone()
    FuseOpsPass(fuse_opt_level=0).apply(Context(), off)
    assert str(off) == str(module)
    shallow = module.clone()
    FuseOpsPass(max_depth=2).apply(Context(), shallow)
    assert primitive_functions(shallow) == ["fused_add_add", "fused_conv2d_relu"]
    deep = module.clone()
    FuseOpsPass().apply(Context(), deep)
    assert primitive_functions(deep) == ["fused_conv2d_add_add", "fused_conv2d_relu"]


@pytest.mark.parametrize(
    ("binding", "pattern"),
    [
        ("relax.add %x, %x", OpPattern.ELEMWISE),
        ("relax.add %x, %row", OpPattern.ELEMWISE),
        ("relax.add %col, %row", OpPattern.BROADCAST),
        ("relax.matmul %x, %x", OpPattern.OUT_EWISE_FUSABLE),
        ("relax.matmul %x, %v", OpPattern.COMM_REDUCE),
        ("relax.sum %x {axis = [1]}", OpPattern.COMM_REDUCE),
        ("relax.permute_dims %x", OpPattern.INJECTIVE),
        ("relax.nn.softmax %x", OpPattern.OUT_EWISE_FUSABLE),
        ("relax.cumsum %x {axis = 0}", OpPattern.OPAQUE),
        ("relax.exp %unknown", OpPattern.OPAQUE),
    ],
)
def test_operator_patterns(binding: str, pattern: OpPattern) -> None:
    module = load(f"""
relax.function @main(%x: !relax.tensor<[4, 4], f32>, %row: !relax.tensor<[1, 4], f32>, %col: !relax.tensor<[4, 1], f32>, %v: !relax.tensor<[4], f32>, %unknown: !relax.tensor<ndim = 2, f32>) -> !relax.object {{
  %r = {binding}
  relax.return %r
}}
""")
    op = next(op for op in walk_ops(module.body) if isinstance(op, OperatorOp))
    assert operator_pattern(op) == pattern


OUTLINE = """
relax.function @main(%x: !relax.tensor<[1, 2, 5, 5], f32>, %w: !relax.tensor<[2, 2, 3, 3], f32>) -> !relax.tuple<tensor<[1, 2, 5, 5], f32>, tensor<[1, 2, 5, 5], f32>> {
  %p, %q = relax.dataflow {
    %c = relax.constant dense<[], f32, 2.0>
    %a = relax.multiply %x, %c
    %b = relax.exp %a
    %d = relax.nn.conv2d %b, %w {padding = [1, 1, 1, 1]}
    %e = relax.subtract %a, %d
    relax.output %d, %e
  }
  %t = relax.tuple(%p, %q)
  relax.return %t
}
"""


def test_group_fuser_outlines_any_group() -> None:
    """A group with two values used outside, a constant copied in and an attribute."""
    module = load(OUTLINE)
    outlined = module.clone()
    main = function_named(outlined, "main")
    assert main is not None
    dataflow = dataflow_blocks(main)[0]
    c, a, b, _, _ = block_bindings(dataflow)
    fuser = GroupFuser(outlined, lambda op: op.name.split(".")[-1], lift_constants=False)
    group = Group([a, b], {"Composite": StringAttr("demo.mul_exp")})
    fuser.fuse_block(dataflow, [group], main)
    assert check_well_formed(outlined) == []
    function = function_named(outlined, "fused_multiply_exp")
    assert function is not None
    assert [str(t) for t in function.param_types()] == ["!relax.tensor<[1, 2, 5, 5], f32>"]
    assert function.attributes["Composite"] == StringAttr("demo.mul_exp")
    assert PRIMITIVE in function.attributes
    assert "relax.constant dense<[], f32, 2.0>" in str(function)
    assert "relax.tuple_get_item" in str(main)
    assert not c.results[0].uses and c.parent is None  # the unused copy's original is gone
    assert fuser.unique_name("fused_multiply_exp") == "fused_multiply_exp1"
    assert_same_results(module, outlined)
