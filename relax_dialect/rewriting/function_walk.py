"""``FunctionWalk``, the walk that the passes changing StructInfo share
(shape simplification, constant folding, symbolic-variable binding, parameter
binding): it visits a function in program order, rewrites the symbolic
expressions of every type, re-infers the bindings whose operands changed type
and applies a pass's local rewrites, giving the function back unchanged when a
change of StructInfo makes an operation invalid. ``specialise`` runs one that
substitutes symbolic variables and reports what it breaks."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import ClassVar

from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Block, Operation, SSAValue
from xdsl.utils.exceptions import VerifyException

from ..analysis.call_graph import functions
from ..analysis.effects import is_pure
from ..analysis.symbolic_vars import undefined_vars
from ..attributes import PrimExprAttr, ShapeAttr
from ..diagnostics import DiagnosticError, at
from ..ops.alias import AliasOp
from ..ops.base import BindingOp
from ..ops.control_flow import IfOp
from ..ops.dataflow import DataflowOp
from ..ops.functions import FunctionLike, FunctionOp, LambdaOp
from ..ops.match_cast import MatchCastOp
from ..ops.operator import OperatorOp
from ..ops.values import (
    ConstantOp,
    DataTypeImmOp,
    PrimValueOp,
    ShapeOp,
    StringImmOp,
    TupleGetItemOp,
    TupleOp,
)
from ..prim_expr import PrimExpr, free_vars, substitute
from ..prim_expr_simplify import simplify
from ..struct_info import definable_vars, is_base_of, map_dims, used_vars
from ..types import FuncType, StructInfoType, TupleType
from .bindings import erase_unused, replace_binding, set_type
from .dataflow_blocks import is_empty, merge_adjacent_dataflows
from .patterns import BindingPattern, Replacement


class Rollback(Exception):
    """A change of StructInfo made ``op`` invalid; ``function`` is the function as
    it was before the walk changed any StructInfo."""

    def __init__(self, op: Operation, message: str):
        super().__init__(message)
        self.op = op
        self.message = message
        self.function: FunctionOp | None = None


DISPOSABLE = (
    AliasOp,
    OperatorOp,
    ConstantOp,
    ShapeOp,
    PrimValueOp,
    StringImmOp,
    DataTypeImmOp,
    TupleOp,
    TupleGetItemOp,
)
"""Bindings a rewrite may erase once it leaves them unused (pure ones only)."""


class FunctionWalk:
    """One function in program order, a binding after its operands. Every type
    (results, parameters, return annotations, shape and prim value literals)
    has its symbolic expressions rewritten by ``subst`` (and simplified when
    ``SIMPLIFY_ALL``); a binding whose operands changed type is re-inferred and
    takes the inferred type when it is more precise; then ``rewrite`` may
    replace it (subclasses define it). Rewrites may leave unused pure bindings
    behind: those are erased.

    With ``refine`` off, no StructInfo changes: a replacement of another type is
    made only when the replacing operations are new (they take the old type)
    and types are not rewritten. With ``refine`` on, the function is cloned
    before its first change of StructInfo; when a change makes an operation
    invalid (an error proven only with the more precise types), ``run`` puts
    the clone back and raises ``Rollback``.
    """

    SIMPLIFY_ALL: ClassVar[bool] = False
    """Simplify every symbolic expression, not only those ``subst`` changes."""

    def __init__(
        self,
        function: FunctionOp,
        refine: bool,
        subst: Mapping[str, PrimExpr] | None = None,
        patterns: Sequence[BindingPattern] = (),
    ):
        self.function = function
        self.patterns = patterns
        self._patterns_of: dict[type[Operation], list[BindingPattern]] = {}
        self.refine = refine
        self.subst: dict[str, PrimExpr] = dict(subst or {})
        self.bound: set[str] = set()
        self.dirty: set[Operation] = set()
        """Operations an operand of which changed type (they are re-inferred)."""
        self.backup: FunctionOp | None = None
        self._undo: list[tuple[str, PrimExpr | None]] = []
        self._types: dict[StructInfoType, StructInfoType] = {}

    def rewrite(self, op: BindingOp) -> Replacement | None:
        """The replacement of a binding, if any (after its type was updated): the
        first of ``patterns`` that replaces it (subclasses add rules of their own)."""
        for pattern in self.patterns_of(type(op)):
            if (found := pattern.replacement(op)) is not None:
                return found
        return None

    def patterns_of(self, kind: type[Operation]) -> list[BindingPattern]:
        """The patterns whose root ``kind`` is, in order (found once per class)."""
        found = self._patterns_of.get(kind)
        if found is None:
            found = self._patterns_of[kind] = [p for p in self.patterns if issubclass(kind, p.root)]
        return found

    def run(self) -> FunctionOp:
        """Walk the function; the function is returned (or ``Rollback`` raised)."""
        try:
            self.visit_function(self.function)
        except Rollback as failure:
            failure.function = self.restore()
            raise
        return self.function

    def restore(self) -> FunctionOp:
        """Put back the function as it was before its first change of StructInfo."""
        if self.backup is None:
            return self.function
        block = self.function.parent_block()
        assert block is not None
        block.insert_op_before(self.backup, self.function)
        self.function.detach()
        self.function.erase()
        return self.backup

    # -- scopes of symbolic variables --

    def mark(self) -> int:
        return len(self._undo)

    def unwind(self, mark: int) -> None:
        """Leave a scope: forget the variables bound and substituted since ``mark``."""
        while len(self._undo) > mark:
            name, previous = self._undo.pop()
            if name.startswith("="):
                if previous is None:
                    del self.subst[name[1:]]
                else:
                    self.subst[name[1:]] = previous
                self._types.clear()
            else:
                self.bound.discard(name)

    def bind(self, names: set[str]) -> None:
        for name in names - self.bound:
            self.bound.add(name)
            self._undo.append((name, None))

    def substitute(self, mapping: Mapping[str, PrimExpr]) -> None:
        """Replace variables by expressions in the rest of the scope."""
        for name, expr in mapping.items():
            self._undo.append(("=" + name, self.subst.get(name)))
            self.subst[name] = expr
        self._types.clear()

    # -- types --

    def map_expr(self, expr: PrimExpr) -> PrimExpr:
        return rewrite_expr(expr, self.subst, self.SIMPLIFY_ALL)

    def map_type(self, op: Operation, sinfo: StructInfoType) -> StructInfoType:
        if not self.refine or not (self.subst or self.SIMPLIFY_ALL):
            return sinfo
        mapped = self._types.get(sinfo)
        if mapped is None:
            try:
                mapped = rewrite_struct_info(sinfo, self.subst, self.SIMPLIFY_ALL)
            except ValueError as error:
                raise Rollback(op, str(error)) from None
            self._types[sinfo] = mapped
        return mapped

    def before_change(self) -> None:
        assert self.refine, "StructInfo changes only when refining"
        if self.backup is None:
            self.backup = self.function.clone()

    def retype(self, value: SSAValue, sinfo: StructInfoType) -> SSAValue:
        self.before_change()
        new = set_type(value, sinfo)
        self.mark_users(new)
        return new

    def mark_users(self, value: SSAValue) -> None:
        self.dirty.update(use.operation for use in value.uses)

    def checked(self, op: Operation, check: Callable[[], object]) -> object:
        try:
            return check()
        except VerifyException as error:
            raise Rollback(op, str(error)) from None

    # -- the walk --

    def visit_function(self, op: FunctionLike) -> None:
        changed = self.map_signature(op)
        mark = self.mark()
        self.bind(definable_vars(op.param_types()))
        self.walk(op.body.block)
        self.unwind(mark)
        changed = changed or op.body.block.last_op in self.dirty
        if isinstance(op, LambdaOp) and op.result.type != (own := op.function_type()):
            self.retype(op.result, own)
            changed = True
        if changed:
            self.checked(op, op.verify_)

    def map_signature(self, op: FunctionLike) -> bool:
        changed = False
        for param in op.params:
            mapped = self.map_type(op, param.type)  # pyright: ignore[reportArgumentType]
            if mapped != param.type:
                self.retype(param, mapped)
                changed = True
        if isinstance(op.ret_type, StructInfoType):
            mapped = self.map_type(op, op.ret_type)
            if mapped != op.ret_type:
                self.before_change()
                op.properties["ret_type"] = mapped
                changed = True
        if isinstance(op, LambdaOp) and op.self_reference is not None:
            own = op.function_type()
            if op.self_reference.type != own:
                self.retype(op.self_reference, own)
        return changed

    def walk(self, block: Block) -> None:
        for op in list(block.ops):
            if op.parent is block:
                self.visit(op)
        if not isinstance(block.parent_op(), DataflowOp):
            merge_adjacent_dataflows(block)  # erased bindings may have been between them

    def visit(self, op: Operation) -> None:
        if isinstance(op, DataflowOp):
            self.walk(op.body.block)
            self.finish_dataflow(op)
        elif isinstance(op, LambdaOp):
            self.visit_function(op)
        elif isinstance(op, IfOp):
            for region in op.regions:
                mark = self.mark()
                self.walk(region.block)
                self.unwind(mark)
            yields = [r.block.last_op for r in op.regions]
            self.update(op, any(o in self.dirty for o in (op, *yields)))
        elif isinstance(op, BindingOp):
            self.update(op, self.map_attributes(op) or op in self.dirty)
            replacement = self.rewrite(op)
            replaced = replacement is not None and self.replace(op, replacement)
            if isinstance(op, MatchCastOp) and not replaced:
                self.bind(op.defined_vars())

    def map_attributes(self, op: Operation) -> bool:
        """Rewrite the expressions of a shape or prim value literal."""
        if isinstance(op, ShapeOp):
            dims = op.dims.data
            new = tuple(self.map_expr(d) for d in dims) if self.refine else dims
            if new != dims:
                self.before_change()
                op.properties["dims"] = ShapeAttr(new)
                return True
        elif isinstance(op, PrimValueOp):
            value = op.value.data
            if self.refine and (new := self.map_expr(value)) != value:
                self.before_change()
                op.properties["value"] = PrimExprAttr(new)
                return True
        return False

    def update(self, op: BindingOp | IfOp, inputs_changed: bool) -> None:
        """Rewrite the binding's type; re-infer it when its inputs changed."""
        result = op.results[0]
        declared = result.type
        assert isinstance(declared, StructInfoType)
        mapped = self.map_type(op, declared)
        if mapped != declared:
            self.retype(result, mapped)
        if inputs_changed:
            inferred = self.checked(op, op.infer_type)
            current = op.results[0].type
            if inferred != current and is_base_of(current, inferred):  # pyright: ignore
                self.retype(op.results[0], inferred)  # pyright: ignore[reportArgumentType]
        if inputs_changed or mapped != declared:
            self.checked(op, op.verify_)

    def finish_dataflow(self, op: DataflowOp) -> None:
        """Results take their outputs' types; a block left empty is removed."""
        outputs = list(op.output_op.values)
        if is_empty(op):
            for result, value in zip(op.results, outputs, strict=True):
                if value.type != result.type:
                    self.mark_users(result)
                result.replace_all_uses_with(value)
            op.detach()
            op.erase()
            return
        for result, value in zip(op.results, outputs, strict=True):
            if value.type != result.type:
                self.retype(result, value.type)  # pyright: ignore[reportArgumentType]

    def replace(self, op: BindingOp, replacement: Replacement) -> bool:
        """Replace the binding; refused (False) when it would change StructInfo
        that may not change."""
        result = op.results[0]
        value = replacement.settled(result, self.refine)
        if value is None:
            return False
        if value.type != result.type:
            self.before_change()
            self.mark_users(result)
        block = op.parent_block()
        assert block is not None
        if replacement.ops:
            block.insert_ops_before(replacement.ops, op)
        operands = list(op.operands)
        replace_binding(op, value)
        if replacement.on_commit is not None:
            replacement.on_commit()
        self.erase_dead(operands)
        return True

    def erase_dead(self, values: list[SSAValue]) -> None:
        """Erase the pure bindings among the owners of ``values`` left unused."""
        while values:
            owner = values.pop().owner
            if (
                isinstance(owner, DISPOSABLE)
                and is_pure(owner)
                and owner.parent is not None
                and not owner.results[0].uses
            ):
                values.extend(owner.operands)
                erase_unused(owner)


def rewrite_expr(expr: PrimExpr, subst: Mapping[str, PrimExpr], simplify_all: bool) -> PrimExpr:
    """``expr`` with ``subst`` applied and simplified (the same object if unchanged)."""
    if subst and not free_vars(expr).isdisjoint(subst):
        new = simplify(substitute(expr, subst))
    elif simplify_all:
        new = simplify(expr)
    else:
        return expr
    return expr if new == expr else new


def rewrite_struct_info(
    sinfo: StructInfoType, subst: Mapping[str, PrimExpr], simplify_all: bool
) -> StructInfoType:
    """Every symbolic expression of ``sinfo`` rewritten by ``rewrite_expr``; a
    function type's own variables (bound by its parameters) are left alone.
    Raises ``ValueError`` when a substituted expression would be captured by them."""
    if isinstance(sinfo, TupleType):
        fields = [rewrite_struct_info(f, subst, simplify_all) for f in sinfo.types]
        same = all(n is f for n, f in zip(fields, sinfo.types, strict=True))
        return sinfo if same else TupleType(fields)
    if isinstance(sinfo, FuncType):
        params = sinfo.param_types
        local = definable_vars(params or ())
        inner = {k: v for k, v in subst.items() if k not in local}
        used = used_vars(sinfo)
        for name, expr in inner.items():
            if name in used and not free_vars(expr).isdisjoint(local):
                raise ValueError(
                    f"substituting {name} in a function type would capture one of its own "
                    f"variables ({', '.join(sorted(free_vars(expr) & local))})"
                )
        new_params = (
            None
            if params is None
            else [rewrite_struct_info(p, inner, simplify_all) for p in params]
        )
        ret = rewrite_struct_info(sinfo.ret_type, inner, simplify_all)
        same = ret is sinfo.ret_type and all(
            n is p for n, p in zip(new_params or (), params or (), strict=True)
        )
        return sinfo if same else FuncType(new_params, ret, sinfo.is_pure, sinfo.derive)
    return map_dims(sinfo, lambda expr: rewrite_expr(expr, subst, simplify_all))


def specialise(walk: FunctionWalk, what: str) -> None:
    """Run ``walk`` (which substitutes symbolic variables) on its function; an
    operation it makes invalid, or a variable it leaves unbound, is an error
    reported as ``what`` (the function is then left as it was)."""
    try:
        walk.run()
    except Rollback as failure:
        raise DiagnosticError([at(failure.op, f"{what}: {failure.message}")]) from None
    if unbound := undefined_vars(walk.function):
        message = f"{what}: symbolic variable {sorted(unbound)[0]} is no longer bound"
        error = at(walk.function, message)
        walk.restore()
        raise DiagnosticError([error])


def rewrite_functions(module: ModuleOp, walk: Callable[[FunctionOp, bool], FunctionWalk]) -> None:
    """Run ``walk`` on every function of the module, refining StructInfo; a function
    whose refinement fails is walked again without refining."""
    for function in functions(module):
        try:
            walk(function, True).run()
        except Rollback as failure:
            assert failure.function is not None
            walk(failure.function, False).run()
