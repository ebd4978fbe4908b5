"""Output files: written whole, only where they were named (a device or a pipe in place, a
link followed), long names, and messages that stay one line."""

from __future__ import annotations

import os
import stat
import subprocess

import pytest

from conftest import finish, spawn


def tool(*args: str) -> tuple[int, str, str]:
    return finish(spawn(*args))


def test_a_long_legal_file_name(cli, tmp_path):
    name = tmp_path / ("s" * 246 + ".txt")  # 250 characters: legal on every file system here
    code, _, err = cli("show", "standard", "--out", str(name))
    assert code == 0, err
    assert "Step 17:" in name.read_text()
    assert [p.name for p in tmp_path.iterdir()] == [name.name]  # no temporary file left


def test_a_too_long_file_name_is_one_clean_line(refused, tmp_path):
    name = tmp_path / ("s" * 300 + ".txt")
    refused("show", "standard", "--out", str(name), words="cannot write")
    assert list(tmp_path.iterdir()) == []


def test_user_text_on_stderr_stays_one_line(refused, tmp_path):
    odd = tmp_path / "a\nb.txt"
    refused("solve", "standard", "--region", str(odd), words="cannot read")
    refused("solve", "ESC\nQSE", words="'Q'")
    refused("show", "standard", "--out", str(tmp_path / "x\ny" / "z.txt"))
    refused("solve", "standard", "--box", "3\nx3xQ")
    refused("frobnicate\nsecond-line")
    refused("solve", "standard", "--bogus\nflag")


# -- writing only what was named ------------------------------------------------------------


def test_a_symlink_to_standard_output_is_written_through(tmp_path):
    link = tmp_path / "out.csv"
    link.symlink_to("/proc/self/fd/1")
    code, out, err = tool("designs", "--box", "2x2x2", "--csv", str(link), "--quiet")
    assert code == 0, err
    assert link.is_symlink() and os.readlink(link) == "/proc/self/fd/1"
    assert out.startswith("turns,segment_lengths,solutions,palindrome\n")


def test_a_fifo_is_written_in_place(tmp_path):
    fifo = tmp_path / "pipe.csv"
    os.mkfifo(fifo)
    reader = subprocess.Popen(["cat", str(fifo)], stdout=subprocess.PIPE, text=True)
    code, _, err = tool("designs", "--box", "2x2x2", "--csv", str(fifo), "--quiet")
    got = reader.communicate(timeout=30)[0]
    assert code == 0, err
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)
    assert got.splitlines()[0] == "turns,segment_lengths,solutions,palindrome"


def test_a_character_device_is_written_in_place(tmp_path):
    node = tmp_path / "null"
    try:
        os.mknod(node, stat.S_IFCHR | 0o666, os.makedev(1, 3))  # a second /dev/null
    except (PermissionError, OSError) as err:
        pytest.skip(f"cannot make a device node here: {err}")
    code, _, err = tool("designs", "--box", "2x2x2", "--csv", str(node), "--quiet")
    assert code == 0, err
    assert stat.S_ISCHR(os.lstat(node).st_mode)


def test_a_link_to_a_file_keeps_the_link_and_the_mode(tmp_path):
    real = tmp_path / "real.csv"
    real.write_text("old\n")
    real.chmod(0o640)
    (tmp_path / "link.csv").symlink_to("real.csv")
    code, _, err = tool("designs", "--box", "2x2x2", "--csv", str(tmp_path / "link.csv"))
    assert code == 0, err
    assert (tmp_path / "link.csv").is_symlink()
    assert real.read_text().startswith("turns,")
    assert stat.S_IMODE(real.stat().st_mode) == 0o640


def test_a_directory_is_refused_in_one_line(tmp_path):
    code, _, err = tool("designs", "--box", "2x2x2", "--csv", str(tmp_path), "--quiet")
    assert code == 2 and "is a directory" in err and len(err.splitlines()) == 1
    assert tmp_path.is_dir()


@pytest.mark.pictures
def test_a_sheet_on_a_full_disk_is_one_line(small_disk):
    """matplotlib's PDF writer hides the full disk behind a zlib error: still one line, exit 2,
    naming the file, and no half-written file left (after the line saying what was drawn)."""
    full = small_disk("full")
    code, _, err = tool("show", "standard", "--out", str(full / "sheet.pdf"))
    drawing, error = err.splitlines()
    assert code == 2 and drawing.startswith("snakecube: drawing the PDF sheet into"), err
    assert error.startswith("snakecube: error: cannot write")
    assert "No space left on device" in err and "sheet.pdf" in err
    assert list(full.iterdir()) == []
