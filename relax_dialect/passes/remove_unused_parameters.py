"""``relax-remove-unused-parameters``: drop the parameters private functions do not
use (TVM's ``RemoveUnusedParameters``)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import BlockArgument, Operation
from xdsl.passes import ModulePass

from ..analysis.call_graph import (
    SymbolUses,
    callees_first,
    enclosing_function,
    is_recursive,
    symbol_uses,
)
from ..analysis.effects import function_purity
from ..analysis.symbolic_vars import symbolic_names, type_names
from ..analysis.symbols import symbol_table
from ..attributes import PrimExprAttr
from ..dtype import INT64
from ..ops.calls import CallOp
from ..ops.functions import FunctionOp
from ..ops.values import PrimValueOp
from ..prim_expr import Var
from ..rewriting.dead_code import eliminate_dead_code
from ..struct_info import definable_vars, signature_mapping
from ..types import PrimType, ShapeType, StructInfoType, TensorType, TupleType


@dataclass(frozen=True)
class RemoveUnusedParametersPass(ModulePass):
    """Remove the parameters a private function's body does not use, and the
    matching arguments of every ``relax.call`` of it. A removed parameter whose
    type defined symbolic variables the function still needs is replaced by one
    ``prim<i64, n>`` parameter per such variable, and the callers pass the value
    their arguments give it. Callers are then cleaned of the bindings only the
    removed arguments used; callees are visited before their callers, so a
    parameter that only fed a removed argument goes too."""

    name = "relax-remove-unused-parameters"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        uses = symbol_uses(op)
        table = symbol_table(op)
        purity = function_purity(op)
        dirty: set[FunctionOp] = set()

        def clean(function: FunctionOp) -> None:
            if function in dirty:
                dirty.discard(function)
                eliminate_dead_code(function.body.block, purity)

        for component in callees_first(uses):
            members = [table[name] for name in component]
            changed = True
            while changed:
                changed = False
                for function in members:
                    if isinstance(function, FunctionOp):
                        clean(function)
                for function in members:
                    if not _is_candidate(function, uses):
                        continue
                    assert isinstance(function, FunctionOp)
                    calls = uses[function.sym_name.data].live_calls()
                    if _drop_unused(function, calls, dirty):
                        changed = is_recursive(component, uses)
        for function in list(dirty):
            clean(function)


def _is_candidate(function: Operation, uses: dict[str, SymbolUses]) -> bool:
    return (
        isinstance(function, FunctionOp)
        and function.global_symbol is None
        and not uses[function.sym_name.data].escapes
    )


# --- symbolic variables ------------------------------------------------------------


def ordered_definable(types: Sequence[StructInfoType]) -> list[str]:
    """The variables in binding position, in order of appearance."""
    found: list[str] = []
    for sinfo in types:
        if isinstance(sinfo, PrimType):
            candidates = [sinfo.known_value]
        elif isinstance(sinfo, ShapeType | TensorType):
            candidates = list(sinfo.dims or ())
        elif isinstance(sinfo, TupleType):
            candidates = [Var(name) for name in ordered_definable(sinfo.types)]
        else:
            candidates = []
        for dim in candidates:
            if isinstance(dim, Var) and dim.name not in found:
                found.append(dim.name)
    return found


# --- the rewrite -------------------------------------------------------------------


def _drop_unused(function: FunctionOp, calls: list[CallOp], dirty: set[FunctionOp]) -> bool:
    params = list(function.params)
    if all(param.first_use is not None for param in params):
        return False
    types: list[StructInfoType] = function.param_types()
    signature = definable_vars(types)
    used = signature.intersection(symbolic_names(function.body.block.ops))
    if isinstance(function.ret_type, StructInfoType):
        used |= signature.intersection(type_names(function.ret_type))
    mappings = [signature_mapping(types, [a.type for a in call.args]) for call in calls]  # pyright: ignore
    keep = {i for i, param in enumerate(params) if param.first_use is not None}
    while True:
        kept_types = [types[i] for i in sorted(keep)]
        mentioned = used | ({v for t in kept_types for v in type_names(t)} & signature)
        needed = mentioned - definable_vars(kept_types)
        missing = {v for m in mappings for v in needed - m.keys()}
        more = {
            i
            for i, sinfo in enumerate(types)
            if i not in keep and (_defines_var(sinfo, needed) or definable_vars([sinfo]) & missing)
        }
        if not more:
            break
        keep |= more
    if len(keep) == len(params):
        return False
    new_vars = [v for v in ordered_definable(types) if v in needed]
    for call, mapping in zip(calls, mappings, strict=True):
        args = [arg for i, arg in enumerate(call.args) if i in keep]
        for name in new_vars:
            value = PrimValueOp(PrimExprAttr(mapping[name]))
            value.result.name_hint = name
            call.parent_block().insert_op_before(value, call)  # pyright: ignore[reportOptionalMemberAccess]
            args.append(value.result)
        call.operands = args
        dirty.add(enclosing_function(call))
    block = function.body.block
    for i in reversed(range(len(params))):
        if i not in keep:
            block.erase_arg(params[i])
    for name in new_vars:
        arg: BlockArgument = block.insert_arg(PrimType(INT64, Var(name)), len(block.args))
        arg.name_hint = f"param_{name}"
    return True


def _defines_var(sinfo: StructInfoType, needed: set[str]) -> bool:
    """Whether the parameter type is ``prim<i64, v>`` for a needed ``v`` (what a
    replacement parameter would be)."""
    value = sinfo.known_value if isinstance(sinfo, PrimType) else None
    return isinstance(value, Var) and value.name in needed
