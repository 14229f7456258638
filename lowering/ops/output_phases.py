"""The output phases of a transposed convolution along one spatial axis.

Output position ``y`` of a transposed convolution (stride ``s``, dilation ``d``, padding ``p``
before) sums ``x[i] * w[k]`` over ``i * s + k * d - p == y``. The positions ``r, r + s,
r + 2 s, ...`` (phase ``r``) are reached only by the taps ``k`` for which ``s`` divides
``r + p - k * d``, and output ``r + q * s`` reads ``x[q + (r + p - k * d) / s]``: taking those
taps from the last one down, a phase is an ordinary convolution (stride 1, dilation
``d / gcd(s, d)``) of the data with a sub-kernel, and none of its products multiplies one of
the zeros the stride would insert between the data's elements.

Every phase computes ``ceil(out / s)`` outputs (``in + extra_rows``), so that the phases
interleave into a whole number of strides, cropped to ``out``; its reads are at a constant
offset from the data's extent, so the padding each phase needs is static even where the
data's size is symbolic.
"""

from __future__ import annotations

from dataclasses import dataclass
from math import gcd

from relax_dialect.prim_expr import PrimExpr
from relax_dialect.prim_expr_simplify import simplify


@dataclass(frozen=True)
class Phase:
    """The taps that reach one phase, in the order its sub-kernel reads them (from the last
    down), the dilation between their reads, and the data position its first output's first
    tap reads (negative in the padding before the data)."""

    taps: tuple[int, ...]
    dilation: int
    start: int

    def tap_step(self) -> int:
        """The distance between consecutive taps (they go down)."""
        return self.taps[0] - self.taps[1] if len(self.taps) > 1 else 0

    def span(self) -> int:
        """How far one output's last read is from its first."""
        return (len(self.taps) - 1) * self.dilation if self.taps else 0


@dataclass(frozen=True)
class AxisPhases:
    """The ``stride`` phases of one axis, and how many more outputs than the data has
    elements each one computes."""

    phases: tuple[Phase, ...]
    extra_rows: int
    beyond: int
    """``out - (in - 1) * stride``: the output's size beyond the strided data."""
    stride: int

    @classmethod
    def of(
        cls,
        stride: int,
        dilation: int,
        pad_before: int,
        pad_after: int,
        window: int,
        output_padding: int,
    ) -> AxisPhases:
        """The phases of an axis of a transposed convolution (its settings' ``axes()`` entry,
        the kernel's size and the output padding)."""
        common = gcd(stride, dilation)
        phases = []
        for r in range(stride):
            taps = tuple(
                k for k in reversed(range(window)) if (r + pad_before - k * dilation) % stride == 0
            )
            start = (r + pad_before - taps[0] * dilation) // stride if taps else 0
            phases.append(Phase(taps, dilation // common, start))
        beyond = dilation * (window - 1) - pad_before - pad_after + output_padding + 1
        return cls(tuple(phases), -(-beyond // stride) - 1, beyond, stride)

    def out_size(self, size: PrimExpr) -> PrimExpr:
        """The output's size along the axis, for data of ``size`` elements."""
        return simplify((size - 1) * self.stride + self.beyond)
