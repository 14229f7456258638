"""The operations no other schedule tiled, shared among the threads along their outer loop (the
tiling schedule's last step, `compile_module(tile=True)`).

After the schedules of `tiling` and of this package have run, what is still a linalg operation
in a function's body runs as one sequential loop nest: the element-wise kernels (a batch norm's
scale and shift, a residual add, a ReLU), the row-wise reductions of softmax and layer norm,
transposes (the unpacking of a product's result), the fills and copies of padding. Each gets an
``scf.forall`` over one of its parallel loops, split into one part per thread (`PREFERENCES`):
the outermost static loop long enough to share evenly, else the outermost symbolic one, else
the outermost static one longer than 1 (a batch of 1 in front of the rows, or a symbolic batch
in front of channels, is not split). The loops inside stay sequential, so LLVM still vectorises
the innermost one. A reduction loop is never split: every result is computed by one thread in
the same order whatever the number of threads. Operations whose parallel loops all have size 1
(a sum over everything) stay as they are, as do operations in a loop or a branch: their
parallel loop could nest in another one, which mlir-opt-22's OpenMP lowering rejects, and the
loop over the images of an im2col convolution (`convolution`) holds the im2col copy, whose map
reads the input at ``row mod 3``: a slice of rows does not read a slice of the input (tiled
along its rows, the copy gave wrong convolutions).
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.dialects.builtin import IntegerAttr, i64
from xdsl.ir import Operation

from ..crash_report import SCHEDULE_REMARK
from . import gate

SHARE_LOOP = "relax.share_loop"
"""Marks an operation with the loop of it that is shared among the threads (`mark_loop`)."""

MAX_OUTER = 6
"""The deepest loop split: an operation whose first ``MAX_OUTER`` loops are reductions or of
size 1 stays on one thread."""

PARTS_PER_THREAD = 4
"""A static loop is split first when it has at least this many iterations per thread (the
busiest thread then does at most 1 + 1/4 of an even share): ResNet's ``? × 64 × 112 × 112``
(a symbolic batch, 1 when run) shares its 64 channels, not its batch."""


@dataclass(frozen=True)
class Preference:
    """Loops a size comparison takes (a dynamic size is negative): ``size <comparison>
    per_thread · threads + plus``."""

    name: str
    comparison: str
    per_thread: int = 0
    plus: int = 0


PREFERENCES = (
    Preference("long", "ge", per_thread=PARTS_PER_THREAD),
    Preference("symbolic", "lt"),
    Preference("short", "gt", plus=1),
)
"""Which loop is split, in order of preference, each time the outermost: a static one of
`PARTS_PER_THREAD` iterations per thread, a symbolic one, a static one longer than 1."""


def _matcher(preference: Preference, loop: int, threads: int) -> str:
    """Matches a linalg operation in a function's body whose loop ``loop`` is parallel and of
    a size ``preference`` takes (tried in the order of `PREFERENCES` and of the loops), and
    whose operands are read through projected permutations: the slice of an operand read
    with a ``floordiv``/``mod`` map (an implicit GEMM's result read out of its blocks) is not
    the image of the loop's slice, and tiling it gave wrong results."""
    bound = preference.per_thread * threads + preference.plus
    return f"""
  transform.named_sequence @match_{preference.name}_loop_{loop}(%op: !op {{transform.readonly}})
      -> !op {{
    %size = transform.match.structured failures(propagate) %op : (!op) -> !param {{
    ^bb0(%s: !op):
      transform.match.structured.input %s[all] {{projected_permutation}} : !op
      transform.match.structured.init %s[all] {{projected_permutation}} : !op
      %d = transform.match.structured.dim %s[{loop}] {{parallel}} : (!op) -> !param
      transform.match.structured.yield %d : !param
    }}
    %bound = transform.param.constant {bound} : i64 -> !param
    transform.match.param.cmpi {preference.comparison} %size, %bound : !param
    %parent = transform.get_parent_op %op : (!op) -> !op
    transform.match.operation_name %parent ["func.func"] : !op
    transform.yield %op : !op
  }}
"""


def _action(loop: int, threads: int) -> str:
    """Splits loop ``loop`` of the operation into ``threads`` parts of an ``scf.forall``."""
    parts = [0] * loop + [threads]
    return f"""
  transform.named_sequence @share_loop_{loop}(%op: !op {{transform.consumed}}) {{
    transform.debug.emit_remark_at %op, "{SCHEDULE_REMARK}: share_loop_{loop}" : !op
    %part, %forall = transform.structured.tile_using_forall %op num_threads {parts}
        : (!op) -> (!op, !op)
    transform.yield
  }}
"""


PAIRS = [
    (f"match_{preference.name}_loop_{loop}", f"share_loop_{loop}")
    for preference in PREFERENCES
    for loop in range(MAX_OUTER)
]
"""The step's matchers and actions, tried in order."""


def sequences(threads: int) -> str:
    """The matchers and actions for ``threads`` threads (the schedule's ``!op`` and
    ``!param`` aliases and `gate.MATCH_LINALG` are assumed)."""
    matchers = "".join(
        _matcher(preference, loop, threads)
        for preference in PREFERENCES
        for loop in range(MAX_OUTER)
    )
    actions = "".join(_action(loop, threads) for loop in range(MAX_OUTER))
    return matchers + actions + MATCH_IN_BODY + gate.sequence("share_outer_loops", PAIRS)


MATCH_IN_BODY = """
  transform.named_sequence @match_in_body(%op: !op {transform.readonly}) -> !op {
    %parent = transform.get_parent_op %op : (!op) -> !op
    transform.match.operation_name %parent ["func.func"] : !op
    transform.yield %op : !op
  }
"""
"""Matches an operation in a function's body (not in a loop: a parallel loop in another one is
rejected by mlir-opt-22's OpenMP lowering)."""


def mark_loop(op: Operation, loop: int) -> None:
    """Have the step share loop ``loop`` (below `MAX_OUTER`) of ``op``, which its builder
    knows to be parallel and read through maps without ``floordiv`` or ``mod`` (sums of loops:
    an im2col copy's rows ``y·s + i``), though not through projected permutations, which the
    matchers require."""
    assert loop < MAX_OUTER
    op.attributes[SHARE_LOOP] = IntegerAttr(loop, i64)


def rewrite_step(functions: str) -> str:
    """The entry point's step sharing the outer loops of the operations left in the bodies of
    the functions of the handle ``functions`` (a gated step, `gate`), the marked ones'
    (`mark_loop`, found in the entry point's ``%root``) first."""
    marked = "".join(
        f"""
    %marked_{loop} = transform.structured.match attributes{{{SHARE_LOOP} = {loop} : i64}}
        in %root : (!op) -> !op
    transform.foreach %marked_{loop} : !op {{
    ^bb0(%op: !op):
      %shared = transform.foreach_match restrict_root in %op
          @match_in_body -> @share_loop_{loop} : (!op) -> !op
    }}"""
        for loop in range(MAX_OUTER)
    )
    return marked + gate.step("share_outer_loops", functions, "%shared")
