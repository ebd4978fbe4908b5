"""Files for people: written whole or not at all.

Every file snakecube writes for a person (pictures, viewers, CSV tables) goes through
:func:`write_file`: the content is written to a short temporary name in the same directory
and renamed into place, so Ctrl-C or an error never leaves half a file, and a long (legal)
file name never fails because of the temporary name.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Callable
from pathlib import Path

from snakecube.errors import InputError


def write_file(path: str | Path, write: Callable[[Path], object]) -> Path:
    """Call ``write(tmp)`` with a temporary path beside ``path``, then rename it to ``path``.

    The temporary name keeps the extension (renderers read it) when it is short.
    """
    if not isinstance(path, str | Path):
        raise TypeError(f"a file name is a str or Path, not {type(path).__name__}")
    path = Path(path)
    name = repr(str(path))
    if "\0" in str(path):
        raise InputError(f"cannot write {name}: a file name cannot contain a NUL character")
    if path.name in ("", ".", ".."):
        raise InputError(f"cannot write {name}: that is not a file name")
    suffix = path.suffix if 0 < len(path.suffix) <= 10 else ""
    try:
        fd, tmp_name = tempfile.mkstemp(dir=path.parent, prefix=".snakecube-", suffix=suffix)
        os.close(fd)
    except OSError as err:
        raise InputError(f"cannot write {name}: {err.strerror or err}") from None
    tmp = Path(tmp_name)
    try:
        write(tmp)
        os.replace(tmp, path)
    except OSError as err:
        raise InputError(f"cannot write {name}: {err.strerror or err}") from None
    finally:
        with contextlib.suppress(OSError):
            tmp.unlink()
    return path
