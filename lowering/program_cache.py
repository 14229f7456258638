"""Native libraries found by the Relax module they were compiled from, before any lowering.

A compiled library is cached by its units (``toolchain.compile_units``), which exist only
once the module is lowered, outlined and printed: most of a warm compile's time. So the
native backend also records which library a Relax module gave, under a *program key*: a
digest of the module's text (with its locations, which run-time errors quote, and a digest
of each large constant's bytes in place of its blob: no hexadecimal text of the weights),
the options that change the code (tiling, OpenMP loops), the toolchain's recipe (tool
versions, the host's vector registers, the schedule) and the sources of the compiler itself
(``relax_dialect`` and ``relax_xdsl.lowering``, so that an edit of a lowering rule never finds
a library the old rule made). A hit loads the library with no lowering at all.
"""

from __future__ import annotations

import functools
import hashlib
import json
from io import StringIO
from pathlib import Path

import xdsl
from xdsl.dialects.builtin import Builtin, ModuleOp
from xdsl.ir import Attribute

import relax_dialect
from relax_dialect.instrumentation import report
from relax_dialect.memo_printer import MemoPrinter

from .disk_cache import CACHE_HIT, cache_dir, write_atomic
from .toolchain import NativeModule, recipe, tool_versions


@functools.cache
def sources_digest(*roots: Path) -> str:
    """A digest of the Python files under ``roots`` (their paths and contents)."""
    digest = hashlib.sha256()
    for root in roots:
        for source in sorted(root.rglob("*.py")):
            content = hashlib.sha256(source.read_bytes()).hexdigest()
            digest.update(f"{source.relative_to(root)} {content}\n".encode())
    return digest.hexdigest()


def compiler_digest() -> str:
    """A digest of the compiler: its Python sources (the Relax dialect and the lowering,
    read once per process) and xDSL's version."""
    roots = (Path(relax_dialect.__path__[0]), Path(__file__).parent)
    return f"{xdsl.__version__}:{sources_digest(*roots)}"


def module_text(module: ModuleOp) -> str:
    """``module``'s text, a digest of each large constant's data in place of its blob, and
    the location of each operation."""
    stream = StringIO()
    printer = MemoPrinter(stream=stream, digest_data=True)
    printer.print_op(module)
    printer.print_metadata([Builtin])
    locations: dict[Attribute, str] = {}
    for op in module.walk():
        if (text := locations.get(op.location)) is None:
            text = locations[op.location] = str(op.location)
        stream.write(f"\n{text}")
    return stream.getvalue()


def program_key(module: ModuleOp, tile: bool, parallel: bool) -> str:
    """The key under which the library of ``module`` compiled with these options is kept."""
    options = [tile, parallel, recipe(), tool_versions(), compiler_digest()]
    digest = hashlib.sha256(json.dumps(options).encode())
    digest.update(module_text(module).encode())
    return digest.hexdigest()[:32]


def _record(key: str) -> Path:
    return cache_dir() / f"program-{key}.json"


def cached_library(key: str) -> NativeModule | None:
    """The library recorded under the program key ``key``, loaded; None when there is none
    (or its files have left the cache)."""
    record = _record(key)
    if not record.exists():
        return None
    library = cache_dir() / json.loads(record.read_text())["library"]
    metadata = library.with_suffix(".json")
    if not (library.exists() and metadata.exists()):
        return None
    report(CACHE_HIT, 1)
    return NativeModule(library, json.loads(metadata.read_text()))


def remember(key: str, native: NativeModule) -> None:
    """Record ``native`` (a library of the cache) under the program key ``key``."""
    write_atomic(_record(key), json.dumps({"library": native.path.name}).encode())
