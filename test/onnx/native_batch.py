"""Many programs compiled to native code as one library: their lowered modules merged, each
one's symbols prefixed, so that the MLIR toolchain runs once for all of them instead of
once each (the node suite's ``mlir`` backend: about 2 s a case alone); or, as the native
backend compiles one program (its kernels outlined and scheduled, `compile_natively_together`),
their host functions merged and the kernels they share compiled once (the native programs of
``test/lowering/test_programs_end_to_end.py``: 1.3 s a program alone)."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence

from xdsl.dialects.builtin import ArrayAttr, DictionaryAttr, ModuleOp, StringAttr, SymbolRefAttr
from xdsl.ir import Attribute

from relax_xdsl.lowering.backends.backend import Compiled, Program
from relax_xdsl.lowering.backends.calling import LoweredEntry
from relax_xdsl.lowering.backends.native import native_module
from relax_xdsl.lowering.kernels import KERNEL_PREFIX
from relax_xdsl.lowering.program_cache import cached_library, program_key, remember
from relax_xdsl.lowering.toolchain import NativeModule, compile_module, compile_units, generic_text
from relax_xdsl.lowering.units import split_units


def _renamed(attribute: Attribute, names: dict[str, str]) -> Attribute:
    """``attribute`` with its references to ``names`` renamed (inside arrays and
    dictionaries too)."""
    if isinstance(attribute, SymbolRefAttr) and attribute.root_reference.data in names:
        nested = list(attribute.nested_references.data)
        return SymbolRefAttr(names[attribute.root_reference.data], nested)
    if isinstance(attribute, ArrayAttr):
        return ArrayAttr([_renamed(item, names) for item in attribute.data])
    if isinstance(attribute, DictionaryAttr):
        return DictionaryAttr({k: _renamed(v, names) for k, v in attribute.data.items()})
    return attribute


def prefixed(module: ModuleOp, prefix: str, shared: str | None = None) -> ModuleOp:
    """A copy of the module whose top-level symbols (and every reference to them) start
    with ``prefix``; bodiless declarations (external functions) keep their names, and so do
    the symbols starting with ``shared``."""
    copy = module.clone()
    names = {}
    for op in copy.ops:
        name = op.properties.get("sym_name")
        defined = any(region.blocks for region in op.regions) or not op.regions
        if (
            isinstance(name, StringAttr)
            and defined
            and not (shared and name.data.startswith(shared))
        ):
            names[name.data] = prefix + name.data
    for op in copy.walk():
        for table in (op.properties, op.attributes):
            for key, value in table.items():
                if key == "sym_name" and isinstance(value, StringAttr) and value.data in names:
                    table[key] = StringAttr(names[value.data])
                else:
                    table[key] = _renamed(value, names)
    return copy


def merged(
    modules: Sequence[ModuleOp], prefixes: Sequence[str], shared: str | None = None
) -> ModuleOp:
    """One module holding every module's operations, each module's symbols prefixed but
    those starting with ``shared``; declarations and ``shared`` symbols found in several
    modules are kept once."""
    ops, declared = [], set()
    for module, prefix in zip(modules, prefixes, strict=True):
        for op in list(prefixed(module, prefix, shared).ops):
            name = op.properties.get("sym_name")
            key = name.data if isinstance(name, StringAttr) else None
            if key is not None and not key.startswith(prefix):
                if key in declared:
                    continue
                declared.add(key)
            op.detach()
            ops.append(op)
    return ModuleOp(ops)


def _entries(
    library: NativeModule, programs: Sequence[Program], entries: Sequence[str]
) -> list[Compiled]:
    """Each program's entry, called in ``library`` by its prefixed name (`_prefixes`)."""

    def entry_of(program: Program, prefix: str, entry: str) -> Compiled:
        def call(args: list[object]) -> list[object]:
            return library.call(prefix + entry, args, program.options.memory_limit)

        return LoweredEntry(program.function(entry), call)

    found = zip(programs, _prefixes(programs), entries, strict=True)
    return [entry_of(program, prefix, entry) for program, prefix, entry in found]


def _prefixes(programs: Sequence[Program]) -> list[str]:
    return [f"p{index}_" for index in range(len(programs))]


def compile_together(programs: Sequence[Program], entry: str = "main") -> list[Compiled]:
    """Each program's ``@entry`` from one native library (the programs must lower; a
    ``ToolchainError`` when the library cannot be built)."""
    lowered = merged([program.lowered() for program in programs], _prefixes(programs))
    library = compile_module(generic_text(lowered))
    return _entries(library, programs, [entry] * len(programs))


def compile_natively_together(
    programs: Sequence[Program], entries: Sequence[str]
) -> list[Compiled]:
    """Each program's entry (``entries``) from one library built as the native backend
    builds one program's (`native.native_module`, `units.split_units`, tiled as the first
    program's options say, one thread): the programs' host functions prefixed, their kernels
    (named after their text) compiled once; found again in the program cache by the
    programs' keys. The programs must be supported and lower; a ``ToolchainError`` when the
    library cannot be built."""
    tile = programs[0].options.tile
    keys = [program_key(program.module, tile, False) for program in programs]
    key = hashlib.sha256(" ".join(keys).encode()).hexdigest()
    library = cached_library(key)
    if library is None:
        modules = [native_module(program) for program in programs]
        module = merged(modules, _prefixes(programs), KERNEL_PREFIX)
        library = compile_units(split_units(module, tile), tile)
        remember(key, library)
    return _entries(library, programs, entries)
