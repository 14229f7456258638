"""``math.tanh`` and ``math.erf`` on f32 expanded into arithmetic, for native code.

libm's ``tanhf`` and ``erff`` are opaque calls the loop vectoriser cannot widen (LLVM 22 maps
neither to libmvec, see ``vector_math``), so GELU and tanh ran one element at a time. Here both
become straight-line arithmetic, selects and ``math.exp``/``math.absf``/``math.copysign`` (which
the code generator vectorises), within 1e-6 relative error of the exact function over all of f32:

* ``tanh``: the odd rational function of Eigen's ``ptanh_float`` (numerator of degree 13,
  denominator of degree 6) on ``x`` clamped to ±7.905 (where it reaches ±1), ``x`` itself below
  4e-4; ±inf give ±1 and NaN stays NaN (the clamp propagates it);
* ``erf``: below 0.5 in magnitude its Maclaurin series to ``x^17``; above, Abramowitz and
  Stegun 7.1.26, ``1 - t(a1 + t(a2 + ...)) exp(-x²)`` with ``t = 1/(1 + p|x|)``, signed by
  ``x``; ±inf give ±1, NaN stays NaN.

f64 and f16 keep the library calls (these approximations are f32-accurate only).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

from xdsl.dialects import arith
from xdsl.dialects import math as math_dialect
from xdsl.dialects.builtin import Float32Type, FloatAttr, ModuleOp, f32
from xdsl.ir import Operation, SSAValue
from xdsl.pattern_rewriter import (
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
)
from xdsl.rewriter import InsertPoint

TANH_CLAMP = 7.90531110763549805
TANH_LINEAR_BELOW = 4e-4
TANH_NUMERATOR = (  # x^13 ... x^1, as polynomials in x²
    -2.76076847742355e-16,
    2.00018790482477e-13,
    -8.60467152213735e-11,
    5.12229709037114e-08,
    1.48572235717979e-05,
    6.37261928875436e-04,
    4.89352455891786e-03,
)
TANH_DENOMINATOR = (1.19825839466702e-06, 1.18534705686654e-04, 2.26843463243900e-03,
                    4.89352518554385e-03)  # fmt: skip

ERF_SERIES_BELOW = 0.5
ERF_SERIES = tuple(  # 2/√π (-1)^n / (n! (2n+1)), highest power first
    2 / math.sqrt(math.pi) * (-1) ** n / (math.factorial(n) * (2 * n + 1)) for n in range(8, -1, -1)
)
ERF_P = 0.3275911
ERF_TAIL = (1.061405429, -1.453152027, 1.421413741, -0.284496736, 0.254829592)


class Emitter:
    """Builds f32 arithmetic before an operation (each helper returns its result)."""

    def __init__(self, rewriter: PatternRewriter, anchor: Operation):
        self.rewriter = rewriter
        self.anchor = anchor

    def emit(self, op: Operation) -> SSAValue:
        self.rewriter.insert(op, InsertPoint.before(self.anchor))
        return op.results[0]

    def constant(self, value: float) -> SSAValue:
        return self.emit(arith.ConstantOp(FloatAttr(value, f32)))

    def binary(self, op: type[Operation], a: SSAValue, b: SSAValue) -> SSAValue:
        return self.emit(op(a, b))

    def add(self, a: SSAValue, b: SSAValue) -> SSAValue:
        return self.binary(arith.AddfOp, a, b)

    def mul(self, a: SSAValue, b: SSAValue) -> SSAValue:
        return self.binary(arith.MulfOp, a, b)

    def div(self, a: SSAValue, b: SSAValue) -> SSAValue:
        return self.binary(arith.DivfOp, a, b)

    def horner(self, coefficients: Sequence[float], x: SSAValue) -> SSAValue:
        """The polynomial with ``coefficients`` (highest power first) at ``x``."""
        result = self.constant(coefficients[0])
        for coefficient in coefficients[1:]:
            result = self.add(self.mul(result, x), self.constant(coefficient))
        return result

    def below(self, magnitude: SSAValue, bound: float, then: SSAValue, other: SSAValue):
        """``then`` where ``magnitude < bound`` (ordered: NaN takes ``other``), else ``other``."""
        condition = self.emit(arith.CmpfOp(magnitude, self.constant(bound), "olt"))
        return self.emit(arith.SelectOp(condition, then, other))


def tanh(emit: Emitter, x: SSAValue) -> SSAValue:
    clamped = emit.binary(arith.MaximumfOp, x, emit.constant(-TANH_CLAMP))
    clamped = emit.binary(arith.MinimumfOp, clamped, emit.constant(TANH_CLAMP))
    square = emit.mul(clamped, clamped)
    numerator = emit.mul(emit.horner(TANH_NUMERATOR, square), clamped)
    rational = emit.div(numerator, emit.horner(TANH_DENOMINATOR, square))
    magnitude = emit.emit(math_dialect.AbsFOp(x))
    return emit.below(magnitude, TANH_LINEAR_BELOW, x, rational)


def erf(emit: Emitter, x: SSAValue) -> SSAValue:
    series = emit.mul(emit.horner(ERF_SERIES, emit.mul(x, x)), x)
    magnitude = emit.emit(math_dialect.AbsFOp(x))
    one = emit.constant(1.0)
    t = emit.div(one, emit.add(one, emit.mul(emit.constant(ERF_P), magnitude)))
    tail = emit.mul(emit.horner(ERF_TAIL, t), t)
    negated_square = emit.emit(arith.NegfOp(emit.mul(magnitude, magnitude)))
    gaussian = emit.emit(math_dialect.ExpOp(negated_square))
    complement = emit.binary(arith.SubfOp, one, emit.mul(tail, gaussian))
    signed = emit.emit(math_dialect.CopySignOp(complement, x))
    return emit.below(magnitude, ERF_SERIES_BELOW, series, signed)


APPROXIMATIONS: dict[type[Operation], Callable[[Emitter, SSAValue], SSAValue]] = {
    math_dialect.TanhOp: tanh,
    math_dialect.ErfOp: erf,
}


class ApproximateMath(RewritePattern):
    """Replaces an f32 ``math.tanh`` or ``math.erf`` by its expansion."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        expand = APPROXIMATIONS.get(type(op))
        if expand is None or not isinstance(op.results[0].type, Float32Type):
            return
        rewriter.replace(op, (), [expand(Emitter(rewriter, op), op.operands[0])])


def approximate_math(module: ModuleOp) -> ModuleOp:
    """``module`` with f32 ``tanh`` and ``erf`` expanded, rewritten in place."""
    PatternRewriteWalker(ApproximateMath(), apply_recursively=False).rewrite_module(module)
    return module
