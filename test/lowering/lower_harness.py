"""What the per-family operator lowering tests share: one-function cases, checked
against the reference interpreter with the bundled interpreter of the lowered IR
and, batched into one module per family (one native compilation), with the MLIR
toolchain."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from importlib import import_module

import numpy as np
import pytest
from convert_harness import (
    assert_accepted,
    compare_with_reference,
    flatten,
    generic_text,
    load,
    lower,
    lowering_error,
    mlir_opt,
    native_available,
    run_lowered_or_skip,
)
from toolchain_harness import compiled_as_the_backend
from xdsl.ir import Operation

from relax_dialect.interpreter import run
from relax_xdsl.lowering.threads import openmp_library
from relax_xdsl.lowering.toolchain import NativeModule, find_toolchain

SIZES = (1, 3, 5)
"""Values of the symbolic size ``n`` each case runs with."""

Inputs = Callable[[int], list[object]]


@dataclass(frozen=True)
class Case:
    """A one-function program: parameters, bindings ending in ``%r``, and its
    arguments for size ``n``."""

    name: str
    params: str
    body: str
    inputs: Inputs

    @property
    def symbol(self) -> str:
        return re.sub(r"\W", "_", self.name)

    def function(self, name: str = "main") -> str:
        lines = "".join(f"  {line.strip()}\n" for line in self.body.strip().splitlines())
        return f"relax.function @{name}({self.params}) {{\n{lines}  relax.return %r\n}}\n"


def tensor(shape: str, dtype: str) -> str:
    return f"!relax.tensor<[{shape}], {dtype}>"


def relax_constant(name: str, array: np.ndarray) -> str:
    """The binding of ``%name`` to ``array`` (``float32``) as a Relax constant."""
    dims = ", ".join(map(str, array.shape))
    return f'%{name} = relax.constant dense<[{dims}], f32, "0x{array.tobytes().hex().upper()}">'


def rng(n: int, salt: int = 0) -> np.random.Generator:
    return np.random.default_rng(n * 31 + salt)


def sized(shape: Sequence[int | str], n: int) -> list[int]:
    """``shape`` with ``"n"`` replaced by ``n`` (and ``"n+1"``-style sums evaluated)."""
    return [eval(s, {"n": n}) if isinstance(s, str) else s for s in shape]


def floats(*shape: int | str, dtype: str = "float32", salt: int = 0):
    def make(n: int) -> np.ndarray:
        return np.asarray(rng(n, salt).standard_normal(sized(shape, n)) * 3, dtype)

    return make


def ints(*shape: int | str, dtype: str = "int32", low: int = -20, high: int = 20, salt: int = 1):
    def make(n: int) -> np.ndarray:
        return np.asarray(rng(n, salt).integers(low, high, sized(shape, n)), dtype)

    return make


def bools(*shape: int | str, salt: int = 2):
    def make(n: int) -> np.ndarray:
        return np.asarray(rng(n, salt).random(sized(shape, n)) < 0.5)

    return make


def inputs(*makers: Callable[[int], object]) -> Inputs:
    return lambda n: [make(n) for make in makers]


class Family:
    """The cases of one operator family and the tests they share."""

    def __init__(self, cases: Sequence[Case]):
        names = [c.name for c in cases]
        assert len(set(names)) == len(names), "duplicate case names"
        self.cases = {c.name: c for c in cases}
        self._native: NativeModule | None = None

    def module_text(self) -> str:
        return "".join(c.function(c.symbol) for c in self.cases.values())

    def accepted(self, name: str) -> None:
        """The lowered case holds only upstream operations and passes ``mlir-opt-22``."""
        assert_accepted(lower(load(self.cases[name].function()), pipeline=True))

    def bundled(self, name: str) -> None:
        """The bundled interpreter computes the reference result at every size."""
        case = self.cases[name]
        for n in SIZES:
            compare_with_reference(case.function(), case.inputs(n))

    def native_module(self) -> NativeModule:
        """Every case of the family lowered into one module and compiled once."""
        if self._native is None:
            native_available()
            from relax_xdsl.lowering.toolchain import compile_module

            text = generic_text(lower(load(self.module_text()), pipeline=True))
            self._native = compile_module(text)
        return self._native

    def native(self, name: str) -> None:
        """The natively compiled case computes the reference result at every size."""
        case = self.cases[name]
        module = self.native_module()
        text = case.function()
        for n in SIZES:
            args = case.inputs(n)
            expected = flatten(run(load(text), "main", *args))
            flat = [item for arg in args for item in flatten(arg)]
            assert_same(module.call(case.symbol, flat), expected)

    def whole_module_accepted(self) -> None:
        """The family's module passes ``mlir-opt-22`` down to the LLVM dialect."""
        from convert_harness import MLIR_OPT, TO_LLVM

        if MLIR_OPT is None:
            pytest.skip("mlir-opt-22 is not installed")
        text = generic_text(lower(load(self.module_text()), pipeline=True))
        mlir_opt(text, f"--pass-pipeline=builtin.module({TO_LLVM})")


def compiled_together(cases: Iterable[Case], parallel: bool = False) -> NativeModule:
    """The ``cases`` in one module, compiled as the native backend compiles it (tiled; with
    ``parallel``, for OpenMP threads)."""
    module = lower(load("".join(c.function(c.symbol) for c in cases)))
    return compiled_as_the_backend(module, parallel)


def assert_same_bits_on_two_threads(cases: Sequence[Case], sizes: Iterable[int]) -> None:
    """The ``cases`` compiled for OpenMP threads give the same bits on two threads as on one,
    at each of ``sizes`` (skipped without libomp)."""
    if openmp_library(find_toolchain().runtime) is None:
        pytest.skip("libomp is not installed (apt-get install libomp-22-dev)")
    native = compiled_together(cases, parallel=True)
    for case in cases:
        for n in sizes:
            args = [a for arg in case.inputs(n) for a in flatten(arg)]
            [one] = native.call(case.symbol, args, threads=1)
            [two] = native.call(case.symbol, args, threads=2)
            np.testing.assert_array_equal(two, one, err_msg=f"{case.name} at n = {n}")


def assert_close_to_reference(native: NativeModule, case: Case, sizes: Iterable[int]) -> None:
    """``case`` compiled in ``native`` computes what the reference interpreter does, for each
    of ``sizes``, to float32 sums taken in another order (tolerance scaled to the result)."""
    reference = load(case.function())
    for n in sizes:
        args = case.inputs(n)
        [got] = native.call(case.symbol, [a for arg in args for a in flatten(arg)])
        [want] = flatten(run(reference, "main", *args))
        assert got.shape == want.shape
        scale = max(float(np.abs(want).max(initial=0)), 1.0)
        np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-5 * scale)


def assert_same(actual: Sequence[object], expected: Sequence[object]) -> None:
    assert len(actual) == len(expected)
    for got, want in zip(actual, expected, strict=True):
        want, got = np.asarray(want), np.asarray(got)
        assert got.shape == want.shape
        if want.dtype.kind == "f":
            np.testing.assert_allclose(got, want, rtol=2e-5, atol=1e-6, equal_nan=True)
        else:
            np.testing.assert_array_equal(got, want.astype(got.dtype))


def lowered_main(text: str) -> Callable[[Sequence[object]], list[object]]:
    """``@main`` of ``text``, lowered with the pipeline, run by the bundled interpreter."""
    run_lowered = run_lowered_or_skip()
    module = lower(load(text), pipeline=True)
    return lambda args: run_lowered(module, "main", list(args))


def operators_of(cases: Sequence[Case]) -> set[str]:
    """The names of the operators the cases' bindings apply."""
    return {name for c in cases for name in re.findall(r"= (relax(?:\.\w+)+)", c.body)}


def assert_covered(operations: Iterable[type[Operation]], tested: set[str]) -> None:
    """Every operator of ``operations`` has a lowering and its name is in ``tested``."""
    from relax_xdsl.lowering.ops import LOWERINGS

    for op in operations:
        import_module(f"relax_xdsl.lowering.ops.{op.__module__.rpartition('.')[2]}")
        assert op in LOWERINGS, op.name
        assert op.name in tested, op.name


class FamilyTests:
    """The tests every family runs: a family's test module subclasses this with
    ``family`` set (each ``name`` argument is one of its cases)."""

    family: Family

    def pytest_generate_tests(self, metafunc: pytest.Metafunc) -> None:
        if "name" in metafunc.fixturenames:
            metafunc.parametrize("name", sorted(self.family.cases))

    def test_accepted_by_mlir(self, name: str) -> None:
        self.family.accepted(name)

    def test_bundled_interpreter_matches_reference(self, name: str) -> None:
        self.family.bundled(name)

    def test_mlir_toolchain_matches_reference(self, name: str) -> None:
        self.family.native(name)

    def test_family_module_lowers_to_llvm(self) -> None:
        self.family.whole_module_accepted()


__all__ = ["Case", "Family", "FamilyTests", "lowering_error"]
