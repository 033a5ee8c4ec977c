"""Writing output files so that nothing is ever half-written.

Every file the tool writes goes through :func:`write_atomic`: the text goes to a temporary
file beside the target, is flushed to disk, and is renamed over the target only when
complete.  An error, a full disk or Ctrl-C leaves the old file (or none) and no temporary
file.  Targets that are not regular files (``/dev/stdout``, a named pipe, ``/dev/full``)
cannot be renamed over and are written directly.  Every failure is an :class:`OutputError`
with a one-line message.
"""

from __future__ import annotations

import os
import stat
import tempfile
from pathlib import Path


class OutputError(Exception):
    """An output that cannot be written; the message is one line naming the file."""


def describe(error: OSError) -> str:
    """`No space left on device`, not `[Errno 28] ...`."""
    return error.strerror or (os.strerror(error.errno) if error.errno else str(error)) or type(error).__name__


def _special(path: Path) -> bool:
    try:
        return not stat.S_ISREG(os.stat(path).st_mode)
    except OSError:
        return False


def write_atomic(path: str | Path, text: str | bytes) -> None:
    """Write ``text`` to ``path`` completely or not at all (see the module docstring)."""
    path = Path(path)
    data = text.encode("utf-8") if isinstance(text, str) else text
    if _special(path):
        if path.is_dir():
            raise OutputError(f"cannot write {path}: it is a folder")
        try:
            with open(path, "wb") as f:
                f.write(data)
        except OSError as e:
            raise OutputError(f"cannot write {path}: {describe(e)}") from None
        return
    folder = path.parent if str(path.parent) else Path(".")
    try:
        tmp = _write_temporary(folder, f".{path.name}.", data)
        try:
            os.chmod(tmp, _mode_for(path))
            os.replace(tmp, path)
        except BaseException:
            _remove(tmp)
            raise
    except OSError as e:
        raise OutputError(f"cannot write {path}: {describe(e)}") from None


def _mode_for(path: Path) -> int:
    """The permissions the file should end with: those of the file it replaces, else what
    the umask gives a new file (the temporary file itself is private, rw-------)."""
    try:
        return stat.S_IMODE(os.stat(path).st_mode)
    except OSError:
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask


def _write_temporary(folder: Path, prefix: str, data: bytes) -> str:
    """A new file in ``folder`` holding ``data``, flushed to disk: its path.  On any error
    (Ctrl-C included) it is removed again."""
    fd, tmp = tempfile.mkstemp(prefix=prefix, suffix=".tmp", dir=folder)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
    except BaseException:
        _remove(tmp)
        raise
    return tmp


def _remove(path: str) -> None:
    try:
        os.unlink(path)
    except OSError:
        pass


def check_writable_file(path: str | Path, option: str) -> None:
    """Fail at once (before any work) when ``path`` cannot be written: a missing or read-only
    folder, a folder in its place."""
    path = Path(path)
    if path.is_dir():
        raise OutputError(f"{option} {path}: is a folder, not a file")
    if _special(path):
        if not os.access(path, os.W_OK):
            raise OutputError(f"{option} {path}: cannot write: Permission denied")
        return
    folder = path.parent if str(path.parent) else Path(".")
    if not folder.is_dir():
        raise OutputError(f"{option} {path}: no such folder {folder}")
    _probe(folder, f"{option} {path}")


def check_writable_folder(path: str | Path, option: str, create: bool = True) -> Path:
    """The folder ``path``, created if asked; OutputError at once if it cannot be written."""
    path = Path(path)
    if path.exists() and not path.is_dir():
        raise OutputError(f"{option} {path}: not a folder")
    if not path.exists():
        if not create:
            raise OutputError(f"{option} {path}: no such folder")
        try:
            path.mkdir(parents=True)
        except OSError as e:
            raise OutputError(f"{option} {path}: cannot create the folder: {describe(e)}") from None
    _probe(path, f"{option} {path}")
    return path


def _probe(folder: Path, what: str) -> None:
    """Write, flush and remove a small temporary file: the honest test that writing will
    work (a read-only folder, a full disk)."""
    try:
        _remove(_write_temporary(folder, ".tablerules-probe-", b"\0" * 4096))
    except OSError as e:
        raise OutputError(f"{what}: cannot write there: {describe(e)}") from None
