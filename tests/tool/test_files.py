"""Output files are written whole or not at all (proofs/files.py)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tablerules.proofs.files import OutputError, check_writable_file, check_writable_folder, write_atomic


def test_a_file_is_replaced_only_when_complete(tmp_path, monkeypatch):
    target = tmp_path / "report.md"
    target.write_text("old")

    def fail(*args):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "fsync", fail)
    with pytest.raises(OutputError, match="No space left on device"):
        write_atomic(target, "new")
    assert target.read_text() == "old" and [p.name for p in tmp_path.iterdir()] == ["report.md"]


def test_an_interruption_leaves_nothing_behind(tmp_path, monkeypatch):
    def interrupted(*args):
        raise KeyboardInterrupt

    monkeypatch.setattr(os, "replace", interrupted)
    with pytest.raises(KeyboardInterrupt):
        write_atomic(tmp_path / "report.md", "text")
    assert list(tmp_path.iterdir()) == []


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="no /dev/full on this system")
def test_a_device_is_no_file_to_write():
    with pytest.raises(OutputError) as e:
        write_atomic("/dev/full", "text")
    assert str(e.value) == "cannot write /dev/full: not a regular file (a device)"


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no named pipes on this system")
def test_a_named_pipe_is_refused_not_waited_on(tmp_path):
    """Opening a named pipe to write waits for a reader: `rulings --out PIPE` hung at its end."""
    pipe = tmp_path / "report.md"
    os.mkfifo(pipe)
    with pytest.raises(OutputError, match=r"^cannot write .*report\.md: not a regular file \(a named pipe\)$"):
        write_atomic(pipe, "text")
    with pytest.raises(OutputError, match=r"--out .*report\.md: not a regular file \(a named pipe\): name a file"):
        check_writable_file(pipe, "--out")


def test_the_folders_a_file_needs_are_made_when_it_is_written_and_removed_if_it_fails(tmp_path, monkeypatch):
    target = tmp_path / "a" / "b" / "report.md"
    write_atomic(target, "text")
    assert target.read_text() == "text"

    def full(*args):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "fsync", full)
    with pytest.raises(OutputError, match="No space left on device"):
        write_atomic(tmp_path / "new" / "deeper" / "report.md", "text")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a"]  # no empty folder left behind


def test_a_folder_is_checked_without_being_made(tmp_path):
    """A run that stops before it writes (a signal, a full disk) leaves no empty folder behind."""
    new = tmp_path / "out" / "vectors"
    assert check_writable_folder(new, "--out") == new
    assert list(tmp_path.iterdir()) == []


def test_what_a_run_made_under_its_store_goes_unless_it_is_kept(tmp_path):
    from tablerules.proofs.files import removed_unless_kept

    with pytest.raises(KeyboardInterrupt):
        with removed_unless_kept(tmp_path / "store" / "levels"):
            (tmp_path / "store" / "levels" / "L0").mkdir(parents=True)
            raise KeyboardInterrupt
    assert list(tmp_path.iterdir()) == []
    (tmp_path / "mine.txt").write_text("a file the run found")
    with removed_unless_kept(tmp_path):
        (tmp_path / "L0").mkdir()
    assert [p.name for p in tmp_path.iterdir()] == ["mine.txt"]
    with removed_unless_kept(tmp_path) as keep:
        (tmp_path / "L0").mkdir()
        keep()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["L0", "mine.txt"]


def test_folders_that_cannot_be_written_are_refused_before_any_work(tmp_path):
    (tmp_path / "file").write_text("")
    with pytest.raises(OutputError, match="not a folder"):
        check_writable_folder(tmp_path / "file", "--out")
    with pytest.raises(OutputError, match="Not a directory"):
        check_writable_folder(tmp_path / "file" / "sub", "--out")
    with pytest.raises(OutputError, match="no such folder"):
        check_writable_file(tmp_path / "missing" / "report.md", "--out")
    assert not check_writable_folder(tmp_path / "new", "--out").exists()  # made when something is written
    assert sorted(p.name for p in tmp_path.iterdir()) == ["file"]  # the probe is gone


def test_a_new_file_gets_the_usual_permissions_and_a_replaced_one_keeps_its_own(tmp_path):
    """The temporary file is private while it is written; what lands is not (umask 022: rw-r--r--)."""
    old = os.umask(0o022)
    try:
        write_atomic(tmp_path / "new.json", "{}")
        kept = tmp_path / "kept.json"
        kept.write_text("old")
        kept.chmod(0o640)
        write_atomic(kept, "new")
    finally:
        os.umask(old)
    assert (tmp_path / "new.json").stat().st_mode & 0o777 == 0o644
    assert kept.stat().st_mode & 0o777 == 0o640 and kept.read_text() == "new"
