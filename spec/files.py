"""Reading a file a user names: only a regular file, at most so many bytes, and strict JSON.

Every file the tool reads on a user's say-so (a trace, a mapping, a deck, a golden vector)
is read here, so that each has a size limit checked before and while it is read, and none
can make a run wait for ever: a named pipe, a device, a socket or a folder is refused
before a byte is read.  Standard input, the one stream the tool reads on purpose, is read by
its caller, bounded in size.  Decks (in ``model``) and traces (in ``tablerules``) both read
through this module, which is why it sits in the lowest layer.

:func:`parse_json` is the JSON every such file must be: nesting of at most a given depth
(refused before parsing, so no depth can exhaust the stack), object keys each once (named
by JSON path), no ``NaN`` or ``Infinity``, integers of at most 4,300 digits.  Writing files
is ``tablerules.proofs.files``.
"""

from __future__ import annotations

import json
import os
import stat
from typing import Any

MAX_DIGITS = 4300
"""Longest integer (in decimal digits) read from a file: Python's own safe limit."""


class UnreadableFile(ValueError):
    """A file that is refused or cannot be read; the message is one line without the file's name."""


def file_kind(mode: int) -> str:
    """What a path that is not a regular file holds (`a folder`, `a named pipe`), from its mode."""
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a named pipe"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a file"


def _check_regular(mode: int) -> None:
    if not stat.S_ISREG(mode):
        raise UnreadableFile(f"not a regular file ({file_kind(mode)})")


def _check_size(size: int, max_bytes: int, hint: str) -> None:
    if size > max_bytes:
        raise UnreadableFile(f"{size:,} bytes, more than the limit of {max_bytes:,}{hint}")


def read_regular_file(path: str | os.PathLike[str], max_bytes: int, hint: str = "") -> bytes:
    """The bytes of the regular file ``path``, at most ``max_bytes`` of them; UnreadableFile
    for anything else (``hint`` follows the size limit in its message, e.g. ``" (--max-bytes)"``).

    The file is opened without waiting (a named pipe swapped in after the first look opens
    at once and is refused by the second), and read no further than one byte past the limit
    (a file that grows while it is read)."""
    try:
        _check_regular(os.stat(path).st_mode)
        flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0) | getattr(os, "O_CLOEXEC", 0)
        fd = os.open(path, flags)
        with os.fdopen(fd, "rb") as f:
            info = os.fstat(f.fileno())
            _check_regular(info.st_mode)
            _check_size(info.st_size, max_bytes, hint)
            raw = f.read(max_bytes + 1)
    except OSError as e:
        raise UnreadableFile(e.strerror or type(e).__name__) from None
    _check_size(len(raw), max_bytes, hint)
    return raw


# --------------------------------------------------------------------------- strict JSON


def json_path_key(key: str) -> str:
    """`.hands` for a key that is a name, `["0.soup"]` for any other."""
    return f".{key}" if key.isidentifier() else f"[{json.dumps(key)}]"


def parse_json(raw: bytes | str, max_depth: int) -> Any:
    """JSON text to a value; UnreadableFile (one line) for text that is not UTF-8, not JSON,
    nested more than ``max_depth`` levels, with a key twice in one object (naming the
    object's JSON path), ``NaN`` or ``Infinity``, or an integer of more than MAX_DIGITS digits."""
    try:
        text = raw.decode("utf-8") if isinstance(raw, bytes) else raw
    except UnicodeDecodeError as e:
        raise UnreadableFile(f"not UTF-8 text (byte {e.start})") from None
    if _too_deep(text, max_depth):
        raise UnreadableFile(f"JSON nested too deeply (more than {max_depth} levels)")
    twice: dict[int, str] = {}

    def unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for key, value in pairs:
            if key in out and id(out) not in twice:
                twice[id(out)] = key
            out.setdefault(key, value)
        return out

    try:
        data = json.loads(text, parse_constant=_reject_constant, parse_int=_parse_int, object_pairs_hook=unique_keys)
    except json.JSONDecodeError as e:
        where = f"line {e.lineno}, column {e.colno}"
        raise UnreadableFile(f"not valid JSON: {e.msg.removesuffix(' at')} ({where})") from None
    except _Refused as e:
        raise UnreadableFile(str(e)) from None
    except (ValueError, RecursionError) as e:
        raise UnreadableFile(f"not valid JSON: {str(e).splitlines()[0] if str(e) else type(e).__name__}") from None
    if twice:
        where, key = _first_marked(data, twice)
        raise UnreadableFile(f"{where}: duplicate key {json.dumps(key)[:80]} in one object "
                             "(readers would keep only one of them)")
    return data


def _first_marked(data: Any, marked: dict[int, str]) -> tuple[str, str]:
    """The JSON path of the first object (in document order) whose id is in ``marked``, and its key."""
    todo: list[tuple[Any, str]] = [(data, "$")]
    while todo:
        value, where = todo.pop()
        if isinstance(value, dict):
            if id(value) in marked:
                return where, marked[id(value)]
            todo += reversed([(v, where + json_path_key(k)) for k, v in value.items()])
        elif isinstance(value, list):
            todo += reversed([(v, f"{where}[{i}]") for i, v in enumerate(value)])
    return "$", next(iter(marked.values()))


class _Refused(ValueError):
    """Valid JSON that a file may not hold (the message is the whole line)."""


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


def _parse_int(text: str) -> int:
    if len(text.lstrip("-")) > MAX_DIGITS:
        raise _Refused(f"a number with more than {MAX_DIGITS:,} digits")
    return int(text)


def _too_deep(text: str, max_depth: int) -> bool:
    """Nesting depth beyond ``max_depth`` (ignoring brackets inside strings)."""
    depth = 0
    in_string = escaped = False
    for ch in text:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            if depth > max_depth:
                return True
        elif ch in "]}":
            depth -= 1
    return False
