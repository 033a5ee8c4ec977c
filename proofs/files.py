"""Writing output files so that nothing is ever half-written, and no folder is left empty.

Every file the tool writes goes through :func:`write_atomic`: the text goes to a temporary
file beside the target, is flushed to disk, and is renamed over the target only when
complete.  An error, a full disk or Ctrl-C leaves the old file (or none) and no temporary
file.  A target must be a regular file or a new path: a named pipe would make the run wait
for a reader for ever, and a device (``/dev/stdout``, ``/dev/full``) is no file to keep.
The folders a target lacks are made when it is written, and removed again if the write
fails; :func:`check_writable_folder` checks a folder can be made without making it, so a run
that stops before it writes (a signal, a full disk, an error) leaves no empty folder behind.
Every failure is an :class:`OutputError` with a one-line message.
"""

from __future__ import annotations

import errno
import os
import shutil
import stat
import tempfile
from contextlib import contextmanager
from pathlib import Path
from typing import Callable, Iterator

from tablerules.spec.files import file_kind


class OutputError(Exception):
    """An output that cannot be written; the message is one line naming the file."""


def describe(error: OSError) -> str:
    """`No space left on device`, not `[Errno 28] ...`."""
    return error.strerror or (os.strerror(error.errno) if error.errno else str(error)) or type(error).__name__


def _kind(path: Path) -> str | None:
    """What stands at ``path`` when it is not a regular file (`a named pipe`, `a folder`), else None
    (a regular file, or nothing)."""
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return None
    return None if stat.S_ISREG(mode) else file_kind(mode)


def write_atomic(path: str | Path, text: str | bytes) -> None:
    """Write ``text`` to ``path`` completely or not at all (see the module docstring)."""
    path = Path(path)
    data = text.encode("utf-8") if isinstance(text, str) else text
    kind = _kind(path)
    if kind is not None:
        raise OutputError(f"cannot write {path}: not a regular file ({kind})")
    folder = path.parent if str(path.parent) else Path(".")
    made: list[Path] = []
    try:
        made = _make_folders(folder)
        tmp = _write_temporary(folder, f".{path.name}.", data)
        try:
            os.chmod(tmp, _mode_for(path))
            os.replace(tmp, path)
        except BaseException:
            _remove(tmp)
            raise
    except BaseException as e:
        _remove_folders(made)
        if isinstance(e, OSError):
            raise OutputError(f"cannot write {path}: {describe(e)}") from None
        raise


def _make_folders(folder: Path) -> list[Path]:
    """Make ``folder`` and the folders above it that are missing; the ones made, outermost first."""
    missing = []
    for p in (folder, *folder.parents):
        if p.exists():
            break
        missing.append(p)
    made: list[Path] = []
    try:
        for p in reversed(missing):
            p.mkdir()
            made.append(p)
    except BaseException:
        _remove_folders(made)
        raise
    return made


def _remove_folders(made: list[Path]) -> None:
    """Remove the folders :func:`_make_folders` made, innermost first (each only if empty)."""
    for p in reversed(made):
        try:
            p.rmdir()
        except OSError:
            pass


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
    folder, a folder or anything else that is not a regular file in its place (a named pipe
    would make the run wait for a reader at its end)."""
    path = Path(path)
    if path.is_dir():
        raise OutputError(f"{option} {path}: is a folder, not a file")
    kind = _kind(path)
    if kind is not None:
        raise OutputError(f"{option} {path}: not a regular file ({kind}): name a file or a new path")
    folder = path.parent if str(path.parent) else Path(".")
    if not folder.is_dir():
        raise OutputError(f"{option} {path}: no such folder {folder}")
    _probe(folder, f"{option} {path}")


def check_writable_folder(path: str | Path, option: str, create: bool = True) -> Path:
    """The folder ``path``; OutputError at once if it cannot be written, or (with ``create``) if
    it is missing and could not be made.  A missing folder is not made here: the writer makes
    it when it writes (:func:`write_atomic`), so a run that stops first leaves none behind."""
    path = Path(path)
    if path.exists() and not path.is_dir():
        raise OutputError(f"{option} {path}: not a folder")
    if path.exists():
        _probe(path, f"{option} {path}")
        return path
    if not create:
        raise OutputError(f"{option} {path}: no such folder")
    above = next((p for p in path.parents if p.exists()), Path("."))
    if not above.is_dir():
        raise OutputError(f"{option} {path}: cannot create the folder: {os.strerror(errno.ENOTDIR)} ({above})")
    _probe(above, f"{option} {path}")
    return path


def _probe(folder: Path, what: str) -> None:
    """Write, flush and remove a small temporary file: the honest test that writing will
    work (a read-only folder, a full disk)."""
    try:
        _remove(_write_temporary(folder, ".tablerules-probe-", b"\0" * 4096))
    except OSError as e:
        raise OutputError(f"{what}: cannot write there: {describe(e)}") from None


class RunFolder:
    """What a run makes under a folder it was given (``solve --store``): the folder itself and
    the folders above it that were missing, or, for a folder that was there, the entries new in
    it.  :meth:`remove` takes exactly those away again, so a run that fails, is interrupted or
    stops incomplete leaves the disk as it found it."""

    def __init__(self, folder: str | Path) -> None:
        self.folder = Path(folder)
        missing = [p for p in (self.folder, *self.folder.parents) if not p.exists()]
        self.top = missing[-1] if missing else None
        """The outermost folder the run will make, or None when the folder is there."""
        self.before = set() if missing else set(os.listdir(self.folder))

    def remove(self) -> None:
        if self.top is not None:
            shutil.rmtree(self.top, ignore_errors=True)
            return
        try:
            new = set(os.listdir(self.folder)) - self.before
        except OSError:
            return
        for name in new:
            entry = self.folder / name
            if entry.is_dir() and not entry.is_symlink():
                shutil.rmtree(entry, ignore_errors=True)
            else:
                _remove(str(entry))


@contextmanager
def removed_unless_kept(folder: str | Path | None) -> Iterator[Callable[[], None]]:
    """Run the block; unless it calls the ``keep`` it is given, what it made under ``folder``
    (:class:`RunFolder`) is removed when it ends, by an error or a signal too.  None: no folder."""
    made = RunFolder(folder) if folder is not None else None
    kept = []
    try:
        yield lambda: kept.append(True)
    finally:
        if made is not None and not kept:
            made.remove()
