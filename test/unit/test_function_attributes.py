"""A function's attributes, as TVM's ``attrs`` holds them, reach the dialect alike
from every input format: ``global_symbol`` is the linkage property."""

from __future__ import annotations

import pytest
from xdsl.dialects.builtin import IntegerAttr, StringAttr
from xdsl.ir import Block, Region
from xdsl.utils.exceptions import VerifyException

from relax_dialect.ops.functions import FunctionOp, ReturnOp
from relax_dialect.types import TensorType

VECTOR = TensorType([2], "f32")


def identity(public: bool = True) -> FunctionOp:
    block = Block(arg_types=[VECTOR])
    block.add_op(ReturnOp(block.args[0]))
    return FunctionOp("main", Region(block), VECTOR, public=public)


def test_global_symbol_is_the_linkage_and_the_rest_are_attributes() -> None:
    function = identity()
    function.set_attributes({"global_symbol": StringAttr("entry"), "num_input": IntegerAttr(1, 64)})
    assert function.global_symbol == StringAttr("entry")
    assert set(function.attributes) == {"num_input"}


@pytest.mark.parametrize(
    ("public", "value", "message"),
    [
        (False, StringAttr("main"), "@main is private, so it may not have a global_symbol"),
        (True, IntegerAttr(3, 64), "global_symbol must be a string"),
    ],
)
def test_a_global_symbol_needs_a_public_function_and_a_string(
    public: bool, value: StringAttr | IntegerAttr, message: str
) -> None:
    with pytest.raises(VerifyException, match=message):
        identity(public).set_attributes({"global_symbol": value})


def test_a_global_symbol_among_the_attributes_is_refused() -> None:
    function = identity()
    function.attributes["global_symbol"] = StringAttr("main")
    with pytest.raises(VerifyException, match="global_symbol is the function's linkage property"):
        function.verify()
