"""Masked loads at most one vector register wide: a workaround for an LLVM 22 miscompile.

On hosts with AVX or AVX2 but no AVX-512, `llc-22` miscompiles a masked load wider than a
register when its mask has a register-sized piece that is constantly false and the mask is
shared with another masked load (as after unrolling): the pieces of the second load are loaded
*unmasked*, reading past the end of the buffer and returning memory instead of the pass-through
value (`docs/lowering/toolchain.md`, "Known problems", has the reduced reproducer). The tiling
schedule's operand packs produce exactly such loads (32 lanes read over a 16-wide axis).

`split_masked_loads` routes every wider `llvm.masked.load` through an always-inlined function
that loads one register at a time, before `opt-22`: after inlining, pieces whose mask is false
fold to the pass-through value, and the backend never splits a masked load.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

ELEMENT_BITS = {
    "f16": 16,
    "bf16": 16,
    "f32": 32,
    "f64": 64,
    "i8": 8,
    "i16": 16,
    "i32": 32,
    "i64": 64,
}
LLVM_TYPES = {"f16": "half", "bf16": "bfloat", "f32": "float", "f64": "double"}

_CALL = re.compile(r"@llvm\.masked\.load\.v(\d+)(" + "|".join(ELEMENT_BITS) + r")\.p0\(")


def split_masked_loads(llvm_ir: str, register_bytes: int) -> str:
    """``llvm_ir`` with masked loads wider than ``register_bytes`` split into registers."""
    wide: set[tuple[int, str]] = set()

    def reroute(match: re.Match[str]) -> str:
        lanes, element = int(match[1]), match[2]
        if lanes * ELEMENT_BITS[element] <= register_bytes * 8:
            return match[0]
        wide.add((lanes, element))
        return f"@relax_xdsl.masked_load.v{lanes}{element}("

    lines = [
        line if line.startswith("declare ") else _CALL.sub(reroute, line)
        for line in llvm_ir.splitlines()
    ]
    declared = set(re.findall(r"^declare .*?@(llvm\.masked\.load\.\S+)\(", llvm_ir, re.M))
    definitions = [
        _definition(lanes, element, register_bytes * 8 // ELEMENT_BITS[element], declared)
        for lanes, element in sorted(wide)
    ]
    return "\n".join(lines + definitions) + "\n"


def _definition(lanes: int, element: str, width: int, declared: set[str]) -> str:
    """An always-inlined masked load of ``lanes`` elements in pieces of ``width`` lanes."""
    scalar = LLVM_TYPES.get(element, element)
    vector, mask = f"<{lanes} x {scalar}>", f"<{lanes} x i1>"
    body: list[str] = []
    declarations: list[str] = []
    previous = "%w0"
    for index, start in enumerate(range(0, lanes, width)):
        count = min(width, lanes - start)
        piece, piece_mask = f"<{count} x {scalar}>", f"<{count} x i1>"
        intrinsic = f"llvm.masked.load.v{count}{element}.p0"
        if intrinsic not in declared:
            declared.add(intrinsic)
            declarations.append(f"declare {piece} @{intrinsic}(ptr, {piece_mask}, {piece})")
        take = f"<{count} x i32> {_lanes(range(start, start + count))}"
        size = ELEMENT_BITS[element] // 8
        in_place = _lanes(j - start if start <= j < start + count else None for j in range(lanes))
        body += [
            f"  %m{index} = shufflevector {mask} %mask, {mask} poison, {take}",
            f"  %s{index} = shufflevector {vector} %passthru, {vector} poison, {take}",
            f"  %p{index} = getelementptr i8, ptr %p, i64 {start * size}",
            f"  %v{index} = call {piece} @{intrinsic}"
            f"(ptr align {size} %p{index}, {piece_mask} %m{index}, {piece} %s{index})",
            # The piece widened to all lanes (its own lanes in place), then merged.
            f"  %w{index} = shufflevector {piece} %v{index}, {piece} poison, "
            f"<{lanes} x i32> {in_place}",
        ]
        if index:
            choose = _lanes(lanes + j if start <= j < start + count else j for j in range(lanes))
            body.append(
                f"  %r{index} = shufflevector {vector} {previous}, {vector} %w{index}, "
                f"<{lanes} x i32> {choose}"
            )
            previous = f"%r{index}"
    return "\n".join(
        [
            *declarations,
            f"define internal {vector} @relax_xdsl.masked_load.v{lanes}{element}"
            f"(ptr %p, {mask} %mask, {vector} %passthru) alwaysinline {{",
            *body,
            f"  ret {vector} {previous}",
            "}",
        ]
    )


def _lanes(indices: Iterable[int | None]) -> str:
    """A shufflevector mask (``None`` lanes are poison)."""
    return "<" + ", ".join("i32 poison" if i is None else f"i32 {i}" for i in indices) + ">"
