"""Many programs compiled to native code as one library: their lowered modules merged, each
one's symbols prefixed, so that the MLIR toolchain runs once for all of them instead of
once each (the node suite's ``mlir`` backend: about 2 s a case alone)."""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import ArrayAttr, DictionaryAttr, ModuleOp, StringAttr, SymbolRefAttr
from xdsl.ir import Attribute

from relax_xdsl.lowering.backends.backend import Compiled, Program
from relax_xdsl.lowering.backends.calling import LoweredEntry
from relax_xdsl.lowering.toolchain import compile_module, generic_text


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


def prefixed(module: ModuleOp, prefix: str) -> ModuleOp:
    """A copy of the module whose top-level symbols (and every reference to them) start
    with ``prefix``; bodiless declarations (external functions) keep their names."""
    copy = module.clone()
    names = {}
    for op in copy.ops:
        name = op.properties.get("sym_name")
        defined = any(region.blocks for region in op.regions) or not op.regions
        if isinstance(name, StringAttr) and defined:
            names[name.data] = prefix + name.data
    for op in copy.walk():
        for table in (op.properties, op.attributes):
            for key, value in table.items():
                if key == "sym_name" and isinstance(value, StringAttr) and value.data in names:
                    table[key] = StringAttr(names[value.data])
                else:
                    table[key] = _renamed(value, names)
    return copy


def merged(modules: Sequence[ModuleOp], prefixes: Sequence[str]) -> ModuleOp:
    """One module holding every module's operations, each module's symbols prefixed;
    declarations shared by several are kept once."""
    ops, declared = [], set()
    for module, prefix in zip(modules, prefixes, strict=True):
        for op in list(prefixed(module, prefix).ops):
            name = op.properties.get("sym_name")
            key = name.data if isinstance(name, StringAttr) else None
            if key is not None and not key.startswith(prefix):
                if key in declared:
                    continue
                declared.add(key)
            op.detach()
            ops.append(op)
    return ModuleOp(ops)


def compile_together(programs: Sequence[Program], entry: str = "main") -> list[Compiled]:
    """Each program's ``@entry`` from one native library (the programs must lower; a
    ``ToolchainError`` when the library cannot be built)."""
    prefixes = [f"p{index}_" for index in range(len(programs))]
    library = compile_module(
        generic_text(merged([program.lowered() for program in programs], prefixes))
    )

    def entry_of(program: Program, prefix: str) -> Compiled:
        def call(args: list[object]) -> list[object]:
            return library.call(prefix + entry, args, program.options.memory_limit)

        return LoweredEntry(program.function(entry), call)

    return [entry_of(p, prefix) for p, prefix in zip(programs, prefixes, strict=True)]
