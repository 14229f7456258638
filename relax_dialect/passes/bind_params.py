"""``relax-bind-params``: replace parameters of a function by constants from an ``.npz``."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np
from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import BlockArgument, Operation
from xdsl.passes import ModulePass

from ..analysis.call_graph import function_named, referenced_function
from ..diagnostics import Diagnostic, DiagnosticError, at
from ..interpreter.checks import ArgumentMismatch, match_all
from ..npz import read_npz
from ..ops.functions import FunctionOp
from ..prim_expr import IntImm, PrimExpr, substitution_text
from ..rewriting.function_walk import FunctionWalk, specialise
from ..rewriting.materialize import materialize
from ..types import StructInfoType
from ..values import named_value, to_value

PASS = "relax-bind-params"


def load_arrays(path: str) -> dict[str, np.ndarray]:
    """The arrays of an ``.npz`` file by key."""
    try:
        return read_npz(path)
    except (OSError, ValueError) as error:
        message = f"{PASS}: cannot read '{path}': {error}"
        raise DiagnosticError([Diagnostic(None, message)]) from None


def select(
    function: FunctionOp, params: Mapping[str | BlockArgument, object]
) -> list[tuple[BlockArgument, object]]:
    """The parameters ``params`` names (by name or the argument itself) with
    their values; other names are ignored, a name shared by several parameters,
    or an argument of another function, is an error."""
    by_name = {k: v for k, v in params.items() if isinstance(k, str)}
    by_object = {k: v for k, v in params.items() if not isinstance(k, str)}
    names = Counter(p.name_hint for p in function.params)
    where = f"@{function.sym_name.data}"
    bound: list[tuple[BlockArgument, object]] = []
    for param in function.params:
        assert isinstance(param, BlockArgument) and isinstance(param.type, StructInfoType)
        value = by_object.pop(param, None)
        key = param.name_hint
        if value is None and key is not None:
            value = named_value(by_name, key, param.type)
            if value is not None and names[key] > 1:
                message = f"{PASS}: {where} has {names[key]} parameters named {key}"
                raise DiagnosticError([at(function, message)])
        if value is not None:
            bound.append((param, value))
    if by_object:
        message = f"{PASS}: %{next(iter(by_object)).name_hint} is not a parameter of {where}"
        raise DiagnosticError([at(function, message)])
    return bound


def uses_of(module: ModuleOp, name: str) -> Operation | None:
    """An operation referring to the function ``@name``, if any."""
    return next((op for op in module.walk() if referenced_function(op) == name), None)


def bind_params(
    module: ModuleOp, func_name: str, params: Mapping[str | BlockArgument, object]
) -> None:
    """Replace the parameters of ``@func_name`` that ``params`` names (by name,
    ``name.0``, ``name.1``... for a tuple's fields, or the block argument
    itself) by those values (NumPy arrays, or what ``relax-run`` accepts for
    shapes, prim values and tuples); other names are ignored."""
    function = function_named(module, func_name)
    if function is None:
        raise DiagnosticError([Diagnostic(None, f"{PASS}: no function @{func_name}")])
    bound = select(function, params)
    if not bound:
        return
    if (user := uses_of(module, func_name)) is not None:
        message = f"{PASS}: @{func_name} is used here, so its parameters cannot be removed"
        raise DiagnosticError([at(user, message)])
    values = []
    for param, data in bound:
        try:
            values.append(to_value(data, param.type))  # pyright: ignore[reportArgumentType]
        except (ValueError, TypeError) as error:
            raise DiagnosticError([at(param, f"{PASS}: %{param.name_hint}: {error}")]) from None
    symbols: dict[str, int] = {}
    try:
        match_all(values, [p.type for p, _ in bound], symbols)  # pyright: ignore[reportArgumentType]
    except ArgumentMismatch as mismatch:
        param = bound[mismatch.index][0]
        message = f"{PASS}: parameter %{param.name_hint}: {mismatch.args[0].split(': ', 1)[1]}"
        raise DiagnosticError([at(param, message)]) from None
    original = function.clone()
    try:
        replace_params(function, [p for p, _ in bound], values, symbols)
    except DiagnosticError:
        current = function_named(module, func_name)
        assert current is not None and current.parent is not None
        current.parent.insert_op_before(original, current)
        current.detach()
        current.erase()
        raise


def replace_params(
    function: FunctionOp, params: list[BlockArgument], values: list[object], symbols: dict[str, int]
) -> None:
    """Bind the values at the start of the body in place of the parameters, then
    give the symbolic variables their values everywhere."""
    block = function.body.block
    mapping: dict[str, PrimExpr] = {name: IntImm(value) for name, value in symbols.items()}
    walk = FunctionWalk(function, True, mapping)
    start = block.first_op
    assert start is not None
    for param, value in zip(params, values, strict=True):
        replacement = materialize(value, param.name_hint)
        assert replacement is not None
        block.insert_ops_before(replacement.ops, start)
        param.replace_all_uses_with(replacement.value)
        walk.mark_users(replacement.value)
        block.erase_arg(param)
    what = f"{PASS} @{function.sym_name.data}"
    specialise(walk, what + (f" with {substitution_text(mapping)}" if mapping else ""))


@dataclass(frozen=True)
class BindParamsPass(ModulePass):
    """Replace parameters of the function ``func`` by constants loaded from the
    ``.npz`` file ``params`` (keys: parameter names; a tuple takes ``name.0``,
    ``name.1``..., like ``relax-run --inputs``; keys naming no parameter are
    ignored, so a second run changes nothing). Each array must match its parameter's
    StructInfo; the symbolic variables its shape binds take their values in the
    whole function (as ``relax-bind-symbolic-vars`` does), and the function
    loses the bound parameters."""

    name = PASS

    params: str = ""
    func: str = "main"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        if self.params:
            bind_params(op, self.func, load_arrays(self.params))
