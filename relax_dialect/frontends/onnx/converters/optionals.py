"""OptionalHasElement and OptionalGetElement on what the importer has: a tensor
(opset 18 takes one where an optional was), or no input at all. Optionals
themselves have no Relax type (``Optional`` is refused)."""

from __future__ import annotations

import numpy as np
from xdsl.ir import SSAValue

from ..context import NodeContext
from .registry import converter


@converter("OptionalHasElement", since=15)
def optional_has_element(ctx: NodeContext) -> SSAValue:
    """A ``bool`` scalar: true for a tensor, false for a missing input."""
    return ctx.const(np.array(ctx.has_input(0)))


@converter("OptionalGetElement", since=15)
def optional_get_element(ctx: NodeContext) -> SSAValue:
    """The tensor itself."""
    return ctx.input(0)
