"""The rules: setup, whose turn, the legal moves, their effects, and the end.

State is plain Python values so ``copy.deepcopy`` gives an independent game.

Cells: the places of all layouts, index ``layout * 6 + type``.  A cell holds
``None`` (empty), ``CLEAN`` (one tile, clean side up, colour unknown to everyone), or a
tuple of ``(type, colour)`` tiles, bottom to top, all dirty side up (a pile).
"""

from .tiles import NTYPES, TYPES, COLOURS, Unsupported, place_tables

CLEAN = "clean"


class Game:
    def __init__(self, players, ntypes, ncolours):
        # Setup: each player receives one picture of each type, so every type needs at
        # least as many tiles (= colours in play) as there are players.
        # CHOICE: a tile set with fewer colours than players cannot give everyone one
        # picture of each type, so it is refused as unsupported.  Alternative: deal
        # what there is and leave some places empty.
        if ncolours < players:
            raise Unsupported(
                "%d players need at least %d tiles of each type; this set has %d"
                % (players, players, ncolours))
        self.n = players
        self.ntypes = ntypes
        self.ncolours = ncolours
        # Setup: one picture of each type per player, clean side up, laid out in the
        # fixed order (dessert, main, drinks / forks, soup, knives); types not in the
        # tile set leave their place empty.
        # CHOICE: with fewer players than tiles per type (2 or 3 players on the box) the
        # rulebook says it does not address how the pictures are dealt.  The tiles not
        # dealt are set aside unseen and take no part in play (their colours are never
        # shown).  Alternatives: play only with as many whole colour sets as players
        # (colours then known to be exactly those sets); or lay the spares out as extra
        # shared layouts.
        self.cells = [CLEAN if t < ntypes else None
                      for _ in range(players) for t in range(NTYPES)]
        # revealed[t]: bit c set once the colour-c tile of type t has been shown.
        self.revealed = [0] * NTYPES
        # Play: the protocol's seat 0 stands for "the player who most recently washed
        # the dishes"; play goes clockwise (seat + 1).
        self.seat = 0
        self.pending = None      # cell just turned over, waiting for chance to show it
        self.over = False
        self._moves = None       # cache of the sorted legal moves of self.seat

    # ------------------------------------------------------------------ queries
    @staticmethod
    def _matches(a, b):
        """Play: same type or same colour; only the top of each pile counts."""
        return a[0] == b[0] or a[1] == b[1]

    def can_move(self, seat):
        """Whether `seat` has at least one move of the two the Play section allows."""
        cells = self.cells
        base = seat * NTYPES
        own = cells[base:base + NTYPES]
        if CLEAN in own:
            return True
        tops = [(i, c[-1]) for i, c in enumerate(cells) if c is not None and c is not CLEAN]
        for k, c in enumerate(own):
            if c is None:
                continue
            p = base + k
            top = c[-1]
            for q, qtop in tops:
                if q != p and (top[0] == qtop[0] or top[1] == qtop[1]):
                    return True
        return False

    def legal_moves(self):
        """Sorted legal move texts of the seat to move (empty for chance / game over)."""
        if self.over or self.pending is not None:
            return []
        if self._moves is not None:
            return self._moves
        names = place_tables(self.n)[0]
        cells = self.cells
        seat = self.seat
        base = seat * NTYPES
        moves = []
        tops = [(i, c[-1]) for i, c in enumerate(cells) if c is not None and c is not CLEAN]
        for k in range(NTYPES):
            p = base + k
            c = cells[p]
            if c is None:
                continue
            if c is CLEAN:
                # Play: turn any one of your own pictures from clean to dirty.
                moves.append("turn " + names[p])
                continue
            # Play: get rid of a dirty piece by placing it on another dirty piece of the
            # same type or the same colour, yours or another player's; a piece on top
            # of a stack carries the whole stack; only the tops count.
            # CHOICE: the piece moved must lie in the mover's own layout (any dirty
            # pile there, also one another player put there).  The text says "get rid
            # of" and the Example lists only Ania's own pieces.  Alternatives: any dirty
            # pile on the table may be moved; or only piles whose top tile was dealt to
            # the mover.
            top = c[-1]
            for q, qtop in tops:
                if q != p and (top[0] == qtop[0] or top[1] == qtop[1]):
                    moves.append("place %s on %s" % (names[p], names[q]))
        if not moves:
            # CHOICE: Play says a player "may make one of two possible moves" and the
            # game ends only when nobody can move; a player who cannot move while
            # someone else still can must let the turn go by: `pass` is then the only
            # move.  A player who has a move may not pass (else the game need not
            # end).  Alternatives: voluntary passing allowed; or a player without a
            # move is skipped silently.
            moves.append("pass")
        moves.sort()
        self._moves = moves
        return moves

    def chance_outcomes(self):
        """[(move, numerator, denominator)] for the colour of the tile just turned.

        The tiles of one type were mixed clean side up (Setup), so the turned tile is
        equally likely to be any colour of its type not shown yet (the unshown ones are
        the clean tiles still on the table and any set aside).
        """
        # CHOICE: the colour is shown at once when the picture is turned (one chance
        # step right after `turn`), with equal odds over the unshown colours of that
        # type, as a thorough mix gives.  Alternative odds would need a deal order the
        # rulebook does not give.
        p = self.pending
        if p is None or self.over:
            return []
        t = p % NTYPES
        name = place_tables(self.n)[0][p]
        left = [c for c in range(self.ncolours) if not self.revealed[t] >> c & 1]
        k = len(left)
        out = [("reveal %s %s" % (name, COLOURS[c]), 1, k) for c in left]
        out.sort()
        return out

    def scores(self):
        """End of the Game: the number of pictures lying in front of each player."""
        # CHOICE: "the most dishes" is read as the most pictures (tiles, counting every
        # tile of every pile, knives and forks too) in the player's layout.
        # Alternatives: count piles (occupied places) instead, since only the top of a
        # stack "is taken into account"; or count only the four dish types, not the
        # cutlery.
        res = []
        cells = self.cells
        for lay in range(self.n):
            s = 0
            for c in cells[lay * NTYPES:(lay + 1) * NTYPES]:
                if c is None:
                    continue
                s += 1 if c is CLEAN else len(c)
            res.append(s)
        return res

    # ------------------------------------------------------------------ changes
    def apply(self, move):
        """Play `move` if legal and return None; else return why not (nothing changes)."""
        if self.over:
            return "the game is over"
        if self.pending is not None:
            for text, _, _ in self.chance_outcomes():
                if text == move:
                    break
            else:
                return "not a possible outcome of the reveal now due"
            p = self.pending
            colour = COLOURS.index(move.rsplit(" ", 1)[1])
            t = p % NTYPES
            self.cells[p] = ((t, colour),)
            self.revealed[t] |= 1 << colour
            self.pending = None
            self._end_turn()
            return None
        if move not in self.legal_moves():
            return "not a legal move for seat %d now" % self.seat
        index = place_tables(self.n)[1]
        parts = move.split(" ")
        if parts[0] == "turn":
            # Play: the picture goes dirty side up; its colour is then shown by chance.
            self.pending = index[parts[1]]
            self._moves = None
            return None
        if parts[0] == "place":
            p, q = index[parts[1]], index[parts[3]]
            self.cells[q] = self.cells[q] + self.cells[p]
            self.cells[p] = None
        # "pass": nothing changes but the turn.
        self._end_turn()
        return None

    def _end_turn(self):
        # Play: play continues clockwise.  End of the Game: it ends when none of the
        # players can make a move any more.
        self._moves = None
        self.seat = (self.seat + 1) % self.n
        if not any(self.can_move(s) for s in range(self.n)):
            self.over = True
