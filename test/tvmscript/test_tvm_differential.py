"""Differential test against TVM 0.25 (skipped without ``tvm``): the same corpus
programs through TVM and through the frontend must agree on well-formedness, on
the StructInfo of every binding the source names, and on the outputs; and TVM
must parse our printing of each corpus program (the project's and the ONNX one)
back to a module structurally equal to its parse of the original.

Run it with a Python that has both TVM and this project, e.g.
``PYTHONPATH=.:/path/to/venv/site-packages /path/to/tvmenv/bin/python -m pytest test/tvmscript``.
"""

from __future__ import annotations

import ast
from pathlib import Path

import numpy as np
import onnx_corpus
import pytest
from corpus_harness import (
    CORPUS,
    ERRORS,
    binding_struct_info,
    diagnostics,
    entry_inputs,
    load,
    run_spec,
)

from relax_dialect.frontends.tvmscript.annotations import ExprReader
from relax_dialect.frontends.tvmscript.printer import print_tvmscript
from relax_dialect.interpreter import run
from relax_dialect.prim_expr import Var
from relax_dialect.prim_expr_simplify import prove_equal
from relax_dialect.types import (
    FuncType,
    PrimType,
    ShapeType,
    StructInfoType,
    TensorType,
    TupleType,
)
from relax_dialect.vdevice import VDeviceRef

tvm_oracle = pytest.importorskip("tvm_oracle", reason="needs apache-tvm 0.25")


def printed_device(node: ast.expr) -> VDeviceRef:
    """A device as the oracle prints it, ``"llvm:-1:global"``: without its module TVM
    cannot count the index, so kind and scope are compared (one device per kind)."""
    kind, _, scope = ast.literal_eval(node).split(":")
    return VDeviceRef(kind, 0, scope)


READER = ExprReader(lambda name: Var(name), vdevice=printed_device)
DELIBERATE = {
    ("082_meshgrid.py", "xy"): "TVM infers the ij shape for indexing='xy', its kernel swaps it",
    ("082_meshgrid.py", "b"): "computed from the 'xy' meshgrid above",
    **{
        ("160_grid_sample.py", name): "TVM 0.25 infers H_out, W_out from grid dims 1, 2; "
        "its kernel reads [N, 2, H_out, W_out]"
        for name in "abc"
    },
}
"""Bindings whose StructInfo deliberately differs from TVM's, with the reason."""
DIFFERENT_OUTPUTS = {
    "101_unique.py": "TVM returns unique's inverse in the input's shape; its StructInfo says 1-d",
    "110_layer_rms_norm.py": "TVM's layer_norm legalization ignores center=False",
    "111_group_instance_norm.py": "TVM's group_norm/instance_norm legalization ignores center/scale",
}
"""Programs whose outputs deliberately differ from what TVM computes, with the reason."""
READABLE = [p for p in CORPUS if "T.prim_func" not in p.read_text()]
KNOWN_ONNX_FAILURES = onnx_corpus.known_failures()
KNOWN_ROUND_TRIP_FAILURES = onnx_corpus.known_failures(CORPUS[0].parent / "KNOWN_FAILURES.txt")
"""The programs of ``corpus/`` whose printing TVM does not parse back to an equal module."""


def read_tvm(text: str) -> StructInfoType:
    """A StructInfo as TVM prints it, as one of ours."""
    return READER.struct_info(ast.parse(text, mode="eval").body)


def agree(ours: StructInfoType, theirs: StructInfoType) -> bool:
    """Equal StructInfo up to provably equal symbolic dimensions."""
    if type(ours) is not type(theirs):
        return False
    if isinstance(ours, TensorType | ShapeType):
        dims = ours.dims, theirs.dims  # pyright: ignore[reportAttributeAccessIssue]
        same_dims = (dims[0] is None and dims[1] is None) or (
            dims[0] is not None
            and dims[1] is not None
            and len(dims[0]) == len(dims[1])
            and all(prove_equal(a, b) for a, b in zip(*dims, strict=True))
        )
        same_dtype = not isinstance(ours, TensorType) or ours.data_type == theirs.data_type  # pyright: ignore
        return same_dims and ours.rank == theirs.rank and same_dtype and same_device(ours, theirs)  # pyright: ignore
    if isinstance(ours, PrimType):
        values = ours.known_value, theirs.known_value  # pyright: ignore[reportAttributeAccessIssue]
        same = (values[0] is None and values[1] is None) or (
            None not in values and prove_equal(*values)  # pyright: ignore[reportArgumentType]
        )
        return ours.data_type == theirs.data_type and same  # pyright: ignore
    if isinstance(ours, TupleType):
        return len(ours.types) == len(theirs.types) and all(  # pyright: ignore
            agree(a, b)
            for a, b in zip(ours.types, theirs.types, strict=True)  # pyright: ignore
        )
    if isinstance(ours, FuncType):
        return agree(ours.ret_type, theirs.ret_type)  # pyright: ignore
    return True


def same_device(ours: StructInfoType, theirs: StructInfoType) -> bool:
    """The same virtual device, by kind and scope (see ``printed_device``)."""
    if not isinstance(ours, TensorType) or not isinstance(theirs, TensorType):
        return True
    if ours.device is None or theirs.device is None:
        return ours.device is theirs.device
    return (ours.device.kind, ours.device.scope) == (theirs.device.kind, theirs.device.scope)


@pytest.mark.parametrize("path", READABLE, ids=lambda p: p.name)
def test_inferred_struct_info_agrees_with_tvm(path: Path) -> None:
    ours = binding_struct_info(load(path))
    theirs = tvm_oracle.binding_struct_info(tvm_oracle.load(path))
    disagreements = [
        f"{key}: ours {ours[key]}, TVM {text}"
        for key, text in theirs.items()
        if key in ours
        and (path.name, key[1]) not in DELIBERATE
        and not agree(ours[key], read_tvm(text))
    ]
    assert disagreements == []


@pytest.mark.parametrize("path", ERRORS, ids=lambda p: p.name)
def test_well_formedness_verdicts(path: Path) -> None:
    """We reject every invalid program; TVM rejects those marked ``# tvm: rejects``
    (the others are where this project is deliberately stricter)."""
    _, found = diagnostics(path)
    assert found
    assert tvm_oracle.well_formed(path) == ("# tvm: accepts" in path.read_text())


@pytest.mark.parametrize(
    "path",
    [
        pytest.param(p, marks=pytest.mark.xfail(strict=True, reason=DIFFERENT_OUTPUTS[p.name]))
        if p.name in DIFFERENT_OUTPUTS
        else p
        for p in READABLE
        if run_spec(p)
    ],
    ids=lambda p: p.name,
)
def test_outputs_agree_with_tvm(path: Path) -> None:
    module = load(path)
    spec = run_spec(path)
    assert spec is not None
    inputs = entry_inputs(module, spec)
    ours = run(module, spec.entry, *inputs)
    theirs = tvm_oracle.run(
        path, tvm_oracle.generate_inputs(path, spec.entry, spec.sizes), spec.entry
    )
    compare(ours, theirs)


def compare(ours: object, theirs: object) -> None:
    if isinstance(theirs, tuple):
        assert isinstance(ours, tuple) and len(ours) == len(theirs)
        for a, b in zip(ours, theirs, strict=True):
            compare(a, b)
        return
    expected = np.asarray(theirs)
    actual = np.asarray(getattr(ours, "dims", getattr(ours, "value", ours)))
    assert actual.shape == expected.shape
    np.testing.assert_allclose(
        actual.astype(np.float64), expected.astype(np.float64), rtol=1e-4, atol=1e-5
    )


@pytest.mark.parametrize(
    "path",
    [
        pytest.param(path, marks=pytest.mark.xfail(strict=True, reason=reason))
        if (reason := KNOWN_ROUND_TRIP_FAILURES.get((path.name, "tvmscript")))
        else path
        for path in READABLE
    ],
    ids=lambda p: p.name,
)
def test_printed_program_parses_back_equal_in_tvm(path: Path) -> None:
    printed = print_tvmscript(load(path))
    assert tvm_oracle.structural_difference(path, printed) is None


@pytest.mark.parametrize(
    "case",
    [
        pytest.param(case, marks=pytest.mark.xfail(strict=True, reason=reason))
        if (reason := onnx_corpus.expected_failure(KNOWN_ONNX_FAILURES, case, "tvmscript"))
        else case
        for case in onnx_corpus.CASES
    ],
)
def test_printed_onnx_program_parses_back_equal_in_tvm(case: str) -> None:
    constants = onnx_corpus.constants(case)
    printed = print_tvmscript(load(onnx_corpus.path(case), constants))
    assert tvm_oracle.structural_difference(onnx_corpus.path(case), printed, constants) is None
