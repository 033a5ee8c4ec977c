"""What the workbench's server reads at most, and bad input as one line.

Every figure here bounds work or memory that a page (or anything else that reaches the port)
could otherwise make the server spend; each says why it is as large as it is.  A request over
a bound gets a one-line message naming the bound, never a server error.
"""

from __future__ import annotations

from typing import Any

from tablerules.spec.files import UnreadableFile, parse_json

from ..limits import WHOLE_NUMBER

MAX_BODY_BYTES = 4 * 1024 * 1024
"""Largest request body read, in bytes: an ITF vector pasted or uploaded (our longest golden
vector is under 1 MB; ``vectors verify`` itself reads up to 32 MiB from a file)."""
MAX_NESTING = 64
"""Deepest JSON read (the ITF reader's own bound: deeper is no game state)."""
MAX_GAMES = 64
"""Games held at once, over every tab; the game used longest ago is let go first (a tab whose
game was let go makes it again from its link, without a word to the user)."""
MAX_LINE = 3000
"""Most moves in one line (chance outcomes counted): a game of Dishes with the boxed tiles and
four players is a few hundred; Just Desserts with the retail deck under a thousand."""
MAX_MOVE_TEXT = 400
"""Longest move text read (the longest move of the retail deck, a serving of four desserts, is
under 120 characters)."""
MAX_LISTED = 400
"""Most legal moves or chance outcomes sent as buttons; beyond it the page says how many there
are, and the move is typed (a tray full of desserts can be dumped in thousands of ways)."""
MAX_RANDOM_STEPS = 3000
"""Most moves one "play on at random" or "deal" click makes (the longest line allowed)."""
COMPARE_PAIRS = 20_000
"""State pairs the "where do they part from here" search stores at most (a count, so its answer
does not depend on the machine; measured: 20,000 pairs of Just Desserts on jd-rivals in about
10 s on this project's 2-core machine)."""
COMPARE_SECONDS = 60.0
"""Wall-clock guard on that search: it only stops the search, which then says it is incomplete."""
MAX_SEED = 2**63 - 1


class BadInput(ValueError):
    """A request the workbench cannot take: the page shows its one line (HTTP 400)."""


class TooLarge(BadInput):
    """A request over one of the bounds above (HTTP 413)."""


class Gone(BadInput):
    """A game the server no longer holds (HTTP 404): the page makes it again from its link."""


def read_json(raw: bytes) -> dict[str, Any]:
    """A request body as a JSON object: one line naming what is wrong otherwise (not UTF-8,
    not JSON, too deep, a key given twice, not an object)."""
    if len(raw) > MAX_BODY_BYTES:
        raise TooLarge(f"the request is larger than {MAX_BODY_BYTES // (1024 * 1024)} MiB")
    try:
        data = parse_json(raw, MAX_NESTING)
    except UnreadableFile as e:
        raise BadInput(f"the request is not JSON the workbench reads: {e}") from None
    if not isinstance(data, dict):
        raise BadInput("the request must be a JSON object")
    return data


def text_field(data: dict[str, Any], key: str, limit: int = MAX_MOVE_TEXT, default: str | None = None) -> str:
    """``data[key]`` as text of at most ``limit`` characters (``default`` where absent)."""
    value = data.get(key, default)
    if value is None:
        raise BadInput(f"{key}: missing")
    if not isinstance(value, str):
        raise BadInput(f"{key}: expected text")
    if len(value) > limit:
        raise TooLarge(f"{key}: longer than {limit:,} characters")
    return value


def int_field(data: dict[str, Any], key: str, low: int, high: int, default: int | None = None) -> int:
    """``data[key]`` as a whole number from ``low`` to ``high`` (``default`` where absent)."""
    value = data.get(key, default)
    if value is None:
        raise BadInput(f"{key}: missing")
    if isinstance(value, str) and value.isascii() and WHOLE_NUMBER.fullmatch(value):  # ASCII digits only
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, int):
        raise BadInput(f"{key}: expected a whole number")
    if not low <= value <= high:
        raise BadInput(f"{key}: {value} is not from {low} to {high:,}")
    return value


def move_list(data: dict[str, Any], key: str) -> list[str]:
    """``data[key]`` as a list of move texts, within MAX_LINE moves of MAX_MOVE_TEXT characters."""
    value = data.get(key, [])
    if not isinstance(value, list):
        raise BadInput(f"{key}: expected a list of moves")
    if len(value) > MAX_LINE:
        raise TooLarge(f"{key}: more than {MAX_LINE:,} moves")
    out = []
    for i, m in enumerate(value):
        if not isinstance(m, str):
            raise BadInput(f"{key}[{i}]: expected a move as text")
        if len(m) > MAX_MOVE_TEXT:
            raise TooLarge(f"{key}[{i}]: longer than {MAX_MOVE_TEXT} characters")
        out.append(m.strip())
    return out
