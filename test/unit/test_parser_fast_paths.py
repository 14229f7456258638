"""The MLIR parser's fast paths (``%name = op`` matched rather than lexed, operators
in the plain form read without the lexer) read what the general path reads,
errors included, and the memoised definition checks still reject what they should."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from xdsl.context import Context
from xdsl.dialects.arith import Arith
from xdsl.dialects.builtin import Builtin
from xdsl.dialects.func import Func
from xdsl.dialects.linalg import Linalg
from xdsl.dialects.tensor import Tensor
from xdsl.ir import Block
from xdsl.printer import Printer
from xdsl.utils.exceptions import ParseError, VerifyException

from relax_dialect.dialect import Relax
from relax_dialect.frontends.mlir import RelaxParser, parse_module
from relax_dialect.ops import operator, operator_class
from relax_dialect.ops.base import verify_definition
from relax_dialect.ops.operator import attribute_of
from relax_dialect.types import TensorType

ROOT = Path(__file__).parents[2]
LIT = [
    path
    for path in sorted((ROOT / "test/filecheck").glob("**/*.mlir"))
    # xDSL keeps resource blobs in the builtin dialect, across parses, and renames a
    # handle it has seen before: a second reading of the same text differs.
    if "dialect_resources" not in path.read_text()
]


def context() -> Context:
    ctx = Context()
    for dialect in (Builtin, Func, Arith, Linalg, Tensor, Relax):
        ctx.load_dialect(dialect)
    return ctx


def reading(text: str) -> str:
    """The module in generic form with every location (or the parse error)."""
    try:
        module = parse_module(context(), text, "input.mlir")
    except ParseError as error:
        return f"error: {error}"
    stream = io.StringIO()
    Printer(stream=stream, print_generic_format=True, print_debuginfo=True).print_op(module)
    return stream.getvalue()


def general_path(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(RelaxParser, "_parse_named_operation", lambda self: None)
    monkeypatch.setattr(operator, "_parse_plain", lambda parser, position: None)


@pytest.mark.parametrize("path", LIT, ids=lambda p: str(p.relative_to(ROOT / "test/filecheck")))
def test_lit_inputs_read_the_same(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    chunks = path.read_text().split("// -----")
    fast = [reading(chunk) for chunk in chunks]
    general_path(monkeypatch)
    assert [reading(chunk) for chunk in chunks] == fast


PREFIX = "relax.function @main(%x: !relax.tensor<[n, 4], f32>) -> !relax.object {\n"


@pytest.mark.parametrize(
    "binding",
    [
        "%y = relax.add %x, %x : !relax.tensor<[n, 4], f32>",
        "%y = relax.add %x,%x: !relax.tensor<[n, 4], f32>",
        "%y = relax.add %x, %x",
        "%y = relax.nn.softmax %x {axis = -1} : !relax.tensor<[n, 4], f32>",
        "%y = relax.sum %x {axis = [0, 1], keepdims = true} : !relax.tensor<[1, 1], f32>",
        "%y = relax.sum %x {axis = [], keepdims = false} : !relax.tensor<[n, 4], f32>",
        '%y = relax.nn.softmax %x {axis = "a"} : !relax.tensor<[n, 4], f32>',
        "%y = relax.nn.softmax %x {axis = 99999999999999999999} : !relax.tensor<[n, 4], f32>",
        "%y = relax.nn.softmax %x {axis = 1, axis = 1} : !relax.tensor<[n, 4], f32>",
        "%y = relax.nn.softmax %x {axis = 0x1} : !relax.tensor<[n, 4], f32>",
        "%y = relax.nn.softmax %x {} : !relax.tensor<[n, 4], f32>",
        "%y = relax.add %y, %x : !relax.tensor<[n, 4], f32>",
        "%y = relax.add %z, %x : !relax.tensor<[n, 4], f32>",
        "%y = relax.add %x#0, %x : !relax.tensor<[n, 4], f32>",
        "%y = relax.add %x, // a comment\n %x : !relax.tensor<[n, 4], f32>",
        "%y = relax.add\n %x, %x : !relax.tensor<[n, 4], f32>",
        "%y = relax.add %x, %x : !relax.tensor<[n, 4], f33>",
        "%y = relax.add %x, %x : tensor<[n, 4], f32>",
        "%y = relax.add %x, %x : !relax.tensor<[n, 4], f32> loc(unknown)",
        "%y = relax.output %x",
        "%y = relax.nosuch %x : !relax.object",
        "%y:2 = relax.add %x, %x : !relax.tensor<[n, 4], f32>",
        "%x = relax.add %x, %x : !relax.tensor<[n, 4], f32>",
    ],
)
def test_bindings_read_the_same(binding: str, monkeypatch: pytest.MonkeyPatch) -> None:
    text = f"{PREFIX}  {binding}\n  relax.return %y\n}}\n"
    fast = reading(text)
    general_path(monkeypatch)
    assert reading(text) == fast


def test_a_definition_check_that_passed_does_not_let_a_different_one_pass() -> None:
    softmax = operator_class("relax.nn.softmax")
    assert softmax is not None
    (x,) = Block(arg_types=[TensorType([4], "float32")]).args

    def make(axis: int | str, results: int) -> operator.OperatorOp:
        properties = {"axis": attribute_of(axis)}
        return softmax.create(operands=[x], properties=properties, result_types=[x.type] * results)

    verify_definition(make(0, 1))
    for wrong in (make("0", 1), make(0, 0), make(0, 2)):
        with pytest.raises(VerifyException):
            verify_definition(wrong)
