"""Linear algebra: ``relax.matmul``, ``relax.einsum`` and ``relax.outer``."""

from __future__ import annotations

import string
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

from xdsl.dialects.builtin import StringAttr
from xdsl.irdl import (
    irdl_op_definition,
    operand_def,
    opt_prop_def,
    prop_def,
    result_def,
    traits_def,
)
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException

from ..attributes import DataTypeAttr
from ..prim_expr import IntImm, PrimExpr, call
from ..prim_expr_simplify import prove_equal, prove_not_equal, simplify
from ..types import UNKNOWN_NDIM, StructInfoType, TensorType, TupleType, struct_info_text
from .base import relax_type
from .fusion import FusionKind, OpPattern, matmul_pattern
from .inference import binary_arith_dtype, broadcast_dims
from .operator import OperatorOp
from .placement import Placement


@irdl_op_definition
class MatmulOp(OperatorOp):
    """Matrix product, NumPy ``matmul`` semantics: ``relax.matmul %a, %b``.

    Leading (batch) dimensions broadcast; a 1-D operand is a row (first) or a
    column (second) vector whose axis is dropped from the result. ``out_dtype``
    overrides the result data type (the operands are cast to it first).

    Inference: inner dimensions provably different are an error; batch
    dimensions that cannot be broadcast statically keep only the rank.
    """

    name = "relax.matmul"
    FUSION: ClassVar[FusionKind] = matmul_pattern
    PLACEMENT: ClassVar[Placement] = Placement.COMMON
    x1 = operand_def()
    x2 = operand_def()
    out_dtype = opt_prop_def(DataTypeAttr)
    result = result_def()
    traits = traits_def(Pure())

    def infer_type(self) -> StructInfoType:
        lhs = self.tensor_of(self.x1, "first")
        rhs = self.tensor_of(self.x2, "second")
        dtype = self.data_type_attr("out_dtype") or binary_arith_dtype(self.name, lhs, rhs)
        if UNKNOWN_NDIM in (lhs.rank, rhs.rank):
            return TensorType(dtype=dtype, ndim=UNKNOWN_NDIM)
        for which, operand in (("first", lhs), ("second", rhs)):
            if operand.rank == 0:
                raise VerifyException(f"relax.matmul: the {which} operand is a scalar")
        lhs_vector, rhs_vector = lhs.rank == 1, rhs.rank == 1
        ndim = max(lhs.rank + lhs_vector, rhs.rank + rhs_vector) - lhs_vector - rhs_vector
        if lhs.dims is None or rhs.dims is None:
            return TensorType(dtype=dtype, ndim=ndim)
        lhs_batch = lhs.dims[: max(lhs.rank - 2, 0)]
        rhs_batch = rhs.dims[: max(rhs.rank - 2, 0)]
        reduce_lhs = lhs.dims[-1]
        reduce_rhs = rhs.dims[0] if rhs_vector else rhs.dims[-2]
        if prove_not_equal(reduce_lhs, reduce_rhs):
            raise VerifyException(
                f"relax.matmul: inner dimensions {reduce_lhs} and {reduce_rhs} differ"
            )
        batch = broadcast_dims(self.name, lhs_batch, rhs_batch)
        if batch is None:
            return TensorType(dtype=dtype, ndim=ndim)
        rows = () if lhs_vector else (lhs.dims[-2],)
        cols = () if rhs_vector else (rhs.dims[-1],)
        return TensorType((*batch, *rows, *cols), dtype)


# --- einsum -----------------------------------------------------------------------

ELLIPSIS = "..."
"""The label standing for the dimensions an ellipsis covers."""

Subscript = tuple[str, ...]


@dataclass(frozen=True)
class EinsumEquation:
    """An einsum equation in explicit form: one subscript (a tuple of labels,
    ``ELLIPSIS`` included) per operand, and the output subscript."""

    inputs: tuple[Subscript, ...]
    output: Subscript

    @staticmethod
    def parse(op_name: str, text: str) -> EinsumEquation:
        """TVM's syntax: letters, ``...``, ``,`` between operands, an optional
        ``->`` before the output (without it, the labels used once in alphabetical
        order, after the ellipsis if any), spaces ignored."""
        sides = text.replace(" ", "").split("->")
        if len(sides) > 2:
            raise VerifyException(f"{op_name}: subscripts '{text}' have more than one '->'")
        inputs = tuple(_parse_subscript(op_name, text, s) for s in sides[0].split(","))
        if len(sides) == 2:
            output = _parse_subscript(op_name, text, sides[1])
        else:
            counts = Counter(label for subscript in inputs for label in subscript)
            output = tuple(sorted(k for k, c in counts.items() if k == ELLIPSIS or c == 1))
        return EinsumEquation(inputs, output)

    def text(self) -> str:
        """The explicit equation (``ij,jk->ik``)."""
        inputs = ",".join("".join(subscript) for subscript in self.inputs)
        return f"{inputs}->{''.join(self.output)}"


def _parse_subscript(op_name: str, text: str, subscript: str) -> Subscript:
    parts = subscript.split(ELLIPSIS)
    if len(parts) > 2:
        raise VerifyException(f"{op_name}: subscript '{subscript}' has more than one '...'")
    for char in "".join(parts):
        if char not in string.ascii_letters:
            raise VerifyException(
                f"{op_name}: subscripts '{text}' contain '{char}'; labels are letters"
            )
    labels = [tuple(part) for part in parts]
    return (*labels[0], ELLIPSIS, *labels[1]) if len(labels) == 2 else labels[0]


@irdl_op_definition
class EinsumOp(OperatorOp):
    """Einstein summation over a tuple of tensors, NumPy ``einsum`` semantics:
    ``relax.einsum %t {subscripts = "ij,jk->ik"}``.

    Labels of extent 1 broadcast against the other operands' extents, as do
    the dimensions ``...`` covers.

    Inference (TVM's ``InferEinsumShape``): the output dimensions of each label
    (a symbolic extent wins over a constant one, two symbolic ones give their
    ``max``) and of the ellipsis (broadcast; a constant wins over a symbolic
    one); constant extents that differ and are not 1 are an error. The tensors
    share one data type. With an unknown shape only the output rank is kept
    (when the ranks covered by an output ``...`` are known).
    """

    name = "relax.einsum"
    FUSION: ClassVar[FusionKind] = OpPattern.OUT_EWISE_FUSABLE
    PLACEMENT: ClassVar[Placement] = Placement.COMMON
    tensors = operand_def()
    subscripts = prop_def(StringAttr)
    result = result_def()
    traits = traits_def(Pure())

    def equation(self) -> EinsumEquation:
        return EinsumEquation.parse(self.name, self.subscripts.data)

    def infer_type(self) -> StructInfoType:
        tensors = self._tensor_types()
        equation = self.equation()
        self._check_equation(equation, tensors)
        dtype = tensors[0].data_type
        shapes = [t.dims for t in tensors]
        if None in shapes:
            return TensorType(dtype=dtype, ndim=self._output_rank(equation, tensors))
        return TensorType(self._output_dims(equation, shapes), dtype)  # pyright: ignore

    def _output_rank(self, equation: EinsumEquation, tensors: Sequence[TensorType]) -> int:
        """The output rank from the operand ranks (unknown when an output ``...``
        covers dimensions of an operand of unknown rank)."""
        labels = len(equation.output)
        if ELLIPSIS not in equation.output:
            return labels
        covering = [
            (s, t.rank) for s, t in zip(equation.inputs, tensors, strict=True) if ELLIPSIS in s
        ]
        if any(rank == UNKNOWN_NDIM for _, rank in covering):
            return UNKNOWN_NDIM
        return labels - 1 + max((rank - len(s) + 1 for s, rank in covering), default=0)

    def _tensor_types(self) -> list[TensorType]:
        sinfo = relax_type(self.name, self.tensors)
        if not isinstance(sinfo, TupleType):
            raise VerifyException(
                f"{self.name}: the operand has type {struct_info_text(sinfo)}, "
                "expected a tuple of tensors"
            )
        if not sinfo.types:
            raise VerifyException(f"{self.name}: the tuple of operands is empty")
        for i, field in enumerate(sinfo.types):
            if not isinstance(field, TensorType):
                raise VerifyException(
                    f"{self.name}: field {i} of the operand tuple has type "
                    f"{struct_info_text(field)}, expected a tensor"
                )
        tensors: list[TensorType] = list(sinfo.types)  # pyright: ignore[reportAssignmentType]
        for tensor in tensors[1:]:
            if tensor.data_type != tensors[0].data_type:
                raise VerifyException(
                    f"{self.name}: operands have different data types "
                    f"{tensors[0].data_type} and {tensor.data_type}"
                )
        return tensors

    def _check_equation(self, equation: EinsumEquation, tensors: Sequence[TensorType]) -> None:
        """What TVM leaves to a crash: operand count, ranks, output labels."""
        if len(equation.inputs) != len(tensors):
            raise VerifyException(
                f"{self.name}: subscripts '{self.subscripts.data}' name "
                f"{len(equation.inputs)} operands, got {len(tensors)}"
            )
        for i, (subscript, tensor) in enumerate(zip(equation.inputs, tensors, strict=True)):
            labels = len(subscript) - (ELLIPSIS in subscript)
            fits = tensor.rank >= labels if ELLIPSIS in subscript else tensor.rank == labels
            if tensor.rank != UNKNOWN_NDIM and not fits:
                raise VerifyException(
                    f"{self.name}: subscript '{''.join(subscript)}' has {labels} labels "
                    f"for operand {i} of rank {tensor.rank}"
                )
        used = {label for subscript in equation.inputs for label in subscript}
        for label, count in Counter(equation.output).items():
            if label != ELLIPSIS and label not in used:
                raise VerifyException(f"{self.name}: output label '{label}' is not an input label")
            if count > 1:
                raise VerifyException(f"{self.name}: output label '{label}' is repeated")

    def _output_dims(
        self, equation: EinsumEquation, shapes: Sequence[Sequence[PrimExpr]]
    ) -> list[PrimExpr]:
        extents: dict[str, PrimExpr] = {}
        covered: list[Sequence[PrimExpr]] = []
        for subscript, dims in zip(equation.inputs, shapes, strict=True):
            position = 0
            for label in subscript:
                if label == ELLIPSIS:
                    width = len(dims) - len(subscript) + 1
                    covered.append(dims[position : position + width])
                    position += width
                    continue
                dim = dims[position]
                if label in extents:
                    dim = self._merge(extents[label], dim, f"label '{label}'", prefer_symbol=True)
                extents[label] = dim
                position += 1
        ellipsis = max(covered, key=len, default=())
        for dims in covered:
            ellipsis = self._broadcast(ellipsis, dims)
        output: list[PrimExpr] = []
        for label in equation.output:
            output.extend(ellipsis if label == ELLIPSIS else [extents[label]])
        return output

    def _broadcast(self, lhs: Sequence[PrimExpr], rhs: Sequence[PrimExpr]) -> list[PrimExpr]:
        """TVM's ``BroadcastShape`` of the dimensions two ellipses cover."""
        common = min(len(lhs), len(rhs))
        longer = lhs if len(lhs) > len(rhs) else rhs
        merged = [
            self._merge(a, b, "a dimension covered by '...'", prefer_symbol=False)
            for a, b in zip(lhs[len(lhs) - common :], rhs[len(rhs) - common :], strict=True)
        ]
        return [*longer[: len(longer) - common], *merged]

    def _merge(self, lhs: PrimExpr, rhs: PrimExpr, what: str, prefer_symbol: bool) -> PrimExpr:
        """Two extents of one label (or ellipsis dimension) broadcast together."""
        if prove_equal(lhs, rhs) or rhs == IntImm(1):
            return lhs
        if lhs == IntImm(1):
            return rhs
        constants = [d for d in (lhs, rhs) if isinstance(d, IntImm)]
        if len(constants) == 2:
            raise VerifyException(f"{self.name}: {what} has extents {lhs} and {rhs}")
        if not constants:
            return simplify(call("max", lhs, rhs))
        symbol = rhs if isinstance(lhs, IntImm) else lhs
        return symbol if prefer_symbol else constants[0]


# --- outer ------------------------------------------------------------------------


@irdl_op_definition
class OuterOp(OperatorOp):
    """Outer product of two vectors: ``result[i, j] = x1[i] * x2[j]``.

    Inference: both operands must be 1-D tensors (an unknown rank is an
    error, as in TVM); the result is ``[len(x1), len(x2)]`` (rank 2 when a
    length is unknown) with the data type of ``x1``.
    """

    name = "relax.outer"
    FUSION: ClassVar[FusionKind] = OpPattern.BROADCAST
    PLACEMENT: ClassVar[Placement] = Placement.NONE
    x1 = operand_def()
    x2 = operand_def()
    result = result_def()
    traits = traits_def(Pure())

    def infer_type(self) -> StructInfoType:
        vectors = []
        for which, value in (("first", self.x1), ("second", self.x2)):
            vector = self.tensor_of(value, which)
            if vector.rank != 1:
                raise VerifyException(
                    f"{self.name}: the {which} operand has type "
                    f"{struct_info_text(vector)}, expected a 1-D tensor"
                )
            vectors.append(vector)
        lhs, rhs = vectors
        if lhs.dims is None or rhs.dims is None:
            return TensorType(dtype=lhs.data_type, ndim=2)
        return TensorType([lhs.dims[0], rhs.dims[0]], lhs.data_type)


OPERATIONS = [MatmulOp, EinsumOp, OuterOp]
