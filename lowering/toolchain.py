"""The MLIR toolchain backend: lowered MLIR → shared library → calls with NumPy values.

A module is compiled as *units* (`units.py`: the whole module, or the host and each kernel),
in batches, each into an object: `mlir-opt-22` lowers it to the LLVM dialect (`BUFFERIZE`,
`TO_LLVM`), `mlir-translate-22` to LLVM IR (masked loads split into registers,
`masked_loads`), `opt-22` and `llc-22` at the units' level to a PIC object for the host CPU.
Units not in the cache are compiled on as many processes as the machine has cores (one process
of each tool for a batch of kernels: their start-up costs more than a small kernel). The C
compiler links the objects with the entry shim (`native_shim`) into a shared library. Units
are cached under `$XDG_CACHE_HOME/relax-xdsl` (or `~/.cache/relax-xdsl`) by a hash of their
text, the options, the pipeline and the tool versions, each recording its batch's object;
libraries by their units' hashes."""

from __future__ import annotations

import ctypes
import functools
import hashlib
import json
import os
import re
import shutil
import subprocess
import tempfile
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from xdsl.context import Context
from xdsl.dialects.builtin import FunctionType, ModuleOp, StringAttr
from xdsl.parser import Parser

from relax_dialect.instrumentation import report, stage
from relax_dialect.memo_printer import print_module

from .batched_modules import merge_modules
from .constant_data import assembly
from .crash_report import crash_message
from .disk_cache import CACHE_HIT, cache_dir, write_atomic
from .host import vector_register_bytes
from .interpreter import LoweredCheckError
from .masked_loads import split_masked_loads
from .memref_abi import CallFrame, Signature, UnsupportedType
from .native_shim import LINK_FLAGS, shim_source
from .stub_declarations import declare_stubs
from .threads import call_spin_ms, loop_passes, machine_cores
from .threads import link_flags as openmp_link_flags
from .tiling import VECTOR_LOWERING, tiling_passes, transform_script
from .units import KERNEL_LEVEL, Unit, whole_module
from .vector_math import link_flags, vectoriser_flags

APT_COMMAND = "apt-get install -y --no-install-recommends mlir-22-tools llvm-22"
RUNTIME_LIBRARY = "libmlir_c_runner_utils.so.22.1"
CODEGEN_FLAGS = ("-mcpu=native",)  # for opt-22 and llc-22, with a unit's level
LOWERING_FLAGS = ("--verify-each=false",)
"""``mlir-opt-22`` flags of a compilation: the IR is not verified after each pass (a fifth of
``mlir-opt-22``'s CPU on ResNet-18's kernel batches, for the same LLVM IR); the input is
verified as it is parsed, and the output as ``mlir-translate-22`` reads it."""
SCHEDULED_FLAGS = ("-disable-loop-unrolling", "-vectorizer-min-trip-count=4")
"""``opt-22`` flags of a unit compiled with the tiling schedule: its loops arrive vectorised and
unrolled by MLIR, and LLVM's unrollers took a quarter of ``opt-22``'s time on ResNet-18's
kernels for the same run time (docs/benchmarks.md). Untiled loops keep LLVM's loop vectoriser,
which interleaves them; it also takes loops of 4 to 15 iterations that need run-time checks
that their memrefs do not overlap (by default not below 16): the element-wise epilogues left
as loops after a packed product on 14 × 14 and 7 × 7 images (MobileNetV2: 0.90× the time,
docs/benchmarks.md)."""
ENTRY_TEXT_PER_KERNEL = 17_000
"""Characters of an entry unit's text that take the tools about as long as a kernel (0.35-0.38 s
of CPU, whatever its text): ResNet-18's host, 32 KB, took 0.63 s, MobileNetV2's, 74 KB, 1.69 s
(docs/benchmarks.md)."""
UNITS_COMPILED = "units compiled"
"""What ``compile_units`` reports as its units' objects come (compiled or cached)."""
COMPILE_STAGE = "native compile"
"""The stage of ``compile_module`` that builds a library (each tool a stage inside it)."""

ELIMINATE_EMPTY_TENSORS = "eliminate-empty-tensors"
"""Only in units holding the public functions (a whole module: a value computed into a fresh
tensor, then inserted into a larger one, as a concatenation's, is computed in place). A kernel
reduces its regions into slices of its output itself (a pool's, `kernels`); there the pass only
repeated bufferization's analysis (a fifth of ``mlir-opt-22``'s CPU on ResNet-18's
kernels, the same LLVM IR without it, docs/benchmarks.md)."""
BUFFERIZE = (
    "one-shot-bufferize{bufferize-function-boundaries "
    "function-boundary-type-conversion=identity-layout-map}",
    # buffer-deallocation-pipeline without buffer-deallocation-simplification, which is
    # quadratic in a function's buffers: 281 s of a 5,000-call function, the rest 3 s
    "expand-realloc",
    "canonicalize",
    "ownership-based-buffer-deallocation",
    "canonicalize",
    "bufferization-lower-deallocations",
    "cse",
    "canonicalize",
    "convert-bufferization-to-memref",
)
"""Then the loops of linalg operations (``threads.loop_passes``)."""
SIMPLIFY_DEALLOCATIONS = "buffer-deallocation-simplification"
"""Run on scheduled units only (kernels: a few buffers each), after the ownership-based
deallocation: the buffers of a fused epilogue's tile (`schedules.epilogue`) are freed by one
``memref.dealloc`` each instead of a call to a dealloc helper and a branch per buffer, which
in the body of an OpenMP loop left its ``alloca_scope`` with several blocks (mlir-opt-22
rejects it: a convolution's fused epilogue on threads)."""
NATIVE_FORMATS = ("bf16",)
"""The extension float formats native code computes: arithmetic and math in
``f32`` (``arith-emulate-unsupported-floats``, ``math-extend-to-supported-types``),
conversions expanded to integer code by ``arith-expand``."""
WIDENED_FORMATS = ("f4E2M1FN",)
"""The formats native code only widens (``arith.extf``, exact). mlir-opt-22's
``arith-expand`` of ``truncf`` to ``f4E2M1FN`` does not round to nearest even (2.5
to 3, NaN to 6, -1e-7 to +0); for ``f8E8M0FNU`` it truncates (3.5 to 2, 0 and
negatives to 2^-127) and its ``extf`` flushes 2^-127 to 0; it expands no conversion
of the other float8 formats (``f8E4M3FN``...)."""
C_WRAPPERS = "func.func(llvm-request-c-wrappers)"
"""Only in units holding the public functions: a kernel's wrapper would be defined twice."""
TO_LLVM = (
    "expand-strided-metadata",
    "lower-affine",
    "func.func(math-extend-to-supported-types{extra-types=f16 target-type=f32})",
    f"arith-emulate-unsupported-floats{{source-types={','.join(NATIVE_FORMATS)} target-type=f32}}",
    "arith-expand{include-bf16 include-f4e2m1}",
    "convert-scf-to-cf",
    C_WRAPPERS,
    "convert-math-to-llvm",
    "convert-math-to-libm",
    "convert-to-llvm",
    "reconcile-unrealized-casts",
)


def generic_text(module: ModuleOp) -> str:
    """``module`` in MLIR's generic form, as ``mlir-opt`` reads it."""
    return print_module(module, generic=True)


class ToolchainError(Exception):
    """A toolchain stage failed (the message carries the tool's diagnostics)."""


class ToolchainMissing(ToolchainError):
    """Executables or libraries of the MLIR toolchain are not installed."""


@dataclass(frozen=True)
class Toolchain:
    """Paths of the executables and the runtime library."""

    mlir_opt: str
    mlir_translate: str
    opt: str
    llc: str
    cc: str
    runtime: str


def find_toolchain() -> Toolchain:
    """Locate the toolchain; `ToolchainMissing` names everything missing and how to install it."""
    names = {
        "mlir_opt": "mlir-opt-22",
        "mlir_translate": "mlir-translate-22",
        "opt": "opt-22",
        "llc": "llc-22",
        "cc": os.environ.get("CC", "cc"),
    }
    found = {key: shutil.which(name) for key, name in names.items()}
    missing = [names[key] for key, path in found.items() if path is None]
    runtime = ""
    if found["mlir_opt"]:
        lib = Path(os.path.realpath(found["mlir_opt"])).parent.parent / "lib" / RUNTIME_LIBRARY
        if lib.exists():
            runtime = str(lib)
        else:
            missing.append(str(lib))
    if missing:
        raise ToolchainMissing(
            f"the MLIR toolchain is incomplete: missing {', '.join(missing)}; "
            f"install it with `{APT_COMMAND}` (and a C compiler)"
        )
    return Toolchain(runtime=runtime, **{k: str(v) for k, v in found.items()})


def _run(argv: Sequence[str], stdin: str | None = None) -> str:
    with stage(Path(argv[0]).name):
        result = subprocess.run(list(argv), input=stdin, capture_output=True, text=True)
    if result.returncode < 0:
        raise ToolchainError(
            crash_message(Path(argv[0]).name, result.returncode, result.stderr, stdin or "")
        )
    if result.returncode:
        raise ToolchainError(
            f"{Path(argv[0]).name} failed (exit {result.returncode}): "
            f"{' '.join(argv)}\n{result.stderr.strip()}"
        )
    return result.stdout


@functools.cache
def _host(toolchain: Toolchain) -> tuple[str, str]:
    """The tool versions (a cache-key ingredient) and the default target triple, kept on disk
    under the tools' identities (path, size, modification time): five ``--version`` runs
    cost more than a whole cached compilation."""
    tools = (toolchain.mlir_opt, toolchain.mlir_translate, toolchain.opt, toolchain.cc)
    identities = []
    for tool in (*tools, toolchain.llc):
        real = os.path.realpath(tool)
        status = os.stat(real)
        identities.append([real, status.st_size, status.st_mtime_ns])
    digest = hashlib.sha256(json.dumps(identities).encode()).hexdigest()[:32]
    record = cache_dir() / f"host-{digest}.json"
    if record.exists():
        versions, triple = json.loads(record.read_text())
        return versions, triple
    with ThreadPoolExecutor(max_workers=len(tools) + 1) as pool:  # at once: 0.05 s, not 0.2
        *outputs, llc = pool.map(lambda tool: _run([tool, "--version"]), [*tools, toolchain.llc])
    versions = "".join(outputs)
    found = re.search(r"Default target: (\S+)", llc)
    triple = found.group(1) if found else "x86_64-pc-linux-gnu"
    write_atomic(record, json.dumps([versions + llc, triple]).encode())
    return versions + llc, triple


def _transform_library() -> str:
    """The tiling schedule as a file (transform-preload-library reads files). mlir-opt splits
    the option's value at commas and spaces, so a cache directory with one falls back to the
    temp one."""
    script = transform_script()
    digest = hashlib.sha256(script.encode()).hexdigest()[:16]
    path = cache_dir() / f"transform-{digest}.mlir"
    if "," in str(path) or " " in str(path):
        path = Path(tempfile.gettempdir()) / f"relax-xdsl-transform-{digest}.mlir"
    if not path.exists():
        write_atomic(path, script.encode())
    return str(path)


def _pipeline(tile: bool, library: str, loops: tuple[str, ...], entry: bool = True) -> str:
    """The mlir-opt pipeline; `library` is the file holding the tiling schedule, `loops` the
    passes making loops of linalg operations, `entry` whether the unit holds the public
    functions."""
    bufferize = (ELIMINATE_EMPTY_TENSORS, *BUFFERIZE) if entry else BUFFERIZE
    passes = bufferize + loops + TO_LLVM
    if tile:
        deallocated = bufferize.index("bufferization-lower-deallocations")
        bufferize = (*bufferize[:deallocated], SIMPLIFY_DEALLOCATIONS, *bufferize[deallocated:])
        passes = tiling_passes(library) + bufferize + loops + VECTOR_LOWERING + TO_LLVM
    if not entry:
        passes = tuple(p for p in passes if p != C_WRAPPERS)
    return f"builtin.module({','.join(passes)})"


_OP_NAME = re.compile(r'^\s*(?:%[^=]*=\s*)?"([^"]+)"\(', re.MULTILINE)


def _check_llvm_dialect(generic: str) -> None:
    """mlir-opt exits 0 on a partial lowering: reject any op left outside the LLVM dialect."""
    left: dict[str, int] = {}
    for name in _OP_NAME.findall(generic):
        if not name.startswith(("llvm.", "omp.")) and name != "builtin.module":
            left[name] = left.get(name, 0) + 1
    if left:
        ops = ", ".join(f"{name} ({count}x)" for name, count in sorted(left.items()))
        raise ToolchainError(f"mlir-opt-22 left ops outside the LLVM dialect: {ops}")


def _lower(
    toolchain: Toolchain, mlir_text: str, tile: bool, parallel: bool = False, entry: bool = True
) -> str:
    loops = loop_passes(toolchain.runtime, parallel)
    pipeline = _pipeline(tile, _transform_library(), loops, entry)
    generic = _run(
        [toolchain.mlir_opt, "--mlir-print-op-generic", f"--pass-pipeline={pipeline}"], mlir_text
    )
    _check_llvm_dialect(generic)
    return generic


def lower_to_llvm_dialect(mlir_text: str, tile: bool = False, generic: bool = False) -> str:
    """The LLVM-dialect MLIR of `mlir_text` (the artefact of `relax-opt --emit-llvm-dialect`)."""
    toolchain = find_toolchain()
    lowered = _lower(toolchain, mlir_text, tile)
    return lowered if generic else _run([toolchain.mlir_opt], lowered)


_FUNC_PROPERTIES = re.compile(r'^\s*"func\.func"\(\) (<\{.*\}>) \(\{$', re.MULTILINE)


def _signatures(toolchain: Toolchain, mlir_text: str) -> tuple[list[Signature], dict[str, str]]:
    """Signatures of the public functions, and why the others cannot be called."""
    generic = _run([toolchain.mlir_opt, "--mlir-print-op-generic"], mlir_text)
    context = Context(allow_unregistered=True)
    callable_: list[Signature] = []
    refused: dict[str, str] = {}
    for match in _FUNC_PROPERTIES.finditer(generic):
        properties = Parser(context, match.group(1)).parse_optional_properties_dict()
        name = properties["sym_name"]
        visibility = properties.get("sym_visibility")
        function_type = properties["function_type"]
        assert isinstance(name, StringAttr) and isinstance(function_type, FunctionType)
        if isinstance(visibility, StringAttr) and visibility.data != "public":
            refused[name.data] = f"@{name.data} is {visibility.data}"
        elif not name.data.isidentifier() or not name.data.isascii():
            refused[name.data] = f"@{name.data} is not a C identifier"
        else:
            try:
                callable_.append(Signature.of(name.data, function_type))
            except UnsupportedType as error:
                refused[name.data] = f"@{name.data}: {error}"
    return callable_, refused


def compile_llvm_ir(
    toolchain: Toolchain,
    llvm_ir: str,
    obj: Path,
    level: str = KERNEL_LEVEL,
    exports: tuple[str, ...] | None = None,
    codegen_level: str | None = None,
    scheduled: bool = False,
) -> None:
    """LLVM IR → a PIC object for the host CPU, optimised at `level` and generated at
    `codegen_level` (default: `level`), masked loads split into registers first; with
    `exports`, every other symbol becomes internal (the helpers that each unit's lowering
    defines, such as ``dealloc_helper``); `scheduled`: the tiling schedule ran on it
    (`SCHEDULED_FLAGS`)."""
    source, bitcode = obj.with_suffix(".ll"), obj.with_suffix(".bc")
    source.write_text(split_masked_loads(llvm_ir, vector_register_bytes()))
    target = [f"-mtriple={_host(toolchain)[1]}", *CODEGEN_FLAGS]
    passes = [level]
    if exports is not None:
        passes = [f"-passes=internalize,default<{level.lstrip('-')}>"]
        passes.append(f"-internalize-public-api-list={','.join(exports)}")
    optimise = [*target, *passes, *vectoriser_flags(), *(SCHEDULED_FLAGS if scheduled else ())]
    _run([toolchain.opt, *optimise, str(source), "-o", str(bitcode)])
    llc_flags = [codegen_level or level, "-filetype=obj", "-relocation-model=pic"]
    _run([toolchain.llc, *target, *llc_flags, str(bitcode), "-o", str(obj)])


def _lower_batch(toolchain: Toolchain, units: Sequence[Unit], tile: bool, parallel: bool) -> str:
    """The LLVM IR of `units` (alike in `entry` and `scheduled`) as one module, from one
    ``mlir-opt`` and one ``mlir-translate`` for all (their start-ups cost more than a small
    kernel): the units are lowered as one module (`batched_modules`; ``mlir-opt`` then runs
    on one thread, as several run at once). The LLVM dialect passes as bytecode, which
    ``mlir-translate`` reads four times faster than the generic text (an op left outside
    the LLVM dialect then fails the translation)."""
    entry = units[0].entry
    tile = tile and units[0].scheduled
    loops = loop_passes(toolchain.runtime, parallel)
    pipeline = _pipeline(tile, _transform_library(), loops, entry)
    text, threads = units[0].text, ["--mlir-disable-threading"]
    if len(units) == 1:
        threads = []
    else:
        text = merge_modules([unit.text for unit in units])
    with tempfile.TemporaryDirectory(prefix="relax-xdsl-") as work:
        lowered = Path(work) / "units.mlirbc"
        emit = [*threads, "--emit-bytecode", f"--pass-pipeline={pipeline}", "-o", str(lowered)]
        _run([toolchain.mlir_opt, *LOWERING_FLAGS, *emit], text)
        return _run([toolchain.mlir_translate, "--mlir-to-llvmir", str(lowered)])


def _codegen(
    toolchain: Toolchain, units: Sequence[Unit], llvm_ir: str, obj: Path, tile: bool
) -> None:
    """The LLVM IR of `units` (a batch) → their object `obj` (in the cache: written whole or
    not at all); the entry unit's kernel stubs become declarations (`stub_declarations`)."""
    first = units[0]
    if first.entry:
        llvm_ir = declare_stubs(llvm_ir)
    with tempfile.TemporaryDirectory(prefix="relax-xdsl-") as work:
        compiled = Path(work) / "unit.o"
        exports = None if first.entry else tuple(unit.name for unit in units)
        scheduled = tile and first.scheduled
        compile_llvm_ir(
            toolchain, llvm_ir, compiled, first.level, exports, first.codegen_level, scheduled
        )
        write_atomic(obj, compiled.read_bytes())


def _record(key: str) -> Path:
    """Where the cache records which object holds the unit of cache key `key`."""
    return cache_dir() / f"{key}.unit.json"


def _compile_batch(
    toolchain: Toolchain, batch: dict[str, Unit], tile: bool, parallel: bool
) -> None:
    """Compile the units of `batch` (by cache key) into one object, named after their keys,
    and record it as each unit's, with the data objects it reads. One process of each tool
    for the batch: their start-ups and per-module work cost ``opt-22`` and ``llc-22`` about
    0.03 s a kernel (of 0.1 s), and ``mlir-opt-22`` more (docs/benchmarks.md)."""
    units = list(batch.values())
    obj = cache_dir() / f"{hashlib.sha256(' '.join(batch).encode()).hexdigest()[:32]}.o"
    _codegen(toolchain, units, _lower_batch(toolchain, units, tile, parallel), obj, tile)
    record = {"object": obj.name, "data": sorted({name for u in units for name in u.data})}
    for key in batch:
        write_atomic(_record(key), json.dumps(record).encode())


def _cached(key: str) -> list[Path] | None:
    """The object holding the unit of cache key `key` and the data objects it reads, when
    the cache has them all."""
    record = _record(key)
    if not record.exists():
        return None
    found = json.loads(record.read_text())
    paths = [cache_dir() / found["object"], *(cache_dir() / f"{d}.o" for d in found["data"])]
    return paths if all(path.exists() for path in paths) else None


def _batches(units: dict[str, Unit], jobs: int) -> list[dict[str, Unit]]:
    """The entry units one by one, then the others in at most `jobs` batches, the larger
    first: `jobs` processes taking them in this order finish together, the first (with the
    entry units, `ENTRY_TEXT_PER_KERNEL`) taking the smaller batch."""
    entries = [{key: u} for key, u in units.items() if u.entry]
    loads = [0.0] * jobs
    loads[0] = sum(len(u.text) for u in units.values() if u.entry) / ENTRY_TEXT_PER_KERNEL
    kernels: list[dict[str, Unit]] = [{} for _ in range(jobs)]
    for key, unit in units.items():
        if not unit.entry:
            lightest = loads.index(min(loads))
            kernels[lightest][key] = unit
            loads[lightest] += 1
    return entries + sorted((batch for batch in kernels if batch), key=len, reverse=True)


def _compile_objects(
    toolchain: Toolchain, units: dict[str, Unit], tile: bool, parallel: bool, jobs: int
) -> tuple[list[Path], dict[str, Any]]:
    """The objects of `units` (by cache key) and the data objects they read, those not in
    the cache compiled in batches on `jobs` processes at a time, and the entry unit's
    metadata; reports the units done."""
    entry_key = next(key for key, unit in units.items() if unit.entry)
    metadata = cache_dir() / f"{entry_key}.o.json"
    todo = {key: unit for key, unit in units.items() if _cached(key) is None}
    done = len(units) - len(todo)
    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        compiling = {
            pool.submit(_compile_batch, toolchain, batch, tile, parallel): len(batch)
            for batch in _batches(todo, max(1, jobs))
        }
        if not metadata.exists():  # last: the thread done first with its batch reads them
            signatures = pool.submit(_signatures, toolchain, units[entry_key].text)
        for future in as_completed(compiling):
            future.result()
            done += compiling[future]
            report(UNITS_COMPILED, done, len(units))
        if not metadata.exists():
            callable_, refused = signatures.result()
            built = {"signatures": [s.to_json() for s in callable_], "refused": refused}
            write_atomic(metadata, json.dumps(built).encode())
    objects = set()
    for key in units:
        found = _cached(key)
        assert found is not None, "a compiled unit's object left the cache"
        objects.update(found)
    return sorted(objects), json.loads(metadata.read_text())


def _data_objects(toolchain: Toolchain, units: Sequence[Unit]) -> None:
    """Make the data objects of the units' external globals (`constant_data`; one per symbol,
    which several units may read) that the cache lacks, by symbol (a digest of the data)."""
    globals_ = {name: data for unit in units for name, data in unit.data.items()}
    for name, data in sorted(globals_.items()):
        obj = cache_dir() / f"{name}.o"
        if not obj.exists():
            with tempfile.TemporaryDirectory(prefix="relax-xdsl-") as work:
                raw, source = Path(work) / "data.bin", Path(work) / "data.s"
                raw.write_bytes(data)
                source.write_text(assembly(name, raw, len(data)))
                _run([toolchain.cc, "-c", str(source), "-o", str(Path(work) / "data.o")])
                write_atomic(obj, (Path(work) / "data.o").read_bytes())


def _link(
    toolchain: Toolchain,
    objects: list[Path],
    signatures: list[Signature],
    parallel: bool,
    library: Path,
) -> None:
    """Link the objects with the entry shim and the runtime library into `library`."""
    runtime = Path(toolchain.runtime)
    with tempfile.TemporaryDirectory(prefix="relax-xdsl-") as work:
        shim, linked = Path(work) / "shim.c", Path(work) / "module.so"
        shim.write_text(shim_source(signatures))
        inputs = [str(shim), *map(str, objects), str(runtime)]
        link = [*LINK_FLAGS, f"-Wl,-rpath,{runtime.parent}", *link_flags(), "-lm"]
        link += openmp_link_flags(toolchain.runtime) if parallel else ()
        _run([toolchain.cc, "-shared", "-fPIC", "-O2", *inputs, "-o", str(linked), *link])
        write_atomic(library, linked.read_bytes())


def recipe() -> list[object]:
    """What an object depends on besides its unit's text, levels and pipeline: the tiling
    schedule, the host's vector registers and the code generator's flags."""
    flags = [CODEGEN_FLAGS, SCHEDULED_FLAGS, vectoriser_flags()]
    return [transform_script(), vector_register_bytes(), *flags]


def tool_versions() -> str:
    """The versions of the toolchain's tools (a cache-key ingredient)."""
    return _host(find_toolchain())[0]


def compile_units(
    units: Sequence[Unit], tile: bool = False, parallel: bool = False, jobs: int | None = None
) -> NativeModule:
    """Compile the units of a module (`units.split_units`; one of them the entry unit) into
    a loaded `NativeModule`. Each unit's object is cached on disk by its text and recipe, the
    library by its units': an edit recompiles the units it changed, then links. `jobs`:
    units compiled at once (default: the machine's cores); `parallel`: linalg operations'
    parallel loops run on OpenMP threads (`threads`)."""
    toolchain = find_toolchain()
    versions = _host(toolchain)[0]
    loops = loop_passes(toolchain.runtime, parallel)
    ingredients = recipe()
    keyed: dict[str, Unit] = {}
    for unit in units:
        pipeline = _pipeline(tile and unit.scheduled, "SCHEDULE", loops, unit.entry)
        levels = [unit.level, unit.codegen_level]
        source = json.dumps([unit.text, levels, unit.entry, pipeline, ingredients, versions])
        keyed[hashlib.sha256(source.encode()).hexdigest()[:32]] = unit
    link_recipe = [sorted(keyed), shim_source([]), parallel, versions]
    key = hashlib.sha256(json.dumps(link_recipe).encode()).hexdigest()[:32]
    cache = cache_dir()
    library, metadata = cache / f"{key}.so", cache / f"{key}.json"
    if library.exists() and metadata.exists():
        report(CACHE_HIT, 1)
    else:
        with stage(COMPILE_STAGE):
            jobs = machine_cores() if jobs is None else jobs
            _data_objects(toolchain, units)
            objects, built = _compile_objects(toolchain, keyed, tile, parallel, jobs)
            signatures = [Signature.from_json(s) for s in built["signatures"]]
            _link(toolchain, objects, signatures, parallel, library)
            write_atomic(metadata, json.dumps(built).encode())
    return NativeModule(library, json.loads(metadata.read_text()))


def compile_module(mlir_text: str, tile: bool = False, parallel: bool = False) -> NativeModule:
    """Compile upstream MLIR on tensors, as one unit, into a loaded `NativeModule` (cached
    on disk); `parallel`: its linalg operations' parallel loops run on OpenMP threads."""
    return compile_units([whole_module(mlir_text)], tile, parallel)


M_TRIM_THRESHOLD, M_MMAP_THRESHOLD = -1, -3  # glibc's mallopt parameters
HEAP_THRESHOLDS = {M_MMAP_THRESHOLD: 32 << 20, M_TRIM_THRESHOLD: 256 << 20}
"""Native code allocates every intermediate tensor with `malloc` and frees it once dead. With
glibc's defaults, blocks over 128 KiB are fresh `mmap`s (or the heap top is trimmed back to the
kernel when they are freed), so every call page-faults its temporaries in again: a third of the
run time of a transformer layer. Blocks up to 32 MiB come from the heap instead, and up to
256 MiB of free heap is kept for the next call."""


@functools.cache
def _keep_heap() -> None:
    """Apply `HEAP_THRESHOLDS` (once per process; nothing where libc has no `mallopt`)."""
    mallopt = getattr(ctypes.CDLL(None), "mallopt", None)
    if mallopt is not None:
        for parameter, value in HEAP_THRESHOLDS.items():
            mallopt(parameter, value)


class NativeModule:
    """A compiled module: call its public functions with flattened NumPy values."""

    def __init__(self, library: Path, metadata: dict[str, Any]):
        _keep_heap()
        self.path = library
        self.signatures = {s["name"]: Signature.from_json(s) for s in metadata["signatures"]}
        self._refused: dict[str, str] = metadata["refused"]
        self._library = ctypes.CDLL(str(library))
        self._message = self._library.relax_xdsl_assert_message
        self._message.restype = ctypes.c_char_p
        self._set_memory_limit = self._library.relax_xdsl_set_memory_limit
        self._set_memory_limit.argtypes = [ctypes.c_size_t]
        self._set_threads = getattr(self._library, "omp_set_num_threads", None)
        self._set_spin = getattr(self._library, "kmp_set_blocktime", None)
        self._park = self._library.relax_xdsl_park_workers
        self._entries: dict[str, Any] = {}

    def _entry(self, name: str) -> tuple[CallFrame, Any]:
        if name not in self.signatures:
            reason = self._refused.get(name, f"no function @{name}")
            raise ValueError(f"cannot call @{name}: {reason}")
        if name not in self._entries:
            entry = getattr(self._library, f"relax_xdsl_entry_{name}")
            entry.argtypes = [ctypes.c_void_p, ctypes.c_void_p]
            entry.restype = ctypes.c_int
            self._entries[name] = (CallFrame(self.signatures[name]), entry)
        return self._entries[name]

    def call(
        self, name: str, args: Sequence[Any], memory_limit: int = 0, threads: int = 1
    ) -> list[Any]:
        """Run `@name`; tensors are NumPy arrays, scalars Python/NumPy numbers (flattened).
        The call may hold at most `memory_limit` bytes at once (0: no limit) and run its
        parallel loops on `threads` threads (where the library has them)."""
        frame, entry = self._entry(name)
        arguments = frame.arguments(args)
        results = frame.results()
        self._set_memory_limit(memory_limit)
        spin = call_spin_ms() if self._set_threads is not None else None
        if self._set_threads is not None:
            self._set_threads(max(1, threads))
            if self._set_spin is not None and spin is not None:
                self._set_spin(spin)
        failed = entry(arguments.pointers, results)
        if spin and threads > 1:
            self._park()
        if failed:
            raise LoweredCheckError(self._message().decode(errors="replace"))
        return frame.take_results(results, arguments)
