"""The TVM side of the differential test of the TVMScript corpus.

Importable only where ``tvm`` is (apache-tvm 0.25): the project's tests do
``pytest.importorskip("tvm")`` before importing it. Corpus files are loaded by executing them
as Python modules (that is what TVMScript's ``@I.ir_module`` needs: it reads the class's source
with ``inspect``); this is test tooling only, our frontend never executes its input.

TVM 0.25 API used here:

* parse: executing ``@I.ir_module class Module`` (or ``tvm.script.from_source(text)``, which
  does not accept ``import`` statements);
* well-formedness: ``tvm.relax.analysis.check_well_formed(mod) -> bool``
  (``tvm.relax.analysis.well_formed`` raises instead and returns ``None``);
* build and run: ``mod = relax.transform.LambdaLift()(mod)`` (for nested functions),
  ``ex = tvm.compile(mod, target="llvm")``,
  ``vm = tvm.relax.VirtualMachine(ex, tvm.cpu())``, ``vm["main"](*args)`` with arguments
  made by ``tvm.runtime.tensor(ndarray)``; results are ``tvm.runtime.Tensor`` (``.numpy()``),
  ``tvm.runtime.ShapeTuple`` or arrays of them (for tuples).
"""

from __future__ import annotations

import importlib.util
import itertools
import linecache
import re
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import tvm
from inputs import TensorParam
from inputs import generate_inputs as _generate_from_params
from tvm import relax, tirx

_counter = itertools.count()


def load(path: str | Path, constants: Sequence[np.ndarray] = ()) -> tvm.IRModule:
    """Parse the corpus file at ``path`` with TVM and return its ``Module``; ``constants``
    are the arrays its ``metadata["relax.expr.Constant"][i]`` refer to.

    Raises whatever TVM raises for an invalid program (``SyntaxError``,
    ``tvm.error.DiagnosticError``, a well-formedness error, ...)."""
    path = Path(path).resolve()
    linecache.checkcache(str(path))
    name = f"_tvmscript_corpus_{next(_counter)}"
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise ImportError(f"cannot load {path}")
    module = importlib.util.module_from_spec(spec)
    module.metadata = {  # pyright: ignore[reportAttributeAccessIssue]
        "relax.expr.Constant": [relax.const(array, str(array.dtype)) for array in constants]
    }
    sys.modules[name] = module  # TVMScript's inspect-based parser looks the module up
    try:
        spec.loader.exec_module(module)
    finally:
        del sys.modules[name]
    mod = getattr(module, "Module", None)
    if not isinstance(mod, tvm.IRModule):
        raise ValueError(f"{path}: no '@I.ir_module class Module'")
    return mod


def well_formed(path: str | Path) -> bool:
    """Whether TVM parses the file at ``path`` and finds the module well formed."""
    try:
        mod = load(path)
    except Exception:
        return False
    return bool(relax.analysis.check_well_formed(mod))


def rejection(path: str | Path) -> str | None:
    """TVM's error message (its first lines) if TVM rejects the file at ``path``, else ``None``."""
    try:
        mod = load(path)
    except Exception as error:  # TVM's parser raises many kinds
        return f"{type(error).__name__}: {error}".strip()
    if not relax.analysis.check_well_formed(mod):
        return "not well formed"
    return None


def printed(path_or_mod: str | Path | tvm.IRModule) -> str:
    """The module as TVM prints it (``mod.script(show_meta=False)``), with the commented
    ``# from tvm.script import ...`` header lines replaced by the one import line the corpus
    uses, so that the text is itself a corpus-style program in the printed form."""
    mod = path_or_mod if isinstance(path_or_mod, tvm.IRModule) else load(path_or_mod)
    body = [
        line for line in mod.script(show_meta=False).splitlines() if not line.startswith("# from ")
    ]
    while body and not body[0].strip():
        body.pop(0)
    header = "from tvm.script import ir as I, relax as R, tirx as T"
    return "\n".join([header, "", "", *body]) + "\n"


def struct_info_text(sinfo: relax.StructInfo) -> str:
    """``sinfo`` as TVM prints it in a binding annotation, e.g.
    ``R.Tensor((n, 4), dtype="float32")`` (without the ``n = T.int64()`` lines)."""
    lines = [
        line
        for line in sinfo.script(show_meta=False).splitlines()
        if line.strip() and not line.startswith("#") and " = T." not in line
    ]
    return lines[-1].strip()


def _collect(func: relax.Function, name: str, result: dict[tuple[str, str], str]) -> None:
    for param in func.params:
        result[(name, param.name_hint)] = struct_info_text(param.struct_info)
    _collect_seq(func.body, name, result)


def _collect_seq(seq: relax.Expr, name: str, result: dict[tuple[str, str], str]) -> None:
    if not isinstance(seq, relax.SeqExpr):
        return
    for block in seq.blocks:
        for binding in block.bindings:
            var, value = binding.var, binding.value
            result[(name, var.name_hint)] = struct_info_text(var.struct_info)
            if isinstance(value, relax.If):
                _collect_seq(value.true_branch, name, result)
                _collect_seq(value.false_branch, name, result)
            elif isinstance(value, relax.Function):
                _collect(value, var.name_hint, result)


def binding_struct_info(mod: tvm.IRModule) -> dict[tuple[str, str], str]:
    """Map ``(function name, variable name)`` to the StructInfo TVM gives the variable, as TVM
    prints it in a binding annotation (see :func:`struct_info_text`).

    Covers the parameters and every binding of every Relax function, including the bindings in
    ``if`` branches; a nested function's own parameters and bindings are under the name it is
    bound to. Symbolic dimensions print unquoted (``R.Tensor((n, 4), ...)``), also for
    parameters (whose signature TVM prints with ``("n", 4)``). Where TVM's printed module has
    no annotation (e.g. for ``R.call_dps_packed`` and ``R.call_tir`` results) this still
    gives the type. Names TVM makes up for values it binds itself (``gv3`` for a nested call,
    ``y_then``/``y_else`` for the last value of an ``if`` branch) are included too: compare
    only the names the source program binds."""
    result: dict[tuple[str, str], str] = {}
    for gvar, func in mod.functions.items():
        if isinstance(func, relax.Function):
            _collect(func, gvar.name_hint, result)
    return result


def _evaluate_dim(dim: Any, sizes: dict[str, int]) -> int:
    if isinstance(dim, int):
        return dim
    free = tirx.analysis.undefined_vars(dim)
    missing = [var.name for var in free if var.name not in sizes]
    if missing:
        raise ValueError(f"no size for symbolic variable(s) {missing} in dimension {dim}")
    bound = tirx.stmt_functor.substitute(
        dim, {var: tirx.IntImm(var.dtype, sizes[var.name]) for var in free}
    )
    value = tvm.arith.Analyzer().simplify(bound)
    if not isinstance(value, tirx.IntImm):
        raise ValueError(f"dimension {dim} does not evaluate to an integer with {sizes}")
    return int(value.value)


def tensor_params(mod: tvm.IRModule, entry: str, sizes: dict[str, int]) -> list[TensorParam]:
    """``(name, shape, dtype)`` of each parameter of ``entry``, shapes evaluated with
    ``sizes``. Raises ``ValueError`` for a parameter that is not a tensor of known rank and
    data type."""
    func = mod[entry]
    params: list[TensorParam] = []
    for param in func.params:
        sinfo = param.struct_info
        if not isinstance(sinfo, relax.TensorStructInfo) or sinfo.shape is None:
            raise ValueError(
                f"parameter {param.name_hint!r} of {entry!r} is not a tensor with a shape: {sinfo}"
            )
        dtype = str(sinfo.dtype)
        if dtype == "void" or not dtype:
            raise ValueError(f"parameter {param.name_hint!r} of {entry!r} has no data type")
        shape = tuple(_evaluate_dim(dim, sizes) for dim in sinfo.shape.values)
        params.append((param.name_hint, shape, dtype))
    return params


def generate_inputs(
    path_or_mod: str | Path | tvm.IRModule, entry: str, sizes: dict[str, int], seed: int = 0
) -> dict[str, np.ndarray]:
    """The deterministic inputs (see ``inputs.py``) for ``entry`` of a corpus program."""
    mod = path_or_mod if isinstance(path_or_mod, tvm.IRModule) else load(path_or_mod)
    return _generate_from_params(tensor_params(mod, entry, sizes), seed)


def _to_numpy(value: Any) -> Any:
    """A VM result as NumPy arrays and nested tuples (shapes become ``int64`` arrays, prim
    values 0-d arrays)."""
    if isinstance(value, tvm.runtime.Tensor):
        return value.numpy()
    if isinstance(value, tvm.runtime.ShapeTuple):
        return np.array([int(d) for d in value], dtype=np.int64)
    if isinstance(value, bool | int | float | np.generic):
        return np.asarray(value)
    if isinstance(value, str):
        return value
    if value is None:
        return None
    try:
        items = list(value)
    except TypeError:
        return value
    return tuple(_to_numpy(item) for item in items)


def build(mod: tvm.IRModule) -> relax.VirtualMachine:
    """Compile ``mod`` for the LLVM target and load it on a CPU virtual machine.

    Nested functions are lifted first (``relax.transform.LambdaLift``): TVM 0.25's default
    pipeline does not, and its VM shape lowering rejects local functions."""
    mod = relax.transform.LambdaLift()(mod)
    executable = tvm.compile(mod, target="llvm")
    return relax.VirtualMachine(executable, tvm.cpu())


def run(path: str | Path, inputs: dict[str, np.ndarray], entry: str = "main") -> Any:
    """Build the corpus program at ``path`` with LLVM, call ``entry`` with ``inputs`` (by
    parameter name) on the VM, and return the result as NumPy arrays / nested tuples."""
    mod = load(path)
    vm = build(mod)
    args = [
        tvm.runtime.tensor(np.array(inputs[param.name_hint], order="C"))
        for param in mod[entry].params
    ]
    return _to_numpy(vm[entry](*args))


def structural_difference(
    original: str | Path, printed: str, constants: Sequence[np.ndarray] = ()
) -> str | None:
    """How TVM's parse of ``printed`` (``tvm.script.from_source``; another printing of the
    corpus file ``original``, whose metadata constants are ``constants``) differs from its
    parse of ``original``, or ``None`` when the two are structurally equal
    (``tvm.ir.assert_structural_equal``)."""
    try:
        expected = load(original, constants)
    except Exception as error:  # TVM's parser raises many kinds
        return f"TVM does not parse the original: {type(error).__name__}: {_first_line(error)}"
    try:
        actual = tvm.script.from_source(printed)
    except Exception as error:  # TVM's parser raises many kinds
        return f"TVM does not parse it: {type(error).__name__}: {_first_line(error)}"
    try:
        tvm.ir.assert_structural_equal(actual, expected)
    except ValueError as error:
        return f"not structurally equal: {_where_unequal(str(error))}"
    return None


def _first_line(error: Exception) -> str:
    lines = [line.strip() for line in str(error).splitlines() if line.strip()]
    return lines[0] if lines else ""


def _where_unequal(message: str) -> str:
    """From ``assert_structural_equal``'s message: where the two sides differ and the line of
    each that it marks (the line above the first line of carets)."""
    sides = re.split(r"^and rhs at ", message, maxsplit=1, flags=re.MULTILINE)
    found = []
    for side, text in zip(("printed", "original"), sides, strict=False):
        lines = text.splitlines()
        path = lines[0].split(" at ", 1)[-1].removeprefix("<root>.").removesuffix(":")
        path = re.sub(r'functions\[I\.GlobalVar\("(\w+)"\)\]', r"@\1", path)
        marked = next(
            (
                lines[i - 1].strip()
                for i in range(1, len(lines))
                if lines[i].strip() and set(lines[i].strip()) == {"^"}
            ),
            "",
        )
        found.append(f"{side} {path}: {marked[:100]}")
    return "; ".join(found)


def operator_names(mod: tvm.IRModule) -> set[str]:
    """The names of the operators (``relax.add``...) the module's Relax functions call."""
    names: set[str] = set()

    def visit(expr: relax.Expr) -> None:
        if isinstance(expr, relax.Call) and isinstance(expr.op, tvm.ir.Op):
            names.add(expr.op.name)

    for func in mod.functions.values():
        if isinstance(func, relax.Function):
            relax.analysis.post_order_visit(func, visit)
    return names
