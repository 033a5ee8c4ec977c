"""The rules of Just Desserts as a state machine (basic game and the three advanced rules).

Phases of a turn (see NOTES.md):
  draw phase  -> chance steps: the turn's player draws a dessert, then a guest is turned up
  'options'   -> the player picks ONE turn option (serve/poach, kitchen, dump, buffet)
  'serving'   -> after a first serving attempt: serve/poach again, or stop
  'dumping'   -> throwing away desserts one by one, then stop (replacement draws follow)
  'answer'    -> a serving or poach waits for out-of-turn answers (block / surprise / pass)
  'buffet_return', 'buffet_serve' -> Opening a Buffet
  'discard'   -> the Discard Phase: guests of duplicated suits depart, then the turn ends
  'over'      -> somebody has won
Pending chance events (draws, guest turn-ups) sit in `queue` and are resolved before any
seat acts again.
"""

from itertools import combinations

from .serving import satisfying_sets, has_won


def _add(counter, card, n=1):
    counter[card] = counter.get(card, 0) + n


def _take(counter, card, n=1):
    left = counter[card] - n
    if left < 0:
        raise ValueError("card not there: %s" % card)
    if left:
        counter[card] = left
    else:
        del counter[card]


def _sorted_cards(counter):
    out = []
    for c in sorted(counter):
        out.extend([c] * counter[c])
    return out


class Game:
    def __init__(self, deck, players, poaching=False, buffet=False, surprise=False):
        self.deck = deck
        self.n = players
        self.poaching = poaching
        self.buffet = buffet
        self.surprise = surprise
        self.hands = [{} for _ in range(players)]
        self.claimed = [set() for _ in range(players)]
        self.center = set()
        self.dpile = {d: c for d, c in deck.copies.items() if c > 0}
        self.ddiscard = {}
        self.gpile = {g: 1 for g in deck.guest_ids}
        self.gdiscard = []          # bottom .. top; the top guest stands in the doorway
        self.turn = 0               # protocol convention: seat 0 goes first ("Who Goes First")
        self.phase = "options"
        self.queue = []             # pending chance events: ("draw", seat) or ("turnup",)
        self.serves_done = 0        # successful servings (incl. a poach) this turn
        self.poach_success = False
        self.poach_blocked = False
        self.no_poach = set()       # guests surprised away this turn (Surprise Parties)
        self.dumped = 0
        self.offer = None
        self.answerers = []
        self.answer_seat = None
        self.returners = []
        self.winner = None
        # "Set Up": three desserts to each player (dealt one at a time, seat 0 first, by
        # protocol convention), then three guests face up in the middle.
        for _ in range(3):
            for s in range(players):
                self.queue.append(("draw", s))
        for _ in range(3):
            self.queue.append(("turnup",))
        # CHOICE: guests of the same suit dealt at Set Up stay until the end of the first
        # turn (the Discard Phase happens "at the end of your turn").  Other reading: sort
        # them out at once during Set Up.
        # then the first turn's "Draw Phase"
        self.queue.append(("draw", 0))
        self.queue.append(("turnup",))
        self.settle()

    # ------------------------------------------------------------------ who moves
    def to_move(self):
        if self.phase == "over":
            return "TERMINAL"
        if self.queue:
            return "CHANCE"
        if self.phase == "answer":
            return "CHANCE" if self.answer_seat is None else self.answer_seat
        if self.phase == "buffet_return":
            return self.returners[0]
        return self.turn

    # ------------------------------------------------------------------ automatic steps
    def settle(self):
        """Carry out everything that needs no decision, until a seat or chance must act."""
        while True:
            if self.winner is not None:
                self.phase = "over"
                self.queue = []
                self.offer = None
                return
            if self.queue:
                ev = self.queue[0]
                if ev[0] == "draw":
                    if not self.dpile and self.ddiscard:
                        # "Reshuffling": the discard pile is shuffled and used anew.
                        # CHOICE: the reshuffle happens when a card must be drawn from the
                        # empty pile (not at the moment the last card is taken).  Other
                        # reading: reshuffle as soon as the pile runs out.
                        self.dpile, self.ddiscard = self.ddiscard, {}
                    if not self.dpile:
                        # CHOICE: no dessert anywhere to draw (all in hands): the draw is
                        # skipped.  The rulebook is silent.
                        self.queue.pop(0)
                        continue
                else:
                    if not self.gpile and len(self.gdiscard) > 1:
                        # "Reshuffling": the guest discards are shuffled anew, except the
                        # topmost one, which starts the new discard pile.  (Same timing
                        # CHOICE as for desserts.)
                        for g in self.gdiscard[:-1]:
                            _add(self.gpile, g)
                        self.gdiscard = self.gdiscard[-1:]
                    if not self.gpile:
                        # CHOICE: no guest can be turned up: the turn-up is skipped.
                        self.queue.pop(0)
                        continue
                return
            if self.phase == "answer":
                if self.answer_seat is not None:
                    return
                if not self.answerers:
                    self._offer_succeeds()
                    continue
                if len(self.answerers) == 1:
                    self.answer_seat = self.answerers[0]
                    return
                return  # chance: who speaks first
            if self.phase == "serving" and self.serves_done >= 2:
                self.phase = "discard"
                continue
            if self.phase == "buffet_serve" and self.serves_done >= 1:
                self.phase = "discard"
                continue
            if self.phase == "buffet_return" and not self.returners:
                # "Opening a Buffet": you draw three more cards, then may serve one guest.
                # CHOICE: the three draws come after the other players have moved their
                # guests back (the text says "Meanwhile"); other reading: draws first.
                self.queue.extend([("draw", self.turn)] * 3)
                self.phase = "buffet_serve"
                self.serves_done = 0
                continue
            if self.phase == "discard" and not self._departable():
                self._next_turn()
                continue
            return

    def _next_turn(self):
        # "Discard Phase": when done discarding guests the turn ends; play passes clockwise.
        self.turn = (self.turn + 1) % self.n
        self.phase = "options"
        self.serves_done = 0
        self.poach_success = False
        self.poach_blocked = False
        self.no_poach = set()
        self.dumped = 0
        # "Draw Phase": draw a dessert, then turn up the next guest into the middle.
        self.queue.append(("draw", self.turn))
        self.queue.append(("turnup",))

    def _departable(self):
        """Guests in the middle whose suit is shown more than once ("Discard Phase")."""
        by_suit = {}
        for g in self.center:
            by_suit.setdefault(self.deck.suit[g], []).append(g)
        out = []
        for gs in by_suit.values():
            if len(gs) > 1:
                out.extend(gs)
        return out

    # ------------------------------------------------------------------ chance
    def chance_outcomes(self):
        """List of (move text, numerator, denominator)."""
        if self.phase == "over":
            return []
        if self.queue:
            ev = self.queue[0]
            if ev[0] == "draw":
                pile, fmt = self.dpile, "draw %s"
            else:
                pile, fmt = self.gpile, "turn up %s"
            total = sum(pile.values())
            return sorted((fmt % c, k, total) for c, k in pile.items())
        if self.phase == "answer" and self.answer_seat is None and len(self.answerers) > 1:
            # CHOICE: the rulebook gives no odds for who speaks first when several players
            # may answer at once; each is equally likely.
            k = len(self.answerers)
            return sorted(("first seat %d" % s, 1, k) for s in self.answerers)
        return []

    def apply_chance(self, move):
        ev = self.queue[0] if self.queue else None
        if ev is not None and ev[0] == "draw":
            card = move[len("draw "):]
            _take(self.dpile, card)
            _add(self.hands[ev[1]], card)
            self.queue.pop(0)
        elif ev is not None:
            g = move[len("turn up "):]
            _take(self.gpile, g)
            self.center.add(g)
            self.queue.pop(0)
        else:
            self.answer_seat = int(move[len("first seat "):])
        self.settle()

    # ------------------------------------------------------------------ helpers
    def _doorway(self):
        return self.gdiscard[-1] if self.gdiscard else None

    def _sets(self, seat, guest):
        d = self.deck
        return satisfying_sets(self.hands[seat].keys(), d.dmask, d.wants[guest], d.refuses[guest])

    def _unclaimed_targets(self):
        # "Discard Phase": the guest standing in the doorway is also eligible to be served.
        # CHOICE: a doorway guest may be served like a guest in the middle (and, once
        # served, the next guest down the discard pile stands in the doorway).
        out = set(self.center)
        top = self._doorway()
        if top is not None:
            out.add(top)
        return sorted(out)

    def _can_poach(self):
        return (self.poaching and self.serves_done < 2 and not self.poach_success
                and not self.poach_blocked)

    def _serve_moves(self, seat):
        moves = []
        for g in self._unclaimed_targets():
            for s in self._sets(seat, g):
                moves.append("serve %s with %s" % (g, "+".join(s)))
        return moves

    def _poach_moves(self, seat):
        moves = []
        for other in range(self.n):
            if other == seat:
                continue
            for g in self.claimed[other]:
                if g in self.no_poach:
                    continue
                for s in self._sets(seat, g):
                    moves.append("poach %s with %s" % (g, "+".join(s)))
        return moves

    # CHOICE: any four single-taste desserts open a Buffet, even two of the same taste or
    # two copies of one card; and a Buffet may be opened when no other player has a guest.
    # The rulebook asks only for "four single-flavor Desserts".
    def _buffet_moves(self, seat):
        aces = []
        for c in sorted(self.hands[seat]):
            if c in self.deck.ace:
                aces.extend([c] * min(4, self.hands[seat][c]))
        if len(aces) < 4:
            return []
        return sorted({"buffet " + "+".join(combo) for combo in combinations(aces, 4)})

    def _block_sets(self):
        o = self.offer
        favs = self.deck.favorites[o["guest"]]
        used = favs.intersection(o["cards"])
        sets = self._sets(o["victim"], o["guest"])
        if used:
            # "Poaching & Blocking": a poach made with a Favorite can be Blocked only with
            # the guest's alternate Favorite.
            # CHOICE: with several copies of a Favorite (test decks), another copy of the
            # Favorite used by the poacher is not the "alternate" one.
            alt = favs - used
            sets = [s for s in sets if alt.intersection(s)]
        return sets

    def _surprise_sets(self, seat):
        o = self.offer
        favs = self.deck.favorites[o["guest"]]
        # CHOICE: a Surprise offer must itself Satisfy the guest (same test as serving)
        # and include one of its Favorites.  Other reading: the Favorite alone is always
        # enough, whatever the guest's cravings and refusals.
        return [s for s in self._sets(seat, o["guest"]) if favs.intersection(s)]

    # ------------------------------------------------------------------ seat moves
    def legal_moves(self):
        who = self.to_move()
        if not isinstance(who, int):
            return []
        ph = self.phase
        moves = []
        if ph in ("options", "serving"):
            if self.serves_done < 2:
                moves += self._serve_moves(who)
            if self._can_poach():
                moves += self._poach_moves(who)
            if ph == "options":
                # "Turn Options": Go Back To The Kitchen; Dump Your Tray.
                moves.append("kitchen")
                moves.append("dump")
                moves += ["dump %s" % c for c in self.hands[who]]
                if self.buffet:
                    moves += self._buffet_moves(who)
            else:
                # CHOICE: `stop` (serve no more) exists only after a first serving attempt;
                # choosing "Satisfy Up To Two Guests" and serving nobody is not an option
                # (a player who wants to do nothing can Dump Your Tray with no card).
                # Other reading: "up to two" allows choosing the option and serving none.
                moves.append("stop")
        elif ph == "dumping":
            moves += ["dump %s" % c for c in self.hands[who]]
            moves.append("stop")
        elif ph == "buffet_serve":
            moves += self._serve_moves(who)
            moves.append("stop")
        elif ph == "buffet_return":
            moves += ["return %s" % g for g in self.claimed[who]]
        elif ph == "answer":
            if who == self.offer["victim"]:
                moves += ["block with %s" % "+".join(s) for s in self._block_sets()]
            else:
                moves += ["surprise with %s" % "+".join(s) for s in self._surprise_sets(who)]
            moves.append("pass")
        elif ph == "discard":
            moves += ["depart %s" % g for g in self._departable()]
        moves.sort()
        return moves

    def apply_seat(self, move):
        """Play a seat move already known to be legal."""
        who = self.to_move()
        verb, _, rest = move.partition(" ")
        if verb == "serve" or verb == "poach":
            g, _, cards = rest.partition(" with ")
            self._attempt(who, verb, g, cards.split("+"))
        elif verb == "kitchen":
            # "Go Back To The Kitchen": draw an extra card.
            self.queue.append(("draw", who))
            self.phase = "discard"
        elif verb == "dump":
            if rest:
                # "Dump Your Tray": discard any number of cards, then draw back as many.
                _take(self.hands[who], rest)
                _add(self.ddiscard, rest)
                self.dumped += 1
                self.phase = "dumping"
            else:
                self.phase = "discard"
        elif verb == "stop":
            if self.phase == "dumping":
                self.queue.extend([("draw", who)] * self.dumped)
                self.dumped = 0
            self.phase = "discard"
        elif verb == "buffet":
            # "Opening a Buffet": discard four Aces; every other player moves one of
            # their claimed guests (their choice) back into the middle.
            for c in rest.split("+"):
                _take(self.hands[who], c)
                _add(self.ddiscard, c)
            # CHOICE: the other players choose in clockwise order from the buffet
            # player's left, each seeing earlier choices.  The rulebook gives no order.
            self.returners = [(who + k) % self.n for k in range(1, self.n)
                              if self.claimed[(who + k) % self.n]]
            self.phase = "buffet_return"
        elif verb == "return":
            self.claimed[who].discard(rest)
            self.center.add(rest)
            self.returners.pop(0)
        elif verb == "depart":
            # CHOICE: only guests whose suit is shown twice or more may depart, and only
            # until each suit shows at most once (no unique guest may be sent away).
            # "Discard Phase": the player chooses which guests depart; the last one put
            # on the guest discard pile stands in the doorway.
            self.center.discard(rest)
            self.gdiscard.append(rest)
        elif verb == "pass":
            self.answerers.remove(who)
            self.answer_seat = None
        elif verb == "block":
            self._block(who, rest[len("with "):].split("+"))
        elif verb == "surprise":
            self._surprise(who, rest[len("with "):].split("+"))
        else:
            raise ValueError("unknown move %r" % move)
        self.settle()

    # ------------------------------------------------------------------ serving
    def _attempt(self, who, kind, guest, cards):
        # CHOICE: making a serving (or poaching) attempt commits the player to the option
        # "Satisfy Up To Two Guests"; after a Blocked or Surprised attempt they may try
        # again or stop, but not switch to another option.  Other reading (suggested by
        # "as if that serving attempt had not happened"): all options open again.
        back = "buffet_serve" if self.phase == "buffet_serve" else "serving"
        # CHOICE: while an attempt waits for answers, the offered desserts are out of the
        # player's hand (shown in `offer`); they go back to the hand if Blocked/Surprised
        # ("returns the unused Desserts to their hand").
        hand = self.hands[who]
        for c in cards:
            _take(hand, c)
        victim = None
        if kind == "poach":
            victim = next(s for s in range(self.n) if guest in self.claimed[s])
        self.offer = {"seat": who, "kind": kind, "guest": guest, "cards": sorted(cards),
                      "victim": victim, "back": back}
        favs = self.deck.favorites[guest]
        answerers = []
        if victim is not None and self._block_sets():
            answerers.append(victim)
        # CHOICE: a serving of the guest standing in the doorway can be Surprised too (the
        # rulebook names the center and poaching; the doorway guest is "also eligible to
        # be served" like those in the center).
        if self.surprise and not favs.intersection(cards):
            # "Surprise Parties": when another player Satisfies a guest with desserts
            # other than its Favorite (from the middle or when poaching), anyone may
            # intercept by offering the Favorite.
            # CHOICE: the poached player answers only by Blocking (a Surprise by them
            # would be a Block without the Tip); other players may Surprise.
            for s in range(self.n):
                if s != who and s != victim and self._surprise_sets(s):
                    answerers.append(s)
        # CHOICE: every player who could answer is asked; when several could, who speaks
        # first is a chance step.  The first answer given settles the attempt (the
        # rulebook says the guest takes whichever Favorite is offered first); a player
        # who passes is not asked again about this attempt.
        self.answerers = sorted(answerers)
        self.answer_seat = None
        self.phase = "answer"

    def _claim(self, seat, guest):
        self.claimed[seat].add(guest)
        # "Winning": you win at any time your guests include three of one suit or five of
        # different suits.
        if has_won(self.claimed[seat], self.deck.suit):
            self.winner = seat

    def _remove_unclaimed(self, guest):
        if guest in self.center:
            self.center.discard(guest)
        else:
            self.gdiscard.pop()  # it stood in the doorway

    def _offer_succeeds(self):
        o = self.offer
        who, g, cards = o["seat"], o["guest"], o["cards"]
        for c in cards:
            _add(self.ddiscard, c)
        if o["kind"] == "poach":
            self.claimed[o["victim"]].discard(g)
        else:
            self._remove_unclaimed(g)
        self.phase = o["back"]
        self.offer = None
        self.answerers = []
        self.answer_seat = None
        self._claim(who, g)
        # "Favorites & Tips": serving a guest its Favorite earns a Tip (an extra draw).
        # CHOICE: one Tip per serving, even if a serving somehow holds two Favorites.
        if self.deck.favorites[g].intersection(cards):
            self.queue.append(("draw", who))
        if o["kind"] == "poach":
            # "Poaching & Blocking": the player whose guest is stolen draws an extra card.
            # CHOICE: the poacher's Tip is drawn before the robbed player's; the rulebook
            # gives no order.
            self.queue.append(("draw", o["victim"]))
            self.poach_success = True
        self.serves_done += 1

    def _block(self, who, cards):
        # CHOICE: a Block settles the poach at once; it cannot itself be Surprised (the
        # rulebook lets a Surprise answer a serving from the center or a poach, and treats
        # Block and Surprise as rival answers: "the Favorite offered first").
        o = self.offer
        for c in cards:
            _take(self.hands[who], c)
            _add(self.ddiscard, c)
        for c in o["cards"]:
            _add(self.hands[o["seat"]], c)
        # "Poaching & Blocking": a Blocked poacher takes the desserts back and may not
        # poach again this turn; a Block with a Favorite earns the blocker a Tip.
        self.poach_blocked = True
        if self.deck.favorites[o["guest"]].intersection(cards):
            self.queue.append(("draw", who))
        self.phase = o["back"]
        self.offer = None
        self.answerers = []
        self.answer_seat = None

    def _surprise(self, who, cards):
        o = self.offer
        g = o["guest"]
        for c in cards:
            _take(self.hands[who], c)
            _add(self.ddiscard, c)
        for c in o["cards"]:
            _add(self.hands[o["seat"]], c)
        if o["kind"] == "poach":
            self.claimed[o["victim"]].discard(g)
            # CHOICE: the poached player, whose guest is taken by the Surprise, still
            # draws the extra card for a stolen guest.  Other reading: no card, since the
            # poach itself failed.  (The surpriser gets no Tip: "No Tipping".)
            self.queue.append(("draw", o["victim"]))
        else:
            self._remove_unclaimed(g)
        # "Surprise Parties": the thwarted player may not poach the Surprised guest back
        # this turn, but (unlike after a Block) may attempt another poach.
        self.no_poach.add(g)
        self.phase = o["back"]
        self.offer = None
        self.answerers = []
        self.answer_seat = None
        self._claim(who, g)

    # ------------------------------------------------------------------ views
    def outcome(self):
        if self.winner is None:
            return None
        return {"winners": [self.winner],
                "losers": [s for s in range(self.n) if s != self.winner],
                "draw": False,
                "scores": [len(c) for c in self.claimed]}

    def observation(self, seat):
        who = self.to_move()
        o = self.offer
        return {
            "seat": seat,
            "turn": self.turn,
            "to_move": who,
            "hand": _sorted_cards(self.hands[seat]),
            "hand_sizes": [sum(h.values()) for h in self.hands],
            # Hands are secret; nothing in the rulebook reveals them.
            "visible_hands": [_sorted_cards(h) if s == seat else None
                              for s, h in enumerate(self.hands)],
            "claimed": [sorted(c) for c in self.claimed],
            "centre": sorted(self.center),
            "dessert_pile_size": sum(self.dpile.values()),
            "dessert_discard": _sorted_cards(self.ddiscard),
            "guest_pile_size": sum(self.gpile.values()),
            "guest_discard_size": len(self.gdiscard),
            "guest_discard_top": self._doorway(),
            "offer": (None if o is None else
                      {"seat": o["seat"], "guest": o["guest"], "cards": list(o["cards"])}),
            "legal_moves": self.legal_moves() if who == seat else [],
        }
