"""Checking again between passes: skipped only when the module is unchanged, which
the snapshot must notice for every kind of in-place change a pass can make, and
otherwise finding what the full check finds while re-running the operations' own
verifiers only where the module changed."""

from __future__ import annotations

import gc
import random
import sys
import weakref
from collections.abc import Callable
from collections.abc import Set as AbstractSet
from dataclasses import dataclass
from pathlib import Path
from typing import ClassVar

import pytest
from xdsl.context import Context
from xdsl.dialects.arith import Arith
from xdsl.dialects.builtin import Builtin, FunctionType, ModuleOp, StringAttr, i32, i64
from xdsl.dialects.func import Func, FuncOp
from xdsl.ir import Operation, OpResult, SSAValues
from xdsl.passes import ModulePass
from xdsl.rewriter import Rewriter

from relax_dialect import recheck, well_formed
from relax_dialect.diagnostics import Diagnostic, DiagnosticError
from relax_dialect.dialect import Relax
from relax_dialect.dtype import FLOAT32
from relax_dialect.frontends.mlir import parse_module
from relax_dialect.ops.control_flow import IfOp
from relax_dialect.ops.functions import FunctionOp
from relax_dialect.passes import pass_class, pipelines
from relax_dialect.passes.pipelines import O2Pass, Pipeline
from relax_dialect.prim_expr import Var
from relax_dialect.recheck import ir_snapshot, recheck_well_formed
from relax_dialect.types import TensorType
from relax_dialect.well_formed import check_well_formed

sys.path.insert(0, str(Path(__file__).parents[1] / "passes"))
from random_programs import generate

PROGRAM = """\
relax.function @main(%x: !relax.tensor<[n, 4], f32>, %c: !relax.prim<bool>) -> !relax.tensor<[n, 4], f32> {
  %y = relax.add %x, %x : !relax.tensor<[n, 4], f32>
  %w = relax.multiply %x, %x : !relax.tensor<[n, 4], f32>
  %z = relax.if %c {
    %t = relax.add %y, %w : !relax.tensor<[n, 4], f32>
    relax.yield %t
  } else {
    relax.yield %y
  }
  relax.return %z
}
"""


def context() -> Context:
    ctx = Context()
    for dialect in (Builtin, Func, Arith, Relax):
        ctx.load_dialect(dialect)
    return ctx


def parse(text: str = PROGRAM) -> ModuleOp:
    return parse_module(context(), text, "input.mlir")


def function_of(module: ModuleOp) -> FunctionOp:
    return next(op for op in module.body.block.ops if isinstance(op, FunctionOp))


def main_ops(module: ModuleOp) -> list[Operation]:
    return list(function_of(module).body.block.ops)


def swap_operand(module: ModuleOp) -> None:
    main_ops(module)[0].operands[1] = function_of(module).body.block.args[1]


def retype_result(module: ModuleOp) -> None:
    Rewriter.replace_value_with_new_type(
        main_ops(module)[0].results[0], TensorType([Var("m"), 4], FLOAT32)
    )


def replace_result(module: ModuleOp) -> None:
    """A new result of the same type, its uses left on the old one (ill-formed)."""
    add = main_ops(module)[0]
    add.results = SSAValues([OpResult(add.results[0].type, add, 0)])


def set_property(module: ModuleOp) -> None:
    function_of(module).properties["sym_name"] = StringAttr("other")


def add_attribute(module: ModuleOp) -> None:
    main_ops(module)[0].attributes["note"] = StringAttr("x")


def swap_bindings(module: ModuleOp) -> None:
    add, multiply = main_ops(module)[:2]
    multiply.detach()
    assert add.parent is not None
    add.parent.insert_op_before(multiply, add)


def move_into_branch(module: ModuleOp) -> None:
    multiply, branch = main_ops(module)[1:3]
    assert isinstance(branch, IfOp)
    then = branch.then_region.block
    multiply.detach()
    assert then.first_op is not None
    then.insert_op_before(multiply, then.first_op)


def swap_branches(module: ModuleOp) -> None:
    branch = main_ops(module)[2]
    assert isinstance(branch, IfOp)
    then, otherwise = branch.then_region.block, branch.else_region.block
    branch.then_region.detach_block(then)
    branch.else_region.detach_block(otherwise)
    branch.then_region.add_block(otherwise)
    branch.else_region.add_block(then)


def test_a_block_moved_to_the_next_region_is_seen() -> None:
    """Two regions holding the blocks [b], [] become [], [b]: the same blocks in order."""
    module = parse()
    branch = main_ops(module)[2]
    assert isinstance(branch, IfOp)
    otherwise = branch.else_region.block
    branch.else_region.detach_block(otherwise)
    then = branch.then_region.block
    branch.then_region.detach_block(then)
    branch.then_region.add_block(then)
    before = ir_snapshot(module)
    branch.then_region.detach_block(then)
    branch.else_region.add_block(then)
    assert ir_snapshot(module) != before


def add_block_argument(module: ModuleOp) -> None:
    branch = main_ops(module)[2]
    branch.regions[0].block.insert_arg(branch.results[0].type, 0)


CHANGES: dict[str, Callable[[ModuleOp], None]] = {
    "operand": swap_operand,
    "result type": retype_result,
    "result": replace_result,
    "property": set_property,
    "attribute": add_attribute,
    "order": swap_bindings,
    "nesting": move_into_branch,
    "regions": swap_branches,
    "block argument": add_block_argument,
}


def test_an_unchanged_module_has_an_equal_snapshot() -> None:
    module = parse()
    assert ir_snapshot(module) == ir_snapshot(module)
    assert ir_snapshot(module) != ir_snapshot(parse())  # other objects, other program


@pytest.mark.parametrize("change", CHANGES.values(), ids=CHANGES.keys())
def test_every_kind_of_change_is_seen(change: Callable[[ModuleOp], None]) -> None:
    module = parse()
    before = ir_snapshot(module)
    change(module)
    assert ir_snapshot(module) != before


def retype_branch(module: ModuleOp) -> None:
    """The ``relax.if`` result's declared type changed: its yields read it."""
    Rewriter.replace_value_with_new_type(
        main_ops(module)[2].results[0], TensorType([Var("n"), 5], FLOAT32)
    )


def wrong_result_type(module: ModuleOp) -> None:
    """The type of ``%y`` contradicts the inferred one (the verifier of the add says so)."""
    Rewriter.replace_value_with_new_type(
        main_ops(module)[0].results[0], TensorType([Var("n"), 5], FLOAT32)
    )


def drop_terminator(module: ModuleOp) -> None:
    branch = main_ops(module)[2]
    assert isinstance(branch, IfOp)
    last = branch.else_region.block.last_op
    assert last is not None
    last.detach()
    last.erase()


def rename_symbolic_variable(module: ModuleOp) -> None:
    """The function's return type names ``m`` (bound nowhere): a context rule."""
    function = function_of(module)
    function.properties["ret_type"] = TensorType([Var("m"), 4], FLOAT32)


@pytest.mark.parametrize(
    "change",
    [
        *CHANGES.values(),
        retype_branch,
        wrong_result_type,
        drop_terminator,
        rename_symbolic_variable,
    ],
    ids=[*CHANGES.keys(), "branch type", "wrong type", "terminator", "return type"],
)
def test_a_recheck_finds_what_the_full_check_finds(change: Callable[[ModuleOp], None]) -> None:
    module = parse()
    assert recheck_well_formed(module, again=True) == []
    change(module)
    assert recheck_well_formed(module, again=False) == check_well_formed(module)


def test_only_stale_operations_are_verified_again(monkeypatch: pytest.MonkeyPatch) -> None:
    """A change to ``%y`` verifies it and its ancestors again, and no other operation
    of the module; a change to the branch's type, the branch and what it holds."""
    verified: list[str] = []
    original = well_formed._verify_operation  # pyright: ignore[reportPrivateUsage]

    def counting(op: Operation) -> None:
        verified.append(op.name)
        original(op)

    monkeypatch.setattr(well_formed, "_verify_operation", counting)
    monkeypatch.setattr(well_formed, "_signature", lambda op, parent: None)  # no memo
    module = parse()
    assert recheck_well_formed(module, again=True) == []
    add_attribute(module)
    verified.clear()
    assert recheck_well_formed(module, again=True) == []
    assert verified == ["builtin.module", "relax.function", "relax.add"]
    retype_branch(module)
    verified.clear()
    recheck_well_formed(module, again=False)
    assert verified == [
        "builtin.module",
        "relax.function",
        "relax.if",
        "relax.add",
        "relax.yield",
        "relax.yield",
        "relax.return",
    ]


def test_the_check_is_skipped_only_while_unchanged(monkeypatch: pytest.MonkeyPatch) -> None:
    checks: list[ModuleOp] = []

    def counting(module: ModuleOp, stale: AbstractSet[Operation] | None = None) -> list[object]:
        checks.append(module)
        return check_well_formed(module, stale)  # pyright: ignore[reportReturnType]

    monkeypatch.setattr(recheck, "check_well_formed", counting)
    module = parse()
    assert recheck_well_formed(module, again=True) == [] and len(checks) == 1
    assert recheck_well_formed(module, again=True) == [] and len(checks) == 1
    swap_bindings(module)  # %w first: still well formed
    assert recheck_well_formed(module, again=True) == [] and len(checks) == 2
    move_into_branch(module)  # %w inside the branch, used after it
    diagnostics = recheck_well_formed(module, again=True)
    assert len(checks) == 3 and "used before it is defined" in diagnostics[0].message
    assert recheck_well_formed(module, again=True) and len(checks) == 4  # never skipped


def test_no_snapshot_is_kept_when_no_check_follows() -> None:
    module = parse()
    recheck_well_formed(module, again=True)
    assert recheck._LAST_CLEAN[0][0] is module  # pyright: ignore[reportPrivateUsage]
    recheck_well_formed(module, again=False)
    assert recheck._LAST_CLEAN == []  # pyright: ignore[reportPrivateUsage]


def test_a_module_left_with_a_snapshot_is_freed_after_the_next_check() -> None:
    """As after a pass that raised between two checks: the snapshot refers to the
    module, so it must not outlive the next check of another module."""
    module = parse()
    recheck_well_formed(module, again=True)
    alive = weakref.ref(module)
    del module
    other = parse()
    recheck_well_formed(other, again=True)
    gc.collect()
    assert alive() is None
    assert recheck._LAST_CLEAN[0][0] is other  # pyright: ignore[reportPrivateUsage]
    assert recheck_well_formed(other, again=False) == []


@pytest.mark.parametrize("seed", range(12))
def test_rechecks_agree_with_full_checks_through_relax_o2(seed: int) -> None:
    """On random programs, after each pass of ``relax-o2``: skipped exactly when the
    printed program is unchanged, and then the full check finds nothing either."""
    ctx = context()
    module = generate(seed).module
    assert recheck_well_formed(module, again=True) == []
    text = str(module)
    for name in O2Pass.PASSES:
        pass_class(name)().apply(ctx, module)
        (_, previous), *_ = recheck._LAST_CLEAN  # pyright: ignore[reportPrivateUsage]
        assert recheck_well_formed(module, again=True) == check_well_formed(module) == []
        if ir_snapshot(module) == previous:
            assert str(module) == text, name
        text = str(module)


@dataclass(frozen=True)
class SinkFirstBinding(ModulePass):
    """A deliberately wrong pass: moves the first binding of @main after its use."""

    name = "test-sink-first-binding"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        block = function_of(op).body.block
        first, terminator = block.first_op, block.last_op
        assert first is not None and terminator is not None
        first.detach()
        block.insert_op_before(first, terminator)


@dataclass(frozen=True)
class BrokenPipeline(Pipeline):
    """``relax-normalize`` (which changes nothing here), then the wrong pass."""

    name = "test-broken-pipeline"
    PASSES: ClassVar[tuple[str, ...]] = ("relax-normalize", SinkFirstBinding.name)


@pytest.fixture
def counted_rechecks(monkeypatch: pytest.MonkeyPatch) -> list[bool]:
    """The ``again`` of each check inside a pipeline; the wrong pass registered."""
    calls: list[bool] = []

    def counting(module: ModuleOp, again: bool) -> list[Diagnostic]:
        calls.append(again)
        return recheck_well_formed(module, again)

    def with_broken(name: str) -> type[ModulePass]:
        return SinkFirstBinding if name == SinkFirstBinding.name else pass_class(name)

    monkeypatch.setattr(pipelines, "recheck_well_formed", counting)
    monkeypatch.setattr(pipelines, "pass_class", with_broken)
    return calls


def test_a_pipeline_checks_after_the_pass_that_broke_the_module(
    counted_rechecks: list[bool], monkeypatch: pytest.MonkeyPatch
) -> None:
    module = parse()
    assert recheck_well_formed(module, again=True) == []
    full: list[ModuleOp] = []
    monkeypatch.setattr(
        recheck, "check_well_formed", lambda m, s=None: full.append(m) or check_well_formed(m, s)
    )
    with pytest.raises(DiagnosticError) as error:
        BrokenPipeline().apply(context(), module)
    assert counted_rechecks == [True, False]
    assert len(full) == 1  # after relax-normalize: unchanged, not checked again
    message = error.value.diagnostics[0].message
    assert message.startswith(f"after pass {SinkFirstBinding.name}: %y is used before")


def test_verify_each_false_checks_nothing(counted_rechecks: list[bool]) -> None:
    module = parse()
    BrokenPipeline(verify_each=False).apply(context(), module)
    O2Pass(verify_each=False).apply(context(), parse())
    assert counted_rechecks == []
    assert check_well_formed(module)  # broken, and nobody looked


def mutate(module: ModuleOp, rng: random.Random) -> None:
    """One random in-place change to a binding of ``module``, well-formed or not: a
    result retyped, an operand replaced, a binding moved, or an annotation changed."""
    bindings = [
        op
        for op in module.walk()
        if op.results and not isinstance(op, FunctionOp) and op.parent_op() is not module
    ]
    values = [result for op in bindings for result in op.results]
    op = rng.choice(bindings)
    kind = rng.randrange(4)
    if kind == 0:
        Rewriter.replace_value_with_new_type(op.results[0], rng.choice(values).type)
    elif kind == 1 and op.operands:
        op.operands[rng.randrange(len(op.operands))] = rng.choice(values)
    elif kind == 2:
        target = rng.choice(bindings)
        if target is not op and not op.is_ancestor(target):
            op.detach()
            assert target.parent is not None
            target.parent.insert_op_before(op, target)
    else:
        function = next(f for f in module.body.block.ops if isinstance(f, FunctionOp))
        function.properties["ret_type"] = rng.choice(values).type


@pytest.mark.parametrize("seed", range(40))
def test_rechecks_of_random_changes_find_what_full_checks_find(seed: int) -> None:
    """The stale operations are enough: after random changes to random programs, the
    recheck reports exactly the full check's diagnostics."""
    rng = random.Random(seed)
    module = generate(seed % 12).module
    assert recheck_well_formed(module, again=True) == []
    for _ in range(rng.randrange(1, 4)):
        mutate(module, rng)
    assert recheck_well_formed(module, again=False) == check_well_formed(module)


def test_a_changed_parent_verifies_its_children_again() -> None:
    """``func.return`` checks its operands against its function's type: a new type on
    the function (the return unchanged) must reach the return's verifier."""
    module = parse(
        "func.func @f(%x: i32) -> i32 {\n  func.return %x : i32\n}\n"
        "relax.function @main(%x: !relax.tensor<[2], f32>) -> !relax.tensor<[2], f32> {\n"
        "  relax.return %x\n}\n"
    )
    assert recheck_well_formed(module, again=True) == []
    function = module.body.block.first_op
    assert isinstance(function, FuncOp)
    function.properties["function_type"] = FunctionType.from_lists([i32], [i64])
    diagnostics = recheck_well_formed(module, again=False)
    assert diagnostics == check_well_formed(module) != []
    location = diagnostics[0].location
    assert location is not None and location.line == 2  # at the func.return
