"""StableHLO's operations (the subset models use), each read and printed in the
pretty form JAX prints and in the generic form.

An operation keeps its inherent attributes as properties, whichever form wrote
them (a pretty form's attribute dictionary holds some: ``api_version`` of a
``custom_call``); ``verify_`` checks the counts of operands, results and regions
and that the properties the operation needs are there."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import ClassVar, Self, TypeVar

from xdsl.dialects.builtin import (
    DenseArrayBase,
    DenseIntOrFPElementsAttr,
    StringAttr,
    SymbolRefAttr,
    TensorType,
    i1,
    i64,
)
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.irdl import traits_def
from xdsl.parser import Parser, UnresolvedOperand
from xdsl.printer import Printer
from xdsl.traits import IsTerminator
from xdsl.utils.exceptions import VerifyException

from .attributes import (
    ComparisonDirection,
    ComparisonDirectionAttr,
    ComparisonType,
    ComparisonTypeAttr,
    ConvDimensionNumbers,
    DotDimensionNumbers,
    compact_layouts,
    parse_compact_layouts,
    parse_int_list,
)
from .syntax import (
    Clause,
    Kind,
    Types,
    array,
    int_list,
    parse_clauses,
    parse_operands,
    print_clauses,
    resolve,
)


class StableHLOOp(Operation):
    """An operation of StableHLO (or CHLO): counts of operands, results and
    regions (None: any), the properties it needs, and its inherent attributes."""

    traits = traits_def()
    OPERANDS: ClassVar[int | None] = None
    RESULTS: ClassVar[int | None] = 1
    REGIONS: ClassVar[int | None] = 0
    REQUIRED: ClassVar[tuple[str, ...]] = ()
    INHERENT: ClassVar[frozenset[str]] = frozenset()
    """Inherent attributes a pretty form writes in its attribute dictionary."""

    def verify_(self) -> None:
        for what, expected, found in (
            ("operands", self.OPERANDS, len(self.operands)),
            ("results", self.RESULTS, len(self.results)),
            ("regions", self.REGIONS, len(self.regions)),
        ):
            if expected is not None and expected != found:
                raise VerifyException(f"'{self.name}' takes {expected} {what}, not {found}")
        if any(len(region.blocks) != 1 for region in self.regions):
            raise VerifyException(f"'{self.name}' takes regions of one block each")
        for name in self.REQUIRED:
            if name not in self.properties and name not in self.attributes:
                raise VerifyException(f"'{self.name}' needs the attribute '{name}'")

    def attribute(self, name: str) -> Attribute | None:
        """An attribute of the operation, a property or not."""
        return self.properties.get(name, self.attributes.get(name))

    @classmethod
    def build(
        cls,
        operands: Sequence[SSAValue],
        result_types: Sequence[Attribute],
        attributes: dict[str, Attribute],
        regions: Sequence[Region] = (),
    ) -> Self:
        """The operation, its inherent attributes (``INHERENT`` and ``REQUIRED``)
        as properties and the others as attributes, each in MLIR's (sorted) order."""
        inherent = cls.INHERENT | set(cls.REQUIRED)
        return cls.create(
            operands=operands,
            result_types=result_types,
            properties={k: attributes[k] for k in sorted(attributes) if k in inherent},
            attributes={k: attributes[k] for k in sorted(attributes) if k not in inherent},
            regions=regions,
        )


OpT = TypeVar("OpT", bound=StableHLOOp)


class ClauseOp(StableHLOOp):
    """The usual pretty form: ``operands, clause = value... {attributes} : types``."""

    CLAUSES: ClassVar[tuple[Clause, ...]] = ()
    TYPES: ClassVar[Types] = Types.FUNCTIONAL

    def __init_subclass__(cls, **kwargs: object) -> None:
        super().__init_subclass__(**kwargs)
        cls.INHERENT = cls.INHERENT | {c.property for c in cls.CLAUSES}
        cls.REQUIRED = cls.REQUIRED + tuple(c.property for c in cls.CLAUSES if not c.optional)

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        operands, comma = parse_operands(parser)
        attributes = parse_clauses(parser, cls.CLAUSES, comma, len(operands))
        attributes |= parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        operand_types, result_types = cls.TYPES.parse(parser, len(operands))
        return cls.build(resolve(parser, operands, operand_types), result_types, attributes)

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_list(self.operands, printer.print_operand)
        printed = print_clauses(printer, self.CLAUSES, self.properties, len(self.operands))
        print_attribute_dict(printer, self, printed)
        self.TYPES.print(printer, self.operand_types, self.result_types)


def print_attribute_dict(
    printer: Printer, op: Operation, printed: set[str] | frozenset[str] = frozenset()
) -> None:
    """The attributes and the properties a pretty form did not write otherwise, in
    MLIR's (sorted) order."""
    merged = op.properties | op.attributes
    printer.print_op_attributes({k: merged[k] for k in sorted(merged) if k not in printed})


# -- elementwise -------------------------------------------------------------


class ElementwiseOp(ClauseOp):
    """``%a, %b : tensor<...>``: the operands and the result of one type, or a
    function type."""

    TYPES = Types.SAME
    RELAX: ClassVar[Relax] = None


class UnaryOp(ElementwiseOp):
    OPERANDS = 1


class BinaryOp(ElementwiseOp):
    OPERANDS = 2


Relax = str | tuple[str, str] | None
"""The Relax operator computing an elementwise operation, or one for numbers and
one for booleans (``and``: ``bitwise_and``, ``logical_and``); None when a rule
of the conversion computes it, or refuses it."""


def named_classes(
    base: type[OpT], dialect: str, relax: Mapping[str, Relax]
) -> tuple[type[OpT], ...]:
    """A class per operation name, on ``base``, with the Relax operator that
    computes it (``RELAX``): operations that differ only in what they compute."""
    return tuple(
        type(
            "".join(part.title() for part in name.split("_")) + "Op",
            (base,),
            {"name": f"{dialect}.{name}", "__doc__": f"``{dialect}.{name}``.", "RELAX": operator},
        )
        for name, operator in relax.items()
    )


UNARY = named_classes(
    UnaryOp,
    "stablehlo",
    {
        "abs": "relax.abs",
        "cbrt": None,
        "ceil": "relax.ceil",
        "convert": None,
        "cosine": "relax.cos",
        "count_leading_zeros": None,
        "exponential": "relax.exp",
        "exponential_minus_one": None,
        "floor": "relax.floor",
        "imag": None,
        "is_finite": "relax.isfinite",
        "log": "relax.log",
        "log_plus_one": None,
        "logistic": "relax.sigmoid",
        "negate": "relax.negative",
        "not": ("relax.bitwise_not", "relax.logical_not"),
        "popcnt": None,
        "real": None,
        "round_nearest_afz": None,
        "round_nearest_even": "relax.round",
        "rsqrt": "relax.rsqrt",
        "sign": "relax.sign",
        "sine": "relax.sin",
        "sqrt": "relax.sqrt",
        "tan": "relax.tan",
        "tanh": "relax.tanh",
    },
)
BINARY = named_classes(
    BinaryOp,
    "stablehlo",
    {
        "add": ("relax.add", "relax.logical_or"),
        "and": ("relax.bitwise_and", "relax.logical_and"),
        "atan2": "relax.atan2",
        "complex": None,
        "divide": "relax.divide",
        "maximum": ("relax.maximum", "relax.logical_or"),
        "minimum": ("relax.minimum", "relax.logical_and"),
        "multiply": ("relax.multiply", "relax.logical_and"),
        "or": ("relax.bitwise_or", "relax.logical_or"),
        "power": "relax.power",
        "remainder": "relax.mod",
        "shift_left": "relax.left_shift",
        "shift_right_arithmetic": "relax.right_shift",
        "shift_right_logical": None,
        "subtract": "relax.subtract",
        "xor": ("relax.bitwise_xor", "relax.logical_xor"),
    },
)


class ClampOp(ElementwiseOp):
    """``clamp %min, %x, %max``."""

    name = "stablehlo.clamp"
    OPERANDS = 3


class SelectOp(ClauseOp):
    """``select %cond, %a, %b : tensor<i1>, tensor<...>``."""

    name = "stablehlo.select"
    OPERANDS = 3
    TYPES = Types.SELECT


# -- shapes ------------------------------------------------------------------


class ReshapeOp(ClauseOp):
    name = "stablehlo.reshape"
    OPERANDS = 1


class DynamicReshapeOp(ClauseOp):
    """``dynamic_reshape %x, %shape``: the result's shape computed at run time."""

    name = "stablehlo.dynamic_reshape"
    OPERANDS = 2


class BroadcastInDimOp(ClauseOp):
    name = "stablehlo.broadcast_in_dim"
    OPERANDS = 1
    CLAUSES = (Clause("dims", "broadcast_dimensions"),)


class DynamicBroadcastInDimOp(ClauseOp):
    name = "stablehlo.dynamic_broadcast_in_dim"
    OPERANDS = 2
    CLAUSES = (
        Clause("dims", "broadcast_dimensions"),
        Clause("known_expanding_dimensions", "known_expanding_dimensions", optional=True),
        Clause("known_nonexpanding_dimensions", "known_nonexpanding_dimensions", optional=True),
    )


class TransposeOp(ClauseOp):
    name = "stablehlo.transpose"
    OPERANDS = 1
    CLAUSES = (Clause("dims", "permutation"),)


class ReverseOp(ClauseOp):
    name = "stablehlo.reverse"
    OPERANDS = 1
    CLAUSES = (Clause("dims", "dimensions"),)
    TYPES = Types.SAME


class ConcatenateOp(ClauseOp):
    name = "stablehlo.concatenate"
    CLAUSES = (Clause("dim", "dimension", Kind.INT),)


class GetDimensionSizeOp(ClauseOp):
    """``get_dimension_size %x, dim = 0``: a dimension's size, as ``tensor<i32>``."""

    name = "stablehlo.get_dimension_size"
    OPERANDS = 1
    CLAUSES = (Clause("dim", "dimension", Kind.INT),)


class IotaOp(ClauseOp):
    name = "stablehlo.iota"
    OPERANDS = 0
    CLAUSES = (Clause("dim", "iota_dimension", Kind.INT),)
    TYPES = Types.RESULT


class DynamicIotaOp(ClauseOp):
    name = "stablehlo.dynamic_iota"
    OPERANDS = 1
    CLAUSES = (Clause("dim", "iota_dimension", Kind.INT),)


class DynamicSliceOp(ClauseOp):
    """``dynamic_slice %x, %i, %j, sizes = [...]``."""

    name = "stablehlo.dynamic_slice"
    CLAUSES = (Clause("sizes", "slice_sizes"),)


class DynamicUpdateSliceOp(ClauseOp):
    """``dynamic_update_slice %x, %update, %i, %j``."""

    name = "stablehlo.dynamic_update_slice"


class RealDynamicSliceOp(ClauseOp):
    """``real_dynamic_slice %x, %start, %limit, %strides``."""

    name = "stablehlo.real_dynamic_slice"
    OPERANDS = 4


class PadOp(ClauseOp):
    name = "stablehlo.pad"
    OPERANDS = 2
    CLAUSES = (
        Clause("low", "edge_padding_low"),
        Clause("high", "edge_padding_high"),
        Clause("interior", "interior_padding"),
    )


class DotOp(ClauseOp):
    name = "stablehlo.dot"
    OPERANDS = 2
    CLAUSES = (Clause("precision", "precision_config", Kind.PRECISION, optional=True),)


class OptimizationBarrierOp(ClauseOp):
    """``optimization_barrier %a, %b : T1, T2``: its operands, unchanged."""

    name = "stablehlo.optimization_barrier"
    RESULTS = None
    TYPES = Types.PAIRWISE


# -- operations with a form of their own --------------------------------------


class ConstantOp(StableHLOOp):
    """``constant dense<...> : tensor<...>``."""

    name = "stablehlo.constant"
    OPERANDS = 0
    REQUIRED = ("value",)

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        attributes = parser.parse_optional_attr_dict()
        position = parser.pos
        value = parser.parse_attribute()
        if not isinstance(value, DenseIntOrFPElementsAttr):
            parser.raise_error("expected a dense<...> tensor constant", position, parser.pos)
        return cls.build([], [value.type], attributes | {"value": value})

    def print(self, printer: Printer) -> None:
        print_attribute_dict(printer, self, {"value"})
        printer.print_string(" ")
        printer.print_attribute(self.properties["value"])


class CompareOp(StableHLOOp):
    """``compare GT, %a, %b, FLOAT``."""

    name = "stablehlo.compare"
    OPERANDS = 2
    REQUIRED = ("comparison_direction",)
    INHERENT = frozenset({"compare_type"})

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        attributes: dict[str, Attribute] = {
            "comparison_direction": ComparisonDirectionAttr(
                parser.parse_str_enum(ComparisonDirection)
            )
        }
        parser.parse_punctuation(",")
        operands = [parser.parse_unresolved_operand()]
        parser.parse_punctuation(",")
        operands.append(parser.parse_unresolved_operand())
        if parser.parse_optional_punctuation(",") is not None:
            attributes["compare_type"] = ComparisonTypeAttr(parser.parse_str_enum(ComparisonType))
        attributes |= parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        operand_types, result_types = Types.SAME.parse(parser, 2)
        return cls.build(resolve(parser, operands, operand_types), result_types, attributes)

    def print(self, printer: Printer) -> None:
        direction = self.properties["comparison_direction"]
        kind = self.properties.get("compare_type")
        printed = {"comparison_direction", "compare_type"}
        if not isinstance(direction, ComparisonDirectionAttr) or not isinstance(
            kind, ComparisonTypeAttr | None
        ):
            return printer.print_op_with_default_format(self)
        printer.print_string(f" {direction.data.value}, ")
        printer.print_list(self.operands, printer.print_operand)
        if kind is not None:
            printer.print_string(f", {kind.data.value}")
        print_attribute_dict(printer, self, printed)
        Types.SAME.print(printer, self.operand_types, self.result_types)


SLICE_PROPERTIES = ("start_indices", "limit_indices", "strides")


class SliceOp(StableHLOOp):
    """``slice %x [start:limit:stride, ...]``."""

    name = "stablehlo.slice"
    OPERANDS = 1
    REQUIRED = SLICE_PROPERTIES

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        operand = parser.parse_unresolved_operand()

        def dimension() -> tuple[int, int, int]:
            start = parser.parse_integer(allow_boolean=False)
            parser.parse_punctuation(":")
            limit = parser.parse_integer(allow_boolean=False)
            stride = (
                parser.parse_integer(allow_boolean=False)
                if parser.parse_optional_punctuation(":")
                else 1
            )
            return start, limit, stride

        ranges = parser.parse_comma_separated_list(parser.Delimiter.SQUARE, dimension)
        attributes: dict[str, Attribute] = {
            name: array([r[i] for r in ranges]) for i, name in enumerate(SLICE_PROPERTIES)
        }
        attributes |= parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        operand_types, result_types = Types.FUNCTIONAL.parse(parser, 1)
        return cls.build(resolve(parser, [operand], operand_types), result_types, attributes)

    def print(self, printer: Printer) -> None:
        lists = [int_list(self.properties.get(name)) for name in SLICE_PROPERTIES]
        if (
            any(values is None for values in lists)
            or len({len(v) for v in lists if v is not None}) != 1
        ):
            return printer.print_op_with_default_format(self)
        printer.print_string(" ")
        printer.print_operand(self.operands[0])
        ranges = [
            f"{s}:{lim}" if st == 1 else f"{s}:{lim}:{st}"
            for s, lim, st in zip(*lists, strict=True)
        ]  # type: ignore[misc]
        printer.print_string(f" [{', '.join(ranges)}]")
        print_attribute_dict(printer, self, set(SLICE_PROPERTIES))
        Types.FUNCTIONAL.print(printer, self.operand_types, self.result_types)


DOT_CLAUSES = (
    ("batching_dims", "batching_dimensions"),
    ("contracting_dims", "contracting_dimensions"),
)


class DotGeneralOp(StableHLOOp):
    """``dot_general %a, %b, batching_dims = [0] x [0], contracting_dims = [2] x [1]``."""

    name = "stablehlo.dot_general"
    OPERANDS = 2
    REQUIRED = ("dot_dimension_numbers",)
    INHERENT = frozenset({"precision_config", "algorithm"})

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        operands = [parser.parse_unresolved_operand()]
        parser.parse_punctuation(",")
        operands.append(parser.parse_unresolved_operand())
        fields: dict[str, tuple[int, ...]] = {}
        attributes: dict[str, Attribute] = {}
        while parser.parse_optional_punctuation(",") is not None:
            keyword = parser.parse_keyword_in([k for k, _ in DOT_CLAUSES] + ["precision"])
            parser.parse_punctuation("=")
            if keyword == "precision":
                attributes["precision_config"] = Kind.PRECISION.parse(parser)
                continue
            field = dict(DOT_CLAUSES)[keyword]
            fields[f"lhs_{field}"] = parse_int_list(parser)
            parser.parse_keyword("x")
            fields[f"rhs_{field}"] = parse_int_list(parser)
        attributes["dot_dimension_numbers"] = DotDimensionNumbers.of(**fields)
        attributes |= parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        operand_types, result_types = Types.FUNCTIONAL.parse(parser, 2)
        return cls.build(resolve(parser, operands, operand_types), result_types, attributes)

    def print(self, printer: Printer) -> None:
        numbers = self.properties["dot_dimension_numbers"]
        if not isinstance(numbers, DotDimensionNumbers):
            return printer.print_op_with_default_format(self)
        printer.print_string(" ")
        printer.print_list(self.operands, printer.print_operand)
        for keyword, field in DOT_CLAUSES:
            lhs, rhs = numbers.list(f"lhs_{field}"), numbers.list(f"rhs_{field}")
            if lhs or rhs or keyword == "contracting_dims":
                printer.print_string(
                    f", {keyword} = [{', '.join(map(str, lhs))}] x [{', '.join(map(str, rhs))}]"
                )
        printed = {"dot_dimension_numbers"}
        precision = self.properties.get("precision_config")
        if precision is not None and (text := Kind.PRECISION.text(precision)) is not None:
            printer.print_string(f", precision = {text}")
            printed.add("precision_config")
        print_attribute_dict(printer, self, printed)
        Types.FUNCTIONAL.print(printer, self.operand_types, self.result_types)


WINDOW = (
    ("stride", "window_strides"),
    ("pad", "padding"),
    ("lhs_dilate", "lhs_dilation"),
    ("rhs_dilate", "rhs_dilation"),
    ("reverse", "window_reversal"),
)
"""The entries of a convolution's ``window = {...}`` and their properties."""


class ConvolutionOp(StableHLOOp):
    """``convolution(%x, %k) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f],
    window = {stride = [..], pad = [[..], ..], lhs_dilate = [..], rhs_dilate = [..]}``."""

    name = "stablehlo.convolution"
    OPERANDS = 2
    REQUIRED = ("dimension_numbers", "feature_group_count", "batch_group_count")
    INHERENT = frozenset({"precision_config", *(p for _, p in WINDOW)})

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        operands = parser.parse_comma_separated_list(
            parser.Delimiter.PAREN, parser.parse_unresolved_operand
        )
        parser.parse_keyword("dim_numbers")
        parser.parse_punctuation("=")
        attributes: dict[str, Attribute] = {
            "dimension_numbers": ConvDimensionNumbers(parse_compact_layouts(parser))
        }
        parser.parse_punctuation(",")
        parser.parse_keyword("window")
        parser.parse_punctuation("=")
        parser.parse_comma_separated_list(
            parser.Delimiter.BRACES, lambda: _parse_window_entry(parser, attributes)
        )
        attributes |= parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        operand_types, result_types = Types.FUNCTIONAL.parse(parser, len(operands))
        return cls.build(resolve(parser, operands, operand_types), result_types, attributes)

    def print(self, printer: Printer) -> None:
        numbers = self.properties.get("dimension_numbers")
        entries = [(keyword, _window_text(self.properties.get(prop))) for keyword, prop in WINDOW]
        if not isinstance(numbers, ConvDimensionNumbers) or any(
            text is None and prop in self.properties
            for (_, text), (_, prop) in zip(entries, WINDOW, strict=True)
        ):
            return printer.print_op_with_default_format(self)
        printer.print_string("(")
        printer.print_list(self.operands, printer.print_operand)
        printer.print_string(f") dim_numbers = {compact_layouts(numbers.data)}, window = {{")
        printer.print_string(", ".join(f"{k} = {t}" for k, t in entries if t is not None))
        printer.print_string("}")
        print_attribute_dict(printer, self, {"dimension_numbers", *(p for _, p in WINDOW)})
        Types.FUNCTIONAL.print(printer, self.operand_types, self.result_types)


def _parse_window_entry(parser: Parser, attributes: dict[str, Attribute]) -> None:
    keyword = parser.parse_keyword_in([k for k, _ in WINDOW])
    parser.parse_punctuation("=")
    prop = dict(WINDOW)[keyword]
    if keyword == "pad":
        pairs = parser.parse_comma_separated_list(
            parser.Delimiter.SQUARE, lambda: parse_int_list(parser)
        )
        if any(len(p) != 2 for p in pairs):
            parser.raise_error("each 'pad' entry is [low, high]")
        attributes[prop] = DenseIntOrFPElementsAttr.from_list(
            TensorType(i64, [len(pairs), 2]), [v for p in pairs for v in p]
        )
    elif keyword == "reverse":
        flags = parser.parse_comma_separated_list(parser.Delimiter.SQUARE, parser.parse_boolean)
        attributes[prop] = DenseArrayBase.from_list(i1, [int(f) for f in flags])
    else:
        attributes[prop] = array(parse_int_list(parser))


def _window_text(attribute: Attribute | None) -> str | None:
    """A window entry as written: ``[1, 1]``, ``[[0, 0], [1, 1]]``, ``[false, true]``."""
    if isinstance(attribute, DenseArrayBase) and attribute.elt_type == i1:
        return f"[{', '.join('true' if v else 'false' for v in attribute.get_values())}]"
    if isinstance(attribute, DenseIntOrFPElementsAttr) and len(attribute.get_shape() or ()) == 2:
        values = [int(v) for v in attribute.get_values()]
        return f"[{', '.join(f'[{values[i]}, {values[i + 1]}]' for i in range(0, len(values), 2))}]"
    values = int_list(attribute) if isinstance(attribute, DenseArrayBase) else None
    return None if values is None else f"[{', '.join(map(str, values))}]"


class ReduceOp(StableHLOOp):
    """``reduce(%x init: %c) applies stablehlo.add across dimensions = [1]``, or
    ``... across dimensions = [..] : types reducer(%a: T, %b: T) {body}``."""

    name = "stablehlo.reduce"
    RESULTS = None
    REGIONS = 1
    REQUIRED = ("dimensions",)

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        pairs: list[tuple[UnresolvedOperand, UnresolvedOperand]] = []

        def pair() -> None:
            with parser.in_parens():
                value = parser.parse_unresolved_operand()
                parser.parse_keyword("init")
                parser.parse_punctuation(":")
                pairs.append((value, parser.parse_unresolved_operand()))

        pair()
        while parser.parse_optional_punctuation(",") is not None:
            pair()
        applied = None
        if parser.parse_optional_keyword("applies") is not None:
            position = parser.pos
            applied = parser.ctx.get_optional_op(parser.parse_identifier())
            if applied is None or not issubclass(applied, BinaryOp):
                parser.raise_error(
                    "expected a binary StableHLO operation after 'applies'", position, parser.pos
                )
        parser.parse_keyword("across")
        parser.parse_keyword("dimensions")
        parser.parse_punctuation("=")
        attributes: dict[str, Attribute] = {"dimensions": array(parse_int_list(parser))}
        attributes |= parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        operand_types, result_types = Types.FUNCTIONAL.parse(parser, 2 * len(pairs))
        operands = resolve(parser, [v for v, _ in pairs] + [i for _, i in pairs], operand_types)
        inits = operand_types[len(pairs) :]
        if applied is not None:
            body = _applied_body(applied, inits)
        else:
            parser.parse_keyword("reducer")
            arguments = [
                parser.parse_comma_separated_list(parser.Delimiter.PAREN, parser.parse_argument)
                for _ in pairs
            ]
            if any(len(a) != 2 for a in arguments):
                parser.raise_error("each reducer argument list has two arguments")
            body = parser.parse_region([a[0] for a in arguments] + [a[1] for a in arguments])
        return cls.build(operands, result_types, attributes, [body])

    def print(self, printer: Printer) -> None:
        count = len(self.operands) // 2
        dimensions = int_list(self.properties.get("dimensions"))
        if dimensions is None or len(self.regions[0].blocks) != 1:
            return printer.print_op_with_default_format(self)
        printer.print_string("(")
        printer.print_list(
            range(count),
            lambda i: (
                printer.print_operand(self.operands[i]),
                printer.print_string(" init: "),
                printer.print_operand(self.operands[count + i]),
            ),
            "), (",
        )
        printer.print_string(")")
        applied = _applied_operation(self.regions[0].block)
        if applied is not None:
            printer.print_string(f" applies {applied.name}")
        printer.print_string(f" across dimensions = [{', '.join(map(str, dimensions))}]")
        print_attribute_dict(printer, self, {"dimensions"})
        Types.FUNCTIONAL.print(printer, self.operand_types, self.result_types)
        if applied is None:
            args = self.regions[0].block.args
            printer.print_string(" reducer")
            for i in range(count):
                printer.print_string("(")
                printer.print_block_argument(args[i])
                printer.print_string(", ")
                printer.print_block_argument(args[count + i])
                printer.print_string(") ")
            printer.print_region(self.regions[0], print_entry_block_args=False)


def _applied_body(applied: type[Operation], init_types: Sequence[Attribute]) -> Region:
    """The body ``applies OP`` stands for: OP of the two arguments, returned."""
    (element,) = init_types
    block = Block(arg_types=[element, element])
    result = applied.create(operands=block.args, result_types=[element])
    block.add_ops([result, ReturnOp.create(operands=result.results)])
    return Region(block)


def _applied_operation(block: Block) -> Operation | None:
    """The operation a body applies to its two arguments and returns, if that is
    all it does."""
    ops = list(block.ops)
    if (
        len(ops) != 2
        or len(block.args) != 2
        or not isinstance(ops[0], BinaryOp)
        or ops[0].attributes
        or ops[0].properties
    ):
        return None
    first, last = ops
    if tuple(first.operands) != tuple(block.args) or not isinstance(last, ReturnOp):
        return None
    if tuple(last.operands) != tuple(first.results) or first.result_types[0] != block.args[0].type:
        return None
    return first


class WhileOp(StableHLOOp):
    """``while(%iterArg = %init, ...) : T, ... cond {...} do {...}``."""

    name = "stablehlo.while"
    RESULTS = None
    REGIONS = 2

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        names: list[Parser.UnresolvedArgument] = []
        inits: list[UnresolvedOperand] = []

        def carried() -> None:
            names.append(parser.parse_argument(expect_type=False))
            parser.parse_punctuation("=")
            inits.append(parser.parse_unresolved_operand())

        parser.parse_comma_separated_list(parser.Delimiter.PAREN, carried)
        types: list[Attribute] = []
        if parser.parse_optional_punctuation(":") is not None:
            types = parser.parse_comma_separated_list(parser.Delimiter.NONE, parser.parse_type)
        operands = resolve(parser, inits, types)
        extra = parser.parse_optional_attr_dict_with_keyword()
        arguments = [n.resolve(t) for n, t in zip(names, types, strict=True)]
        parser.parse_keyword("cond")
        cond = parser.parse_region(arguments)
        parser.parse_keyword("do")
        body = parser.parse_region(arguments)
        return cls.build(operands, types, dict(extra.data) if extra else {}, [cond, body])

    def print(self, printer: Printer) -> None:
        cond, body = self.regions
        if len(cond.blocks) != 1 or len(body.blocks) != 1:
            return printer.print_op_with_default_format(self)
        printer.print_string("(")
        for i, (arg, init) in enumerate(zip(cond.block.args, self.operands, strict=True)):
            if i:
                printer.print_string(", ")
            printer.print_block_argument(arg, print_type=False)
            printer.print_string(" = ")
            printer.print_operand(init)
        printer.print_string(")")
        if self.operands:
            printer.print_string(" : ")
            printer.print_list(self.operand_types, printer.print_attribute)
        printer.print_op_attributes(self.properties | self.attributes, print_keyword=True)
        printer.print_string(" cond ")
        printer.print_region(cond, print_entry_block_args=False)
        printer.print_string(" do ")
        _print_region_with_arguments_of(printer, body, cond)


def _print_region_with_arguments_of(printer: Printer, region: Region, names_from: Region) -> None:
    """A region whose entry arguments are written by another region's names:
    ``while``'s ``do`` shares ``cond``'s ``%iterArg`` names."""
    for mine, theirs in zip(region.block.args, names_from.block.args, strict=True):
        printer._ssa_values[mine] = printer._ssa_values[theirs]  # pyright: ignore[reportPrivateUsage]
    printer.print_region(region, print_entry_block_args=False)


class CustomCallOp(StableHLOOp):
    """``custom_call @target(%a, ...) {attributes} : (types) -> results``;
    JAX's ``@shape_assertion`` checks symbolic dimensions."""

    name = "stablehlo.custom_call"
    RESULTS = None
    REQUIRED = ("call_target_name",)
    INHERENT = frozenset(
        {
            "api_version",
            "has_side_effect",
            "backend_config",
            "called_computations",
            "operand_layouts",
            "result_layouts",
            "output_operand_aliases",
        }
    )

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        target = parser.parse_symbol_name()
        operands = parser.parse_comma_separated_list(
            parser.Delimiter.PAREN, parser.parse_unresolved_operand
        )
        attributes: dict[str, Attribute] = {"call_target_name": target}
        attributes |= parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        operand_types, result_types = Types.FUNCTIONAL.parse(parser, len(operands))
        return cls.build(resolve(parser, operands, operand_types), result_types, attributes)

    @property
    def target(self) -> str:
        target = self.properties["call_target_name"]
        return target.data if isinstance(target, StringAttr) else str(target)

    def print(self, printer: Printer) -> None:
        if not isinstance(self.properties.get("call_target_name"), StringAttr):
            return printer.print_op_with_default_format(self)
        printer.print_string(" ")
        printer.print_symbol_name(self.target)
        printer.print_string("(")
        printer.print_list(self.operands, printer.print_operand)
        printer.print_string(")")
        print_attribute_dict(printer, self, {"call_target_name"})
        Types.FUNCTIONAL.print(printer, self.operand_types, self.result_types)


class CompositeOp(StableHLOOp):
    """``composite "name" %a, ... {decomposition = @f, ...}``: a named operation
    and the function that computes it."""

    name = "stablehlo.composite"
    RESULTS = None
    REQUIRED = ("name", "decomposition")
    INHERENT = frozenset({"composite_attributes", "version"})

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        attributes: dict[str, Attribute] = {"name": StringAttr(parser.parse_str_literal())}
        operands, comma = parse_operands(parser)
        if comma:
            parser.raise_error("expected an operand after ','")
        attributes |= parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        operand_types, result_types = Types.FUNCTIONAL.parse(parser, len(operands))
        return cls.build(resolve(parser, operands, operand_types), result_types, attributes)

    @property
    def decomposition(self) -> str | None:
        found = self.attribute("decomposition")
        return found.string_value() if isinstance(found, SymbolRefAttr) else None

    def print(self, printer: Printer) -> None:
        name = self.properties.get("name")
        if not isinstance(name, StringAttr):
            return printer.print_op_with_default_format(self)
        printer.print_string(" ")
        printer.print_string_literal(name.data)
        if self.operands:
            printer.print_string(" ")
            printer.print_list(self.operands, printer.print_operand)
        print_attribute_dict(printer, self, {"name"})
        Types.FUNCTIONAL.print(printer, self.operand_types, self.result_types)


class ReturnOp(StableHLOOp):
    """``return %a, ... : T, ...``: a region's results."""

    name = "stablehlo.return"
    traits = traits_def(IsTerminator())
    RESULTS = 0

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        operands, comma = parse_operands(parser)
        if comma:
            parser.raise_error("expected an operand after ','")
        attributes = parser.parse_optional_attr_dict()
        types = []
        if operands:
            parser.parse_punctuation(":")
            types = parser.parse_comma_separated_list(parser.Delimiter.NONE, parser.parse_type)
        return cls.build(resolve(parser, operands, types), [], attributes)

    def print(self, printer: Printer) -> None:
        if self.operands:
            printer.print_string(" ")
            printer.print_list(self.operands, printer.print_operand)
        print_attribute_dict(printer, self)
        if self.operands:
            printer.print_string(" : ")
            printer.print_list(self.operand_types, printer.print_attribute)


# -- operations written only in the generic form ------------------------------


class GenericOp(StableHLOOp):
    """An operation JAX writes in the generic form only."""


class GatherOp(GenericOp):
    name = "stablehlo.gather"
    OPERANDS = 2
    REQUIRED = ("dimension_numbers", "slice_sizes")


class DynamicGatherOp(GenericOp):
    name = "stablehlo.dynamic_gather"
    OPERANDS = 3
    REQUIRED = ("dimension_numbers",)


class ScatterOp(GenericOp):
    name = "stablehlo.scatter"
    RESULTS = None
    REGIONS = 1
    REQUIRED = ("scatter_dimension_numbers",)


class SortOp(GenericOp):
    name = "stablehlo.sort"
    RESULTS = None
    REGIONS = 1


class ReduceWindowOp(GenericOp):
    name = "stablehlo.reduce_window"
    RESULTS = None
    REGIONS = 1
    REQUIRED = ("window_dimensions",)


class SelectAndScatterOp(GenericOp):
    name = "stablehlo.select_and_scatter"
    OPERANDS = 3
    REGIONS = 2


class CaseOp(GenericOp):
    """``case(%index)``: the branch of an index (the last for one out of range)."""

    name = "stablehlo.case"
    OPERANDS = 1
    RESULTS = None
    REGIONS = None


class IfOp(GenericOp):
    name = "stablehlo.if"
    OPERANDS = 1
    RESULTS = None
    REGIONS = 2


class BatchNormInferenceOp(GenericOp):
    name = "stablehlo.batch_norm_inference"
    OPERANDS = 5
    REQUIRED = ("epsilon", "feature_index")


class RngBitGeneratorOp(GenericOp):
    name = "stablehlo.rng_bit_generator"
    RESULTS = 2


OPERATIONS: tuple[type[StableHLOOp], ...] = (
    *UNARY,
    *BINARY,
    ClampOp,
    SelectOp,
    ReshapeOp,
    DynamicReshapeOp,
    BroadcastInDimOp,
    DynamicBroadcastInDimOp,
    TransposeOp,
    ReverseOp,
    ConcatenateOp,
    GetDimensionSizeOp,
    IotaOp,
    DynamicIotaOp,
    DynamicSliceOp,
    DynamicUpdateSliceOp,
    RealDynamicSliceOp,
    PadOp,
    DotOp,
    OptimizationBarrierOp,
    ConstantOp,
    CompareOp,
    SliceOp,
    DotGeneralOp,
    ConvolutionOp,
    ReduceOp,
    WhileOp,
    CustomCallOp,
    CompositeOp,
    ReturnOp,
    GatherOp,
    DynamicGatherOp,
    ScatterOp,
    SortOp,
    ReduceWindowOp,
    SelectAndScatterOp,
    CaseOp,
    IfOp,
    BatchNormInferenceOp,
    RngBitGeneratorOp,
)

BY_NAME = {op.name: op for op in OPERATIONS}
