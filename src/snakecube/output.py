"""Files for people: written whole or not at all, and only where they were named.

Every file snakecube writes for a person (pictures, viewers, CSV tables) goes through
:func:`write_file`. What happens depends on what the name is:

* a **regular file**, or nothing yet: the content is written to a short temporary name in the
  same directory and renamed into place, so Ctrl-C or an error never leaves half a file, and
  a long (legal) file name never fails because of the temporary name. A symbolic link to a
  regular file is followed: the file it names is replaced, the link stays.
* a **character device or a FIFO** (``/dev/stdout``, ``/dev/null``, a named pipe, or a link to
  one, such as ``/proc/self/fd/1``): the content is made in a temporary file elsewhere, then
  written into the device in place, never replacing it. A stop signal between chunks waits
  for the chunk (so a CSV reaches a pipe as whole rows); a second one stops at once.
* anything else (a directory, a block device, a socket): refused with one line, untouched.

Every ``OSError`` (a full disk, a read-only directory, a missing permission) becomes an
:class:`~snakecube.errors.InputError` naming the path, which the tool prints as one line.
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path

from snakecube import stop
from snakecube.errors import InputError

CHUNK = 1 << 16  # bytes written to a device at a time, cut after a newline where there is one
_MAX_LINKS = 40  # as the kernel's own limit on a chain of symbolic links


def write_file(path: str | Path, write: Callable[[Path], object]) -> Path:
    """Call ``write(tmp)`` with a temporary path, then put its content at ``path``.

    The temporary name keeps the extension (renderers read it) when it is short.
    """
    path, name, kind, where = _destination(path)
    suffix = path.suffix if 0 < len(path.suffix) <= 10 else ""
    if kind == "device":
        return _write_in_place(path, name, suffix, write)
    tmp = _temporary(where, name, suffix)
    try:
        _written(write, tmp, name)
        os.chmod(tmp, _mode(where))
        os.replace(tmp, where)
    except OSError as err:
        raise InputError(f"cannot write {name}: {err.strerror or err}") from None
    finally:
        with contextlib.suppress(OSError):
            tmp.unlink()
    return path


def check_writable(path: str | Path) -> None:
    """An InputError now if :func:`write_file` could not write ``path`` (no such folder, a
    folder not writable, a name that is no file's): commands check before the work that
    makes the content. A name with a control character (a newline, a tab) is refused too:
    legal, but a slip of the shell far more often than a wish. A file that can be written is
    left as it was."""
    path, name, kind, where = _destination(path)
    if any(ord(ch) < 32 or ord(ch) == 127 for ch in path.name):
        raise InputError(
            f"cannot write {name}: a file name with a control character (a "
            "newline, a tab) is most likely a slip; name it without one"
        )
    if kind == "device":
        if not os.access(where, os.W_OK):
            raise InputError(f"cannot write {name}: permission denied")
        return
    _temporary(where, name, "").unlink()


def _destination(path: str | Path) -> tuple[Path, str, str, Path]:
    """``path`` as a Path, its name for messages, what it names (``file`` or ``device``, see
    :func:`_kind`) and the path to write; an InputError for anything snakecube cannot write."""
    if not isinstance(path, str | Path):
        raise TypeError(f"a file name is a str or Path, not {type(path).__name__}")
    path = Path(path)
    name = repr(str(path))
    if "\0" in str(path):
        raise InputError(f"cannot write {name}: a file name cannot contain a NUL character")
    if path.name in ("", ".", ".."):
        raise InputError(f"cannot write {name}: that is not a file name")
    try:
        kind, where = _kind(path)
    except OSError as err:
        raise InputError(f"cannot write {name}: {err.strerror or err}") from None
    if kind not in ("file", "device"):
        raise InputError(
            f"cannot write {name}: it is {kind}; snakecube writes regular files, "
            "character devices and FIFOs"
        )
    if kind == "file" and not where.parent.is_dir():
        raise InputError(f"cannot write {name}: there is no folder {str(where.parent)!r}")
    return path, name, kind, where


def _temporary(where: Path, name: str, suffix: str) -> Path:
    """A new empty file beside ``where``, to write and then rename over it."""
    try:
        fd, tmp_name = tempfile.mkstemp(dir=where.parent, prefix=".snakecube-", suffix=suffix)
        os.close(fd)
    except OSError as err:
        raise InputError(f"cannot write {name}: {err.strerror or err}") from None
    return Path(tmp_name)


def _written(write: Callable[[Path], object], tmp: Path, name: str) -> None:
    """Call ``write(tmp)``. A renderer may hide a full disk behind its own exception
    (matplotlib's PDF writer raises zlib.error after the OSError): that is still the disk's
    fault, said as such, not a bug."""
    try:
        write(tmp)
    except OSError:
        raise
    except Exception as err:
        cause: BaseException | None = err
        while cause is not None and not isinstance(cause, OSError):
            cause = cause.__cause__ or cause.__context__
        if isinstance(cause, OSError):
            raise InputError(f"cannot write {name}: {cause.strerror or cause}") from None
        try:
            full = os.statvfs(tmp.parent).f_bavail == 0
        except OSError:
            full = False
        if full:
            raise InputError(f"cannot write {name}: No space left on device") from None
        raise


def _kind(path: Path) -> tuple[str, Path]:
    """What ``path`` names, following symbolic links: ``file`` (a regular file, or nothing
    yet) with the path to replace, ``device`` (a character device or FIFO), or a description
    of anything else."""
    where = path
    for _ in range(_MAX_LINKS):
        try:
            st = os.lstat(where)
        except FileNotFoundError:
            return "file", where  # a new file (through a dangling link: its target)
        if stat.S_ISLNK(st.st_mode):
            if _under_proc(where):
                return "device", path  # /proc/self/fd/N: the kernel resolves it on open
            target = Path(os.readlink(where))
            where = target if target.is_absolute() else where.parent / target
            continue
        if stat.S_ISREG(st.st_mode):
            return "file", where
        if stat.S_ISCHR(st.st_mode) or stat.S_ISFIFO(st.st_mode):
            return "device", where
        if stat.S_ISDIR(st.st_mode):
            return "a directory", where
        if stat.S_ISBLK(st.st_mode):
            return "a block device", where
        if stat.S_ISSOCK(st.st_mode):
            return "a socket", where
        return "not a regular file", where
    raise OSError(40, "Too many levels of symbolic links")


def _mode(path: Path) -> int:
    """The permissions a replaced file keeps, or a new file's (0666 less the umask), not the
    temporary file's 0600."""
    try:
        return stat.S_IMODE(os.stat(path).st_mode)
    except FileNotFoundError:
        mask = os.umask(0)
        os.umask(mask)
        return 0o666 & ~mask


def _under_proc(path: Path) -> bool:
    return path.is_absolute() and path.parts[1:2] == ("proc",)


def _write_in_place(path: Path, name: str, suffix: str, write: Callable[[Path], object]) -> Path:
    """Make the content in a temporary file, then write it into the device named ``path``."""

    with tempfile.TemporaryDirectory(prefix="snakecube-") as folder:
        tmp = Path(folder) / f"out{suffix}"
        try:
            _written(write, tmp, name)
            with tmp.open("rb") as src, open(path, "wb", buffering=0) as dst:
                rest = b""
                while chunk := rest + src.read(CHUNK):
                    cut = chunk.rfind(b"\n") + 1 or len(chunk)
                    rest = chunk[cut:]
                    with stop.deferred():
                        view = memoryview(chunk)[:cut]
                        while view:
                            view = view[dst.write(view) or 0 :]
        except OSError as err:
            raise InputError(f"cannot write {name}: {err.strerror or err}") from None
    return path


# -- the census store's files: bytes, on disk before the rename, an OSError naming the path --
# One module writes every file whole: what people asked for (write_file, above) and the store's
# files (here, where a failure is the store's to report, not bad input).


def write_atomic(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` through a temporary file in the same directory. An error
    is an OSError naming ``path`` (a full disk, a read-only directory, no permission)."""
    tmp = _write_temp(path, data)
    with _removed_on_error(tmp, path):
        os.replace(tmp, path)


def write_new(path: Path, data: bytes) -> bool:
    """Write ``data`` to ``path`` whole, unless ``path`` exists; False if it did."""
    tmp = _write_temp(path, data)
    try:
        os.link(tmp, path)  # fails if path exists, and the file appears whole
        return True
    except FileExistsError:
        return False
    except OSError as err:
        if err.errno not in (errno.EPERM, errno.ENOTSUP, errno.EOPNOTSUPP, errno.ENOSYS):
            raise _naming(err, path) from None
        # No hard links on this file system: create it exclusively, then write it.
        try:
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
        except FileExistsError:
            return False
        except OSError as err2:
            raise _naming(err2, path) from None
        try:
            with os.fdopen(fd, "wb") as f:
                f.write(data)
        except OSError as err2:
            raise _naming(err2, path) from None
        return True
    finally:
        with contextlib.suppress(OSError):
            os.unlink(tmp)


def _write_temp(path: Path, data: bytes) -> str:
    """A new temporary file beside ``path`` holding ``data``, on disk; its name."""
    try:
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".", suffix=".tmp")
    except OSError as err:
        raise _naming(err, path) from None
    with _removed_on_error(tmp, path), os.fdopen(fd, "wb") as f:
        f.write(data)
        f.flush()
        os.fsync(f.fileno())
    return tmp


@contextlib.contextmanager
def _removed_on_error(tmp: str, path: Path) -> Iterator[None]:
    """On any error inside, remove ``tmp``; an OSError is raised again naming ``path``."""
    try:
        yield
    except BaseException as err:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        if isinstance(err, OSError):
            raise _naming(err, path) from None
        raise


def _naming(err: OSError, path: Path) -> OSError:
    """``err`` (same errno and strerror) naming ``path``, the file that was being written."""
    return OSError(err.errno, err.strerror or str(err), str(path))
