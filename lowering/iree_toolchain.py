"""IREE: lowered MLIR → a VM module (``.vmfb``) for the host CPU → calls with NumPy values.

``iree-compile`` (located through ``iree.compiler``) compiles for IREE's local ``llvm-cpu``
device and the host CPU, keeping ``f64`` (IREE demotes it to ``f32`` by default); it runs
under a time limit, and the module is cached under ``$XDG_CACHE_HOME/relax-xdsl`` by a hash
of the text, the flags and the compiler's version. ``iree.runtime`` loads it on a local
device: ``local-task`` (a thread pool) or ``local-sync`` (the calling thread). A failed
``cf.assert`` is a ``LoweredCheckError`` carrying the assertion's ``FILE:LINE:COL:
message``.
"""

from __future__ import annotations

import functools
import hashlib
import json
import subprocess
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from relax_dialect.instrumentation import report, stage

from .disk_cache import CACHE_HIT, cache_dir, write_atomic
from .interpreter import LoweredCheckError, LoweredExecutionError
from .toolchain import ToolchainError, ToolchainMissing

INSTALL_COMMAND = "pip install 'relax-xdsl[iree]'"
COMPILE_FLAGS = (
    "--iree-hal-target-device=local",
    "--iree-hal-local-target-device-backends=llvm-cpu",
    "--iree-llvmcpu-target-cpu=host",
    "--iree-input-demote-f64-to-f32=false",
)
COMPILE_TIMEOUT = 600
"""Seconds ``iree-compile`` may take on one module before the compilation is abandoned."""
COMPILE_STAGE = "iree compile"
DEVICE = "local-task"
"""The runtime device modules run on unless the caller asks for another."""
_FAILED_CHECK = "<vm>:0: FAILED_PRECONDITION; "
"""What precedes a failed ``cf.assert``'s message in IREE's status text (the runtime's own
failed preconditions name its C source instead of ``<vm>``)."""


def find_iree_compile() -> str:
    """The path of ``iree-compile``; ``ToolchainMissing`` says how to install IREE."""
    try:
        import iree.runtime  # noqa: F401  (the runtime must be there too)
        from iree.compiler.tools.binaries import find_tool
    except ImportError:
        raise ToolchainMissing(
            "IREE is not installed (the packages iree-base-compiler and iree-base-runtime); "
            f"install it with `{INSTALL_COMMAND}`"
        ) from None
    return find_tool("iree-compile")


@functools.cache
def _compiler_version(iree_compile: str) -> str:
    return subprocess.run([iree_compile, "--version"], capture_output=True, text=True).stdout


def compile_vmfb(mlir_text: str) -> bytes:
    """The IREE VM module of upstream MLIR on tensors (cached on disk); a
    ``ToolchainError`` carries ``iree-compile``'s diagnostics, or says it timed out."""
    iree_compile = find_iree_compile()
    key_source = json.dumps([mlir_text, COMPILE_FLAGS, _compiler_version(iree_compile)])
    path = cache_dir() / f"{hashlib.sha256(key_source.encode()).hexdigest()[:32]}.vmfb"
    if path.exists():
        report(CACHE_HIT, 1)
        return path.read_bytes()
    from iree.compiler.tools.binaries import find_tool

    linker = f"--iree-llvmcpu-embedded-linker-path={find_tool('iree-lld')}"
    argv = [iree_compile, "-", *COMPILE_FLAGS, linker, "-o", "-"]
    with stage(COMPILE_STAGE):
        try:
            done = subprocess.run(
                argv, input=mlir_text.encode(), capture_output=True, timeout=COMPILE_TIMEOUT
            )
        except subprocess.TimeoutExpired:
            raise ToolchainError(
                f"iree-compile did not finish within {COMPILE_TIMEOUT} s; abandoned"
            ) from None
    if done.returncode:
        diagnostics = done.stderr.decode(errors="replace").strip()
        raise ToolchainError(f"iree-compile failed (exit {done.returncode}):\n{diagnostics}")
    write_atomic(path, done.stdout)
    return done.stdout


@functools.cache
def _config(device: str) -> Any:
    """The runtime's configuration on ``device``, made once per process."""
    import iree.runtime as rt

    return rt.Config(device)


class IreeModule:
    """A compiled module: call its public functions with flattened NumPy values."""

    def __init__(
        self, vmfb: bytes, imports: Callable[[Any], Any] | None = None, device: str = DEVICE
    ):
        """``imports(device)``: the VM module the compiled one imports functions from."""
        import iree.runtime as rt

        config = _config(device)
        modules = [*config.default_vm_modules]
        if imports is not None:
            modules.append(imports(config.device))
        modules.append(rt.VmModule.copy_buffer(config.vm_instance, vmfb))
        self._context = rt.SystemContext(vm_modules=modules, config=config)
        self._functions = self._context.modules.module

    def call(self, name: str, args: Sequence[Any]) -> list[Any]:
        """Run ``@name``: tensors are NumPy arrays, scalars numbers (flattened)."""
        try:
            results = self._functions[name](*map(_argument, args))
        except (RuntimeError, ValueError) as error:  # ValueError: an ABI check failed
            message = str(error).removeprefix("Error invoking function: ")
            if _FAILED_CHECK in message:
                check = message.split(_FAILED_CHECK, 1)[1].splitlines()[0].rstrip("; ")
                raise LoweredCheckError(check) from None
            raise LoweredExecutionError(f"IREE: {message.splitlines()[0]}") from None
        if not isinstance(results, tuple):
            results = () if results is None else (results,)
        return [_result(result) for result in results]


def _argument(value: Any) -> Any:
    """A flattened value as IREE takes it: a contiguous array (unsigned integers seen as
    the signless ones of the lowered types), or a Python number."""
    if isinstance(value, np.ndarray):
        array = value if value.flags.c_contiguous else value.copy()
        if array.dtype.kind == "u":
            array = array.view(f"i{array.dtype.itemsize}")
        return array
    if isinstance(value, bool | np.bool_ | int | np.integer):
        return int(value)
    return float(value)  # pyright: ignore[reportArgumentType]


def _result(value: Any) -> Any:
    """An IREE result as a NumPy array (copied off the device) or a Python number."""
    if hasattr(value, "to_host"):
        return np.array(value.to_host())
    return value
