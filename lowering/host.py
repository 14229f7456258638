"""The host: its CPU's vector registers, which size the tiling schedule's register tile and
the masked loads handed to the code generator, and its memory, which bounds native runs."""

from __future__ import annotations

import functools
import os
import re
from pathlib import Path


@functools.cache
def vector_register_bytes() -> int:
    """The width of the host's vector registers: 64 with AVX-512, 32 with AVX, else 16."""
    try:
        cpuinfo = Path("/proc/cpuinfo").read_text()
    except OSError:
        return 16
    flags = re.search(r"^flags\s*:(.*)$", cpuinfo, re.MULTILINE)
    features = set(flags.group(1).split()) if flags else set()
    return 64 if "avx512f" in features else 32 if "avx" in features else 16


def vector_registers() -> int:
    """How many vector registers the host has: 32 with AVX-512, else 16."""
    return 32 if vector_register_bytes() == 64 else 16


def default_memory_limit() -> int:
    """The bytes a native call may hold by default: half of the machine's memory."""
    try:
        return os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE") // 2
    except (ValueError, OSError):
        return 0
