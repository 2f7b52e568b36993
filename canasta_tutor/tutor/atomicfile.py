"""Writing files so that nothing on disk is ever half-written.

- :func:`write_atomic` rewrites a file: the new text goes to a temporary file in the same
  folder, which is flushed to disk (``fsync``) and then renamed over the old one, so a
  reader (or a crash, or a full disk) sees the old file or the new one, never a part of it.
  The rename replaces a symbolic link at the path itself; it never writes through it.
- :func:`append_atomic` appends to a file: when the write fails (a full disk), the file is
  truncated back to its size before, so it holds whole records only.
- :func:`inside` checks that a path below a folder passes through no symbolic link, so a
  tree written into the folder stays inside it.

Standard library only; written here because the pattern is a dozen lines and no library in
the project's dependencies offers it for both rewrites and appends.

>>> import tempfile, os
>>> folder = tempfile.mkdtemp()
>>> path = os.path.join(folder, "notes.txt")
>>> write_atomic(path, "one\\n")
>>> append_atomic(path, "two\\n")
>>> open(path, encoding="utf-8").read()
'one\\ntwo\\n'
>>> sorted(os.listdir(folder))   # no temporary file is left behind
['notes.txt']
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from ..engine.errors import CanastaError


class UnsafePathError(CanastaError, ValueError):
    """A path that would lead a write out of its folder (through a symbolic link)."""


def _bytes(data: str | bytes) -> bytes:
    return data.encode("utf-8") if isinstance(data, str) else data


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        written = os.write(fd, view)
        if written <= 0:  # pragma: no cover - os.write raises rather than writing nothing
            raise OSError(f"only {len(data) - len(view)} of {len(data)} bytes written")
        view = view[written:]


def _sync_folder(folder: Path) -> None:
    """Flush the folder's entry for a renamed file (POSIX; other systems have no such call)."""
    if os.name != "posix":
        return
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def write_atomic(path: str | os.PathLike[str], data: str | bytes, mode: int = 0o644) -> None:
    """Replace the file ``path`` with ``data`` (text is written as UTF-8): a temporary file in the same
    folder, ``fsync``, then a rename over ``path``.  On any error the temporary file is removed and
    ``path`` is as it was."""
    target = Path(path)
    payload = _bytes(data)
    if target.is_file() and not target.is_symlink():
        mode = target.stat().st_mode & 0o777  # a rewritten file keeps its permissions
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    try:
        try:
            _write_all(fd, payload)
            os.fsync(fd)
        finally:
            os.close(fd)
        os.chmod(tmp, mode)
        os.replace(tmp, target)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
    _sync_folder(target.parent)


def append_atomic(path: str | os.PathLike[str], data: str | bytes, mode: int = 0o644) -> None:
    """Append ``data`` to ``path`` (created if missing) with ``fsync``; if the write fails part way
    (a full disk), the file is truncated back to its size before and the error raised, so the file
    never ends in half a record."""
    payload = _bytes(data)
    if not payload:
        return
    fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT | getattr(os, "O_CLOEXEC", 0), mode)
    try:
        size = os.fstat(fd).st_size
        try:
            _write_all(fd, payload)
            os.fsync(fd)
        except BaseException:
            try:
                os.ftruncate(fd, size)
                os.fsync(fd)
            except OSError:
                pass
            raise
    finally:
        os.close(fd)


def inside(root: str | os.PathLike[str], path: str | os.PathLike[str]) -> Path:
    """``path`` (below the folder ``root``), after checking that no folder between them, and not ``path``'s
    own folder, is a symbolic link or anything but a folder: writing there stays inside ``root``.
    Raises :class:`UnsafePathError` naming the link."""
    base = Path(root)
    target = Path(path)
    rel = target.relative_to(base)
    here = base
    for part in rel.parts[:-1]:
        here = here / part
        if here.is_symlink():
            raise UnsafePathError(f"{str(here)!r} is a symbolic link: files are written only inside "
                                  f"{str(base)!r}, never through a link (remove it, or choose another folder)")
        if here.exists() and not here.is_dir():
            raise UnsafePathError(f"{str(here)!r} is not a folder")
    return target


__all__ = ["UnsafePathError", "append_atomic", "inside", "write_atomic"]
