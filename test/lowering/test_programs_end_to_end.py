"""Whole programs, end to end: the reference interpreter against the lowered program
on the bundled interpreter (``lowered``), as native code from the MLIR toolchain
(``mlir``) and compiled by IREE (``iree``, skipped without the extra ``relax-xdsl[iree]``),
through ``compile_function`` (Relax values in and out).

* the random well-formed programs of ``test/passes/random_programs.py``, as generated
  and after ``relax-o2``;
* the runnable programs of the TVMScript corpus (``test/tvmscript/corpus``), on the
  inputs of their ``# run:`` line;
* programs of the reference interpreter's tests (``test/unit/test_interpreter.py``)
  at several symbolic sizes.

A program that cannot be lowered must fail with a located ``LoweringError`` naming
the operation (or the function) at fault. ``UNLOWERABLE`` lists the programs that
truly cannot be lowered (data-dependent shapes, values with no lowered form);
``MISSING`` those that fail only because a lowering is still missing: strict
``xfail``s, which fail once the lowering exists, so that the entry must be removed.

``RELAX_E2E_SEEDS=200 RELAX_E2E_NATIVE_SEEDS=50 pytest test/lowering/test_programs_end_to_end.py``
runs more random programs than CI's 30 (10 of them natively). The native programs are compiled
together into one library, as the native backend compiles each (`natively_together`: the
toolchain's start-ups and the host's compilation once, not once a program) and cached (see
``docs/lowering/toolchain.md``). IREE runs a quick form
(2 random programs, ``IREE_QUICK`` of the corpus, the interpreter's programs and the
MLP example) unless ``RELAX_E2E_IREE=all`` (every program; about 8 minutes with an
empty cache).
"""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Sequence
from functools import cache
from pathlib import Path

import numpy as np
import pytest
from xdsl.context import Context
from xdsl.dialects.arith import Arith
from xdsl.dialects.builtin import Builtin, ModuleOp
from xdsl.dialects.func import Func, FuncOp
from xdsl.dialects.linalg import Linalg
from xdsl.dialects.tensor import Tensor

from relax_dialect.analysis.call_graph import recursive_groups
from relax_dialect.diagnostics import DiagnosticError
from relax_dialect.dialect import Relax
from relax_dialect.frontends.mlir import parse_module
from relax_dialect.interpreter import PackedRegistry, run
from relax_dialect.passes import pass_class
from relax_dialect.values import PrimValue, ShapeValue, flatten
from relax_dialect.well_formed import check_well_formed
from relax_xdsl.lowering.backends import backend_named, compile_function
from relax_xdsl.lowering.backends.backend import Compiled, RunOptions
from relax_xdsl.lowering.backends.backend import Program as LoweringProgram
from relax_xdsl.lowering.lowerer import LoweringError
from relax_xdsl.lowering.toolchain import ToolchainError

pytestmark = pytest.mark.heavy

TEST = Path(__file__).resolve().parents[1]
sys.path[:0] = [
    str(TEST / "passes"),
    str(TEST / "tvmscript"),
    str(TEST / "unit"),
    str(TEST / "onnx"),
]

from convert_harness import IREE_ALL, iree_available, native_available  # noqa: E402
from corpus_harness import CORPUS, entry_inputs, run_spec  # noqa: E402
from corpus_harness import load as load_tvmscript  # noqa: E402
from random_programs import Program, generate  # noqa: E402

SEEDS = int(os.environ.get("RELAX_E2E_SEEDS", "30"))
NATIVE_SEEDS = int(os.environ.get("RELAX_E2E_NATIVE_SEEDS", "10"))
"""Random programs run by the lowered backends, and how many of them natively too."""
IREE_SEEDS = SEEDS if IREE_ALL else 2
"""Random programs run on IREE (each compiles for seconds)."""
IREE_QUICK = {
    "027_nested_closure.py",
    "030_recursion.py",
    "086_scatter.py",
    "119_conv_transpose.py",
    "128_mlp.py",
    "132_conv_printed_form.py",
    "103_set_printed_form.py",
    "133_datatype_sorting_printed_form.py",
    "145_qdq_index_median_printed_form.py",
}
"""The corpus programs of IREE's quick form: the forms IREE exposed, and an MLP."""
BACKENDS = ("lowered", "mlir", "iree")
"""The backends that run the lowered module."""
RTOL, ATOL = 1e-4, 1e-5
"""Float results: the lowered programs may evaluate in another order (sums, matmuls)."""

MISSING: dict[tuple[str, int], str] = {}
"""``(variant, seed)`` of random programs that fail only for want of a lowering, with
the operation their error names."""
MISSING_CORPUS: dict[str, str] = {}
"""Corpus programs waiting for a lowering, with the operation their error names."""
UNLOWERABLE_CORPUS = {
    "014_callable_parameter.py": "@apply_twice: argument 0",  # a function value
    "020_match_cast_weaker_stronger.py": "relax.match_cast",  # a tensor of unknown rank
    "028_local_function.py": "@apply: argument 0",  # a function value
    "101_unique.py": "relax.match_cast",  # a tensor of unknown rank
}
"""Corpus programs that cannot be lowered, with what their located error names."""
NATIVE_BROKEN: dict[str, str] = {}
"""Corpus programs whose native compilation fails (reported; strict ``xfail``)."""
IREE_REFUSED = {"030_recursion.py": "relax.call: IREE cannot run recursion (@loop)"}
"""Corpus programs the IREE backend refuses, with its located error."""
IREE_BROKEN: dict[str, str] = {}
"""Corpus programs IREE computes wrongly (strict ``xfail``; ``docs/lowering/iree.md``)."""


def context() -> Context:
    ctx = Context()
    for dialect in (Builtin, Func, Arith, Linalg, Tensor, Relax):
        ctx.load_dialect(dialect)
    return ctx


def assert_same(actual: object, expected: object) -> None:
    """Results equal (floats within ``RTOL``/``ATOL``), with the same structure, data
    types and shapes."""
    got, want = flatten(actual), flatten(expected)
    assert len(got) == len(want), f"{len(got)} results instead of {len(want)}"
    for i, (g, w) in enumerate(zip(got, want, strict=True)):
        if isinstance(w, ShapeValue | PrimValue):
            assert g == w, f"result {i}: {g} instead of {w}"
            continue
        g, w = np.asarray(g), np.asarray(w)
        assert (g.dtype, g.shape) == (w.dtype, w.shape), f"result {i}"
        if w.dtype.kind in "fc":
            np.testing.assert_allclose(g, w, rtol=RTOL, atol=ATOL, err_msg=f"result {i}")
        else:
            np.testing.assert_array_equal(g, w, err_msg=f"result {i}")


def lowered(
    module: ModuleOp, entry: str, backend: str, options: RunOptions | None = None
) -> Compiled:
    """``entry`` compiled by a lowered backend; a ``LoweringError`` must be located
    (when the module carries locations) and name the operation or function at fault."""
    if backend == "mlir":
        native_available()
    elif backend == "iree":
        iree_available()
    try:
        return compile_function(module, entry, backend, options)
    except LoweringError as error:
        message = str(error)
        assert re.search(r"error: (@\w+|relax\.[\w.]+)", message), message
        raise


def native_cases() -> dict[str, tuple[ModuleOp, str]]:
    """Every program these tests run natively, by case: its module and entry."""
    cases = {}
    for variant in ("plain", "o2"):
        for seed in range(min(SEEDS, NATIVE_SEEDS)):
            p = program(variant, seed)
            cases[f"{variant}-{seed}"] = (p.module, p.entry)
    for path in RUNNABLE:
        if (spec := run_spec(path)) is not None:
            cases[path.name] = (load_tvmscript(path), spec.entry)
    for _, text, _ in interpreter_programs():
        cases[text] = (interpreter_program(text), "main")
    cases["mlp"] = (load_tvmscript(TEST.parent / "examples" / "mlp.py"), "main")
    return cases


def case_of(params: dict[str, object]) -> str:
    """The `native_cases` key of a test's parameters."""
    if "seed" in params:
        return f"{params['variant']}-{params['seed']}"
    if isinstance(path := params.get("path"), Path):
        return path.name
    return str(params.get("text", "mlp"))


def selected_cases(items: Sequence[pytest.Item]) -> frozenset[str]:
    """The `native_cases` of the selected tests that run natively."""
    calls = [getattr(item, "callspec", None) for item in items]
    native = [call.params for call in calls if call and call.params.get("backend") == "mlir"]
    return frozenset(case_of(params) for params in native)


@pytest.fixture(scope="session")
def selection(request: pytest.FixtureRequest) -> frozenset[str]:
    """`selected_cases` of this session: a run of a few tests compiles only theirs."""
    return selected_cases(request.session.items)


@cache
def natively_together(selection: frozenset[str]) -> dict[str, Compiled]:
    """The entries of the ``selection`` of `native_cases` that lower and that native code
    supports, compiled together into one library as the native backend compiles each
    (``native_batch``): the MLIR toolchain's start-ups and the host's compilation paid once
    rather than once a program. The others, or all of them when the library cannot be built,
    are compiled alone by their tests, which then report what fails."""
    from native_batch import compile_natively_together

    backend = backend_named("mlir")
    ready = {}
    for case, (module, entry) in native_cases().items():
        if case not in selection:
            continue
        candidate = LoweringProgram(module)
        try:
            candidate.lowered()
        except LoweringError:
            continue
        if backend.unsupported(candidate) is None:
            ready[case] = (candidate, entry)
    if not ready:
        return {}
    try:
        entries = compile_natively_together(*zip(*ready.values(), strict=True))
    except ToolchainError:
        return {}
    return dict(zip(ready, entries, strict=True))


def compiled(
    case: str, module: ModuleOp, entry: str, backend: str, selection: frozenset[str]
) -> Compiled:
    """`lowered`, a native case's entry taken from `natively_together` when it is there."""
    if backend == "mlir":
        native_available()
        if (found := natively_together(selection).get(case)) is not None:
            return found
    return lowered(module, entry, backend)


def located_error(module: ModuleOp, name: str) -> str:
    """The error lowering ``module`` gives once printed and read back as ``name``, so
    that its operations carry source locations."""
    with pytest.raises(LoweringError) as error:
        compile_function(parse_module(context(), str(module), name), "main", "lowered")
    return str(error.value)


# --- random programs -----------------------------------------------------------------


@cache
def program(variant: str, seed: int) -> Program:
    """Random program ``seed``, as generated (``plain``) or after ``relax-o2``."""
    p = generate(seed)
    if variant == "o2":
        module = p.module.clone()
        pass_class("relax-o2")().apply(context(), module)
        return Program(p.seed, module, p.entry, p.inputs, p.param_names, p.sizes, p.features)
    return p


@cache
def reference(variant: str, seed: int) -> object:
    p = program(variant, seed)
    return run(p.module, p.entry, *p.inputs)


def random_cases() -> list[object]:
    cases = []
    for variant in ("plain", "o2"):
        for seed in range(SEEDS):
            for backend in BACKENDS:
                if backend == "mlir" and seed >= NATIVE_SEEDS:
                    continue
                if backend == "iree" and seed >= IREE_SEEDS:
                    continue
                marks = []
                if (missing := MISSING.get((variant, seed))) is not None:
                    reason = f"missing lowering: {missing}"
                    marks.append(
                        pytest.mark.xfail(strict=True, raises=LoweringError, reason=reason)
                    )
                cases.append(pytest.param(variant, seed, backend, marks=marks))
    return cases


@pytest.mark.parametrize(("variant", "seed", "backend"), random_cases())
def test_random_program(variant: str, seed: int, backend: str, selection: frozenset[str]) -> None:
    p = program(variant, seed)
    expected = reference(variant, seed)
    try:
        function = compiled(f"{variant}-{seed}", p.module, p.entry, backend, selection)
    except LoweringError:
        if seed < SEEDS and (variant, seed) in MISSING:
            assert MISSING[(variant, seed)] in located_error(p.module, f"seed{seed}.mlir")
        raise
    assert_same(function(*p.inputs), expected)


# --- the TVMScript corpus ------------------------------------------------------------

RUNNABLE = [path for path in CORPUS if run_spec(path) is not None]


def corpus_cases() -> list[object]:
    cases = []
    for path in RUNNABLE:
        for backend in BACKENDS:
            if backend == "iree" and not IREE_ALL and path.name not in IREE_QUICK:
                continue
            marks = []
            if path.name in MISSING_CORPUS:
                reason = f"missing lowering: {MISSING_CORPUS[path.name]}"
                marks.append(pytest.mark.xfail(strict=True, raises=LoweringError, reason=reason))
            elif backend == "mlir" and path.name in NATIVE_BROKEN:
                marks.append(pytest.mark.xfail(strict=True, reason=NATIVE_BROKEN[path.name]))
            elif backend == "iree" and path.name in IREE_BROKEN:
                marks.append(pytest.mark.xfail(strict=True, reason=IREE_BROKEN[path.name]))
            cases.append(pytest.param(path, backend, marks=marks, id=f"{path.stem}-{backend}"))
    return cases


@pytest.mark.parametrize(("path", "backend"), corpus_cases())
def test_corpus_program(path: Path, backend: str, selection: frozenset[str]) -> None:
    module = load_tvmscript(path)
    spec = run_spec(path)
    assert spec is not None
    args = entry_inputs(module, spec)
    if path.name in UNLOWERABLE_CORPUS:
        with pytest.raises(LoweringError) as error:
            lowered(module, spec.entry, backend)
        message = str(error.value)
        assert message.startswith(f"{path}:"), message
        assert f"error: {UNLOWERABLE_CORPUS[path.name]}" in message, message
        return
    if backend == "iree" and path.name in IREE_REFUSED:
        iree_available()
        with pytest.raises(DiagnosticError) as refusal:
            compile_function(module, spec.entry, "iree")
        assert str(refusal.value).startswith(f"{path}:"), str(refusal.value)
        assert f"error: {IREE_REFUSED[path.name]}" in str(refusal.value)
        return
    try:
        function = compiled(path.name, module, spec.entry, backend, selection)
    except LoweringError as error:
        if path.name in MISSING_CORPUS:
            assert str(error).startswith(f"{path}:")
            assert MISSING_CORPUS[path.name] in str(error)
        raise
    assert_same(function(*args), run(module, spec.entry, *args))


def test_corpus_expectations_name_corpus_programs() -> None:
    names = {path.name for path in RUNNABLE}
    for table in (MISSING_CORPUS, UNLOWERABLE_CORPUS, NATIVE_BROKEN, IREE_REFUSED, IREE_BROKEN):
        assert set(table) <= names, sorted(set(table) - names)


# --- programs of the reference interpreter's tests ---------------------------------


def interpreter_program(text: str) -> ModuleOp:
    module = parse_module(context(), text, "test.mlir")
    assert check_well_formed(module) == []
    return module


def with_operators(text: str) -> str:
    """``text`` with the scalar packed functions of ``test_interpreter.scalar_ops``
    replaced by the operators computing the same (native code has no packed functions)."""
    return re.sub(
        r'relax\.call_pure_packed "test\.(\w+)"\((%\w+), (%\w+)\)', r"relax.\1 \2, \3", text
    )


def interpreter_programs() -> list[tuple[str, str, Sequence[list[object]]]]:
    """The interpreter's programs: name, text (its packed functions replaced by operators)
    and the arguments of its calls."""
    from test_interpreter import CALL_TIR, CHAIN, FACTORIAL, FIBONACCI_AND_PARITY

    rng = np.random.default_rng(0)

    def floats(*shape: int) -> np.ndarray:
        return rng.standard_normal(shape).astype(np.float32)

    def scalar(n: int) -> list[object]:
        return [np.array(n, dtype=np.int64)]

    signature = """
relax.function @main(%x: !relax.tensor<[m * n], f32>, %y: !relax.tensor<[m, n], f32>) -> !relax.tensor<[m, n], f32> {
  %s = relax.shape [m, n] : !relax.shape<[m, n]>
  %z = relax.reshape %x, %s : !relax.tensor<[m, n], f32>
  %r = relax.add %z, %y : !relax.tensor<[m, n], f32>
  relax.return %r
}
"""
    return [
        ("chain", CHAIN, [[floats(n, 4), floats(4, 4)] for n in (1, 3, 7)]),
        ("call_tir", CALL_TIR, [[floats(n), floats(n)] for n in (1, 5, 16)]),
        ("factorial", with_operators(FACTORIAL), [scalar(n) for n in (0, 1, 5, 20)]),
        ("fibonacci", with_operators(FIBONACCI_AND_PARITY), [scalar(n) for n in (0, 1, 9, 12)]),
        ("signature", signature, [[floats(m * n), floats(m, n)] for m, n in ((1, 1), (2, 3))]),
    ]


def interpreter_cases() -> list[object]:
    return [
        pytest.param(text, args, backend, id=f"{name}-{backend}")
        for name, text, args in interpreter_programs()
        for backend in BACKENDS
    ]


@pytest.mark.parametrize(("text", "arguments", "backend"), interpreter_cases())
def test_interpreter_program(
    text: str, arguments: list[list[object]], backend: str, selection: frozenset[str]
) -> None:
    module = interpreter_program(text)
    if backend == "iree" and recursive_groups(module):
        iree_available()
        with pytest.raises(DiagnosticError, match="IREE cannot run recursion"):
            compile_function(module, "main", backend)
        return
    function = compiled(text, module, "main", backend, selection)
    for args in arguments:
        assert_same(function(*args), run(module, "main", *args))


def test_packed_calls_run_on_the_bundled_interpreter() -> None:
    """``FACTORIAL`` with its packed functions, from the registry (the bundled
    interpreter binds declarations of packed functions to the registry's)."""
    from test_interpreter import FACTORIAL, scalar_ops

    module = interpreter_program(FACTORIAL)
    registry: PackedRegistry = scalar_ops()
    function = lowered(module, "main", "lowered", RunOptions(packed=registry))
    for n in (0, 3, 10):
        arg = np.array(n, dtype=np.int64)
        assert_same(function(arg), run(module, "main", arg, packed=registry))


@pytest.mark.parametrize("backend", BACKENDS)
def test_bundled_example_mlp(backend: str, selection: frozenset[str]) -> None:
    """``examples/mlp.py`` on ``examples/mlp_inputs.npz`` (the README's example)."""
    examples = TEST.parent / "examples"
    module = load_tvmscript(examples / "mlp.py")
    with np.load(examples / "mlp_inputs.npz") as npz:
        args = [npz[name] for name in ("x", "w1", "b1", "w2", "b2")]
    function = compiled("mlp", module, "main", backend, selection)
    assert_same(function(*args), run(module, "main", *args))


def test_every_native_program_that_lowers_is_compiled_together() -> None:
    """The native cases are built as one library (one fallen out, or a failed build, would
    compile alone again, silently slower)."""
    native_available()
    lowering = set()
    for case, (module, _) in native_cases().items():
        try:
            LoweringProgram(module).lowered()
        except LoweringError:
            continue
        lowering.add(case)
    assert set(natively_together(frozenset(native_cases()))) == lowering


PRODUCT = """relax.function @{}(%x: !relax.tensor<[3, 5], f32>, %w: !relax.tensor<[5, 4], f32>) -> !relax.tensor<[3, 4], f32> {{
  %d = relax.matmul %x, %w : !relax.tensor<[3, 4], f32>
  relax.return %d
}}
"""
"""A matrix product as a function of any name."""


def test_programs_compiled_together_share_their_kernels() -> None:
    """Two programs of the same product, their entries named apart: the product's kernel
    once in the merged module, each entry computing its program."""
    from native_batch import compile_natively_together, merged

    from relax_xdsl.lowering.backends.native import native_module
    from relax_xdsl.lowering.kernels import KERNEL_PREFIX

    native_available()
    entries = ["main", "product"]
    modules = [interpreter_program(PRODUCT.format(entry)) for entry in entries]
    programs = [LoweringProgram(module) for module in modules]
    together = merged([native_module(p) for p in programs], ["p0_", "p1_"], KERNEL_PREFIX)
    names = [op.sym_name.data for op in together.ops if isinstance(op, FuncOp)]
    assert sum(name.startswith(KERNEL_PREFIX) for name in names) == 1
    assert {"p0_main", "p1_product"} <= set(names)
    rng = np.random.default_rng(0)
    x, w = rng.standard_normal((3, 5), np.float32), rng.standard_normal((5, 4), np.float32)
    functions = compile_natively_together(programs, entries)
    for module, entry, function in zip(modules, entries, functions, strict=True):
        assert_same(function(x, w), run(module, entry, x, w))
