"""Deterministic inputs for the differential test of the TVMScript corpus.

Needs only NumPy, so both sides of the differential test (our frontend and TVM, see
``tvm_oracle.py``) share it: each side reads the entry function's tensor parameters from its
own IR, evaluates their shapes with the sizes of the ``# run:`` line, and passes
``(name, shape, dtype)`` triples to :func:`generate_inputs`.

A corpus program that can be run has a comment line::

    # run: main n=3 m=5

naming the entry function, then a value for each symbolic variable of the parameters'
shapes. Every parameter of a runnable entry function is a tensor with a known shape.

The values drawn for a parameter depend only on the seed, the parameter's name, shape and data
type (never on the other parameters):

* floating point: standard normal;
* signed and unsigned integers: uniform in ``[0, 4)`` (small, non-negative, so that they are
  valid indices into axes of length 4 or more and valid shift amounts; a program that wants
  negative values subtracts a constant);
* ``bool``: uniform ``True``/``False``.
"""

from __future__ import annotations

import re
import zlib
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

#: One tensor parameter: its name, its shape (integers only) and its data type, e.g.
#: ``("x", (3, 4), "float32")``.
TensorParam = tuple[str, tuple[int, ...], str]

INT_LOW = 0
INT_HIGH = 4  # exclusive

_RUN_LINE = re.compile(r"^#\s*run:\s*(?P<spec>.*?)\s*$", re.MULTILINE)
_SIZE = re.compile(r"^(?P<name>[A-Za-z_]\w*)=(?P<value>-?\d+)$")


@dataclass(frozen=True)
class RunSpec:
    """What a ``# run:`` line says: the entry function and the symbolic sizes."""

    entry: str
    sizes: dict[str, int] = field(default_factory=dict)


def parse_run_spec(text: str) -> RunSpec | None:
    """The run spec of a corpus program's source ``text``, or ``None`` if it has no
    ``# run:`` line. Raises ``ValueError`` on a malformed line or on more than one."""
    lines = _RUN_LINE.findall(text)
    if not lines:
        return None
    if len(lines) > 1:
        raise ValueError("more than one '# run:' line")
    words = lines[0].split()
    if not words or not words[0].isidentifier():
        raise ValueError(f"'# run:' line without an entry function: {lines[0]!r}")
    sizes: dict[str, int] = {}
    for word in words[1:]:
        match = _SIZE.match(word)
        if match is None:
            raise ValueError(f"bad size {word!r} in '# run:' line (expected name=integer)")
        sizes[match["name"]] = int(match["value"])
    return RunSpec(words[0], sizes)


def read_run_spec(path: str | Path) -> RunSpec | None:
    """The run spec of the corpus file at ``path`` (see :func:`parse_run_spec`)."""
    return parse_run_spec(Path(path).read_text())


def _rng(seed: int, name: str) -> np.random.Generator:
    return np.random.default_rng([seed, zlib.crc32(name.encode())])


def generate_tensor(name: str, shape: Sequence[int], dtype: str, seed: int = 0) -> np.ndarray:
    """The input for one tensor parameter (see the module docstring for the distributions)."""
    shape = tuple(int(d) for d in shape)
    if any(d < 0 for d in shape):
        raise ValueError(f"parameter {name!r}: negative dimension in {shape}")
    rng = _rng(seed, f"{name}:{shape}:{dtype}")
    np_dtype = np.dtype(dtype)
    if np_dtype == np.bool_:
        values = rng.integers(0, 2, size=shape).astype(np.bool_)
    elif np.issubdtype(np_dtype, np.integer):
        values = rng.integers(INT_LOW, INT_HIGH, size=shape).astype(np_dtype)
    elif np.issubdtype(np_dtype, np.floating):
        values = rng.standard_normal(size=shape).astype(np_dtype)
    else:
        raise ValueError(f"parameter {name!r}: no input generator for data type {dtype!r}")
    return np.asarray(values, dtype=np_dtype)


def generate_inputs(params: Sequence[TensorParam], seed: int = 0) -> dict[str, np.ndarray]:
    """Inputs for the tensor parameters ``params``, keyed by parameter name."""
    inputs: dict[str, np.ndarray] = {}
    for name, shape, dtype in params:
        if name in inputs:
            raise ValueError(f"duplicate parameter name {name!r}")
        inputs[name] = generate_tensor(name, shape, dtype, seed)
    return inputs
