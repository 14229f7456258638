"""One line for a toolchain tool that crashed, instead of its LLVM stack dump.

A tool killed by a signal (an assertion, a stack-smashing abort in a transform) is reported
as its name, the signal, the innermost MLIR/LLVM function of its backtrace and the kernel it
was working on: the operation the tiling schedule had announced last (each schedule action
emits a `SCHEDULE_REMARK` at the operation it transforms), else the function LLVM names in
its pass stack. ``RELAX_XDSL_TOOLCHAIN_DUMP=1`` appends the tool's whole output.
"""

from __future__ import annotations

import os
import re
import signal

DUMP_VARIABLE = "RELAX_XDSL_TOOLCHAIN_DUMP"
SCHEDULE_REMARK = "relax-xdsl schedule"
"""The remark a schedule action emits at the operation it is about to transform."""

_REMARK = re.compile(
    rf"^[^:\n]+:(?P<line>\d+):\d+: remark: {SCHEDULE_REMARK}: (?P<action>\S+)\n"
    r"(?:.*\n)*?\S+: note: see current operation: (?:%\S+ = )?(?P<op>[^\n]*)",
    re.MULTILINE,
)
_FRAME = re.compile(
    r"^\s*#\d+ 0x[0-9a-f]+ (?P<function>(?:mlir|llvm)::(?!sys::)[\w:<>~]+)", re.MULTILINE
)
_LLVM_FUNCTION = re.compile(r"^\d+\.\s+Running pass '[^']*' on function '@(?P<name>[^']+)'", re.M)
_SYMBOL = re.compile(r'"func\.func"\(\) <\{.*?sym_name = "([^"]+)"')
_OPERANDS = re.compile(r"^(?P<name>[\w.]+).*? ins\((?P<values>[^)]*)\)")


def dump_requested() -> bool:
    return os.environ.get(DUMP_VARIABLE, "") not in ("", "0")


def _signal_name(returncode: int) -> str:
    try:
        return signal.Signals(-returncode).name
    except ValueError:
        return f"signal {-returncode}"


def _operation(text: str) -> str:
    """An operation as the note prints it, shortened to its name and operand types."""
    found = _OPERANDS.match(text)
    if found is None:
        return text.split(" ", 1)[0]
    types = found["values"].split(" : ", 1)[-1] if " : " in found["values"] else ""
    return f"{found['name']} on ({types})" if types else found["name"]


def _function_at(source: str, line: int) -> str:
    """The function of the generic-form ``source`` that holds line ``line`` (1-based)."""
    names = _SYMBOL.findall("\n".join(source.splitlines()[:line]))
    return f"@{names[-1]}: " if names else ""


def kernel_of(stderr: str, source: str = "") -> str | None:
    """What the tool was compiling when it crashed, if its output says (``source``: the
    input it read, to name the function holding the operation)."""
    remarks = list(_REMARK.finditer(stderr))
    if remarks:
        last = remarks[-1]
        function = _function_at(source, int(last["line"]))
        return f"{function}{_operation(last['op'])} (schedule {last['action']})"
    functions = _LLVM_FUNCTION.findall(stderr)
    return f"@{functions[-1]}" if functions else None


def crash_message(tool: str, returncode: int, stderr: str, source: str = "") -> str:
    """The one-line report of ``tool`` killed by signal ``-returncode`` after reading
    ``source`` (its dump appended when `DUMP_VARIABLE` is set)."""
    frame = _FRAME.search(stderr)
    where = f" in {frame['function']}" if frame else ""
    kernel = kernel_of(stderr, source)
    compiling = f" while compiling {kernel}" if kernel else ""
    message = f"{tool} crashed ({_signal_name(returncode)}{where}){compiling}"
    if dump_requested():
        return f"{message}\n{stderr.strip()}"
    return f"{message}; set {DUMP_VARIABLE}=1 for its full output"
