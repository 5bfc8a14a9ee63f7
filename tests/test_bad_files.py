"""Every ``.npz`` loader against every kind of bad file (table-driven).

A bad file must give a :class:`~bitgames.core.files.FileError` (a ``BitgamesError``)
whose message starts with the file's path and says what is wrong, never numpy's or
zipfile's own exception; writes are atomic (no temporary file is left, the old file
survives a failed write); ``bitgames leiserchess uci`` starts with a corrupt closebook.
"""

from __future__ import annotations

import io
import zipfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from bitgames.core import tt
from bitgames.core.files import FileError, atomic_write, file_lock, load_npz, read_text
from bitgames.leiserchess import closebook as cb
from bitgames.othello import eval as ev
from bitgames.othello.book import Book
from bitgames.othello.solver import TABLE_KIND


def _good_closebook(path: Path) -> None:
    cb.Closebook(np.zeros((cb.N_KINGS + 3) // 4, np.uint8), np.zeros(0, np.uint8)).save(path)


#: each loader: (name, write a good file, load a file)
LOADERS: dict[str, tuple[Callable[[Path], None], Callable[[Path], Any]]] = {
    "weights": (lambda p: ev.Weights.zeros().save(p), ev.Weights.load),
    "weights-bytes": (lambda p: ev.Weights.zeros().save(p),
                      lambda p: ev.Weights.load(p.read_bytes())),
    "book": (lambda p: Book().save(p), Book.load),
    "closebook": (_good_closebook, cb.Closebook.load),
    "solver table": (lambda p: tt.save(p, tt.new_table(4), 1, TABLE_KIND),
                     lambda p: tt.load(p, TABLE_KIND)),
}


def _arrays(path: Path) -> dict[str, np.ndarray]:
    with np.load(path) as data:
        return {k: data[k] for k in data.files}


def _rewrite(path: Path, change: Callable[[dict[str, np.ndarray]], dict[str, np.ndarray]]
             ) -> None:
    arrays = change(_arrays(path))
    with open(path, "wb") as f:
        np.savez(f, **arrays)  # type: ignore[arg-type]


def _first_key(arrays: dict[str, np.ndarray]) -> str:
    return sorted(arrays, key=lambda k: (arrays[k].size < 2, k))[0]


#: each corruption: (name, what it does to a good file, words the message must hold)
CORRUPTIONS: list[tuple[str, Callable[[Path], None], str]] = [
    ("missing", lambda p: p.unlink(), "no such file"),
    ("empty", lambda p: p.write_bytes(b""), "empty"),
    ("truncated", lambda p: p.write_bytes(p.read_bytes()[: len(p.read_bytes()) // 2]),
     "not an .npz archive"),
    ("text", lambda p: p.write_text("not an archive at all\n"), "not an .npz archive"),
    ("other zip", lambda p: p.write_bytes(_zip_of({"readme.txt": b"hello"})), "no array"),
    ("damaged member", lambda p: p.write_bytes(_damaged(p.read_bytes())), "damaged"),
    ("missing array", lambda p: _rewrite(p, lambda a: {k: v for k, v in a.items()
                                                       if k != sorted(a)[-1]}), "no array"),
    ("wrong dtype", lambda p: _rewrite(p, lambda a: {**a, _first_key(a): np.zeros(3)}),
     "expected kind"),
    ("wrong shape", lambda p: _rewrite(p, lambda a: {**a, _first_key(a): np.zeros(
        (2, 2), a[_first_key(a)].dtype)}), "dimension"),
    ("pickled", lambda p: _rewrite(p, lambda a: {**a, _first_key(a): np.array(
        [{"x": 1}], dtype=object)}), "pickled"),
    ("folder", lambda p: (p.unlink(), p.mkdir()), "folder"),
]


def _zip_of(members: dict[str, bytes]) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        for name, data in members.items():
            z.writestr(name, data)
    return buf.getvalue()


def _damaged(data: bytes) -> bytes:
    """The archive with the bytes of its members' data flipped (its directory intact)."""
    out = bytearray(data)
    with zipfile.ZipFile(io.BytesIO(data)) as z:
        for info in z.infolist():
            start = info.header_offset + 30 + len(info.filename.encode()) + len(info.extra)
            for i in range(start, min(start + 64, start + info.compress_size)):
                out[i] ^= 0x5A
    return bytes(out)


@pytest.mark.parametrize("loader", sorted(LOADERS))
def test_good_file_loads(loader: str, tmp_path: Path) -> None:
    write, load = LOADERS[loader]
    path = tmp_path / f"{loader}.npz"
    write(path)
    load(path)
    assert sorted(p.name for p in tmp_path.iterdir() if not p.name.endswith(".lock")) == [
        path.name]  # no temporary file left


@pytest.mark.parametrize("corruption", [c[0] for c in CORRUPTIONS])
@pytest.mark.parametrize("loader", sorted(LOADERS))
def test_bad_file_is_named_with_its_problem(loader: str, corruption: str,
                                            tmp_path: Path) -> None:
    write, load = LOADERS[loader]
    _, corrupt, words = next(c for c in CORRUPTIONS if c[0] == corruption)
    if loader == "weights-bytes" and corruption in ("missing", "folder"):
        pytest.skip("bytes cannot be missing or a folder")
    path = tmp_path / f"{loader}.npz"
    write(path)
    corrupt(path)
    with pytest.raises(FileError) as info:
        load(path)
    message = str(info.value)
    name = "<bytes>" if loader == "weights-bytes" else str(path)
    assert message.startswith(f"{name}: "), message
    assert words in message, message
    assert "allow_pickle" not in message  # numpy's own advice is not ours to give


def test_closebook_of_the_wrong_size_is_refused(tmp_path: Path) -> None:
    """The probe indexes the tables without bounds checks: a short table must never load."""
    path = tmp_path / "cb.npz"
    cb.Closebook(np.zeros(100, np.uint8), np.zeros(0, np.uint8)).save(path)
    with pytest.raises(FileError, match="the kings table holds 100 uint8 values"):
        cb.Closebook.load(path)


def test_uci_starts_with_a_corrupt_closebook(tmp_path: Path,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    from bitgames.core.protocol import SessionHarness
    from bitgames.leiserchess.uci import UciSession

    bad = tmp_path / "leiserchess-closebook-v2.npz"
    bad.write_bytes(b"PK\x03\x04 cut short by kill -9")
    monkeypatch.setattr(cb, "default_path", lambda: bad)
    harness = SessionHarness(UciSession)
    harness.converse([("isready", ["readyok"])])
    log = harness.log.getvalue()
    assert f"closebook not loaded: {bad}: Leiserchess closebook: " in log
    assert "Traceback" not in log


def test_atomic_write_keeps_the_old_file_on_failure(tmp_path: Path) -> None:
    path = tmp_path / "table.npz"
    path.write_bytes(b"old")
    with pytest.raises(RuntimeError), atomic_write(path) as f:
        f.write(b"half of the new")
        raise RuntimeError("the disk is full")
    assert path.read_bytes() == b"old"
    assert [p.name for p in tmp_path.iterdir()] == ["table.npz"]


@pytest.mark.parametrize("name", sorted(LOADERS))
@pytest.mark.usefixtures("sigint_inside_savez")
def test_ctrl_c_during_a_write_waits_for_the_file(name: str, tmp_path: Path) -> None:
    """A Ctrl-C that arrives while numpy writes the archive (the zip file could then not
    even be closed: the command failed with zipfile's error instead of stopping) raises
    only once the new file is complete and in place."""
    write, load = LOADERS[name]
    path = tmp_path / "table.npz"
    with pytest.raises(KeyboardInterrupt):
        write(path)
    load(path)
    assert sorted(p.name for p in tmp_path.iterdir() if ".tmp-" in p.name) == []


def test_atomic_write_removes_temporaries_of_dead_writers(tmp_path: Path) -> None:
    path = tmp_path / "book.npz"
    dead = tmp_path / ".book.npz.tmp-999999999"  # no such process
    dead.write_bytes(b"left by kill -9")
    other = tmp_path / ".other.npz.tmp-999999999"  # another file's: not ours to remove
    other.write_bytes(b"x")
    with atomic_write(path) as f:
        f.write(b"new")
    assert sorted(p.name for p in tmp_path.iterdir()) == [".other.npz.tmp-999999999",
                                                          "book.npz"]


def test_file_lock_excludes_a_second_writer(tmp_path: Path) -> None:
    import subprocess
    import sys

    path = tmp_path / "book.npz"
    code = ("import sys; from bitgames.core.files import file_lock\n"
            "try:\n"
            f"    with file_lock({str(path)!r}, timeout=0.2): pass\n"
            "except ValueError as e: print(e); sys.exit(3)\n")
    with file_lock(path):
        held = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                              timeout=60)
    free = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=60)
    assert held.returncode == 3 and "another process has held it locked" in held.stdout
    assert free.returncode == 0, free.stderr


def test_read_text_is_bounded(tmp_path: Path) -> None:
    with pytest.raises(FileError, match="/dev/zero: SGF file: longer than 1000 bytes"):
        read_text("/dev/zero", 1000, "SGF file")
    with pytest.raises(FileError, match="is a folder"):
        read_text(tmp_path, 1000)
    (tmp_path / "a.sgf").write_bytes(b"(;SZ[9]\xff)")
    assert read_text(tmp_path / "a.sgf", 1000) == "(;SZ[9]\ufffd)"


def test_load_npz_from_bytes_names_bytes() -> None:
    with pytest.raises(FileError, match="^<bytes>: table: the file is empty$"):
        load_npz(b"", "table", {"n": ("i", 1)})


@pytest.mark.parametrize("argv, what", [
    (["leiserchess", "closebook", "probe", "--book", "{bad}", "ss7/8/8/8/8/8/8/7NN W"],
     "Leiserchess closebook"),
    (["othello", "book", "show", "--book", "{bad}"], "Othello opening book"),
    (["othello", "analyze", "--weights", "{bad}", "--level", "1", "f5"], "Othello weights"),
    (["othello", "solve", "--ffo", "1", "--table-file", "{bad}"], "transposition table"),
])
def test_command_line_names_the_bad_file(argv: list[str], what: str, tmp_path: Path) -> None:
    import subprocess
    import sys

    bad = tmp_path / "bad.npz"
    bad.write_bytes(b"PK\x03\x04")
    proc = subprocess.run([sys.executable, "-m", "bitgames.cli",
                           *(a.format(bad=bad) for a in argv)],
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 2
    # the last line (a first run may say "compiling ..." before)
    assert proc.stderr.splitlines()[-1].startswith(
        f"bitgames: error: {bad}: {what}: not an .npz archive"), proc.stderr
    assert "Traceback" not in proc.stderr

