"""Files that survive anything: bounded reads, atomic writes, a lock per file, and
validated ``.npz`` loading.

Every file the program reads may be empty, truncated, another kind of file, a device
(``/dev/zero``) or hostile (a pickle); every file it writes may be cut by ``kill -9`` or a
full disk. So:

- :func:`read_text` reads at most a given number of bytes, decoded leniently;
- :func:`atomic_write` writes a temporary file in the target's folder and renames it over
  the target (``os.replace``) only once it is complete: the target is always either the
  old file or the new one. The temporary file is removed on failure, and one left by a
  killed process (its name holds the writer's process id) is removed by the next write;
  a Ctrl-C during the write takes effect once the file is in place;
- :func:`file_lock` keeps two processes from writing one file at once;
- :func:`load_npz` reads a ``.npz`` archive without pickles and checks each array's
  presence, kind and number of dimensions.

Each failure is a :class:`FileError` whose message names the file and what is wrong with
it; the command line prints it as ``bitgames: error: FILE: what is wrong``.

>>> import tempfile, numpy as np
>>> folder = Path(tempfile.mkdtemp())
>>> with atomic_write(folder / "t.npz") as f:
...     np.savez(f, n=np.arange(3))
>>> load_npz(folder / "t.npz", "table", {"n": ("i", 1)})["n"].tolist()
[0, 1, 2]
>>> _ = (folder / "bad.npz").write_bytes(b"")
>>> load_npz(folder / "bad.npz", "table", {"n": ("i", 1)})
Traceback (most recent call last):
...
bitgames.core.files.FileError: .../bad.npz: table: the file is empty
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import io
import os
import time
import zipfile
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import IO

import numpy as np

from bitgames.core.engine import uninterrupted
from bitgames.core.errors import BitgamesError

__all__ = ["FileError", "atomic_write", "file_lock", "load_npz", "read_text"]


class FileError(BitgamesError):
    """A file that cannot be read or written; the message starts with its path."""


def _fail(path: str | Path, what: str, problem: str) -> FileError:
    return FileError(f"{path}: {what}: {problem}")


def _os_problem(exc: OSError) -> str:
    if isinstance(exc, FileNotFoundError):
        return "no such file"
    if isinstance(exc, IsADirectoryError):
        return "is a folder, not a file"
    if isinstance(exc, PermissionError):
        return "permission denied"
    return exc.strerror or str(exc)


def read_text(path: str | Path, max_bytes: int, what: str = "file") -> str:
    """The text of ``path`` (UTF-8, bad bytes replaced) if it holds at most ``max_bytes``
    bytes; :class:`FileError` otherwise. Reads no more than that, so a device that never
    ends (``/dev/zero``) or a huge file costs nothing.

    >>> read_text("/dev/zero", 10, "SGF file")
    Traceback (most recent call last):
    ...
    bitgames.core.files.FileError: /dev/zero: SGF file: longer than 10 bytes
    """
    try:
        with open(path, "rb") as f:
            data = f.read(max_bytes + 1)
    except OSError as exc:
        raise _fail(path, what, _os_problem(exc)) from None
    if len(data) > max_bytes:
        raise _fail(path, what, f"longer than {max_bytes} bytes")
    return data.decode("utf-8", "replace")


# -- writing ------------------------------------------------------------------------------------

_TMP_MARK = ".tmp-"


def _temp_name(path: Path) -> Path:
    return path.with_name(f".{path.name}{_TMP_MARK}{os.getpid()}")


def _remove_stale_temps(path: Path) -> None:
    """Remove the temporary files of ``path`` left by writers that are no longer alive."""
    prefix = f".{path.name}{_TMP_MARK}"
    try:
        names = os.listdir(path.parent)
    except OSError:
        return
    for name in names:
        pid = name[len(prefix):]
        if not name.startswith(prefix) or not pid.isascii() or not pid.isdigit():
            continue
        if int(pid) != os.getpid() and _alive(int(pid)):
            continue
        with contextlib.suppress(OSError):
            os.unlink(path.parent / name)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # someone else's process: alive
        return True
    return True


@contextlib.contextmanager
def atomic_write(path: str | Path, what: str = "file") -> Iterator[IO[bytes]]:
    """A binary file to write ``path`` through: the data goes to a temporary file in the
    same folder, flushed to disk and renamed over ``path`` when the block ends without an
    error; on an error (a full disk) the temporary file is removed and ``path`` is left
    as it was. A Ctrl-C meanwhile waits until the new file is in place
    (:func:`bitgames.core.engine.uninterrupted`: numpy's zip writer, stopped midway,
    cannot even close its archive). Temporary files left by killed writers are removed
    first.
    An ``OSError`` becomes a :class:`FileError` naming ``path``.

    >>> import tempfile
    >>> target = Path(tempfile.mkdtemp()) / "out.bin"
    >>> with atomic_write(target) as f:
    ...     _ = f.write(b"new")
    >>> target.read_bytes(), sorted(p.name for p in target.parent.iterdir())
    (b'new', ['out.bin'])
    """
    path = Path(path)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        _remove_stale_temps(path)
        tmp = _temp_name(path)
        f = open(tmp, "wb")  # noqa: SIM115 - closed below, before the rename
    except OSError as exc:
        raise _fail(path, what, f"cannot write: {_os_problem(exc)}") from None
    with uninterrupted():
        try:
            with f:
                yield f
                f.flush()
                os.fsync(f.fileno())
            os.replace(tmp, path)
        except OSError as exc:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
            raise _fail(path, what, f"cannot write: {_os_problem(exc)}") from None
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
            raise


@contextlib.contextmanager
def file_lock(path: str | Path, timeout: float = 60.0, what: str = "file") -> Iterator[None]:
    """Hold an exclusive lock for writing ``path`` (on ``path`` + ``.lock``) for the
    block, waiting up to ``timeout`` seconds for another process to release it
    (:class:`FileError` then). The lock file is left in place: removing it would let a
    third process lock a new file while the second still holds the old one.

    >>> import tempfile
    >>> target = Path(tempfile.mkdtemp()) / "book.npz"
    >>> with file_lock(target):
    ...     pass
    """
    path = Path(path)
    lock = path.with_name(path.name + ".lock")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(lock, os.O_RDWR | os.O_CREAT, 0o644)
    except OSError as exc:
        raise _fail(path, what, f"cannot lock: {_os_problem(exc)}") from None
    try:
        deadline = time.monotonic() + timeout
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except OSError as exc:
                if exc.errno not in (errno.EAGAIN, errno.EACCES):
                    raise _fail(path, what, f"cannot lock: {_os_problem(exc)}") from None
                if time.monotonic() >= deadline:
                    raise _fail(path, what, f"another process has held it locked for "
                                f"{timeout:g} s ({lock})") from None
                time.sleep(0.05)
        yield
    finally:
        os.close(fd)  # closing releases the lock


# -- reading .npz archives ----------------------------------------------------------------------

#: what an array must be: its dtype kind (``"i"`` signed, ``"u"`` unsigned, ``"iu"`` either,
#: ``"f"``, ``"U"``, ...) and its number of dimensions (``None``: any)
Spec = Mapping[str, tuple[str, int | None]]


def load_npz(source: str | Path | bytes, what: str, spec: Spec,
             optional: Spec | None = None, prefix: str | None = None,
             ) -> dict[str, np.ndarray]:
    """The arrays of a ``.npz`` archive (a path, or its bytes), each checked against
    ``spec`` (required) or ``optional`` (checked when present), and with ``prefix`` every
    other array whose name starts with it; :class:`FileError` naming the file, ``what`` it
    should be, and the problem: missing, empty, truncated or damaged, not an ``.npz``
    archive, a missing array, an array of the wrong kind or shape, or pickled data (never
    loaded: a pickle can run code).
    """
    name = "<bytes>" if isinstance(source, bytes) else str(source)
    if isinstance(source, bytes):
        data = source
    else:
        try:
            with open(source, "rb") as f:
                data = f.read()
        except OSError as exc:
            raise _fail(name, what, _os_problem(exc)) from None
    if not data:
        raise _fail(name, what, "the file is empty")
    if not zipfile.is_zipfile(io.BytesIO(data)):
        raise _fail(name, what, "not an .npz archive (no zip directory: a truncated or "
                                "different file)")
    out: dict[str, np.ndarray] = {}
    try:
        with np.load(io.BytesIO(data), allow_pickle=False) as archive:
            files = set(archive.files)
            for key, need in [*spec.items(), *(optional or {}).items()]:
                if key not in files:
                    if key in spec:
                        raise _fail(name, what, f"no array {key!r} in it")
                    continue
                array = archive[key]
                kinds, ndim = need
                if array.dtype.kind not in kinds or (ndim is not None and array.ndim != ndim):
                    raise _fail(name, what, f"array {key!r} is {array.dtype} with shape "
                                f"{array.shape}, expected kind {kinds!r} with "
                                f"{ndim} dimension(s)")
                out[key] = array
            for key in sorted(files - set(out)):
                if prefix is not None and key.startswith(prefix):
                    out[key] = archive[key]
    except FileError:
        raise
    except ValueError as exc:
        if "pickle" in str(exc):
            raise _fail(name, what, "holds pickled (object) data, which is never loaded"
                        ) from None
        raise _fail(name, what, f"damaged ({exc})") from None
    except Exception as exc:  # zlib.error, BadZipFile, EOFError, struct.error, ...
        raise _fail(name, what, f"damaged or truncated ({type(exc).__name__}: {exc})"
                    ) from None
    return out
