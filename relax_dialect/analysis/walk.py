"""Walking the operations of a region."""

from __future__ import annotations

from collections.abc import Iterator

from xdsl.ir import Operation, Region


def walk_ops(region: Region) -> Iterator[Operation]:
    """Every operation of ``region`` and its nested regions, in program order
    (an operation before the operations of its regions): what ``region.walk()``
    yields, with fewer generators in between."""
    for block in region.blocks:
        for op in block.ops:
            yield op
            for inner in op.regions:
                yield from walk_ops(inner)
