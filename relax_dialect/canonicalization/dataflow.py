"""Dataflow blocks in the spec's normal form (``canonicalize``): when other patterns
erase what stood between two dataflow blocks, or every binding of one, the blocks
merge (normal form rule 4) or the empty one goes. The passes keep this form with
``rewriting.dataflow_blocks`` as they walk."""

from __future__ import annotations

from xdsl.ir import Operation
from xdsl.pattern_rewriter import PatternRewriter
from xdsl.rewriter import InsertPoint

from ..ops.dataflow import DataflowOp, OutputOp
from ..rewriting.dataflow_blocks import captures, is_empty
from ..rewriting.patterns import RootedPattern


class EmptyDataflow(RootedPattern):
    """A dataflow block without bindings is the outer values it exports."""

    root = (DataflowOp,)

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        if isinstance(op, DataflowOp) and op.parent is not None and is_empty(op):
            rewriter.replace(op, [], list(op.output_op.values))


class AdjacentDataflows(RootedPattern):
    """A dataflow block directly followed by another takes its bindings and outputs.

    A closure of the later block that captures the first block's outputs moves
    out, just before the later block, and the blocks stay apart, as
    ``rewriting.dataflow_blocks`` does."""

    root = (DataflowOp,)

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        later = op.next_op
        if not isinstance(op, DataflowOp) or not isinstance(later, DataflowOp):
            return
        earlier = set(op.results)
        closures = [o for o in later.body.block.ops if captures(o, earlier)]
        if closures:
            for closure in closures:
                closure.detach()
                rewriter.insert(closure, InsertPoint.before(later))
            return
        first, second = op.output_op, later.output_op
        inner = dict(zip(op.results, first.values, strict=True))
        outputs = [*first.values, *(inner.get(v, v) for v in second.values)]
        rewriter.inline_block(later.body.block, InsertPoint.before(first))
        for result, value in inner.items():
            rewriter.replace_uses_with_if(result, value, lambda use: op.is_ancestor(use.operation))
        rewriter.erase(second)
        rewriter.erase(first)
        rewriter.insert(OutputOp(outputs), InsertPoint.at_end(op.body.block))
        merged = DataflowOp(rewriter.move_region_contents_to_new_regions(op.body))
        rewriter.insert(merged, InsertPoint.before(op))
        results = [*op.results, *later.results]
        for old, new in zip(results, merged.results, strict=True):
            new.name_hint = old.name_hint
        count = len(op.results)
        rewriter.replace(later, [], list(merged.results[count:]))
        rewriter.replace(op, [], list(merged.results[:count]))


PATTERNS: tuple[RootedPattern, ...] = (EmptyDataflow(), AdjacentDataflows())
