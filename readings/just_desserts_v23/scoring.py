"""The end of the game: who wins ("Scoring")."""


def outcome(game):
    """Most guests wins; ties: more desserts in hand, then fewer dirty dishes.

    "Scoring" ends a remaining tie with "Play again as a tie-breaker!": nobody wins
    this game.
    """
    n = game.n
    scores = [len(c) for c in game.collected]
    keys = [(scores[s], sum(game.hands[s].values()), -sum(game.dishes[s].values()))
            for s in range(n)]
    best = max(keys)
    top = [s for s in range(n) if keys[s] == best]
    rest = [s for s in range(n) if keys[s] != best]
    if len(top) == 1:
        return {"winners": top, "losers": rest, "draw": False, "scores": scores}
    # CHOICE: a tie that survives both tie-breaks is a draw with no winner; the seats
    # not among the tied leaders are losers.  Other readings: the tied leaders are all
    # winners; nobody is a loser in a replayed game.
    return {"winners": [], "losers": rest, "draw": True, "scores": scores}
