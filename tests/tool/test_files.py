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
def test_a_full_device_is_one_line():
    with pytest.raises(OutputError) as e:
        write_atomic("/dev/full", "text")
    assert str(e.value) == "cannot write /dev/full: No space left on device"


def test_folders_that_cannot_be_written_are_refused_before_any_work(tmp_path):
    (tmp_path / "file").write_text("")
    with pytest.raises(OutputError, match="not a folder"):
        check_writable_folder(tmp_path / "file", "--out")
    with pytest.raises(OutputError, match="Not a directory"):
        check_writable_folder(tmp_path / "file" / "sub", "--out")
    with pytest.raises(OutputError, match="no such folder"):
        check_writable_file(tmp_path / "missing" / "report.md", "--out")
    assert check_writable_folder(tmp_path / "new", "--out").is_dir()
    assert [p.name for p in (tmp_path / "new").iterdir()] == []  # the probe is gone


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
