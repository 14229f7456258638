"""TVM 0.25 reads the printed TVMScript back (skipped when TVM is not installed).

For every module of the corpus (``printer_corpus``): ``tvm.script.from_source``
parses the text, the module is well formed for ``tvm.relax.analysis``, and the
StructInfo TVM gives each binding is the annotation we printed: the same text,
or StructInfo TVM's analyzer proves the same (it normalizes ``n * 2 + 1`` to
``2 * n + 1``), or more precise where the module declares a weaker type than
the inferred one (TVM keeps the inferred type of a constant). ``LIMITATIONS``
lists the modules TVM does not accept, with the reason; each must still fail
that way.

Run it with a Python that has TVM (apache-tvm 0.25.0.post1) and, on its
``PYTHONPATH``, this project and its dependencies (xDSL, the same NumPy)::

    PYTHONPATH=.:$PROJECT_VENV/lib/python3.11/site-packages $TVM_PYTHON \\
        -m pytest test/unit/test_tvmscript_printer_tvm.py
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from typing import Any

import pytest
from printer_corpus import CORPUS, corpus_module

from relax_dialect.dialect import OPERATIONS
from relax_dialect.frontends.tvmscript.printer import print_tvmscript
from relax_dialect.ops.base import BindingOp

tvm = pytest.importorskip("tvm")
from tvm import relax  # noqa: E402
from tvm.script.parser.core.entry import _default_globals  # noqa: E402

_VARIABLE_PRIM_VALUE = (
    "takes this operand only as an R.prim_value(...) expression, and the variable "
    "passed has no known value to write instead"
)
LIMITATIONS: dict[str, tuple[str, str]] = {
    "ops.mlir@values": (
        "well_formed",
        "TVM's parser gives the variable of a recursive local function a pure type, so "
        "the impure recursive lambda of @closures cannot be bound to it",
    ),
    "core.mlir@closures": (
        "well_formed",
        "R.make_closure(cls.add, ...) uses a module function as a value, which carries "
        "the symbolic variables of its signature into the caller",
    ),
    "create.mlir@eye": ("parse", f"R.eye {_VARIABLE_PRIM_VALUE}"),
    "set.mlir@unique": ("parse", f"R.unique {_VARIABLE_PRIM_VALUE}"),
    "unary.mlir@clip": ("parse", f"R.clip {_VARIABLE_PRIM_VALUE}"),
    "manipulate.mlir@reshape": (
        "well_formed",
        "TVM infers reshape to a shape with -1 only from the shape written inline, and the "
        "module binds it to a variable",
    ),
    "create.mlir@arange": ("well_formed", "TVM infers 7 elements for arange(5, 0, -1)"),
    "index.mlir@strided_slice": (
        "well_formed",
        "TVM infers 4 elements for the slice 7:1:-2 of 8 with assume_inbound",
    ),
    "linear_algebra.mlir@einsum_unknown": (
        "well_formed",
        "TVM infers rank 1 for einsum 'i,j->ij' of operands of unknown shape",
    ),
    "statistical.mlir@scans": (
        "well_formed",
        "TVM keeps the input's rank for cumsum without an axis of an unknown shape",
    ),
    "manipulate.mlir@permute_dims": (
        "well_formed",
        "TVM cannot infer permute_dims with axes of a tensor of unknown rank",
    ),
    "manipulate.mlir@stack": (
        "well_formed",
        "TVM cannot infer stack of a tensor of unknown rank",
    ),
    "nn.mlir@pad": ("well_formed", "TVM cannot infer pad of a tensor of unknown rank"),
    "nn.mlir@pixel_shuffle": (
        "well_formed",
        "TVM cannot infer pixel_shuffle of a tensor of unknown rank",
    ),
    "ternary.mlir@ewise_fma": (
        "well_formed",
        "TVM requires the shapes of ewise_fma to be provably equal",
    ),
    "nn.mlir@attention": (
        "crash",
        "TVM 0.25 crashes (segmentation fault) inferring attention of float32 and float16 operands",
    ),
}


def parse_with_tvm(text: str, metadata: dict[str, list[Any]]) -> Any:
    """The IRModule TVM parses from ``text``, unchecked, with the metadata constants."""
    extra = _default_globals()
    extra["metadata"] = {
        key: [relax.const(a, str(a.dtype)) for a in arrays] for key, arrays in metadata.items()
    }
    return tvm.script.from_source(text, extra_vars=extra, check_well_formed=False)


def annotations(text: str) -> dict[tuple[str, str], str]:
    """Our annotation of each binding, by (global function, variable)."""
    found = {}
    for function in ast.parse(text).body[0].body:  # pyright: ignore[reportAttributeAccessIssue]
        if isinstance(function, ast.FunctionDef):
            for node in ast.walk(function):
                if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
                    found[function.name, node.target.id] = ast.unparse(node.annotation)
    return found


def bindings(expr: Any) -> Iterator[Any]:
    """The bindings in ``expr``, in nested functions and branches too."""
    if isinstance(expr, relax.Function):
        yield from bindings(expr.body)
    elif isinstance(expr, relax.SeqExpr):
        for block in expr.blocks:
            for binding in block.bindings:
                yield binding
                yield from bindings(binding.value)
    elif isinstance(expr, relax.If):
        yield from bindings(expr.true_branch)
        yield from bindings(expr.false_branch)


def weakly_declared(module: Any) -> set[str]:
    """The names of the bindings whose declared StructInfo is weaker than the one
    inferred (TVM keeps the inferred one for values it normalizes, constants...)."""
    weak = set()
    for op in module.walk():
        if isinstance(op, BindingOp) and op.results[0].name_hint:
            try:
                inferred = op.infer_type()
            except Exception:  # operations without inference (packed calls, ...)
                continue
            if inferred != op.results[0].type:
                weak.add(op.results[0].name_hint)
    return weak


def base_checks(ours: str, theirs: Any, function: Any) -> tuple[bool, bool]:
    """Whether our annotation text is a base of ``theirs``, and ``theirs`` of it,
    as TVM's analyzer proves (it normalizes ``n * 2 + 1`` to ``2 * n + 1``)."""
    symbols = {
        v.name: v
        for v in relax.analysis.defined_symbolic_vars(function)
        + relax.analysis.free_symbolic_vars(function)
    }
    evaluated = eval(ours, {**_default_globals(), **symbols})  # an annotation we printed
    mine = relax.script.parser.entry._normalize_struct_info(evaluated, symbols)
    check, passed = relax.analysis.struct_info_base_check, relax.analysis.BaseCheckResult.PASS
    return check(mine, theirs) == passed, check(theirs, mine) == passed


def check_annotations(text: str, module: Any, weak: set[str]) -> None:
    """TVM's StructInfo of each binding is our annotation: the same text as TVM
    prints it or provably equal, or more precise where we declare a weaker type."""
    ours = annotations(text)
    for global_var, function in module.functions.items():
        if not isinstance(function, relax.Function):
            continue
        for binding in bindings(function):
            name = binding.var.name_hint
            annotation = ours.get((global_var.name_hint, name))
            sinfo = binding.var.struct_info
            if annotation is None or ast.unparse(ast.parse(str(sinfo))) == annotation:
                continue
            is_base, is_derived = base_checks(annotation, sinfo, function)
            assert is_base and (is_derived or name in weak), (
                f"{name}: we print {annotation}, TVM has {sinfo}"
            )


@pytest.mark.parametrize("name", CORPUS)
def test_tvm_reads_printed_module(name: str) -> None:
    stage, reason = LIMITATIONS.get(name, ("", ""))
    if stage == "crash":
        pytest.skip(reason)
    metadata: dict[str, list[Any]] = {}
    ours = corpus_module(name)
    text = print_tvmscript(ours, metadata)
    try:
        module = parse_with_tvm(text, metadata)
    except Exception:
        if stage == "parse":
            pytest.xfail(reason)
        raise
    check_annotations(text, module, weakly_declared(ours))
    try:
        relax.analysis.well_formed(module)
    except Exception:
        if stage == "well_formed":
            pytest.xfail(reason)
        raise
    assert not stage, f"TVM now accepts {name}: remove it from LIMITATIONS ({reason})"


def test_every_operation_is_checked_by_tvm() -> None:
    """Each kind of binding is in some module TVM reads and finds well formed."""
    checked = set()
    for name in CORPUS:
        if name not in LIMITATIONS:
            checked |= {op.name for op in corpus_module(name).walk()}
    assert {op.name for op in OPERATIONS if issubclass(op, BindingOp)} <= checked
