"""Just Desserts advanced rules: Poaching & Blocking, Opening a Buffet, Surprise Parties.

Part of the package tablerules.model.just_desserts (game.py calls it); clause ids refer to
spec/just_desserts.toml.  Every
serving attempt (from the middle, the doorway or a poach) passes through :func:`offer`:
when somebody may answer it (a block by the poached player, a surprise by anyone holding
the guest's favourite) the game opens an answer window; otherwise the serving succeeds
at once.
"""

from __future__ import annotations

from functools import lru_cache
from itertools import combinations

from ..core import STRICT, RuleGap
from ..decks import Deck, favorite_used
from .moves import PASS, Move
from .serving import guest_servings, serve_succeeds, serving_moves, take_guest, tips_for
from .state import BUFFET_ACES, DRAW, Offer, State, deck_of, doorway, evolve, holder, minus, plus, set_seat

# --------------------------------------------------------------------------- poaching


def poach_moves(state: State) -> list[Move]:
    """jd.poach.attempt: serve a guest another player holds, within jd.poach.one-opportunity."""
    if state.poach:  # rule: jd.poach.one-opportunity, jd.poach.blocked-no-retry
        return []
    targets = []
    for seat, guests in enumerate(state.claimed):
        if seat == state.turn:  # rule: jd.poach.attempt
            continue
        for g in sorted(set(guests)):
            if g in state.shielded:  # rule: jd.surprise.no-poach-back
                continue  # jd.surprise.no-poach-back
            targets.append(g)
    return serving_moves(state, "poach", targets)


def why_bad_poach(state: State, move: Move) -> str:
    if state.phase != "choose":  # rule: jd.buffet.serve-one
        return "jd.buffet.serve-one"
    if state.poach == "done":  # rule: jd.poach.one-opportunity
        return "jd.poach.one-opportunity"
    if state.poach == "blocked":  # rule: jd.poach.blocked-no-retry
        return "jd.poach.blocked-no-retry"
    if move.guest in state.shielded:  # rule: jd.surprise.no-poach-back
        return "jd.surprise.no-poach-back"
    if holder(state, move.guest) in (-1, state.turn):  # rule: jd.poach.attempt
        return "jd.poach.attempt"
    return "jd.turn.satisfy-guests"


# --------------------------------------------------------------------------- the answer window


def offer(state: State, attempt: Offer) -> State:
    """Put the desserts on the table and open the answer window (settled in :func:`settle_window`).

    Who is asked depends only on what everyone can see (the offered cards, the guest's card,
    who holds the guest, hand sizes), never on what a hand holds: a window opened only for
    the holder of a favourite or a block would tell every player that they hold one
    (jd.ruling.answer-window=public; ``holders`` asks only the seats that hold an answer).
    """
    hand = minus(state.hands[attempt.server], attempt.cards)
    state = evolve(state, hands=set_seat(state.hands, attempt.server, hand), offer=attempt)
    answerers = sorted(set(blockers(state, attempt)) | set(surprisers(state, attempt)))
    if state.setup.options.answer_window == "holders":  # rule: jd.ruling.answer-window
        # only a seat holding a block or a surprise; rule: jd.ruling.answer-window
        answerers = [s for s in answerers if can_answer(state, s)]  # rule: jd.ruling.answer-window
    return evolve(state, phase="window", answerers=tuple(answerers), speaker=-1)


def block_sets(state: State, attempt: Offer, hand: tuple[str, ...]) -> tuple[tuple[str, ...], ...]:
    """jd.block.defender: servings from the defender's hand that re-satisfy the guest.

    jd.block.favourite-only-by-other-favourite: a poach made with a favourite can only be
    blocked with the guest's other favourite.
    """
    sets = guest_servings(state, hand, attempt.guest)
    if favorite_used(deck_of(state), attempt.cards, attempt.guest):  # rule: jd.block.favourite-only-by-other-favourite
        others = set(deck_of(state).guest(attempt.guest).favorites) - set(attempt.cards)
        sets = tuple(s for s in sets if others & set(s))  # rule: jd.block.favourite-only-by-other-favourite
    return sets


def blockers(state: State, attempt: Offer) -> list[int]:
    """The poached player, asked whether to block, unless everyone can see that no block is possible."""
    victim = attempt.victim
    if victim < 0 or not state.setup.options.poaching or not state.hands[victim]:  # rule: jd.block.defender
        return []
    guest = deck_of(state).guest(attempt.guest)
    if (favorite_used(deck_of(state), attempt.cards, attempt.guest)  # rule: jd.block.favourite-only-by-other-favourite
            and not set(guest.favorites) - set(attempt.cards)):
        return []
    return [victim]


def surprise_servings(state: State, attempt: Offer, seat: int) -> list[tuple[str, ...]]:
    """jd.surprise.intercept, jd.surprise.needs-favourite: what this seat could offer the guest instead.

    jd.ruling.surprise-serving: one favourite alone (favourite-alone), or any serving from the
    hand that satisfies the guest and holds a favourite (serving-with-favourite).
    """
    # rule: jd.surprise.intercept, jd.ruling.victim-surprise
    if not may_be_surprised(state, attempt) or not may_surprise(state, attempt, seat):
        return []
    favs = set(deck_of(state).guest(attempt.guest).favorites)
    hand = state.hands[seat]
    if state.setup.options.surprise_serving == "serving-with-favourite":  # rule: jd.ruling.surprise-serving
        # rule: jd.ruling.surprise-serving
        return [s for s in guest_servings(state, hand, attempt.guest) if favs & set(s)]
    return [(f,) for f in sorted(favs & set(hand))]


def may_surprise(state: State, attempt: Offer, seat: int) -> bool:
    """Anybody but the server (jd.surprise.intercept); the poached player only under
    jd.ruling.victim-surprise=allowed (block-only: that player may only block)."""
    if seat == attempt.server:  # rule: jd.surprise.intercept
        return False
    # rule: jd.ruling.victim-surprise
    return not (seat == attempt.victim and state.setup.options.victim_surprise == "block-only")


def may_be_surprised(state: State, attempt: Offer) -> bool:
    """A serving without any of the guest's favourites, with Surprise Parties on (jd.surprise.intercept).

    jd.ruling.surprise-doorway: under middle-and-poach a serving of the guest standing in the
    doorway cannot be surprised (the rule names servings from the middle and poaches).
    """
    deck = deck_of(state)
    # rule: jd.surprise.intercept
    if not (state.setup.options.surprise_parties and deck.guest(attempt.guest).favorites):
        return False
    if favorite_used(deck, attempt.cards, attempt.guest):  # rule: jd.surprise.intercept
        return False
    # rule: jd.ruling.surprise-doorway
    return not (from_doorway(state, attempt) and state.setup.options.surprise_doorway == "middle-and-poach")


def from_doorway(state: State, attempt: Offer) -> bool:
    """The attempt serves the guest standing in the doorway (jd.discard.doorway)."""
    return attempt.victim < 0 and attempt.guest not in state.centre and attempt.guest == doorway(state)


def surprisers(state: State, attempt: Offer) -> list[int]:
    """Every other player with a card in hand, asked whether to surprise (jd.surprise.intercept)."""
    if not may_be_surprised(state, attempt):  # rule: jd.surprise.intercept
        return []
    # rule: jd.surprise.intercept
    return [s for s in range(state.setup.players) if may_surprise(state, attempt, s) and state.hands[s]]


def can_answer(state: State, seat: int) -> bool:
    """True if ``seat`` holds a block or a surprise for the offer (not only ``pass``)."""
    return len(answers_of(state, seat)) > 1


def settle_window(state: State) -> State:
    """No answer left: the serving succeeds; one seat left: it speaks; several: a race (or clockwise)."""
    if not state.answerers:  # rule: jd.surprise.intercept, jd.block.defender
        return serve_succeeds(state, state.offer)
    o = state.setup.options
    _check_plain_block_gap(state)
    if state.speaker >= 0:  # plumbing: a speaker is already chosen
        return state
    if len(state.answerers) == 1:  # rule: jd.surprise.first-offered
        return evolve(state, speaker=state.answerers[0])
    if o.answer_order == STRICT:  # rule: jd.ruling.answer-order
        able = [s for s in state.answerers if can_answer(state, s)]  # rule: jd.ruling.answer-order
        if len(able) > 1:  # rule: jd.ruling.answer-order
            raise RuleGap("jd.ruling.answer-order", f"seats {able} may answer at once")
    if o.answer_order == "clockwise":  # rule: jd.ruling.answer-order
        n = state.setup.players
        first = min(state.answerers, key=lambda s: (s - state.offer.server) % n)
        return evolve(state, speaker=first)
    return state  # jd.surprise.first-offered: a CHANCE race picks who speaks first


def _check_plain_block_gap(state: State) -> None:
    """jd.ruling.plain-block-vs-surprise: a block without a favourite competing with a surprise."""
    if state.setup.options.block_or_surprise != STRICT:  # rule: jd.ruling.plain-block-vs-surprise
        return
    attempt = state.offer
    v = attempt.victim
    if v < 0 or v not in state.answerers:  # rule: jd.ruling.plain-block-vs-surprise
        return
    favs = set(deck_of(state).guest(attempt.guest).favorites)
    plain = any(not (favs & set(s)) for s in block_sets(state, attempt, state.hands[v]))
    # rule: jd.ruling.plain-block-vs-surprise
    others = [s for s in state.answerers if s != v and surprise_servings(state, attempt, s)]
    if plain and others:  # rule: jd.ruling.plain-block-vs-surprise
        raise RuleGap("jd.ruling.plain-block-vs-surprise", "a block without a favourite competes with a surprise")


def answers(state: State) -> tuple[Move, ...]:
    """The speaker's answers: block, surprise, or pass."""
    return answers_of(state, state.speaker)


def answers_of(state: State, seat: int) -> tuple[Move, ...]:
    """What ``seat`` may answer to the offer on the table: block, surprise, or pass."""
    attempt = state.offer
    moves = []
    if seat == attempt.victim and state.setup.options.poaching:  # rule: jd.block.defender
        moves += [Move("block", cards=s) for s in block_sets(state, attempt, state.hands[seat])]
    moves += [Move("surprise", cards=s) for s in surprise_servings(state, attempt, seat)]
    moves.append(PASS)
    return tuple(sorted(moves))


def why_bad_answer(state: State, move: Move) -> str:
    attempt = state.offer
    if move.verb == "block":  # plumbing: which clause to name for a refused answer
        if state.speaker != attempt.victim:  # rule: jd.block.defender
            return "jd.block.defender"
        # rule: jd.block.favourite-only-by-other-favourite
        if favorite_used(deck_of(state), attempt.cards, attempt.guest):
            return "jd.block.favourite-only-by-other-favourite"
        return "jd.block.defender"
    if move.verb == "surprise":  # plumbing: which clause to name for a refused answer
        if favorite_used(deck_of(state), attempt.cards, attempt.guest):  # rule: jd.surprise.intercept
            return "jd.surprise.intercept"
        if not may_surprise(state, attempt, state.speaker):  # rule: jd.ruling.victim-surprise
            return "jd.ruling.victim-surprise"
        if state.setup.options.surprise_serving == "serving-with-favourite":  # rule: jd.ruling.surprise-serving
            return "jd.ruling.surprise-serving"
        return "jd.surprise.needs-favourite"
    return "jd.surprise.first-offered"


def answer(state: State, seat: int, move: Move) -> State:
    if move.verb == "pass":  # rule: jd.surprise.first-offered
        rest = tuple(s for s in state.answerers if s != seat)  # rule: jd.surprise.first-offered
        return _passed(state, rest, -1)
    thwarted = _return_offer(state)
    if move.verb == "block":  # plumbing: dispatch on the answer
        return _block(thwarted, state.offer, seat, move.cards)
    return _surprise(thwarted, state.offer, seat, move.cards)


def _return_offer(state: State) -> State:
    """jd.block.cards-back / jd.surprise.continue: the thwarted server takes the desserts back.

    No tip for a thwarted server, favourite or not (jd.poach.blocked-no-tip): tips are only
    queued when a serving succeeds.
    """
    a = state.offer
    return evolve(
        state, hands=set_seat(state.hands, a.server, plus(state.hands[a.server], a.cards)), offer=None,
        answerers=(), speaker=-1, phase=a.back,
    )


def _block(state: State, attempt: Offer, seat: int, cards: tuple[str, ...]) -> State:
    """jd.block.defender: the defender keeps the guest; jd.poach.blocked-no-retry; jd.tip.block-favourite.

    jd.ruling.surprise-on-block: a block is not one of the servings a surprise can cut into.
    """
    # rule: jd.ruling.surprise-on-block
    if state.setup.options.surprise_on_block == STRICT and state.setup.options.surprise_parties:
        block = Offer(seat, attempt.guest, cards, -1)
        # rule: jd.ruling.surprise-on-block
        if any(surprise_servings(state, block, s) for s in range(state.setup.players) if s != seat):
            raise RuleGap("jd.ruling.surprise-on-block", "a block without a favourite while another player holds one")
    tips = ((DRAW, seat),) * tips_for(state, attempt.guest, cards)
    return evolve(
        state, hands=set_seat(state.hands, seat, minus(state.hands[seat], cards)),
        dessert_discard=plus(state.dessert_discard, cards), poach="blocked", committed=True,
        tasks=state.tasks + tips,
    )


def _surprise(state: State, attempt: Offer, seat: int, cards: tuple[str, ...]) -> State:
    """jd.surprise.intercept: the guest goes to the surprising player; jd.surprise.no-tip."""
    s = take_guest(state, attempt.guest, attempt.victim)
    claimed = set_seat(s.claimed, seat, plus(s.claimed[seat], (attempt.guest,)))
    tasks = s.tasks
    if attempt.victim >= 0 and attempt.victim != seat:  # rule: jd.poach.victim-tip, jd.ruling.victim-tip-on-surprise
        choice = s.setup.options.victim_tip_surprise
        if choice == STRICT:  # rule: jd.ruling.victim-tip-on-surprise
            raise RuleGap("jd.ruling.victim-tip-on-surprise", "a poached guest was surprised away from its holder")
        if choice == "tip":  # rule: jd.ruling.victim-tip-on-surprise
            tasks = tasks + ((DRAW, attempt.victim),)  # jd.poach.victim-tip
    # jd.surprise.continue: the thwarted player goes on as if the attempt had not been made (any turn option
    # still open), or, under jd.ruling.surprised-attempt=commits, the attempt chose the serving option
    committed = s.committed or s.setup.options.surprised_attempt == "commits"  # rule: jd.ruling.surprised-attempt
    return evolve(
        s, claimed=claimed, hands=set_seat(s.hands, seat, minus(s.hands[seat], cards)),
        dessert_discard=plus(s.dessert_discard, cards), tasks=tasks,
        shielded=tuple(sorted(set(s.shielded) | {attempt.guest})), committed=committed,
    )


# --------------------------------------------------------------------------- the buffet


def aces(state: State, hand: tuple[str, ...]) -> tuple[str, ...]:
    """jd.buffet.aces: desserts with a single taste icon."""
    return tuple(filter(_ace_kinds(deck_of(state)).__contains__, hand))


@lru_cache(maxsize=64)
def _ace_kinds(deck: Deck) -> frozenset[str]:
    """The desserts of this deck with a single taste icon (jd.buffet.aces)."""
    return frozenset(d.id for d in deck.desserts if len(d.tastes) == 1)  # rule: jd.buffet.aces


def buffet_moves(state: State) -> list[Move]:
    own = aces(state, state.hands[state.turn])
    return [Move("buffet", cards=c) for c in sorted(set(combinations(own, BUFFET_ACES)))]


def why_bad_buffet(state: State, move: Move) -> str:
    if state.committed or state.phase != "choose":  # rule: jd.turn.one-option
        return "jd.turn.one-option"
    return "jd.buffet.aces"


def open_buffet(state: State, cards: tuple[str, ...]) -> State:
    """jd.buffet.aces, jd.buffet.others-return: every other player with guests returns one."""
    seat, n = state.turn, state.setup.players
    # rule: jd.buffet.others-return
    others = tuple((seat + k) % n for k in range(1, n) if state.claimed[(seat + k) % n])
    return evolve(
        state, hands=set_seat(state.hands, seat, minus(state.hands[seat], cards)),
        dessert_discard=plus(state.dessert_discard, cards), committed=True, phase="return", returning=others,
    )


def return_guest(state: State, seat: int, guest: str) -> State:
    """jd.buffet.others-return: the guest goes back to the middle; then jd.buffet.draw-three."""
    return evolve(
        state, claimed=set_seat(state.claimed, seat, minus(state.claimed[seat], (guest,))),
        centre=plus(state.centre, (guest,)), returning=state.returning[1:],
    )


_passed = evolve.builder("answerers", "speaker")
"""``evolve(state, answerers=, speaker=)`` with the values in that order (every pass)."""
