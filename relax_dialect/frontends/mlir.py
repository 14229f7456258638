"""The MLIR frontend: xDSL's MLIR parser, extended to record where every
operation was written."""

from __future__ import annotations

import dataclasses
import re
import struct
from bisect import bisect_right
from collections import defaultdict
from collections.abc import Mapping

from xdsl.context import Context
from xdsl.dialect_interfaces.op_asm import OpAsmDialectInterface
from xdsl.dialects.builtin import (
    AnyFloat,
    DenseIntOrFPElementsAttr,
    FileLineColLoc,
    ModuleOp,
    RankedStructure,
    StringAttr,
    UnknownLoc,
)
from xdsl.ir import AttributeCovT, AttributeInvT, Block, Operation, SSAValue
from xdsl.parser import AttrParser, Parser, UnresolvedOperand
from xdsl.parser.generic_parser import ParserState
from xdsl.utils.exceptions import ParseError, VerifyException
from xdsl.utils.lexer import Input, Span
from xdsl.utils.mlir_lexer import MLIRLexer, MLIRTokenKind

from ..diagnostics import DiagnosticError, file_location, from_parse_error
from ..ops.base import undefined_value_message
from ..ops.operator import OperatorOp
from ..recursion import MAX_NESTING
from ..resources import load_pending
from .frontend import Frontend


class LinearTimeLexer(MLIRLexer):
    """MLIR's lexer with a string-literal pattern free of nested quantifiers: the
    one in xDSL 0.74 backtracks exponentially on an unterminated string."""

    _unescaped_characters_regex = re.compile(r'"(?:[^"\\\n\v\f]|\\(?:["nt\\]|[0-9A-Fa-f]{2}))*"')


NAMED_OPERATION = re.compile(
    r"(?P<result>%(?:[0-9]+|[a-zA-Z$._-][a-zA-Z0-9$._-]*))[ \t]*=[ \t]*"
    r"(?P<op>[a-zA-Z_][a-zA-Z0-9_$.]*)[ \t]*"
)
"""``%name = dialect.op`` on one line (the tokens as xDSL's lexer forms them)."""


NO_OPERATION = "Could not parse entire input!"
"""xDSL's error for an input without operations (and for one it cannot read)."""


class RelaxParser(Parser):
    """Attaches ``loc(FILE:LINE:COL)`` to each parsed operation and function
    parameter that does not carry an explicit location, so that diagnostics
    point at the source (xDSL itself leaves them unknown)."""

    def __init__(self, ctx: Context, text: str, name: str, line_offset: int = 0):
        # Parser.__init__ would lex the first token with xDSL's own lexer.
        AttrParser.__init__(self, ParserState(LinearTimeLexer(Input(text, name))), ctx)
        self.ssa_values = {}
        self.blocks = {}
        self.forward_block_references = defaultdict(list)
        self.forward_ssa_references = {}
        self._line_starts = [0, *(m.end() for m in re.finditer("\n", text))]
        self._line_offset = line_offset
        self._file = StringAttr(name)
        self.pending_results: list[str] = []
        """Names of the results of the operations being parsed (innermost last)."""
        self.dataflow_names: set[str] = set()
        """Names defined inside dataflow blocks that are already closed."""
        self.operation_starts: list[int] = []
        """Where the operations being parsed start (innermost last)."""
        self.first_forward_uses: dict[str, Span] = {}
        """Where each value used before its definition was first used."""
        self.resource_keys: dict[tuple[str, str], str] = {}
        """The stored key of each (dialect, resource handle) of the input."""
        self.operated = False
        """Whether an operation has been read (else the input is an empty module)."""

    def resolve_operand(
        self, operand: UnresolvedOperand, type: AttributeInvT
    ) -> SSAValue[AttributeInvT]:
        if operand.operand_name not in self.ssa_values:
            self.first_forward_uses.setdefault(operand.operand_name, operand.span)
        return super().resolve_operand(operand, type)

    def parse_module(self, allow_implicit_module: bool = True) -> ModuleOp:
        """xDSL's, but as ``mlir-opt``: an input without operations (empty, or only
        comments and aliases) is an empty module, and a value that is used and never defined is
        reported at its first use, not at the end of the input."""
        try:
            return super().parse_module(allow_implicit_module)
        except ParseError as error:
            if self._current_token.kind is not MLIRTokenKind.EOF:
                raise
            if not self.operated and error.msg == NO_OPERATION:
                return ModuleOp([])
            undefined = [n for n in self.forward_ssa_references if n in self.first_forward_uses]
            if not undefined:
                raise
            first = min(undefined, key=lambda name: self.first_forward_uses[name].start)
            self.raise_error(undefined_value_message(self, first), self.first_forward_uses[first])

    def location_at(self, position: int) -> FileLineColLoc:
        """The location of a character offset of the input."""
        line = bisect_right(self._line_starts, position)
        column = position - self._line_starts[line - 1] + 1
        return file_location(self._file, line + self._line_offset, column)

    def parse_operation(self) -> Operation:
        self.operated = True
        start = self.pos
        pending = len(self.pending_results)
        self.operation_starts.append(start)
        try:
            op = self._parse_named_operation() or super().parse_operation()
        finally:
            del self.pending_results[pending:]
            self.operation_starts.pop()
        if isinstance(op.location, UnknownLoc):
            op.location = self.location_at(start)
        if op.name == "relax.dataflow":
            self.dataflow_names.update(
                result.name_hint
                for block in op.regions[0].blocks
                for inner in block.ops
                for result in inner.results
                if result.name_hint
            )
        return op

    def _parse_named_operation(self) -> Operation | None:
        """``%name = dialect.op ...``: one result and an operation in custom syntax,
        the form of every binding, read as xDSL's ``parse_operation`` reads it but
        with the tokens before the operation's own syntax matched rather than lexed
        (xDSL's lexer costs ~14 µs a token), and an operator in the plain form read
        whole (``OperatorOp.parse_plain``). None, having read nothing, for any
        other form."""
        source = self.lexer.input.content
        match = NAMED_OPERATION.match(source, self.pos)
        if match is None:
            return None
        dialect_stack = self._parser_state.dialect_stack
        op_type = self.ctx.get_optional_op(match["op"], dialect_stack=dialect_stack)
        if op_type is None:
            return None
        result = Span(match.start(), match.end("result"), self.lexer.input)
        self.pending_results.append(match["result"][1:])
        dialect_stack.append(op_type.dialect_name())
        op = None
        if issubclass(op_type, OperatorOp):
            op = op_type.parse_plain(self, match.end())
        if op is None:
            self._resume_from(match.end())
            op = op_type.parse(self)
        dialect_stack.pop()
        if (location := self.parse_optional_location()) is not None:
            op.location = location
        if len(op.results) != 1:
            self.raise_error(
                f"Operation has {len(op.results)} results, but was given 1 to bind.", result
            )
        self._register_ssa_definition(match["result"][1:], op.results, result)
        return op

    def parse_dense_int_or_fp_elements_attr(
        self, type: RankedStructure[AttributeCovT] | None
    ) -> DenseIntOrFPElementsAttr:
        """xDSL's, with floats written as their bits (``dense<0xFF800000> :
        tensor<f32>``, as MLIR prints -inf) read as such: xDSL 0.74 reads them as
        integers converted to floats."""
        start = self.pos
        attribute = super().parse_dense_int_or_fp_elements_attr(type)
        return with_float_bits(attribute, self.lexer.input.content[start : self.pos])

    def _parse_block(self) -> Block:
        """xDSL's, with a message for a region left open (xDSL's reads only
        " in block definition")."""
        token = self._current_token
        if token.kind is not MLIRTokenKind.CARET_IDENT:
            found = "the end of the input" if token.kind is MLIRTokenKind.EOF else f"'{token.text}'"
            self.raise_error(f"expected '}}' to close the region, or a block label; found {found}")
        return super()._parse_block()

    def _parse_dialect_resource_handle(
        self, dialect_name: str, interface: OpAsmDialectInterface
    ) -> str:
        """xDSL's, but all the handles of one name stand for one resource: when the
        name is already stored (by an earlier input), xDSL declared a new, renamed
        resource for each use, leaving the uses and the blob apart."""
        key = self.parse_identifier(" for resource handle")
        stored = self.resource_keys.get((dialect_name, key))
        if stored is None:
            stored = self.resource_keys[dialect_name, key] = interface.declare_resource(key)
        return stored

    def _parse_op_result_list(self):  # pyright: ignore[reportIncompatibleMethodOverride]
        results = super()._parse_op_result_list()
        self.pending_results.extend(span.text[1:] for span, _ in results)
        return results


FLOAT_LITERAL = re.compile(r"0x[0-9A-Fa-f]+|[-+]?(?:\d+\.?\d*(?:[eE][-+]?\d+)?|inf|nan)")
FLOAT_FORMATS = {16: "e", 32: "f", 64: "d"}


def with_float_bits(value: DenseIntOrFPElementsAttr, text: str) -> DenseIntOrFPElementsAttr:
    """``value`` with the floats MLIR writes as their bits (``0xFF800000``:
    -inf) read as such (xDSL 0.74 reads them as integers)."""
    element = value.type.element_type
    if not isinstance(element, AnyFloat):
        return value
    colon = text.rfind(":")
    body = text[text.find("<") + 1 : text.rfind(">", 0, colon) if colon >= 0 else text.rfind(">")]
    width = getattr(element, "bitwidth", None)
    if '"' in body or "0x" not in body or width not in FLOAT_FORMATS:
        return value
    literals = FLOAT_LITERAL.findall(body)
    values = [
        struct.unpack(FLOAT_FORMATS[width], int(lit, 16).to_bytes(width // 8, "little"))[0]
        if lit.startswith("0x")
        else float(lit)
        for lit in literals
    ]
    if len(values) == 1:
        values *= max(1, len(value.get_values()))
    return DenseIntOrFPElementsAttr.from_list(value.type, values)


def parse_module(ctx: Context, text: str, name: str, line_offset: int = 0) -> ModuleOp:
    """Parse MLIR text into a module whose operations carry source locations.

    xDSL reports some invalid input (a bad block name, an attribute that fails
    its own verifier) as ``ValueError``/``VerifyException``; those become
    parse errors at the current token."""
    parser = RelaxParser(ctx, text, name, line_offset)
    too_deep = too_deep_at(text)
    if too_deep is not None:
        message = f"brackets nest deeper than {MAX_NESTING} levels"
        raise ParseError(Span(too_deep, too_deep + 1, Input(text, name)), message)
    try:
        module = parser.parse_module()
        load_pending()
        return module
    except (ValueError, VerifyException) as error:
        message = error.args[0] if error.args else str(error)
        raise ParseError(parser._current_token.span, str(message)) from None  # pyright: ignore


BRACKETS = re.compile(r'"(?:[^"\\\n]|\\.)*"|//[^\n]*|->|[<>]=|([<(\[{])|[>)\]}]')
"""What nests in MLIR text: brackets, outside string literals and comments (``->``,
``<=`` and ``>=`` are not brackets)."""


def too_deep_at(text: str) -> int | None:
    """Where the brackets of ``text`` first nest deeper than ``MAX_NESTING``, found in
    one linear scan before anything is built (deeper input would take the parser
    and verifiers time and memory out of proportion)."""
    depth = 0
    for token in BRACKETS.finditer(text):
        if token.group(1) is not None:
            depth += 1
            if depth > MAX_NESTING:
                return token.start()
        elif token.group()[0] in ">)]}" and len(token.group()) == 1:
            depth = max(depth - 1, 0)
    return None


def read(
    ctx: Context, source: str, name: str, options: Mapping[str, object], line_offset: int = 0
) -> ModuleOp:
    """The frontend's reader (see ``frontends.Reader``): ``parse_module``, its
    errors as located diagnostics."""
    try:
        return parse_module(ctx, source, name, line_offset)
    except ParseError as error:
        error.span = dataclasses.replace(error.span, line_offset=line_offset)
        raise DiagnosticError([from_parse_error(error)]) from None


FRONTEND = Frontend("mlir", "MLIR", ("mlir",), lambda: read, split_marker="// -----")
"""The dialect's MLIR text (generic or custom syntax); it has no sniffer: it is the
format of last resort."""


def forget_resources(ctx: Context) -> None:
    """Empty the builtin dialect's resource storage, which xDSL keeps in one object
    for the whole process: each input then keeps its resource names, as each of
    ``mlir-opt``'s split inputs does in its own context."""
    interface = ctx.get_dialect("builtin").get_interface(OpAsmDialectInterface)
    if interface is not None:
        interface.__init__()
