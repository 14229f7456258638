"""Value names are kept exactly (``relax_dialect.names``): a ``_<digits>`` suffix
survives assignment, copying, parsing and printing; printers tell values of one
name apart with suffixes no exact name of the scope has."""

from __future__ import annotations

from io import StringIO

import pytest
from operator_harness import load
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation, SSAValue
from xdsl.printer import Printer

from relax_dialect.memo_printer import print_module
from relax_dialect.names import LazyNames, fresh_name, suffixed_names, values_of
from relax_dialect.ops.functions import FunctionOp

MODULE = """
relax.function @main(%w_12: !relax.tensor<[2], f32>) -> !relax.tensor<[2], f32> {
  %a = relax.add %w_12, %w_12
  %b = relax.add %a, %a
  %c = relax.add %b, %b
  relax.return %c
}
"""


def _results(module: ModuleOp) -> list[SSAValue]:
    function = next(op for op in module.ops if isinstance(op, FunctionOp))
    return [op.results[0] for op in function.body.block.ops if op.results]


def test_a_suffix_is_part_of_the_name() -> None:
    module = load(MODULE)
    (param,) = next(op for op in module.ops if isinstance(op, FunctionOp)).params
    assert param.name_hint == "w_12"
    value = _results(module)[0]
    value.name_hint = "x_007"
    assert value.name_hint == "x_007"
    clone = value.owner.clone()
    assert isinstance(clone, Operation) and clone.results[0].name_hint == "x_007"
    with pytest.raises(ValueError, match="Invalid SSAValue name"):
        value.name_hint = "0x"


def test_fresh_names_avoid_taken_and_reserved_names() -> None:
    taken: dict[str, int] = {}
    reserved = {"a_1", "a_3"}
    names = [fresh_name(hint, taken, reserved) for hint in ("a", "a", "a", "a_1", "a_1")]
    assert names == ["a", "a_2", "a_4", "a_1", "a_1_1"]


def test_memo_printer_keeps_exact_names_and_is_a_fixed_point() -> None:
    """Three values named ``a``, ``a``, ``a_1``: the second is told apart by a
    suffix the third does not have, and reading the text back keeps them all."""
    module = load(MODULE)
    a, b, c = _results(module)
    a.name_hint, b.name_hint, c.name_hint = "a", "a", "a_1"
    text = print_module(module)
    assert "%a = relax.add %w_12, %w_12" in text
    assert "%a_2 = relax.add %a, %a" in text
    assert "%a_1 = relax.add %a_2, %a_2" in text
    again = load(text)
    assert [v.name_hint for v in _results(again)] == ["a", "a_2", "a_1"]
    assert print_module(again) == text


def test_xdsl_printer_gives_unique_names() -> None:
    """xDSL's own printer (``str``) names every value apart, if not exactly."""
    module = load(MODULE)
    a, b, c = _results(module)
    a.name_hint, b.name_hint, c.name_hint = "a", "a", "a_1"
    stream = StringIO()
    Printer(stream=stream).print_op(module)
    assert "%a_1_1 = relax.add %a_1, %a_1" in stream.getvalue()
    assert str(load(stream.getvalue())) == stream.getvalue()


def test_reserved_names_are_collected_only_when_asked() -> None:
    module = load(MODULE)
    calls = []

    def collect() -> set[str]:
        calls.append(1)
        return suffixed_names(values_of(module))

    reserved = LazyNames(collect)
    assert calls == []
    assert "w_12" in reserved and "a" not in reserved
    assert calls == [1]
