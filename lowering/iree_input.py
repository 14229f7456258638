"""The lowered module as IREE's compiler takes it, which differs in two ways from what
``mlir-opt`` compiles:

* the guard on call depth is left out (``call_depth.remove_counter``): it is a mutable
  global, which IREE's input cannot hold, and the IREE backend refuses recursion;
* ``tensor.insert`` of one element becomes ``tensor.insert_slice`` of a one-element
  tensor. IREE 3.13 runs the loops of scatters and index maps (an ``scf.for`` carrying
  the tensor) on the host, and its stream dialect turns such an insert into a fill
  whose length is the tensor's size less the offset's lower bound, overwriting the
  elements after it (``test/lowering/test_iree.py`` holds the minimal case); the slice
  is copied exactly.
"""

from __future__ import annotations

from xdsl.dialects import tensor
from xdsl.dialects.builtin import ModuleOp, TensorType
from xdsl.rewriter import Rewriter

from .call_depth import remove_counter


def iree_input(lowered: ModuleOp) -> ModuleOp:
    """A copy of ``lowered`` that IREE compiles to code computing the same."""
    module = lowered.clone()
    remove_counter(module)
    for op in list(module.walk()):
        if isinstance(op, tensor.InsertOp):
            _insert_as_slice(op)
    return module


def _insert_as_slice(op: tensor.InsertOp) -> None:
    """``tensor.insert`` rewritten as the ``tensor.insert_slice`` of a one-element tensor."""
    destination = op.dest.type
    assert isinstance(destination, TensorType)
    rank = destination.get_num_dims()
    element = tensor.FromElementsOp(
        op.scalar, result_type=TensorType(destination.element_type, [1] * rank)
    )
    insert = tensor.InsertSliceOp.get(element.result, op.dest, [1] * rank, offsets=op.indices)
    Rewriter.replace_op(op, [element, insert])
