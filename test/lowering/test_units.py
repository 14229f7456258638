"""Compilation units of native code (``lowering/units.py``, ``toolchain.compile_units``): each
kernel cached by content, compiled in batches in parallel, the host at its own level; and the
tiling schedule on by default."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from test_kernels import LAYERS
from toolchain_harness import needs_toolchain
from xdsl.dialects.builtin import ModuleOp, UnitAttr

from relax_dialect.frontends.tvmscript.frontend import parse_tvmscript
from relax_dialect.instrumentation import Instrumentation, instrumented
from relax_dialect.interpreter import run
from relax_xdsl.lowering import toolchain, units
from relax_xdsl.lowering.backends import compile_function
from relax_xdsl.lowering.backends.backend import RunOptions
from relax_xdsl.lowering.disk_cache import CACHE_HIT
from relax_xdsl.lowering.kernels import outline_kernels
from relax_xdsl.lowering.math_approximation import approximate_math
from relax_xdsl.lowering.pipeline import lower
from relax_xdsl.lowering.units import (
    HOST_CODEGEN_LEVEL,
    HOST_LEVEL,
    KERNEL_LEVEL,
    SPLIT_FROM_KERNELS,
    Unit,
    split_units,
)
from relax_xdsl.tools.relax_run import RelaxRunMain

pytestmark = pytest.mark.heavy

SMALL = LAYERS.replace(
    """            h = R.nn.relu(R.add(R.matmul(h, w), b))
            h = R.nn.relu(R.add(R.matmul(h, w), b))
            y = R.add(R.multiply(x, R.const(2.0, "float32")), R.const(1.0, "float32"))
            z = R.add(R.multiply(y, R.const(3.0, "float32")), R.const(1.0, "float32"))
            out = R.add(h, z)
""",
    "            out = h\n",
)


def units_of(source: str, tile: bool = True) -> list[Unit]:
    outlined = approximate_math(lower(parse_tvmscript(source, "layers.py")))
    outline_kernels(outlined)
    return split_units(outlined, tile)


def args_of(n: int) -> list[np.ndarray]:
    rng = np.random.default_rng(n)
    return [rng.standard_normal(s).astype(np.float32) for s in ((n, 8), (8, 8), (8,))]


def test_small_modules_compile_as_one_unit_untiled():
    assert len(units_of(SMALL)) == 2  # tiled: the host and the matmul with its epilogue
    [whole] = units_of(SMALL, tile=False)
    assert whole.entry and whole.level == whole.codegen_level == KERNEL_LEVEL
    assert "linalg.matmul" in whole.text


def test_kernels_split_from_the_host_which_keeps_weak_stubs():
    """Five kernels: five kernel units of one function each, and the host, whose stubs return
    fresh buffers and read their tensor arguments."""
    host, *kernels = units_of(LAYERS)
    assert len(kernels) == 5 >= SPLIT_FROM_KERNELS
    assert host.entry and (host.level, host.codegen_level) == (HOST_LEVEL, HOST_CODEGEN_LEVEL)
    assert not host.scheduled and all(k.scheduled for k in kernels)
    assert all(not k.entry and k.level == k.codegen_level == KERNEL_LEVEL for k in kernels)
    assert all(k.text.count('"func.func"') == 1 and k.name in k.text for k in kernels)
    assert host.text.count('llvm.linkage = #llvm.linkage<"weak">') == 5
    assert host.text.count('"bufferization.alloc_tensor"') == 5
    assert 'bufferization.access = "read"' in host.text
    assert "linalg.matmul" not in host.text and "linalg.generic" not in host.text


def mark_kernels(unit: ModuleOp) -> None:
    """A stand-in for a changed rewrite of kernel units: one that marks their functions."""
    for kernel in unit.body.block.ops:
        kernel.attributes["rewritten"] = UnitAttr()


def test_kernels_are_named_after_their_rewritten_text(monkeypatch):
    """A changed rewrite renames the kernels it changes, in their units and in the host's
    calls: a cached object that still defines the old code (``weak_odr``) under the old
    name can then never reach the library in its place."""
    kernels = {k.name for k in units_of(LAYERS)[1:]}
    monkeypatch.setattr(units, "unroll_windows", mark_kernels)
    host, *rewritten = units_of(LAYERS)
    assert len(rewritten) == len(kernels) and not kernels & {k.name for k in rewritten}
    assert all(k.name in k.text and f"@{k.name}" in host.text for k in rewritten)


def objects(cache: Path) -> set[str]:
    return {path.name for path in (cache / "relax-xdsl").glob("*.o")}


def records(cache: Path) -> set[str]:
    """The units the cache holds objects for."""
    return {path.name for path in (cache / "relax-xdsl").glob("*.unit.json")}


@needs_toolchain
def test_an_edit_recompiles_only_its_kernel_and_the_host(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    args = args_of(5)
    module = parse_tvmscript(LAYERS, "layers.py")
    first = compile_function(module, "main", "mlir")(*args)
    np.testing.assert_allclose(first, run(module, "main", *args), rtol=1e-5, atol=1e-5)
    before, units_before = objects(tmp_path), records(tmp_path)
    assert len(units_before) == 6
    edited = parse_tvmscript(LAYERS.replace("3.0", "4.0"), "layers.py")
    got = compile_function(edited, "main", "mlir")(*args)
    np.testing.assert_allclose(got, run(edited, "main", *args), rtol=1e-5, atol=1e-5)
    assert len(records(tmp_path) - units_before) == 2  # the scaling by 4 and the host
    assert len(objects(tmp_path) - before) == 2  # each its own object


@needs_toolchain
def test_parallel_compilation_gives_the_same_results(tmp_path, monkeypatch):
    """One process compiles the kernels as one batch, two as two batches: the same units,
    bit-identical results."""
    units = units_of(LAYERS)
    args, results, batches = args_of(7), [], []
    for jobs in (1, 2):
        monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / f"jobs{jobs}"))
        library = toolchain.compile_units(units, tile=True, jobs=jobs)
        [got] = library.call("main", args)
        want = run(parse_tvmscript(LAYERS, "layers.py"), "main", *args)
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)
        results.append(got)
        batches.append(len(objects(tmp_path / f"jobs{jobs}")) - 1)  # the host's apart
    assert records(tmp_path / "jobs1") == records(tmp_path / "jobs2")
    assert batches == [1, 2]
    np.testing.assert_array_equal(results[0], results[1])


@needs_toolchain
def test_kernels_compiled_twice_link_once(tmp_path, monkeypatch):
    """Kernels whose records were lost (as when two processes compile them at once) are
    compiled again into another object; the library links it beside their first one."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    units = units_of(LAYERS)
    toolchain.compile_units(units, tile=True, jobs=1)
    cache = tmp_path / "relax-xdsl"
    first = objects(tmp_path)
    kept = {name: json.loads((cache / name).read_text())["object"] for name in records(tmp_path)}
    batch = [name for name, obj in kept.items() if list(kept.values()).count(obj) == 5]
    for record in batch[:2]:
        (cache / record).unlink()
    for library in cache.glob("*.so"):
        library.unlink()
    library = toolchain.compile_units(units, tile=True, jobs=1)
    assert len(objects(tmp_path) - first) == 1
    args = args_of(3)
    [got] = library.call("main", args)
    want = run(parse_tvmscript(LAYERS, "layers.py"), "main", *args)
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)


@needs_toolchain
@pytest.mark.parametrize("tile", [False, True])
def test_host_and_kernels_are_optimised_at_their_levels(tmp_path, monkeypatch, tile):
    """Each unit at its levels; LLVM unrolls no loop of a unit the schedule ran on."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    toolchain._host(toolchain.find_toolchain())  # its --version runs are not compilations
    commands: list[list[str]] = []
    original = toolchain._run

    def recording(argv, stdin=None):
        commands.append(list(argv))
        return original(argv, stdin)

    monkeypatch.setattr(toolchain, "_run", recording)
    units = units_of(LAYERS, tile)
    toolchain.compile_units(units, tile=tile, jobs=2)
    tools = toolchain.find_toolchain()
    optimised = [argv for argv in commands if argv[0] == tools.opt]
    generated = [argv for argv in commands if argv[0] == tools.llc]
    kernel_passes = f"-passes=internalize,default<{KERNEL_LEVEL.lstrip('-')}>"
    assert sum(HOST_LEVEL in argv for argv in optimised) == 1
    batches = [argv for argv in optimised if kernel_passes in argv]
    assert len(batches) == 2  # two processes
    exported = [argv[argv.index(kernel_passes) + 1] for argv in batches]
    kernels = [name for names in exported for name in names.split("=")[1].split(",")]
    assert sorted(kernels) == sorted(unit.name for unit in units if not unit.entry)
    assert sorted(argv[3] for argv in generated) == sorted(
        [HOST_CODEGEN_LEVEL] + 2 * [KERNEL_LEVEL]
    )
    assert sum(argv[0] == tools.mlir_opt for argv in commands) == 4  # signatures, host, batches
    not_unrolled = [argv for argv in optimised if set(toolchain.SCHEDULED_FLAGS) <= set(argv)]
    assert not_unrolled == (batches if tile else [])


@needs_toolchain
def test_a_failing_kernel_is_reported(tmp_path, monkeypatch):
    """A unit that does not lower stops the compilation with the tool's message."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    host, *kernels = units_of(LAYERS)
    text = kernels[0].text.replace('"linalg.', '"bogus.', 1)
    broken = Unit(kernels[0].name, text, KERNEL_LEVEL, KERNEL_LEVEL, entry=False)
    with pytest.raises(toolchain.ToolchainError, match="mlir-opt-22"):
        toolchain.compile_units([host, broken, *kernels[1:]], jobs=2)


def test_tiling_is_the_default_and_no_tile_turns_it_off():
    assert RunOptions().tile
    assert RelaxRunMain(["m.py"]).args.tile
    assert not RelaxRunMain(["m.py", "--no-tile"]).args.tile
    assert RelaxRunMain(["m.py", "--tile"]).args.tile


@needs_toolchain
@pytest.mark.parametrize("tile", [True, False])
def test_tiled_and_untiled_layers_agree(tile):
    module = parse_tvmscript(LAYERS, "layers.py")
    args = args_of(17)
    got = compile_function(module, "main", "mlir", RunOptions(tile=tile))(*args)
    np.testing.assert_allclose(got, run(module, "main", *args), rtol=1e-5, atol=1e-5)


class Counts(Instrumentation):
    """Records what the stages report."""

    def __init__(self):
        self.reported: list[tuple[str, int, int | None]] = []

    def before(self, stage, module):
        pass

    def after(self, stage, module, failed):
        pass

    def progress(self, what, done, total):
        self.reported.append((what, done, total))


@needs_toolchain
def test_progress_counts_the_units(tmp_path, monkeypatch):
    """The progress output (``relax-run``'s status line) counts units as they are done."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    counts, units = Counts(), units_of(LAYERS)
    with instrumented(counts):
        toolchain.compile_units(units, jobs=2)
    done = [
        n for what, n, total in counts.reported if (what, total) == (toolchain.UNITS_COMPILED, 6)
    ]
    assert len(done) == len(counts.reported) == 3  # the host, then two batches of kernels
    assert done == sorted(done) and done[-1] == 6
    with instrumented(counts):
        toolchain.compile_units(units, jobs=2)
    assert counts.reported[-1] == (CACHE_HIT, 1, None)
