"""What the tools can do, for people: the passes grouped with one-line descriptions
(``--help``), every pass with its options (``--list-passes``) and the operators
(``--list-operators``). Descriptions come from the docstrings of the passes and
operators; the registries load what they list only when a list is printed."""

from __future__ import annotations

import inspect
import re
import shutil
import textwrap
from collections.abc import Callable, Iterable, Mapping

from xdsl.passes import ModulePass, get_pass_option_infos

from relax_dialect.instrumentation import RunsPasses
from relax_dialect.passes import PASSES, pass_class

from ..lowering import LOWERING_PASSES, lowering_pass_class

PassFactories = Mapping[str, Callable[[], type[ModulePass]]]

NAME_WIDTH = 32
SUMMARY_LINES = 2


def summary(item: object) -> str:
    """The first clause of an object's docstring, on one line, without markup."""
    doc = inspect.getdoc(item) or ""
    paragraph = " ".join(doc.split("\n\n")[0].split()).replace("``", "")
    return re.split(r"(?<=[^.])(?:: |; |\. )", paragraph, maxsplit=1)[0].rstrip(".")


def _entry(name: str, text: str, indent: int = 2) -> list[str]:
    """``name`` and ``text`` in two columns, ``text`` wrapped to the terminal's width
    on at most ``SUMMARY_LINES`` lines; a longer name takes a line of its own."""
    columns = max(shutil.get_terminal_size().columns, 80) - 1
    width = columns - indent - NAME_WIDTH
    lines = textwrap.wrap(
        text, width, max_lines=SUMMARY_LINES, placeholder=" …", break_on_hyphens=False
    ) or [""]
    first = f"{' ' * indent}{name.ljust(NAME_WIDTH - 2)}  "
    if len(name) > NAME_WIDTH - 2:
        first = f"{' ' * indent}{name}\n{' ' * (indent + NAME_WIDTH)}"
    rest = [" " * (indent + NAME_WIDTH) + line for line in lines[1:]]
    return [(first + lines[0]).rstrip(), *rest]


def _our_passes() -> dict[str, type[ModulePass]]:
    """The passes of the dialect and of the lowering, by name (loaded now)."""
    found: dict[str, type[ModulePass]] = {name: pass_class(name) for name in PASSES}
    found |= {name: lowering_pass_class(name) for name in LOWERING_PASSES}
    return found


def pass_groups() -> dict[str, dict[str, type[ModulePass]]]:
    """Our passes by group: pipelines, the Relax passes, the lowering."""
    groups: dict[str, dict[str, type[ModulePass]]] = {
        "pipelines": {},
        "Relax passes": {},
        "lowering": {},
    }
    for name, cls in _our_passes().items():
        if issubclass(cls, RunsPasses):
            group = "pipelines"
        elif name in PASSES:
            group = "Relax passes"
        else:
            group = "lowering"
        groups[group][name] = cls
    return groups


def help_epilog(available: Iterable[str]) -> str:
    """The passes section of ``--help``."""
    lines = []
    for title, members in pass_groups().items():
        lines.append(f"{title}:")
        lines += [line for name, cls in members.items() for line in _entry(name, summary(cls))]
        lines.append("")
    others = sum(1 for name in available if name not in PASSES and name not in LOWERING_PASSES)
    lines.append(
        f"xDSL's own {others} passes (canonicalize, cse, dce, ...) work too.\n"
        "--list-passes lists every pass with its options, --list-operators the operators."
    )
    return "\n".join(lines)


def _options(cls: type[ModulePass]) -> list[str]:
    """A pass's options as ``name: type = default`` lines, named as a pipeline
    writes them (``verify-each``)."""
    lines = []
    for option in get_pass_option_infos(cls):
        default = option.default_value
        shown = "" if default is None else f" = {default or chr(34) * 2}"
        kind = option.expected_type.strip("'")
        lines.append(f"      {option.name.replace('_', '-')}: {kind}{shown}")
    return lines


def list_passes(available: PassFactories) -> str:
    """Every pass the tool accepts, ours by group and xDSL's apart, each with its
    description and options (``--list-passes``)."""
    lines = []
    for title, members in pass_groups().items():
        lines.append(f"{title}:")
        for name, cls in members.items():
            lines += [*_entry(name, summary(cls)), *_options(cls)]
        lines.append("")
    lines.append("xDSL's passes:")
    for name, factory in available.items():
        if name in PASSES or name in LOWERING_PASSES:
            continue
        try:
            cls = factory()
        except Exception as error:  # a pass whose optional dependency is missing
            lines += _entry(name, f"(cannot be loaded: {error})")
            continue
        lines += [*_entry(name, summary(cls)), *_options(cls)]
    return "\n".join(lines) + "\n"


def list_operators() -> str:
    """Every operator by family, with its description (``--list-operators``)."""
    from relax_dialect.operator_reference import family_title
    from relax_dialect.ops import operator_families

    lines = []
    for family in operator_families():
        if not family.OPERATIONS:
            continue
        title = family_title(family).replace("``", "").split(" (")[0]
        lines.append(f"{title}:")
        lines += [line for op in family.OPERATIONS for line in _entry(op.name, summary(op))]
        lines.append("")
    return "\n".join(lines)
