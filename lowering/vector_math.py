"""Transcendental functions at vector width in native code.

``convert-math-to-llvm`` turns ``math.exp``, ``math.log``, ``math.sin``, ``math.cos`` and
``math.powf`` into LLVM intrinsics, which the code generator would call in scalar libm one
element at a time. With glibc's vector math library (libmvec) named to ``opt-22``
(``-vector-library=LIBMVEC``), the loop vectoriser calls its vector variants instead
(``_ZGVdN8v_expf``: eight lanes with AVX2), with libm's special values (glibc tests them:
``exp(-inf) = 0``, ``exp(nan) = nan``, ``log(0) = -inf``...) and at most 4 ulp of error. LLVM 22
maps no other function to libmvec: ``tanh`` and ``erf`` are expanded into arithmetic before
the toolchain instead (``math_approximation``). MLIR's own ``math-polynomial-approximation``
is a test pass that release builds of ``mlir-opt-22`` do not register.
"""

from __future__ import annotations

import ctypes.util
import functools

VECTOR_LIBRARY = "LIBMVEC"


@functools.cache
def has_libmvec() -> bool:
    """Whether the C library ships libmvec (glibc on x86-64 and AArch64)."""
    return ctypes.util.find_library("mvec") is not None


def vectoriser_flags() -> tuple[str, ...]:
    """``opt-22`` flags naming the vector math library, when there is one."""
    return (f"-vector-library={VECTOR_LIBRARY}",) if has_libmvec() else ()


def link_flags() -> tuple[str, ...]:
    """What the link of a module needs for the vector functions ``opt-22`` calls."""
    return ("-lmvec",) if has_libmvec() else ()
