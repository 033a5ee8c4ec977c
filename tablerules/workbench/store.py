"""The games the workbench holds: each under an id of its own, at most MAX_GAMES of them.

Every tab (and every link opened) makes its own game, so two tabs never play on one line; a
game is changed under its own lock, so two requests of one tab do not interleave.  When a new
game would pass the bound, the game used longest ago is let go: its tab makes it again from
its link (the page keeps the line, the server only caches it).
"""

from __future__ import annotations

import secrets
import threading
from collections import OrderedDict
from typing import Generic, TypeVar

from .bounds import MAX_GAMES, Gone

T = TypeVar("T")


class Store(Generic[T]):
    """Games by id, the most recently used last; thread-safe."""

    def __init__(self, limit: int = MAX_GAMES) -> None:
        self.limit = limit
        self._games: OrderedDict[str, T] = OrderedDict()
        self._lock = threading.Lock()
        self.let_go = 0
        """How many games were let go to keep within the bound (the status line shows it)."""

    def add(self, game: T) -> str:
        """Hold ``game`` under a new id (letting the least recently used go if full); the id."""
        game_id = secrets.token_urlsafe(12)
        with self._lock:
            while len(self._games) >= self.limit:
                self._games.popitem(last=False)
                self.let_go += 1
            self._games[game_id] = game
        return game_id

    def get(self, game_id: str) -> T:
        """The game held under ``game_id``; Gone (one line) if there is none (let go, or the server restarted)."""
        with self._lock:
            game = self._games.get(game_id)
            if game is None:
                raise Gone(f"game {game_id[:24]!r} is not held here any more (at most {self.limit} games are "
                           "kept; the page makes it again from its link)")
            self._games.move_to_end(game_id)
            return game

    def __len__(self) -> int:
        with self._lock:
            return len(self._games)
