"""``relax-fuse-by-pattern``: the pattern language of ``relax_dialect.patterns``,
where patterns come from, the Python API, and results before and after fusion
on the reference interpreter."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from operator_harness import load
from xdsl.context import Context
from xdsl.dialects.builtin import IntegerAttr, ModuleOp, StringAttr
from xdsl.ir import Operation
from xdsl.passes import PassPipeline
from xdsl.utils.exceptions import PassFailedException

from relax_dialect.analysis.call_graph import function_named, functions
from relax_dialect.interpreter import run
from relax_dialect.passes.fuse_by_pattern import (
    FuseByPatternPass,
    fuse_by_pattern,
    load_patterns,
)
from relax_dialect.patterns import (
    BUILTIN_PATTERNS,
    FusionPattern,
    Match,
    Pattern,
    is_const,
    is_op,
    is_tuple_get_item,
    match_at,
    wildcard,
)
from relax_dialect.rewriting.outline_groups import block_bindings, dataflow_blocks
from relax_dialect.values import flatten
from relax_dialect.well_formed import check_well_formed

BLOCK = """
relax.function @main(%x: !relax.tensor<[4, 4], f32>, %y: !relax.tensor<[4, 4], f32>) -> !relax.tuple<tensor<[4, 4], f32>, tensor<[4, 4], f32>, tensor<[4], f32>> {
  %a, %b, %s = relax.dataflow {
    %c = relax.constant dense<[4, 4], f32, 2.0>
    %e = relax.exp %x
    %m = relax.multiply %e, %c
    %a = relax.add %m, %e
    %t = relax.split %y {indices_or_sections = 2, axis = 0}
    %t1 = relax.tuple_get_item %t[1]
    %b = relax.matmul %x, %y {out_dtype = f32}
    %s = relax.sum %t1 {axis = [0]}
    relax.output %a, %b, %s
  }
  %r = relax.tuple(%a, %b, %s)
  relax.return %r
}
"""


def bindings(module: ModuleOp) -> dict[str, Operation]:
    """The bindings of the first dataflow block of ``@main``, by result name."""
    main = function_named(module, "main")
    assert main is not None
    return {op.results[0].name_hint or "": op for op in block_bindings(dataflow_blocks(main)[0])}


def match(pattern: Pattern, root: str, **annotations: Pattern) -> Match | None:
    ops = bindings(load(BLOCK))
    position = {op: i for i, op in enumerate(ops.values())}
    return match_at(pattern, ops[root], position, annotations)


def names(found: Match | None) -> list[str | None]:
    assert found is not None
    return [op.results[0].name_hint for op in found.ops]


def test_call_patterns_match_operands_in_order() -> None:
    x, c, rest = wildcard(), is_const(), wildcard()
    pattern = is_op("relax.add")(is_op("relax.multiply")(is_op("relax.exp")(x), c), rest)
    found = match(pattern, "a", x=x, c=c, rest=rest)
    assert found is not None and names(found) == ["e", "m", "a"]
    assert [found.annotations[k].name_hint for k in ("x", "c", "rest")] == ["x", "c", "e"]
    swapped = is_op("relax.add")(is_op("relax.multiply")(c, is_op("relax.exp")(x)), rest)
    assert match(swapped, "a") is None
    assert match(is_op("relax.add")(wildcard()), "a") is None  # arity


def test_is_op_alone_takes_any_operands_and_names_alternatives() -> None:
    assert names(match(is_op("relax.add", "relax.subtract"), "a")) == ["a"]
    assert match(is_op("relax.subtract"), "a") is None


def test_attribute_constraints_read_defaults_and_data_types() -> None:
    assert match(is_op("relax.matmul").has_attr(out_dtype="float32"), "b") is not None
    assert match(is_op("relax.matmul").has_attr(out_dtype="f16"), "b") is None
    assert match(is_op("relax.sum").has_attr(axis=[0], keepdims=False), "s") is not None
    assert match(is_op("relax.sum").has_attr(keepdims=True), "s") is None


def test_intermediate_values_must_not_escape_unless_allowed() -> None:
    """``e`` is used by ``m`` and by ``a``: rooted at ``m``, it escapes."""
    assert match(is_op("relax.multiply")(is_op("relax.exp")(wildcard()), wildcard()), "m") is None
    escaping = is_op("relax.exp")(wildcard()).allow_escape()
    assert names(match(is_op("relax.multiply")(escaping, wildcard()), "m")) == ["e", "m"]
    # rooted at a, e's uses (m and a) are all inside the match
    inner = is_op("relax.exp")(wildcard())
    pattern = is_op("relax.add")(is_op("relax.multiply")(inner, is_const()), inner)
    assert names(match(pattern, "a")) == ["e", "m", "a"]


def test_a_pattern_used_twice_matches_one_value() -> None:
    same = wildcard()
    assert match(is_op("relax.add")(same, same), "a") is None
    e = is_op("relax.exp")(wildcard())
    assert match(is_op("relax.add")(is_op("relax.multiply")(e, wildcard()), e), "a") is not None


def test_alternatives_undo_what_a_failed_one_bound() -> None:
    """The left alternative binds ``v`` to ``m`` before failing; the right one
    must then be free to bind it to ``e``."""
    v = wildcard()
    left = is_op("relax.add")(v, is_op("relax.exp")(v))
    right = is_op("relax.add")(wildcard(), v)
    found = match(left | right, "a", v=v)
    assert found is not None and found.annotations["v"].name_hint == "e"


def test_tuple_get_item_and_the_root() -> None:
    split = is_op("relax.split")(wildcard())
    assert names(match(is_op("relax.sum")(is_tuple_get_item(split)), "s")) == ["t", "t1", "s"]
    assert match(is_op("relax.sum")(is_tuple_get_item(split, 0)), "s") is None
    assert match(wildcard(), "s") is None  # the root must be an operator pattern


def test_check_and_attributes_callbacks() -> None:
    module = load(BLOCK)
    seen: list[Match] = []

    def check(found: Match) -> bool:
        seen.append(found)
        return found.annotations["lhs"].name_hint == "x"

    lhs = wildcard()
    fusion = FusionPattern(
        "lib.matmul",
        is_op("relax.matmul")(lhs, wildcard()),
        {"lhs": lhs},
        check,
        lambda found: {"num_ops": IntegerAttr(len(found.ops), 64)},
    )
    fuse_by_pattern(module, [fusion])
    assert [m.root.name for m in seen] == ["relax.matmul"]
    fused = function_named(module, "fused_relax_matmul")
    assert fused is not None
    assert fused.attributes["Composite"] == StringAttr("lib.matmul")
    assert fused.attributes["num_ops"] == IntegerAttr(1, 64)
    rejecting = FusionPattern("lib.exp", is_op("relax.exp"), check=lambda found: False)
    fuse_by_pattern(module, [rejecting])
    assert function_named(module, "fused_relax_exp") is None


def test_load_patterns(tmp_path: Path) -> None:
    assert load_patterns("builtin") == list(BUILTIN_PATTERNS.values())
    assert load_patterns("builtin:matmul") == [BUILTIN_PATTERNS["matmul"]]
    assert load_patterns("relax_dialect.patterns:BUILTIN_PATTERNS") == load_patterns("builtin")
    source = tmp_path / "mine.py"
    source.write_text(
        "from relax_dialect.patterns import FusionPattern, is_op\n"
        "PATTERNS = [FusionPattern('a.exp', is_op('relax.exp'))]\n"
        "ONE = FusionPattern('a.tanh', is_op('relax.tanh'))\n"
        "OTHER = 3\n"
    )
    assert [p.name for p in load_patterns(str(source))] == ["a.exp"]
    assert [p.name for p in load_patterns(f"{source}:ONE")] == ["a.tanh"]
    for bad in ("builtin:nope", f"{source}:OTHER", f"{source}:MISSING", "no_such_module:X"):
        with pytest.raises(PassFailedException):
            load_patterns(bad)


PROGRAMS = {
    "builtin": """
relax.function @main(%x: !relax.tensor<[n, 4], f32>, %w: !relax.tensor<[4, 8], f32>, %b: !relax.tensor<[8], f32>) -> !relax.tensor<[n, 8], f32> {
  %y = relax.dataflow {
    %c = relax.constant dense<[8], f32, [0.5, -1.0, 2.0, 0.0, 1.5, -0.5, 3.0, 1.0]>
    %lv = relax.matmul %x, %w
    %lv1 = relax.add %lv, %c
    %lv2 = relax.nn.relu %lv1
    %t = relax.permute_dims %w
    %lv3 = relax.matmul %lv2, %t
    %lv4 = relax.matmul %lv3, %w
    %e = relax.tanh %lv4
    %lv5 = relax.subtract %b, %e
    %lv6 = relax.multiply %lv5, %e
    relax.output %lv6
  }
  relax.return %y
}
""",
    "escape_and_cycle": """
relax.function @main(%x: !relax.tensor<[3, 5], f32>, %y: !relax.tensor<[3, 5], f32>) -> !relax.tensor<[3, 5], f32> {
  %r = relax.dataflow {
    %e = relax.exp %x
    %s = relax.sigmoid %e
    %a = relax.add %e, %s
    %n = relax.negative %y
    %m = relax.multiply %n, %a
    %k = relax.abs %m
    %z = relax.subtract %k, %m
    relax.output %z
  }
  relax.return %r
}
""",
}


def inputs(module: ModuleOp, seed: int) -> list[np.ndarray]:
    rng = np.random.default_rng(seed)
    main = function_named(module, "main")
    assert main is not None
    shapes = (
        {"x": (3, 4), "w": (4, 8), "b": (8,)} if "w" in [p.name_hint for p in main.params] else {}
    )
    return [
        rng.uniform(-1, 1, shapes.get(p.name_hint or "", (3, 5))).astype("float32")
        for p in main.params
    ]


@pytest.mark.parametrize("name", sorted(PROGRAMS))
@pytest.mark.parametrize(
    "options",
    [
        {},
        {"bind_constants": False},
        {"annotate_codegen": True},
    ],
)
def test_fusion_preserves_results(name: str, options: dict[str, bool]) -> None:
    module = load(PROGRAMS[name])
    args = inputs(module, 0)
    before = flatten(run(module, "main", *args))
    spec = FuseByPatternPass(patterns=("builtin",), **options)
    spec.apply(Context(), module)
    assert check_well_formed(module) == []
    assert any("Composite" in f.attributes for f in functions(module))
    after = flatten(run(module, "main", *args))
    for want, got in zip(before, after, strict=True):
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6)
    text = str(module)
    spec.apply(Context(), module)
    assert str(module) == text


def test_annotated_composites_are_called_through_one_wrapper() -> None:
    module = load(PROGRAMS["builtin"])
    fuse_by_pattern(module, load_patterns("builtin"), annotate_codegen=True)
    wrappers = [f for f in functions(module) if "Codegen" in f.attributes]
    assert sorted(f.sym_name.data for f in wrappers) == [
        "fused_relax_matmul_builtin",
        "fused_relax_matmul_relax_add_relax_nn_relu_builtin",
        "fused_relax_permute_dims_relax_matmul_builtin",
        "fused_relax_tanh_relax_subtract_builtin",
    ]
    assert all(f.global_symbol is not None for f in wrappers)
    assert {f.attributes["Codegen"] for f in wrappers} == {StringAttr("builtin")}


def test_entry_functions() -> None:
    text = PROGRAMS["escape_and_cycle"]
    module = load(text + text.replace("@main", "@other"))
    fuse_by_pattern(module, load_patterns("builtin"), entry_functions=["other"])
    main, other = function_named(module, "main"), function_named(module, "other")
    assert main is not None and other is not None
    assert "relax.call" not in str(main) and "relax.call" in str(other)
    with pytest.raises(PassFailedException):
        fuse_by_pattern(module, load_patterns("builtin"), entry_functions=["missing"])


def test_a_match_whose_escaping_value_flows_back_is_not_fused() -> None:
    """exp + add around sigmoid(exp) would be a cycle; the other two groups are fused."""
    module = load(PROGRAMS["escape_and_cycle"])
    fuse_by_pattern(module, load_patterns("builtin"))
    assert sorted(f.sym_name.data for f in functions(module)) == [
        "fused_relax_abs_relax_subtract",
        "fused_relax_negative_relax_multiply",
        "main",
    ]


def test_options_from_a_pipeline_spec_and_no_patterns() -> None:
    spec = 'relax-fuse-by-pattern{patterns="builtin:matmul","builtin:unary_binary" bind-constants=false}'
    (parsed,) = PassPipeline.parse_spec(
        {FuseByPatternPass.name: lambda: FuseByPatternPass}, spec
    ).passes
    assert parsed == FuseByPatternPass(("builtin:matmul", "builtin:unary_binary"), False)
    module = load(PROGRAMS["builtin"])
    text = str(module)
    FuseByPatternPass().apply(Context(), module)  # TVM's test_no_op_if_no_patterns_match
    assert str(module) == text
