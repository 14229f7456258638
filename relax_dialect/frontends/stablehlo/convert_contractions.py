"""``dot_general`` (and ``dot``) as ``matmul`` between permutes and reshapes per
its dimension numbers; ``convolution`` as ``conv1d``/``conv2d``/``conv3d`` on
the layouts its dimension numbers give."""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import DenseArrayBase, DenseIntOrFPElementsAttr
from xdsl.ir import Operation, SSAValue

from ...builder import Expr, call
from ...dtype import DataType
from ...ops.manipulate import product
from . import ops
from .attributes import ConvDimensionNumbers, DotDimensionNumbers
from .convert_elementwise import element_dtype
from .convert_shapes import integer, ints, reshape_to
from .converter import Converter, converts, refuse


def permuted(cv: Converter, x: SSAValue, axes: Sequence[int]) -> SSAValue:
    if list(axes) == list(range(len(axes))):
        return x
    return cv.emit(call("relax.permute_dims", x, axes=list(axes)))


def with_result_dtype(op: Operation, value: Expr) -> Expr:
    """``value`` in the result's element type (a dot or convolution may name one
    of its own)."""
    if element_dtype(op) == element_dtype(op, result=True):
        return value
    return call("relax.astype", value, dtype=DataType.parse(element_dtype(op, result=True)))


@converts(ops.DotGeneralOp, ops.DotOp)
def dot_general(cv: Converter, op: Operation) -> Sequence[Expr]:
    lhs, rhs = (cv.value(o) for o in op.operands)
    ld, rd = cv.relax_dims(lhs, op), cv.relax_dims(rhs, op)
    if isinstance(op, ops.DotOp):
        lb, rb, lc, rc = (), (), (len(ld) - 1,), (0,)
    else:
        numbers = op.properties.get("dot_dimension_numbers")
        if not isinstance(numbers, DotDimensionNumbers):
            refuse(op, "needs #stablehlo.dot<...> dimension numbers")
        lb, rb, lc, rc = (numbers.list(f) for f in DotDimensionNumbers.FIELDS)
    if (
        len(lb) != len(rb)
        or len(lc) != len(rc)
        or not set(lb + lc) <= set(range(len(ld)))
        or not set(rb + rc) <= set(range(len(rd)))
    ):
        refuse(op, "has dimension numbers that do not fit its operands")
    lf = [i for i in range(len(ld)) if i not in lb + lc]
    rf = [i for i in range(len(rd)) if i not in rb + rc]
    batch = [ld[i] for i in lb]
    m, k, n = [ld[i] for i in lf], [ld[i] for i in lc], [rd[i] for i in rf]
    lhs = reshape_to(cv, op, permuted(cv, lhs, [*lb, *lf, *lc]), [*batch, product(m), product(k)])
    rhs = reshape_to(cv, op, permuted(cv, rhs, [*rb, *rc, *rf]), [*batch, product(k), product(n)])
    out = cv.emit(call("relax.matmul", lhs, rhs))
    return [with_result_dtype(op, reshape_to(cv, op, out, [*batch, *m, *n]))]


@converts(ops.ConvolutionOp)
def convolution(cv: Converter, op: Operation) -> Sequence[Expr]:
    numbers = op.properties.get("dimension_numbers")
    if not isinstance(numbers, ConvDimensionNumbers):
        refuse(op, "needs #stablehlo.conv<...> dimension numbers")
    spatial = len(numbers.input.spatial)
    if not 1 <= spatial <= 3:
        refuse(op, f"Relax convolves 1, 2 or 3 spatial dimensions, not {spatial}")
    if integer(op, "batch_group_count") != 1:
        refuse(op, "batch_group_count other than 1 is not supported")
    ones = [1] * spatial
    strides = window(op, "window_strides", ones)
    if window(op, "lhs_dilation", ones) != ones:
        refuse(op, "input (lhs) dilation, a transposed convolution, is not supported")
    if any(window(op, "window_reversal", [0] * spatial)):
        refuse(op, "window reversal is not supported")
    lows, highs = padding(op, spatial)
    x = permuted(
        cv,
        cv.value(op.operands[0]),
        [numbers.input.batch, numbers.input.feature, *numbers.input.spatial],
    )
    kernel = numbers.kernel
    w = permuted(cv, cv.value(op.operands[1]), [kernel.feature, kernel.batch, *kernel.spatial])
    out = cv.emit(
        call(
            f"relax.nn.conv{spatial}d",
            x,
            w,
            strides=strides,
            padding=[*lows, *highs],
            dilation=window(op, "rhs_dilation", ones),
            groups=integer(op, "feature_group_count"),
        )
    )
    layout = numbers.output
    axes = [0] * (spatial + 2)
    axes[layout.batch], axes[layout.feature] = 0, 1
    for i, dim in enumerate(layout.spatial):
        axes[dim] = 2 + i
    return [with_result_dtype(op, permuted(cv, out, axes))]


def window(op: Operation, name: str, default: list[int]) -> list[int]:
    """A per-spatial-dimension attribute (its default when absent)."""
    value = op.properties.get(name)
    if value is None:
        return default
    if isinstance(value, DenseArrayBase):
        values = [int(v) for v in value.get_values()]
    else:
        values = list(ints(op, name))
    if len(values) != len(default):
        refuse(op, f"'{name}' has {len(values)} entries for {len(default)} spatial dimensions")
    return values


def padding(op: Operation, spatial: int) -> tuple[list[int], list[int]]:
    """The low and high padding of each spatial dimension."""
    value = op.properties.get("padding")
    if value is None:
        return [0] * spatial, [0] * spatial
    if not isinstance(value, DenseIntOrFPElementsAttr):
        refuse(op, "needs 'padding' as dense<...> : tensor<Nx2xi64>")
    flat = [int(v) for v in value.get_values()]
    if len(flat) == 1:
        flat *= 2 * spatial
    if len(flat) != 2 * spatial:
        refuse(op, f"'padding' has {len(flat)} entries for {spatial} spatial dimensions")
    if any(v < 0 for v in flat):
        refuse(op, "negative padding is not supported")
    return flat[0::2], flat[1::2]
