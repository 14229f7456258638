"""Reading the arrays of an ``.npz`` archive (``numpy.savez``)."""

from __future__ import annotations

import zipfile

import numpy as np


def read_npz(path: str) -> dict[str, np.ndarray]:
    """The arrays of the archive at ``path``, by name. Raises ``OSError`` or
    ``ValueError`` with a message to show when it cannot be read as one (no
    pickled objects are loaded)."""
    with open(path, "rb") as stream:
        if not zipfile.is_zipfile(stream):
            raise ValueError("not an .npz archive (numpy.savez)")
    try:
        with np.load(path, allow_pickle=False) as data:
            return {key: data[key] for key in data.files}
    except zipfile.BadZipFile as error:
        raise ValueError(f"a damaged .npz archive: {error}") from None
