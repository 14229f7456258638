"""Our side of the corpus tests: read a corpus program with the TVMScript frontend,
check it, and run its ``# run:`` entry on the deterministic inputs of ``inputs.py``."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import numpy as np
from inputs import RunSpec, generate_inputs, parse_run_spec
from xdsl.context import Context
from xdsl.dialects.builtin import Builtin, ModuleOp
from xdsl.dialects.func import Func
from xdsl.ir import Region

from relax_dialect.diagnostics import Diagnostic, DiagnosticError
from relax_dialect.dialect import Relax
from relax_dialect.frontends.tvmscript.frontend import parse_tvmscript
from relax_dialect.interpreter import run
from relax_dialect.ops.functions import FunctionOp, LambdaOp
from relax_dialect.prim_expr import evaluate
from relax_dialect.types import StructInfoType, TensorType
from relax_dialect.well_formed import check_well_formed

HERE = Path(__file__).resolve().parent
CORPUS = sorted((HERE / "corpus").glob("*.py"))
NEWER = sorted((HERE / "corpus_newer").glob("*.py"))
ERRORS = sorted((HERE / "errors").glob("*.py"))


def context() -> Context:
    ctx = Context()
    for dialect in (Builtin, Func, Relax):
        ctx.load_dialect(dialect)
    return ctx


def diagnostics(
    path: Path, constants: Sequence[np.ndarray] = ()
) -> tuple[ModuleOp | None, list[Diagnostic]]:
    """The module a corpus file defines and what the frontend and the checker say;
    ``constants`` are its ``metadata["relax.expr.Constant"]``."""
    try:
        module = parse_tvmscript(path.read_text(), str(path), constants, ctx=context())
    except DiagnosticError as error:
        return None, error.diagnostics
    return module, check_well_formed(module)


def load(path: Path, constants: Sequence[np.ndarray] = ()) -> ModuleOp:
    module, found = diagnostics(path, constants)
    assert module is not None and found == [], "\n".join(map(str, found))
    return module


def entry_inputs(module: ModuleOp, spec: RunSpec) -> list[np.ndarray]:
    """The inputs of the entry function, drawn as ``inputs.py`` prescribes."""
    function = next(
        op
        for op in module.body.block.ops
        if isinstance(op, FunctionOp) and op.sym_name.data == spec.entry
    )
    params = []
    for param in function.params:
        sinfo = param.type
        assert isinstance(sinfo, TensorType) and sinfo.dims is not None
        shape = tuple(int(evaluate(dim, spec.sizes)) for dim in sinfo.dims)
        params.append((param.name_hint, shape, str(sinfo.data_type.to_numpy())))
    inputs = generate_inputs(params)
    return [inputs[name] for name, _, _ in params]


def run_spec(path: Path) -> RunSpec | None:
    return parse_run_spec(path.read_text())


def run_corpus_program(path: Path) -> object:
    """The result of the program's ``# run:`` entry in the reference interpreter."""
    module = load(path)
    spec = run_spec(path)
    assert spec is not None
    return run(module, spec.entry, *entry_inputs(module, spec))


def binding_struct_info(module: ModuleOp) -> dict[tuple[str, str], StructInfoType]:
    """``(function, variable) -> StructInfo`` for the parameters and bindings of every
    function, a closure's under the name it is bound to (as ``tvm_oracle`` keys TVM's)."""
    found: dict[tuple[str, str], StructInfoType] = {}

    def collect(owner: str, region: Region) -> None:
        for block in region.blocks:
            for arg in block.args:
                if isinstance(arg.type, StructInfoType) and arg.name_hint:
                    found[(owner, arg.name_hint)] = arg.type
            for op in block.ops:
                for result in op.results:
                    if isinstance(result.type, StructInfoType) and result.name_hint:
                        found[(owner, result.name_hint)] = result.type
                for inner in op.regions:
                    name = op.results[0].name_hint if isinstance(op, LambdaOp) else owner
                    collect(name or owner, inner)

    for op in module.body.block.ops:
        if isinstance(op, FunctionOp):
            collect(op.sym_name.data, op.body)
    return found
