"""The state of one game of Just Desserts 2.3 and its moves.

Phases (``self.phase``):

* ``draw``     chance: the seat at the head of ``draw_queue`` draws a dessert (the deal
               of "Setup", the draws after a hungry guest, the Favorite's extra card);
* ``turnup``   chance: the Maitre D' turns up a guest ("Playing");
* ``scramble`` seats 0..N-1 in turn say ``call``, ``pass`` or ``favourite`` ("Playing");
* ``decide``   chance: who of the seats in contention called first, or ``simultaneous``
               ("Simultaneous Calls");
* ``serve``    the seat that called first serves or fails ("Calling & Serving",
               "Erroneous Calls");
* ``penalty``  chance: a random card of an erroneous caller goes to his dirty dishes
               ("Erroneous Calls", "Reminders & Clarifications");
* ``over``     the game has ended ("Running out of Cards", "Ending the Game").

All state is plain Python values (the ``Deck`` is immutable and shared by copies).
"""
from fractions import Fraction

from .serving import servings, serve_text

HAND_SIZE = 5  # "Setup": deal five Dessert cards to each player

# CHOICE: "Simultaneous Calls" says truly simultaneous calls happen "occasionally" and
# gives no odds.  When two or more seats are in contention for the first time in a
# round, ``simultaneous`` has probability 1/10 and each contender is first with equal
# share of the rest.  Other readings: other odds; odds that grow with the number of
# callers.
SIMULTANEOUS = Fraction(1, 10)


def _frac(f):
    return str(f)


class Game:
    def __init__(self, deck, players):
        self.deck = deck
        self.n = players
        self.hands = [dict() for _ in range(players)]
        self.dishes = [dict() for _ in range(players)]
        self.collected = [[] for _ in range(players)]
        self.guest_pile = {g: 1 for g in deck.guest_ids}
        self.guest_left = len(deck.guest_ids)
        self.discards = []
        self.dessert_pile = {d: c for d, c in deck.dessert_copies.items() if c > 0}
        self.dessert_left = deck.total_desserts
        self.kitchen_closed = False
        self.empties = 0          # times the guest pile was found empty
        self.guest = None
        self.speaker = 0
        self.callers = []         # seats that said "got it"
        self.favs = []            # seats that claimed the Favorite
        self.failed = []          # seats that called but did not serve
        self.pool = []            # seats in contention for the ``decide`` step
        self.server = None
        self.server_fav = False
        self.draw_queue = []
        self.penalty_queue = []
        # "Setup": deal five desserts to each player; by the protocol's convention all
        # of seat 0's cards first, then seat 1's, and so on.
        for s in range(players):
            self.draw_queue.extend([s] * HAND_SIZE)
        self.phase = "draw"

    # ------------------------------------------------------------------ queries
    def to_move(self):
        if self.phase == "over":
            return "TERMINAL"
        if self.phase == "scramble":
            return self.speaker
        if self.phase == "serve":
            return self.server
        return "CHANCE"

    def _servings(self, seat, need_fav):
        return servings(self.deck, self.hands[seat], self.guest, need_fav)

    def legal_moves(self):
        if self.phase == "scramble":
            moves = ["call", "pass"]
            # CHOICE: "Playing" and "Calling & Serving" say a call can be trumped by
            # someone who produces a Favorite, but the promised explanation never
            # comes.  We read it as a claim made instead of a plain call, open only to
            # a seat that holds a Favorite and can satisfy the guest with a serving
            # that includes it; any such claim outranks every plain call.  Other
            # readings: no trump at all (a Favorite only earns the extra card); a
            # trump made after the first caller is known; a bluffed claim.
            favs = self.deck.guest_favs[self.guest]
            hand = self.hands[self.speaker]
            if any(f in hand for f in favs) and self._servings(self.speaker, True):
                moves.append("favourite")
            return sorted(moves)
        if self.phase == "serve":
            moves = [serve_text(s) for s in self._servings(self.server, self.server_fav)]
            # CHOICE: "Passing" lets a player decline a guest it "can't (or doesn't
            # want to)" satisfy, and "Erroneous Calls" has callers who find they cannot;
            # so ``fail`` is always open to the server, even when it could serve.
            # Other reading: a seat that can serve must serve.
            moves.append("fail")
            return sorted(set(moves))
        return []

    def chance_outcomes(self):
        ph = self.phase
        if ph == "draw":
            s = self.draw_queue[0]
            tot = self.dessert_left
            return sorted(("seat %d draws %s" % (s, c), _frac(Fraction(n, tot)))
                          for c, n in self.dessert_pile.items() if n > 0)
        if ph == "turnup":
            tot = self.guest_left
            return sorted(("turn up %s" % g, _frac(Fraction(n, tot)))
                          for g, n in self.guest_pile.items() if n > 0)
        if ph == "decide":
            k = len(self.pool)
            out = []
            if not self.failed:
                share = (1 - SIMULTANEOUS) / k
                out.append(("simultaneous", _frac(SIMULTANEOUS)))
            else:
                # CHOICE: after the first server fails, "Erroneous Calls" lets
                # "that other waiter" serve; who of several others is next is left
                # open.  We draw it uniformly, with no ``simultaneous`` outcome (the
                # dispute of "Simultaneous Calls" is about who said it first).
                share = Fraction(1, k)
            for s in self.pool:
                out.append(("first %d" % s, _frac(share)))
            return sorted(out)
        if ph == "penalty":
            s = self.penalty_queue[0]
            hand = self.hands[s]
            tot = sum(hand.values())
            t = self._taker(s)
            return sorted(("seat %d takes %s from seat %d" % (t, c, s),
                           _frac(Fraction(n, tot)))
                          for c, n in hand.items() if n > 0)
        return []

    def _taker(self, s):
        # CHOICE: "Erroneous Calls" says "another player" takes the random card, not
        # which one; we name the next seat clockwise.  Other readings: the Maitre D';
        # any other player (the card goes to the erroneous player's own dishes either
        # way, per "Reminders & Clarifications").
        return (s + 1) % self.n

    # ------------------------------------------------------------------ moves
    def apply(self, move):
        """Play ``move``; return None if done, else the reason it is refused."""
        ph = self.phase
        if ph == "over":
            return "the game is over"
        if ph in ("scramble", "serve"):
            if move not in self.legal_moves():
                return "not a legal move: %r" % (move,)
            if ph == "scramble":
                self._say(move)
            else:
                self._serve(move)
            return None
        if not isinstance(move, str) or move not in {m for m, _ in self.chance_outcomes()}:
            return "not a chance outcome: %r" % (move,)
        parts = move.split(" ")
        if ph == "draw":
            self._draw(parts[3])
        elif ph == "turnup":
            self._turn_up(parts[2])
        elif ph == "decide":
            if move == "simultaneous":
                # "Simultaneous Calls": the guest walks away, everyone draws.
                # CHOICE: nobody pays a penalty here (no call was shown wrong), and a
                # tie between Favorite claimers is settled the same way as between
                # plain callers.  Other reading: Favorite claims cannot tie.
                self._guest_leaves()
            else:
                self._set_server(int(parts[1]))
        elif ph == "penalty":
            self._penalty(parts[3])
        return None

    def _draw(self, card):
        s = self.draw_queue.pop(0)
        self.dessert_pile[card] -= 1
        if not self.dessert_pile[card]:
            del self.dessert_pile[card]
        self.dessert_left -= 1
        self.hands[s][card] = self.hands[s].get(card, 0) + 1
        if not self.draw_queue:
            self._check_kitchen()
            self._next_round()

    def _check_kitchen(self):
        # "Running out of Cards": when the dessert pile holds too few cards for
        # everyone to draw, the Kitchen closes for good.
        # CHOICE: we test this as a state of the pile, after each batch of draws (the
        # deal, the draws after a hungry guest, a Favorite's extra card): once fewer
        # than N cards are left, the Kitchen is closed, so a Favorite's extra card is
        # drawn only while the Kitchen is open.  Other reading: the Kitchen closes only
        # at the moment everyone must draw and cannot, and a single extra card for a
        # Favorite may still be drawn from a pile smaller than N.
        if not self.kitchen_closed and self.dessert_left < self.n:
            self.kitchen_closed = True

    def _next_round(self):
        """"Playing": the Maitre D' turns up the next guest, if any."""
        if self.guest_left == 0:
            # CHOICE: "Running out of Cards": we find the guest pile "empty" when the
            # Maitre D' goes to turn up a guest and cannot, i.e. after the last guest
            # of the pile has been fully dealt with.  Other reading: the game ends the
            # instant the last guest is turned up the second time, before it is served.
            self.empties += 1
            if self.empties == 1 and self.discards:
                for g in self.discards:
                    self.guest_pile[g] = self.guest_pile.get(g, 0) + 1
                self.guest_left = len(self.discards)
                self.discards = []
            else:
                # CHOICE: if the discard pile is empty at the first reshuffle there is
                # nothing to continue with, and the game ends then.  Other reading:
                # that counts as the second emptiness only after some later turn.
                self.phase = "over"
                return
        self.phase = "turnup"

    def _turn_up(self, g):
        self.guest_pile[g] -= 1
        if not self.guest_pile[g]:
            del self.guest_pile[g]
        self.guest_left -= 1
        self.guest = g
        self.callers = []
        self.favs = []
        self.failed = []
        self.pool = []
        self.server = None
        self.server_fav = False
        self.speaker = 0
        self.phase = "scramble"

    def _say(self, move):
        # CHOICE: every seat says something about every guest ("call", "pass" or
        # "favourite"): "Playing" asks players who cannot serve to say "pass".  A
        # "call" is open to every seat, even one that cannot serve or holds no card,
        # since "Erroneous Calls" has players who call by mistake.  Other readings: a
        # seat may stay silent; only a seat able to serve may call.
        if move == "call":
            self.callers.append(self.speaker)
        elif move == "favourite":
            self.favs.append(self.speaker)
        self.speaker += 1
        if self.speaker == self.n:
            self._contend()

    def _contend(self):
        """Find who serves next among those who said they could."""
        # CHOICE: a Favorite claimer who then fails is treated like any erroneous
        # caller: the other Favorite claimers, then the plain callers, may still
        # serve ("If someone else also calls it, then all is well").  Other reading:
        # a failed Favorite claim ends the round.
        favs = [s for s in self.favs if s not in self.failed]
        if favs:
            pool, fav = favs, True
        else:
            pool, fav = [s for s in self.callers if s not in self.failed], False
        self.server_fav = fav
        if not pool:
            if self.failed:
                # "Erroneous Calls", "Reminders & Clarifications": nobody delivered;
                # every seat that said it could (plain callers and Favorite claimers
                # alike) loses a random card to its own dirty dishes ("their dirty
                # dish pile" in "Erroneous Calls" is read as the erroneous player's,
                # as the Reminders say).
                # CHOICE: these penalties come one seat at a time in seat order,
                # before the guest is discarded (the order of outcome 5 in "Playing");
                # a seat with an empty hand has nothing to lose and is skipped.  Other
                # readings: the guest is discarded first; the card goes to the taker's
                # dishes.
                self.penalty_queue = sorted(set(self.callers) | set(self.favs))
                self._next_penalty()
            else:
                # "Passing": everyone passed; the guest goes hungry.
                self._guest_leaves()
            return
        if len(pool) == 1:
            self._set_server(pool[0])
        else:
            self.pool = pool
            self.phase = "decide"

    def _set_server(self, s):
        self.server = s
        self.pool = []
        self.phase = "serve"

    def _serve(self, move):
        s = self.server
        if move == "fail":
            self.failed.append(s)
            self.server = None
            self._contend()
            return
        cards = move[len("serve "):].split("+")
        hand = self.hands[s]
        for c in cards:
            hand[c] -= 1
            if not hand[c]:
                del hand[c]
            self.dishes[s][c] = self.dishes[s].get(c, 0) + 1
        self.collected[s].append(self.guest)
        favs = self.deck.guest_favs[self.guest]
        self.guest = None
        self.server = None
        # "Favorites": serving the guest's Favorite earns one extra card, unless the
        # Kitchen is closed ("Reminders & Clarifications").
        # CHOICE: one extra card even if a serving held two of the guest's Favorites.
        # CHOICE: the extra card is drawn at once, before the next guest is turned
        # up.  Other reading: at the next general draw.
        if any(c in favs for c in cards) and not self.kitchen_closed:
            self.draw_queue = [s]
            self.phase = "draw"
        else:
            self._next_round()

    def _next_penalty(self):
        while self.penalty_queue and not self.hands[self.penalty_queue[0]]:
            self.penalty_queue.pop(0)
        if self.penalty_queue:
            self.phase = "penalty"
        else:
            self._guest_leaves()

    def _penalty(self, card):
        s = self.penalty_queue.pop(0)
        hand = self.hands[s]
        hand[card] -= 1
        if not hand[card]:
            del hand[card]
        self.dishes[s][card] = self.dishes[s].get(card, 0) + 1
        self._next_penalty()

    def _guest_leaves(self):
        """The guest goes to the discard pile and everyone draws ("Playing" 1, 4, 5)."""
        self.discards.append(self.guest)
        self.guest = None
        self.server = None
        self.pool = []
        self._check_kitchen()
        if self.kitchen_closed:
            self._next_round()
        else:
            # Protocol convention: everyone draws in seat order from seat 0.
            self.draw_queue = list(range(self.n))
            self.phase = "draw"

    # ------------------------------------------------------------------ views
    def observation(self, seat):
        tm = self.to_move()

        def flat(d):
            out = []
            for c in sorted(d):
                out.extend([c] * d[c])
            return out

        return {
            "seat": seat,
            "to_move": tm,
            "hand": flat(self.hands[seat]),
            "hand_sizes": [sum(h.values()) for h in self.hands],
            # "Calling & Serving": dirty dishes lie face up, so everyone sees them.
            "dishes": [flat(d) for d in self.dishes],
            "guests_collected": [len(c) for c in self.collected],
            # Collected guests lie face down: their count is public, the cards are
            # known to their owner only.
            "own_guests": sorted(self.collected[seat]),
            "guest": self.guest,
            "guest_pile": self.guest_left,
            # CHOICE: the guest discard pile is taken to be face up (each discarded
            # guest was turned up "so all can see").  Other reading: face down.
            "discards": sorted(self.discards),
            # FIX (FIXES.md, 1): once the Kitchen closes the rest of the dessert pile is
            # set aside, so no card is left in the pile: "Set aside whatever is left of
            # the dessert pile at that point." (Running out of Cards).  The author's
            # choice had been to go on counting them here.
            "dessert_pile": 0 if self.kitchen_closed else self.dessert_left,
            "kitchen_closed": self.kitchen_closed,
            "legal_moves": self.legal_moves() if tm == seat else [],
        }
