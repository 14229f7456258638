"""TIR (``T.prim_func``) read into the destination-passing ``func.func`` kernels
that ``relax.call_tir`` calls: the subset TVM's ONNX importer emits and that
hand-written kernels use (buffers, loops, blocks, scalar arithmetic), without
executing anything. ``docs/tvmscript.md`` lists the subset and what each
construct becomes.

A TIR function's parameters do not say which buffers are outputs: a call does.
``TIRKernels`` keeps the functions of the module being read and translates each
at its first ``call_tir`` (then every call must pass it the same way), or, when
none calls it, at the end of the module (``PrimFunc.default_convention``).
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

from xdsl.dialects import func
from xdsl.dialects.builtin import ModuleOp
from xdsl.utils.exceptions import VerifyException

from ....types import StructInfoType, TupleType
from .convention import Convention

if TYPE_CHECKING:
    from .prim_func import PrimFunc


class TIRKernels:
    """The TIR functions of a module being read, and the kernels made of them."""

    def __init__(self, module: ModuleOp):
        self.module = module
        self.pending: dict[str, PrimFunc] = {}
        self.conventions: dict[str, Convention] = {}

    def add(self, node: ast.FunctionDef, tir: str) -> None:
        """Read a ``T.prim_func`` (its signature now, its body when translated)."""
        from .prim_func import PrimFunc  # the translation's dialects load with the first one

        self.pending[node.name] = PrimFunc(node, tir)

    def prepare(
        self, name: str, inputs: int, result: StructInfoType, inplace: tuple[int, ...] | None
    ) -> str:
        """Make sure the kernel ``@name`` a ``call_tir`` of ``inputs`` arguments and
        result type ``result`` calls exists (``inplace``: ``call_tir_inplace``'s
        indices); returns ``name``."""
        count = len(result.types) if isinstance(result, TupleType) else 1
        convention = Convention(inputs, inplace if inplace is not None else (-1,) * count)
        known = self.conventions.get(name)
        if known is not None and known != convention:
            raise VerifyException(
                f"T.prim_func '{name}' is called with {known} elsewhere, with {convention} here"
            )
        if name in self.pending:
            self._translate(self.pending.pop(name), convention)
        return name

    def finish(self) -> None:
        """Translate the functions no call uses."""
        for prim_func in list(self.pending.values()):
            self._translate(prim_func, prim_func.default_convention())
        self.pending.clear()

    def _translate(self, prim_func: PrimFunc, convention: Convention) -> None:
        try:
            kernel = prim_func.kernel(convention)
        except ValueError as error:
            raise VerifyException(str(error)) from None
        self.conventions[prim_func.name] = convention
        block = self.module.body.block
        first = next((op for op in block.ops if not isinstance(op, func.FuncOp)), None)
        if first is None:
            block.add_op(kernel)
        else:
            block.insert_op_before(kernel, first)
