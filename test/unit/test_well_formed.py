"""The checker on IR built in Python (the text parser already rejects some of these)."""

from __future__ import annotations

from collections.abc import Callable

from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Block, Region, SSAValue
from xdsl.traits import IsolatedFromAbove

from relax_dialect.dtype import FLOAT32
from relax_dialect.ops.binary import AddOp
from relax_dialect.ops.dataflow import DataflowOp, OutputOp
from relax_dialect.ops.functions import FunctionOp, ReturnOp
from relax_dialect.prim_expr import Var
from relax_dialect.types import TensorType
from relax_dialect.well_formed import check_well_formed

T = TensorType([Var("n")], FLOAT32)


def function(build_body: Callable[[Block, SSAValue], None]) -> ModuleOp:
    block = Block(arg_types=[T])
    build_body(block, block.args[0])
    return ModuleOp([FunctionOp("main", Region(block), T)])


def test_well_formed_module_has_no_diagnostics() -> None:
    def body(block: Block, x: SSAValue) -> None:
        inner = Block()
        add = AddOp.build([x, x], T)
        inner.add_ops([add, OutputOp([add.result])])
        dataflow = DataflowOp(Region(inner))
        block.add_ops([dataflow, ReturnOp(dataflow.outputs[0])])

    assert check_well_formed(function(body)) == []


def test_dataflow_variable_escaping_is_rule_1() -> None:
    def body(block: Block, x: SSAValue) -> None:
        inner = Block()
        add = AddOp.build([x, x], T)
        inner.add_ops([add, OutputOp([x])])
        dataflow = DataflowOp(Region(inner))
        block.add_ops([dataflow, ReturnOp(add.result)])

    (diagnostic,) = check_well_formed(function(body))
    assert "dataflow variable" in diagnostic.message
    assert diagnostic.message.endswith("(well-formedness rule 1)")
    assert diagnostic.location is None  # IR built in Python has no source location


def test_use_before_definition_is_rule_3() -> None:
    def body(block: Block, x: SSAValue) -> None:
        first = AddOp.build([x, x], T)
        second = AddOp.build([first.result, x], T)
        block.add_ops([second, first, ReturnOp(second.result)])

    (diagnostic,) = check_well_formed(function(body))
    assert diagnostic.message.endswith("(well-formedness rule 3)")


def test_operation_verifier_errors_come_first() -> None:
    def body(block: Block, x: SSAValue) -> None:
        bad = AddOp.build([x, x], TensorType([Var("n"), 2], FLOAT32))
        block.add_ops([bad, ReturnOp(x)])

    (diagnostic,) = check_well_formed(function(body))
    assert "contradicts the inferred type" in diagnostic.message


def test_an_operation_that_failed_is_verified_again() -> None:
    """The verifiers' memo remembers only trees that passed: a second module with
    the same wrong binding gets the same error."""

    def body(block: Block, x: SSAValue) -> None:
        bad = AddOp.build([x, x], TensorType([Var("n"), 3], FLOAT32))
        block.add_ops([bad, ReturnOp(x)])

    first, second = check_well_formed(function(body)), check_well_formed(function(body))
    assert [d.message for d in first] == [d.message for d in second] != []


def test_a_value_of_another_function_is_out_of_scope() -> None:
    """Functions are isolated from above: the scope rule, not a trait's walk, says so."""
    module = function(lambda block, x: block.add_op(ReturnOp(x)))
    first = module.body.block.first_op
    assert isinstance(first, FunctionOp) and first.has_trait(IsolatedFromAbove)
    block = Block(arg_types=[T])
    block.add_op(ReturnOp(first.body.block.args[0]))
    other = FunctionOp("other", Region(block), T, public=False)
    module.body.block.add_op(other)
    (diagnostic,) = check_well_formed(module)
    assert diagnostic.message.endswith("outside its scope (well-formedness rule 3)")
