"""Re-inference of StructInfo after a change upstream that keeps stronger
annotations and never makes a consumer ill-formed (``TypeRefiner``): what
``relax-normalize`` does to every binding, and what the passes that change types
do to keep their output in normal form."""

from __future__ import annotations

from xdsl.ir import Operation, SSAValue
from xdsl.utils.exceptions import VerifyException

from ..diagnostics import DiagnosticError, at
from ..ops.base import BindingOp
from ..ops.dataflow import DataflowOp
from ..ops.functions import FunctionLike, LambdaOp, ReturnOp
from ..ops.match_cast import MatchCastOp
from ..struct_info import is_base_of, never_matches
from ..types import StructInfoType
from .bindings import set_type


class TypeRefiner:
    """Re-infers StructInfo after a change upstream, remembering the type each use
    saw before, so that a consumer a stronger operand type makes ill-formed (a
    call whose argument check would now fail statically: the program fails there
    at run time) gets its old operand type back through a ``relax.match_cast``."""

    def __init__(self) -> None:
        self.previous: dict[tuple[Operation, int], StructInfoType] = {}

    def note_uses(self, value: SSAValue) -> None:
        """Remember the type every current use of ``value`` sees."""
        for use in value.uses:
            self.previous.setdefault((use.operation, use.index), value.type)  # pyright: ignore

    def replace(self, value: SSAValue, new: SSAValue) -> None:
        """Replace every use of ``value`` by ``new``."""
        self.note_uses(value)
        value.replace_all_uses_with(new)

    def set_type(self, value: SSAValue, sinfo: StructInfoType) -> SSAValue:
        if value.type == sinfo:
            return value
        self.note_uses(value)
        return set_type(value, sinfo)

    def refine(self, op: Operation) -> None:
        """Give the results of ``op`` the StructInfo inferred from its operands now."""
        if isinstance(op, DataflowOp):
            for result, value in zip(op.results, op.output_op.values, strict=True):
                self.set_type(result, value.type)  # pyright: ignore[reportArgumentType]
        elif isinstance(op, LambdaOp):
            self.check_return(op)
            self.set_type(op.result, op.function_type())
        elif isinstance(op, BindingOp):
            try:
                self._refine_binding(op)
            except VerifyException as error:
                if not self.restore_operands(op):
                    raise DiagnosticError([at(op, str(error))]) from None
                self._refine_binding(op)

    def _refine_binding(self, op: BindingOp) -> None:
        declared, inferred = op.result_type, op.infer_type()
        if declared != inferred and not strictly_stronger(declared, inferred):  # pyright: ignore
            self.set_type(op.results[0], inferred)
        if any((op, index) in self.previous for index in range(len(op.operands))):
            op.verify_()

    def check_return(self, function: FunctionLike) -> None:
        """Keep the returned value compatible with the return annotation."""
        returned = function.body.block.last_op
        if not isinstance(returned, ReturnOp) or (returned, 0) not in self.previous:
            return
        try:
            function.verify_signature(function.name)
        except VerifyException as error:
            if not self.restore_operands(returned):
                raise DiagnosticError([at(returned, str(error))]) from None

    def restore_operands(self, op: Operation) -> bool:
        """Cast the operands of ``op`` whose type changed back to the type they had;
        whether any was."""
        restored = False
        for index, operand in enumerate(op.operands):
            old = self.previous.get((op, index))
            if old is None or old == operand.type or never_matches(operand.type, old):  # pyright: ignore[reportArgumentType]
                continue
            cast = MatchCastOp(operand, old)
            cast.result.name_hint = operand.name_hint
            op.parent_block().insert_op_before(cast, op)  # pyright: ignore[reportOptionalMemberAccess]
            op.operands[index] = cast.result
            restored = True
        return restored


def strictly_stronger(declared: StructInfoType, inferred: StructInfoType) -> bool:
    """``declared`` is provably a subtype of ``inferred`` but not equal to it."""
    return is_base_of(inferred, declared) and not is_base_of(declared, inferred)
