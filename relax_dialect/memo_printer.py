"""A printer that prints each distinct attribute once, and operations in the
generic form with few steps.

Programs repeat the same few types thousands of times (every binding of a
transformer chain has ``tensor<?x64xf32>``); xDSL's ``Printer`` rebuilds each
type's text token by token. ``MemoPrinter`` keeps the text of every attribute it
has printed, keyed by the (immutable, hashable) attribute, and prints later
occurrences as one string. An operation in the generic form (every operation of
a lowered module) is written from those texts in a handful of stream writes,
where xDSL's ``Printer`` takes a context manager and a ``print`` call per token;
the text is the same, but for names: a value keeps its exact name where
xDSL's ``Printer`` would give it to another value as a suffixed name (see
``names``). ``MemoMLIRTarget`` is xDSL's ``mlir`` output target with this
printer; ``relax-opt`` uses it. ``print_module`` keeps the short attribute texts
between calls: native code prints each kernel of a module apart (to name it, then as its
unit), and the kernels share most of their types and maps.
"""

from __future__ import annotations

import hashlib
from collections.abc import Container, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from io import StringIO
from typing import IO

from xdsl.context import Context
from xdsl.dialect_interfaces.op_asm import OpAsmDialectInterface
from xdsl.dialects.builtin import (
    BytesAttr,
    DenseIntOrFPElementsAttr,
    FunctionType,
    ModuleOp,
    UnitAttr,
    UnregisteredOp,
)
from xdsl.ir import Attribute, Dialect, Operation, SSAValue
from xdsl.printer import Printer
from xdsl.targets.mlir import MLIRTarget
from xdsl.traits import IsolatedFromAbove

from .attributes import ELIDED, DenseAttr
from .names import LazyNames, ssa_name, suffixed_names, values_of

XDSL_HEX_ELEMENTS = 100
"""xDSL prints a dense attribute of more elements than this as hexadecimal data."""
MEMO_TEXT_CHARS = 1000
"""Attribute texts memoised by value at most this long (a larger one, dense data, is quick to
make again from its bytes, and its key would keep the data alive)."""
SHARED_TEXTS = 100_000
"""Attribute texts ``print_module`` keeps between calls before it starts afresh (they are
the same in both forms, and with ``digest_data``: digested data is not memoised)."""
_shared_texts: dict[Attribute, str] = {}


@dataclass(eq=False, repr=False)
class MemoPrinter(Printer):
    """``Printer`` with the text of single-line attributes memoised, text written to
    the stream directly (not through ``print``), and a lean generic form."""

    _texts: dict[Attribute, str] = field(default_factory=dict[Attribute, str], init=False)
    _by_id: dict[int, tuple[Attribute, str | None]] = field(
        default_factory=dict[int, tuple[Attribute, str | None]], init=False
    )
    _keys: dict[str, str] = field(default_factory=dict[str, str], init=False)
    _isolated: dict[type[Operation], bool] = field(
        default_factory=dict[type[Operation], bool], init=False
    )
    _reserved: Container[str] = field(default=(), init=False)
    """The exact names of the values of the operation being printed that a
    suffix could make (see ``names``)."""
    _depth: int = field(default=0, init=False)
    elide_elements_if_larger: int | None = None
    """Print elements attributes of more elements than this as
    ``dense_resource<__elided__>`` (mlir-opt's ``--mlir-elide-elementsattrs-if-larger``)."""
    elide_resources_if_larger: int | None = None
    """Leave out of the ``dialect_resources`` section the blobs whose text is longer
    (mlir-opt's ``--mlir-elide-resource-strings-if-larger``); their handles stay."""
    digest_data: bool = False
    """Print the data of Relax constants that would be blobs, and of dense attributes that
    would be hexadecimal, as a digest of their bytes (a text to hash, not read back: no
    hexadecimal text made of megabytes of weights)."""

    def print_string(self, text: str, *, indent: int | None = None) -> None:
        if "\n" in text:
            return super().print_string(text, indent=indent)
        self._current_column += len(text)
        self.stream.write(text)  # pyright: ignore[reportOptionalMemberAccess]

    def _print_new_line(self, indent: int | None = None, print_message: bool = True) -> None:
        if print_message and self._next_line_callback:
            return super()._print_new_line(indent, print_message)
        spaces = (self._indent if indent is None else indent) * self.indent_num_spaces
        self.stream.write("\n" + " " * spaces)  # pyright: ignore[reportOptionalMemberAccess]
        self._current_line += 1
        self._current_column = spaces

    def print_attribute(self, attribute: Attribute) -> None:
        text = self._text(attribute)
        if text is None:
            return super().print_attribute(attribute)
        self.print_string(text)

    def _text(self, attribute: Attribute) -> str | None:
        """``attribute``'s text, or None when it spans lines or cannot be a key.

        Looked up by identity first: a module holds a few thousand attribute
        objects, each used many times, and hashing one by value walks its parameters.
        The entry keeps the attribute alive, so its ``id`` is not reused while printing."""
        if self.elide_elements_if_larger is not None and not isinstance(
            attribute, DenseIntOrFPElementsAttr
        ):
            return None  # printed by this printer, which elides the elements inside
        if self.digest_data and isinstance(attribute, DenseAttr):
            return None  # printed by this printer, which digests the data
        known = self._by_id.get(id(attribute))
        if known is None:
            known = self._by_id[id(attribute)] = (attribute, self._value_text(attribute))
        return known[1]

    def _value_text(self, attribute: Attribute) -> str | None:
        """``attribute``'s text, printed once per distinct value."""
        try:
            text = self._texts.get(attribute)
        except TypeError:  # an attribute holding unhashable data
            return None
        if text is None and isinstance(attribute, DenseIntOrFPElementsAttr):
            text = self._dense_text(attribute)
        if text is None:
            stream = StringIO()
            printer = Printer(
                stream=stream,
                print_generic_format=self.print_generic_format,
                print_properties_as_attributes=self.print_properties_as_attributes,
                print_debuginfo=self.print_debuginfo,
            )
            printer.print_attribute(attribute)
            text = stream.getvalue()
            # Indentation depends on where the text is printed; a resource handle
            # (``dense_resource``) must be recorded by the printer that lists resources.
            if "\n" in text or printer._dialect_resources:  # pyright: ignore[reportPrivateUsage]
                return None
            if len(text) <= MEMO_TEXT_CHARS:
                self._texts[attribute] = text
        return text

    def _dense_text(self, attribute: DenseIntOrFPElementsAttr) -> str | None:
        """The text of a dense attribute that is elided, or of more than 100 elements
        (a splat, or hexadecimal data) made from its bytes at once: xDSL's printer
        unpacks every element to a Python number to find whether it is a splat.
        None for the others."""
        count = len(attribute)
        limit = self.elide_elements_if_larger
        if limit is not None and count > limit:
            return f"{ELIDED} : {_plain_text(attribute.type)}"
        if count <= XDSL_HEX_ELEMENTS:
            return None
        data = attribute.data.data
        if self.digest_data:
            return (
                f"dense<sha256:{hashlib.sha256(data).hexdigest()}> : {_plain_text(attribute.type)}"
            )
        first = data[: len(data) // count]
        if data == first * count:  # printed as its one element
            return _plain_text(DenseIntOrFPElementsAttr(attribute.type, BytesAttr(first)))
        return f'dense<"0x{data.hex().upper()}"> : {_plain_text(attribute.type)}'

    def print_metadata(self, dialects: Iterable[Dialect]) -> None:
        """The ``dialect_resources`` section, without the blobs to elide."""
        limit = self.elide_resources_if_larger
        if limit is not None:
            for name, keys in self._dialect_resources.items():
                interface = next(d for d in dialects if d.name == name).get_interface(
                    OpAsmDialectInterface
                )
                assert interface is not None
                texts = interface.build_resources(keys)
                keys.difference_update([k for k in keys if len(texts.get(k, "")) > limit])
            self._dialect_resources = {n: k for n, k in self._dialect_resources.items() if k}
        super().print_metadata(dialects)

    def _name(self, value: SSAValue) -> str:
        """``value``'s name (see ``names.ssa_name``), exact when it is unique."""
        return ssa_name(self, value, self._reserved)

    def print_ssa_value(self, value: SSAValue) -> str:
        name = self._name(value)
        self.print_string(f"%{name}")
        return name

    def print_op(self, op: Operation) -> None:
        self._depth += 1
        if self._depth == 1:
            self._reserved = LazyNames(lambda: suffixed_names(values_of(op)))
        try:
            self._print_op(op)
        finally:
            self._depth -= 1

    def _print_op(self, op: Operation) -> None:
        if (
            self.print_debuginfo
            or self.print_properties_as_attributes
            or self.diagnostic.op_messages
            or isinstance(op, UnregisteredOp)
            or not (self.print_generic_format or Operation.print is type(op).print)
        ):
            return super().print_op(op)
        write = self.stream.write  # pyright: ignore[reportOptionalMemberAccess]
        if op.results:
            write(", ".join(["%" + self._name(result) for result in op.results]) + " = ")
        isolated = self._isolated.get(type(op))
        if isolated is None:
            isolated = self._isolated[type(op)] = op.has_trait(IsolatedFromAbove)
        if isolated:
            self.enter_scope()
        operands = op.operands
        write(f'"{op.name}"(' + ", ".join(["%" + self._name(o) for o in operands]) + ")")
        if op.successors:
            self.print_successors(op.successors)
        if op.properties:
            write(" <")
            self._print_attribute_dictionary(op.properties)
            write(">")
        if op.regions:
            write(" (")
            self.print_list(op.regions, self.print_region)
            write(")")
        if op.attributes:
            write(" ")
            self._print_attribute_dictionary(op.attributes)
        write(" : ")
        self._print_types([o.type for o in operands], [r.type for r in op.results])
        if isolated:
            self.exit_scope()

    def _print_attribute_dictionary(self, attributes: Mapping[str, Attribute]) -> None:
        """``{name = value, ...}``, as ``print_attr_dict`` prints it."""
        write = self.stream.write  # pyright: ignore[reportOptionalMemberAccess]
        write("{")
        for i, (name, value) in enumerate(attributes.items()):
            key = self._keys.get(name)
            if key is None:
                key = self._keys[name] = _key_text(name)
            write(f", {key}" if i else key)
            if isinstance(value, UnitAttr):
                continue
            text = self._text(value)
            if text is None:
                write(" = ")
                super().print_attribute(value)
            else:
                write(" = " + text)
        write("}")

    def _print_types(self, inputs: Sequence[Attribute], outputs: Sequence[Attribute]) -> None:
        """``(inputs) -> outputs``, as ``print_function_type`` prints it."""
        texts = [self._text(t) for t in (*inputs, *outputs)]
        if None in texts or (len(outputs) == 1 and isinstance(outputs[0], FunctionType)):
            return self.print_function_type(inputs, outputs)
        arguments = ", ".join(texts[: len(inputs)])  # pyright: ignore[reportArgumentType]
        results = ", ".join(texts[len(inputs) :])  # pyright: ignore[reportArgumentType]
        self.stream.write(  # pyright: ignore[reportOptionalMemberAccess]
            f"({arguments}) -> " + (results if len(outputs) == 1 else f"({results})")
        )


def _plain_text(attribute: Attribute) -> str:
    """``attribute``'s text, as xDSL's ``Printer`` prints it."""
    stream = StringIO()
    Printer(stream=stream).print_attribute(attribute)
    return stream.getvalue()


def _key_text(name: str) -> str:
    """An attribute name as xDSL prints it: bare, or quoted when it is not an identifier."""
    stream = StringIO()
    Printer(stream=stream).print_identifier_or_string_literal(name)
    return stream.getvalue()


def print_module(module: ModuleOp, generic: bool = False, digest_data: bool = False) -> str:
    """``module``'s text (MLIR's generic form when ``generic``; large data as digests when
    ``digest_data``, a text to hash). Attribute texts are memoised across calls."""
    if len(_shared_texts) > SHARED_TEXTS:
        _shared_texts.clear()
    stream = StringIO()
    printer = MemoPrinter(stream=stream, print_generic_format=generic, digest_data=digest_data)
    printer._texts = _shared_texts
    printer.print_op(module)
    return stream.getvalue()


@dataclass(frozen=True)
class MemoMLIRTarget(MLIRTarget):
    """xDSL's ``mlir`` target, printing with ``MemoPrinter`` (eliding as it is told:
    ``-t 'mlir{elide-elements-if-larger=16 elide-resources-if-larger=64}'``)."""

    elide_elements_if_larger: int | None = None
    elide_resources_if_larger: int | None = None

    def emit(self, ctx: Context, module: ModuleOp, output: IO[str]) -> None:
        if self.syntax_highlight:  # xDSL's SyntaxPrinter colours each token
            return super().emit(ctx, module, output)
        printer = MemoPrinter(
            stream=output,
            print_generic_format=self.print_generic_format,
            print_properties_as_attributes=self.print_properties_as_attributes,
            print_debuginfo=self.print_debuginfo,
            elide_elements_if_larger=self.elide_elements_if_larger,
            elide_resources_if_larger=self.elide_resources_if_larger,
        )
        printer.print_op(module)
        # the dialect of large constants' blobs, not loaded for a module built in memory
        ctx.get_optional_dialect("builtin")
        printer.print_metadata(ctx.loaded_dialects)
        print("\n", file=output)
