"""The per-operator conformance table of ``docs/onnx.md``: for each ONNX operator, the
versions the importer has a converter for and the node tests each backend passes.

    python test/onnx/conformance_table.py    # rewrites the table's section of docs/onnx.md

Computed from the installed ``onnx`` (its operator schemas and node suite), the converter
registry and ``KNOWN_FAILURES.txt`` (which ``test_node_suite.py`` keeps exact), so writing
it runs nothing; ``test_conformance_table.py`` checks the page against it.
"""

from __future__ import annotations

import collections
import re
import sys
from collections.abc import Sequence
from pathlib import Path

from node_suite import BACKEND_NAMES, NodeCase, known_failures, passed, passed_text, suite

DOCS = Path(__file__).resolve().parents[2] / "docs" / "onnx.md"
BEGIN = "<!-- conformance table: written by python test/onnx/conformance_table.py -->"
END = "<!-- end of conformance table -->"
LOWEST_OPSET = 7
"""The oldest opset of the default domain the importer reads."""


def versions(op_type: str, domain: str) -> list[int]:
    """The versions of an operator in effect at some opset from ``LOWEST_OPSET`` on (the
    opsets that introduced them)."""
    from onnx import defs

    since = sorted(
        schema.since_version
        for schema in defs.get_all_schemas_with_history()
        if schema.name == op_type and schema.domain == domain
    )
    if domain:
        return since
    return [v for v in since if v <= LOWEST_OPSET][-1:] + [v for v in since if v > LOWEST_OPSET]


def covered(op_type: str, domain: str) -> str:
    """The operator's versions with a converter: ``all: 6, 13, 14``, ``13, 14 (not 6)``
    or ``—``."""
    from relax_dialect.frontends.onnx.converters.registry import lookup

    every = versions(op_type, domain)
    have = [v for v in every if lookup(op_type, domain, max(v, LOWEST_OPSET)) is not None]
    if not have:
        return "—"
    if have == every:
        return "all: " + ", ".join(map(str, every))
    missing = [v for v in every if v not in have]
    return ", ".join(map(str, have)) + f" (not {', '.join(map(str, missing))})"


def operators(cases: Sequence[NodeCase]) -> list[tuple[str, str]]:
    """(domain, op type) of every default-domain operator and of the other domains'
    operators the suite tests, sorted by domain then name."""
    from onnx import defs

    found = {
        ("", schema.name) for schema in defs.get_all_schemas_with_history() if not schema.domain
    }
    found |= {(_domain(case), case.node.op_type) for case in cases}
    return sorted(found)


def _domain(case: NodeCase) -> str:
    return case.op_type.rpartition(".")[0]


def render() -> str:
    """The section of ``docs/onnx.md`` between its markers, markers included. A count
    ``3 + 4 bound``: 3 cases pass as given, 4 with graph inputs bound (see ``node_suite``)."""
    import onnx

    import relax_dialect.frontends.onnx.converters  # noqa: F401 (registers the converters)

    cases = suite().cases
    known = known_failures()
    by_op = collections.defaultdict(list)
    for case in cases:
        by_op[(_domain(case), case.node.op_type)].append(case)
    ops = operators(cases)
    converted = sum(covered(op, domain) != "—" for domain, op in ops)
    lines = [
        BEGIN,
        "",
        f"ONNX {onnx.__version__}: {len(ops)} operators, {converted} with a converter; "
        f"{len(cases)} node tests whose inputs and outputs are tensors "
        f"({len(suite().others)} others use sequences, maps or optionals). Passed:",
        "",
    ]
    lines += [
        f"- {b}: {passed(cases, known, b)} of {len(cases)} ({passed(cases, known, b, False)} "
        f"as given, {passed(cases, known, b, True)} with bound inputs)"
        for b in BACKEND_NAMES
    ]
    lines += [
        "",
        "| operator | versions converted | node tests | " + " | ".join(BACKEND_NAMES) + " |",
        "|---|---|---|" + "---|" * len(BACKEND_NAMES),
    ]
    for domain, op in ops:
        group = by_op.get((domain, op), [])
        name = f"{domain}.{op}" if domain else op
        counts = " | ".join(passed_text(group, known, b) if group else "—" for b in BACKEND_NAMES)
        lines.append(f"| {name} | {covered(op, domain)} | {len(group) or '—'} | {counts} |")
    return "\n".join([*lines, "", END])


def updated(page: str, section: str) -> str:
    """The page with its marked section replaced (appended when it has none)."""
    pattern = re.compile(re.escape(BEGIN) + r".*?" + re.escape(END), re.DOTALL)
    if pattern.search(page):
        return pattern.sub(lambda _: section, page)
    return page.rstrip("\n") + "\n\n" + section + "\n"


def main() -> int:
    DOCS.write_text(updated(DOCS.read_text() if DOCS.exists() else "# ONNX\n", render()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
