"""StableHLO's attributes: the enumerations (``#stablehlo<precision DEFAULT>``,
comparison directions and types) and the structured dimension numbers of
``dot_general`` (``#stablehlo.dot<...>``), ``convolution`` (``#stablehlo.conv<...>``,
compact ``[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]`` or ``raw``), ``gather`` and
``scatter``, each parsed and printed as MLIR spells them."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from xdsl.dialects.utils import EnumAttribute
from xdsl.ir import Data, SpacedOpaqueSyntaxAttribute
from xdsl.irdl import irdl_attr_definition
from xdsl.parser import AttrParser
from xdsl.printer import Printer
from xdsl.utils.str_enum import StrEnum


class Precision(StrEnum):
    DEFAULT = "DEFAULT"
    HIGH = "HIGH"
    HIGHEST = "HIGHEST"


class ComparisonDirection(StrEnum):
    EQ = "EQ"
    NE = "NE"
    GE = "GE"
    GT = "GT"
    LE = "LE"
    LT = "LT"


class ComparisonType(StrEnum):
    NOTYPE = "NOTYPE"
    FLOAT = "FLOAT"
    TOTALORDER = "TOTALORDER"
    SIGNED = "SIGNED"
    UNSIGNED = "UNSIGNED"


@irdl_attr_definition
class PrecisionAttr(EnumAttribute[Precision], SpacedOpaqueSyntaxAttribute):
    """How precisely a dot or convolution computes (``#stablehlo<precision HIGH>``)."""

    name = "stablehlo.precision"


@irdl_attr_definition
class ComparisonDirectionAttr(EnumAttribute[ComparisonDirection], SpacedOpaqueSyntaxAttribute):
    """What ``compare`` asks (``#stablehlo<comparison_direction GT>``)."""

    name = "stablehlo.comparison_direction"


@irdl_attr_definition
class ComparisonTypeAttr(EnumAttribute[ComparisonType], SpacedOpaqueSyntaxAttribute):
    """How ``compare`` orders its operands (``#stablehlo<comparison_type FLOAT>``)."""

    name = "stablehlo.comparison_type"


def parse_int_list(parser: AttrParser) -> tuple[int, ...]:
    """``[1, 2]``."""
    return tuple(parser.parse_comma_separated_list(parser.Delimiter.SQUARE, parser.parse_integer))


def print_int_list(printer: Printer, values: tuple[int, ...]) -> None:
    printer.print_string(f"[{', '.join(map(str, values))}]")


class DimensionNumbers(Data[tuple[tuple[int, ...] | int, ...]]):
    """Dimension numbers written ``<name = [..], name = N, ...>``: the values of
    ``FIELDS`` in their order; a list left out is empty, an integer left out is
    ``INTEGER_DEFAULT``."""

    FIELDS: ClassVar[tuple[str, ...]]
    INTEGERS: ClassVar[frozenset[str]] = frozenset()
    INTEGER_DEFAULT: ClassVar[int] = 0

    def __getitem__(self, field: str) -> tuple[int, ...] | int:
        return self.data[self.FIELDS.index(field)]

    def list(self, field: str) -> tuple[int, ...]:
        value = self[field]
        assert isinstance(value, tuple)
        return value

    def integer(self, field: str) -> int:
        value = self[field]
        assert isinstance(value, int)
        return value

    @classmethod
    def of(cls, **fields: tuple[int, ...] | int) -> DimensionNumbers:
        return cls(tuple(fields.get(f, cls._default(f)) for f in cls.FIELDS))

    @classmethod
    def _default(cls, field: str) -> tuple[int, ...] | int:
        return cls.INTEGER_DEFAULT if field in cls.INTEGERS else ()

    @classmethod
    def parse_parameter(cls, parser: AttrParser) -> tuple[tuple[int, ...] | int, ...]:
        found: dict[str, tuple[int, ...] | int] = {}

        def entry() -> None:
            field = parser.parse_keyword_in(cls.FIELDS, f" in #{cls.name}")
            if field in found:
                parser.raise_error(f"'{field}' is given twice in #{cls.name}")
            parser.parse_punctuation("=")
            found[field] = (
                parser.parse_integer() if field in cls.INTEGERS else parse_int_list(parser)
            )

        parser.parse_comma_separated_list(parser.Delimiter.ANGLE, entry)
        return tuple(found.get(f, cls._default(f)) for f in cls.FIELDS)

    def print_parameter(self, printer: Printer) -> None:
        entries = [
            f"{field} = {value}"
            if isinstance(value, int)
            else f"{field} = [{', '.join(map(str, value))}]"
            for field, value in zip(self.FIELDS, self.data, strict=True)
            if value != () or field in self.INTEGERS
        ]
        printer.print_string(f"<{', '.join(entries)}>")


@irdl_attr_definition
class DotDimensionNumbers(DimensionNumbers):
    """``dot_general``'s batch and contracting dimensions of each side."""

    name = "stablehlo.dot"
    FIELDS = (
        "lhs_batching_dimensions",
        "rhs_batching_dimensions",
        "lhs_contracting_dimensions",
        "rhs_contracting_dimensions",
    )


@irdl_attr_definition
class GatherDimensionNumbers(DimensionNumbers):
    """How ``gather`` slices its operand at each start index."""

    name = "stablehlo.gather"
    FIELDS = (
        "offset_dims",
        "collapsed_slice_dims",
        "operand_batching_dims",
        "start_indices_batching_dims",
        "start_index_map",
        "index_vector_dim",
    )
    INTEGERS = frozenset({"index_vector_dim"})


@irdl_attr_definition
class ScatterDimensionNumbers(DimensionNumbers):
    """Where ``scatter`` writes each update window."""

    name = "stablehlo.scatter"
    FIELDS = (
        "update_window_dims",
        "inserted_window_dims",
        "input_batching_dims",
        "scatter_indices_batching_dims",
        "scatter_dims_to_operand_dims",
        "index_vector_dim",
    )
    INTEGERS = frozenset({"index_vector_dim"})


@dataclass(frozen=True)
class Layout:
    """One side of a convolution: its batch (or kernel input feature) dimension,
    its feature (or kernel output feature) dimension, and its spatial ones."""

    batch: int
    feature: int
    spatial: tuple[int, ...]

    def letters(self, batch: str, feature: str) -> str:
        """``[b, 0, 1, f]``: for each dimension, its role."""
        roles = {self.batch: batch, self.feature: feature}
        roles.update({dim: str(i) for i, dim in enumerate(self.spatial)})
        return f"[{', '.join(roles[d] for d in range(len(self.spatial) + 2))}]"


CONV_LETTERS = (("b", "f"), ("i", "o"), ("b", "f"))
"""The role letters of the input, the kernel and the output of a convolution."""
CONV_RAW_FIELDS = (
    ("input_batch_dimension", "input_feature_dimension", "input_spatial_dimensions"),
    (
        "kernel_input_feature_dimension",
        "kernel_output_feature_dimension",
        "kernel_spatial_dimensions",
    ),
    ("output_batch_dimension", "output_feature_dimension", "output_spatial_dimensions"),
)


@irdl_attr_definition
class ConvDimensionNumbers(Data[tuple[Layout, Layout, Layout]]):
    """A convolution's input, kernel and output layouts."""

    name = "stablehlo.conv"

    @property
    def input(self) -> Layout:
        return self.data[0]

    @property
    def kernel(self) -> Layout:
        return self.data[1]

    @property
    def output(self) -> Layout:
        return self.data[2]

    @classmethod
    def parse_parameter(cls, parser: AttrParser) -> tuple[Layout, Layout, Layout]:
        with parser.in_angle_brackets():
            if parser.parse_optional_keyword("raw") is not None:
                return parse_raw_layouts(parser)
            return parse_compact_layouts(parser)

    def print_parameter(self, printer: Printer) -> None:
        printer.print_string(f"<{compact_layouts(self.data)}>")


def compact_layouts(layouts: tuple[Layout, Layout, Layout]) -> str:
    """``[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]``."""
    lhs, rhs, out = (
        layout.letters(*letters) for layout, letters in zip(layouts, CONV_LETTERS, strict=True)
    )
    return f"{lhs}x{rhs}->{out}"


def parse_compact_layouts(parser: AttrParser) -> tuple[Layout, Layout, Layout]:
    """``[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]``, as the attribute and the
    ``dim_numbers =`` of a convolution's pretty form write them."""
    lhs = parse_layout(parser, *CONV_LETTERS[0])
    parser.parse_keyword("x")
    rhs = parse_layout(parser, *CONV_LETTERS[1])
    parser.parse_punctuation("->")
    out = parse_layout(parser, *CONV_LETTERS[2])
    if not len(lhs.spatial) == len(rhs.spatial) == len(out.spatial):
        parser.raise_error("the convolution's layouts have different numbers of spatial dimensions")
    return lhs, rhs, out


def parse_layout(parser: AttrParser, batch: str, feature: str) -> Layout:
    """``[b, 0, 1, f]``: each dimension's role, each role once."""

    def role() -> str | int:
        number = parser.parse_optional_integer(allow_boolean=False, allow_negative=False)
        return number if number is not None else parser.parse_keyword_in((batch, feature))

    roles = parser.parse_comma_separated_list(parser.Delimiter.SQUARE, role)
    spatial = sorted((r, d) for d, r in enumerate(roles) if isinstance(r, int))
    if (
        roles.count(batch) != 1
        or roles.count(feature) != 1
        or [r for r, _ in spatial] != list(range(len(spatial)))
    ):
        parser.raise_error(
            f"a layout needs '{batch}', '{feature}' and the spatial dimensions 0..n-1, each once"
        )
    return Layout(roles.index(batch), roles.index(feature), tuple(d for _, d in spatial))


def parse_raw_layouts(parser: AttrParser) -> tuple[Layout, Layout, Layout]:
    """``raw input_batch_dimension = 0, ...``: every field named."""
    values: dict[str, int | tuple[int, ...]] = {}
    names = [name for fields in CONV_RAW_FIELDS for name in fields]

    def entry() -> None:
        name = parser.parse_keyword_in(names, " in #stablehlo.conv<raw ...>")
        parser.parse_punctuation("=")
        values[name] = parse_int_list(parser) if name.endswith("s") else parser.parse_integer()

    parser.parse_comma_separated_list(parser.Delimiter.NONE, entry)
    missing = [name for name in names if name not in values]
    if missing:
        parser.raise_error(f"#stablehlo.conv<raw ...> lacks {', '.join(missing)}")
    layouts = [Layout(values[b], values[f], values[s]) for b, f, s in CONV_RAW_FIELDS]  # type: ignore[arg-type]
    return layouts[0], layouts[1], layouts[2]


ATTRIBUTES = (
    PrecisionAttr,
    ComparisonDirectionAttr,
    ComparisonTypeAttr,
    DotDimensionNumbers,
    GatherDimensionNumbers,
    ScatterDimensionNumbers,
    ConvDimensionNumbers,
)
