"""The frontends: the input formats that become Relax modules, in one registry.

Each frontend is a module or package of this one that declares its ``FRONTEND``
(``frontend.Frontend``): its name, file suffixes, a sniffer of the input's first
bytes, whether it reads bytes or text, its ``--split-input-file`` marker and its
own command-line options; its reader is imported when first used, so that the
tools start without loading every frontend's dependencies. ``BUILT_IN`` lists
them in sniffing order. ``relax-opt``, ``relax-run`` and ``read_module`` choose
a frontend alike: the one named (``-f``), else the one of the file's suffix,
else the first whose sniffer recognises the input (standard input, a file
without suffix), else the first registered (the dialect's MLIR text).
"""

from __future__ import annotations

import codecs
import os
from importlib import import_module
from typing import TYPE_CHECKING

from .frontend import SNIFF_SIZE, Frontend, Option, UnknownFormat

if TYPE_CHECKING:
    from xdsl.context import Context
    from xdsl.dialects.builtin import ModuleOp

BUILT_IN = ("mlir", "tvmscript", "stablehlo", "onnx")
"""The frontends of this package, in the order their sniffers are tried: the
dialect's MLIR text first, the format of last resort (a ``.mlir`` file holding
StableHLO operations is StableHLO's)."""

REGISTRY: dict[str, Frontend] = {}
"""The frontends by name, in the order their sniffers are tried."""


def register(frontend: Frontend) -> None:
    """Add a frontend after those registered before it."""
    if frontend.name in REGISTRY:
        raise ValueError(f"a frontend named '{frontend.name}' is registered already")
    REGISTRY[frontend.name] = frontend


def lookup(name: str) -> Frontend:
    """The frontend of a name or, failing that, of a file suffix (``-f py``)."""
    found = REGISTRY.get(name) or next((f for f in REGISTRY.values() if name in f.suffixes), None)
    if found is None:
        raise UnknownFormat(f"unknown frontend '{name}' (registered: {', '.join(REGISTRY)})")
    return found


def candidates(path: str | None = None, frontend: str | None = None) -> tuple[Frontend, ...]:
    """The frontends that may read an input: the one named, else those of the
    path's suffix, else all."""
    if frontend is not None:
        return (lookup(frontend),)
    suffix = os.path.splitext(path or "")[1].lstrip(".")
    if not suffix:
        return tuple(REGISTRY.values())
    found = tuple(f for f in REGISTRY.values() if suffix in f.suffixes)
    if not found:
        raise UnknownFormat(f"unknown input format '{suffix}' (expected {_suffixes()})")
    return found


def select(data: bytes, path: str | None = None, frontend: str | None = None) -> Frontend:
    """The frontend for an input: of the ``candidates``, the only one, else the
    first whose sniffer recognises the input, else the first."""
    found = candidates(path, frontend)
    if len(found) == 1:
        return found[0]
    head = data.removeprefix(codecs.BOM_UTF8)[:SNIFF_SIZE]
    return next((f for f in found if f.sniff is not None and f.sniff(head)), found[0])


def options() -> tuple[Option, ...]:
    """The registered frontends' options, each flag once."""
    return tuple({o.flag: o for f in REGISTRY.values() for o in f.options}.values())


def read_module(
    source: str | os.PathLike[str] | bytes,
    *,
    name: str | None = None,
    frontend: str | None = None,
    ctx: Context | None = None,
    **options: object,
) -> ModuleOp:
    """The module of a file (a path) or of an input's bytes, read by the frontend
    named, else by the one of the suffix of ``name`` (or of the path), else by the
    one that recognises the input; ``options`` are the frontend's own (``metadata=``
    for TVMScript). Operations are located in ``name`` (default: the path, else
    ``<input>``); ``ctx`` defaults to one with every dialect ``relax-opt`` knows.

    Raises ``DiagnosticError`` for bad input, ``UnknownFormat`` when no frontend
    fits, ``FrontendError`` for a bad option, ``OSError`` or ``UnicodeDecodeError``
    when the input cannot be read."""
    if isinstance(source, bytes):
        data, path = source, None
    else:
        path = os.fspath(source)
        with open(path, "rb") as handle:
            data = handle.read()
    chosen = select(data, name or path, frontend)
    location = name or path or "<input>"
    return chosen.read(ctx or default_context(), chosen.decode(data), location, options)


def default_context() -> Context:
    """A context with every dialect of xDSL's multiverse (Relax's, upstream MLIR's),
    each loaded when first used, as in ``relax-opt``."""
    from xdsl.context import Context
    from xdsl.universe import Universe

    ctx = Context()
    for name, factory in Universe.get_multiverse().all_dialects.items():
        ctx.register_dialect(name, factory)
    return ctx


def _suffixes() -> str:
    """The registered suffixes, for a message (``.mlir, or .py for TVMScript``)."""
    owners: dict[str, Frontend] = {}
    for frontend in REGISTRY.values():
        for suffix in frontend.suffixes:
            owners.setdefault(suffix, frontend)
    return ", or ".join(
        f".{suffix}" if owner.title.lower() == suffix else f".{suffix} for {owner.title}"
        for suffix, owner in owners.items()
    )


for _name in BUILT_IN:
    register(import_module(f"{__name__}.{_name}").FRONTEND)
