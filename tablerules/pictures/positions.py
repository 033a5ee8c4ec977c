"""A table position drawn as SVG from a state's ``state_vars`` (or the same values decoded
from a reference vector).

* Dishes: every layout's six places in the shared arrangement (dishes.setup.layout): a clean
  tile shows its kind only; a stack shows its top tile's colour and kind and its height
  (dishes.play.top-counts); an empty place is dashed; a tile being turned waits for its colour.
* Just Desserts (both editions): the guests waiting in the centre (or the guest at the door
  in 2.3), the guest standing in the doorway, and per seat the hand size (hands are hidden),
  the guests claimed and, in 2.3, the dirty dishes.

Keys a drawer does not find are left out, so a model that adds or renames variables still
gets a picture of what is known; an unknown rule set gets its variables as a list.

>>> from tablerules.pictures.positions import draw
>>> svg = draw("dishes", {"places": {"0.dessert": "clean", "0.main": ["red main"], "1.main": []}, "turn": 0})
>>> "red main" in svg and "seat 0" in svg
True
"""

from __future__ import annotations

from typing import Any, Callable, Mapping, Sequence

from .svg import Svg

DISHES_ROWS = (("dessert", "main", "drinks"), ("forks", "soup", "knives"))
"""The arrangement every layout shares (dishes.setup.layout): top row, then bottom row."""
DISHES_COLOURS = {"red": "#d9534f", "yellow": "#f2c94c", "c3": "#5b8def", "c4": "#6fbf73"}
"""Fill per soiled-side colour; c3 and c4 are the two colours no public source names."""
SUIT_COLOURS = ("#c0504d", "#4f81bd", "#9bbb59", "#8064a2", "#f79646", "#4bacc6")

TILE = 64
GAP = 8


def _as_dict(value: Any) -> dict:
    if isinstance(value, Mapping):
        return dict(value)
    if isinstance(value, (list, tuple)) and all(isinstance(p, (list, tuple)) and len(p) == 2 for p in value):
        return {k: v for k, v in value}
    return {}


def _seq(value: Any) -> list:
    if isinstance(value, (list, tuple)):
        return list(value)
    if isinstance(value, (set, frozenset)):
        return sorted(value, key=str)
    return []


def _seat_label(layout: str, players: int | None) -> str:
    if layout.isdigit() and (players is None or int(layout) < players):
        return f"seat {layout}"
    return f"layout {layout}"


# --------------------------------------------------------------------------- dishes


def _tile_parts(tile: Any) -> tuple[str, str]:
    """`red main@0.main` -> ("red", "main")."""
    words = str(tile).split("@", 1)[0].split()
    if len(words) >= 2:
        return words[0], " ".join(words[1:])
    return "", str(tile)


def _mover(v: Mapping[str, Any], to_move: str | None, seat: str) -> bool:
    """Is ``seat`` the one to move: per ``to_move`` (an actor text) if given, else per the state's turn."""
    if to_move is not None:
        return to_move == f"seat {seat}"
    turn = v.get("turn")
    return turn is not None and str(turn) == seat


def _footer(to_move: str | None) -> str:
    return {"TERMINAL": "the game is over", "CHANCE": "chance moves next"}.get(to_move or "", "")


def _dishes(v: Mapping[str, Any], title: str, players: int | None, to_move: str | None) -> str:
    places = _as_dict(v.get("places"))
    layouts: dict[str, dict[str, Any]] = {}
    for name, content in places.items():
        layout, _, kind = str(name).partition(".")
        layouts.setdefault(layout, {})[kind] = content
    order = sorted(layouts, key=lambda s: (not s.isdigit(), int(s) if s.isdigit() else 0, s))
    revealing = {str(p) for p in _seq(v.get("reveal"))}
    per_row = 2 if len(order) > 2 else max(1, len(order))
    block_w = 3 * TILE + 2 * GAP + 24
    block_h = 2 * TILE + GAP + 40
    rows = (len(order) + per_row - 1) // per_row
    width = max(per_row * block_w + 16, 300)
    height = rows * block_h + 48
    pic = Svg(width, height, title)
    for i, layout in enumerate(order):
        x0 = 12 + (i % per_row) * block_w
        y0 = 8 + (i // per_row) * block_h
        label = _seat_label(layout, players)
        moving = layout.isdigit() and _mover(v, to_move, layout)
        pic.text(x0, y0 + 14, label + ("  \u25b6 to move" if moving else ""), anchor="start", size=13,
                 weight="bold" if moving else "normal")
        kinds = [k for row in DISHES_ROWS for k in row]
        extra = [k for k in layouts[layout] if k not in kinds]
        grid = [list(DISHES_ROWS[0]), list(DISHES_ROWS[1]) + extra]
        for r, row in enumerate(grid):
            for c, kind in enumerate(row):
                x = x0 + c * (TILE + GAP)
                y = y0 + 22 + r * (TILE + GAP)
                _dishes_place(pic, x, y, kind, layouts[layout].get(kind, []), f"{layout}.{kind}" in revealing)
    # legend
    ly = height - 18
    x = 12
    for name, fill in DISHES_COLOURS.items():
        pic.rect(x, ly - 10, 12, 12, fill=fill, rx=2)
        pic.text(x + 16, ly, name, anchor="start", size=11)
        x += 62
    pic.rect(x, ly - 10, 12, 12, fill="#f4f1ea", rx=2)
    pic.text(x + 16, ly, "clean", anchor="start", size=11)
    pic.text(width - 10, ly, _footer(to_move), anchor="end", size=11, fill="#666")
    return pic.render()


def _dishes_place(pic: Svg, x: float, y: float, kind: str, content: Any, revealing: bool) -> None:
    if content == "clean" or content is None:
        if revealing:
            pic.rect(
                x, y, TILE, TILE, fill="#fff3d6", stroke="#e0a030", width=2,
                tooltip=f"{kind}: turned, colour not yet seen",
            )
            pic.text(x + TILE / 2, y + 28, kind, size=10)
            pic.text(x + TILE / 2, y + 46, "?", size=16, weight="bold", fill="#e0a030")
            return
        pic.rect(x, y, TILE, TILE, fill="#f4f1ea", stroke="#aaa", tooltip=f"{kind}: clean (colour hidden)")
        pic.text(x + TILE / 2, y + 30, kind, size=10, fill="#777")
        pic.text(x + TILE / 2, y + 46, "clean", size=9, fill="#999")
        return
    stack = _seq(content) if not isinstance(content, str) else [content]
    if not stack:
        pic.rect(x, y, TILE, TILE, fill="none", stroke="#bbb", dashed=True, tooltip=f"{kind}: empty")
        pic.text(x + TILE / 2, y + 36, kind, size=9, fill="#bbb")
        return
    for k in range(min(len(stack) - 1, 3), 0, -1):  # the tiles below, as offset edges
        pic.rect(x + 3 * k, y - 3 * k, TILE, TILE, fill="#ddd", stroke="#999", width=0.8)
    colour, top_kind = _tile_parts(stack[-1])
    fill = DISHES_COLOURS.get(colour, "#bbbbbb")
    below = ", ".join(str(t) for t in stack[:-1]) or "nothing"
    pic.rect(x, y, TILE, TILE, fill=fill, stroke="#333", tooltip=f"{kind} place: top {stack[-1]}; below: {below}")
    pic.text(x + TILE / 2, y + 26, top_kind, size=11, weight="bold")
    pic.text(x + TILE / 2, y + 40, colour, size=9)
    if len(stack) > 1:
        pic.rect(x + TILE - 24, y + TILE - 18, 22, 15, fill="#fff", stroke="#333", rx=7)
        pic.text(x + TILE - 13, y + TILE - 7, f"\u00d7{len(stack)}", size=10, weight="bold")


# --------------------------------------------------------------------------- just desserts


def _guest_card(pic: Svg, x: float, y: float, gid: str, suit_of: Callable[[str], str] | None,
                suits: Sequence[str], name_of: Callable[[str], str] | None, note: str = "") -> None:
    suit = ""
    if suit_of is not None:
        try:
            suit = suit_of(gid)
        except (KeyError, AttributeError):
            suit = ""
    colour = SUIT_COLOURS[list(suits).index(suit) % len(SUIT_COLOURS)] if suit in suits else "#999"
    name = gid
    if name_of is not None:
        try:
            name = name_of(gid)
        except (KeyError, AttributeError):
            name = gid
    pic.rect(x, y, 84, 50, fill="#fff", stroke=colour, width=2, tooltip=f"guest {gid}" + (f" ({suit})" if suit else ""))
    pic.rect(x, y, 84, 12, fill=colour, stroke=colour, rx=3)
    pic.text(x + 42, y + 10, suit or "guest", size=8, fill="#fff")
    pic.text(x + 42, y + 30, name[:13], size=10, weight="bold")
    if note:
        pic.text(x + 42, y + 44, note, size=8, fill="#666")


def _hand(pic: Svg, x: float, y: float, size: int) -> float:
    """Card backs for a hidden hand; returns the width used."""
    shown = min(size, 8)
    for k in range(shown):
        pic.rect(x + 7 * k, y, 30, 44, fill="#7a4f9a", stroke="#fff", rx=3)
    pic.text(x + 7 * max(shown - 1, 0) + 40, y + 27, f"{size} card{'s' if size != 1 else ''}", anchor="start", size=11)
    return 7 * max(shown - 1, 0) + 100


def _jd(v: Mapping[str, Any], title: str, players: int | None, components: Any, to_move: str | None) -> str:
    suit_of = getattr(components, "suit_of", None)
    suits = tuple(getattr(components, "suits", ()))
    guest = getattr(components, "guest", None)
    name_of = (lambda gid: guest(gid).name) if guest is not None else None
    hands = [_seq(h) for h in _seq(v.get("hands"))]
    claimed_key = "claimed" if "claimed" in v else "collected"
    claimed = [_seq(c) for c in _seq(v.get(claimed_key))]
    dishes = [_seq(d) for d in _seq(v.get("dishes"))]
    seats = max(len(hands), len(claimed), players or 0)
    centre = [str(g) for g in _seq(v.get("centre"))]
    at_door = v.get("guest")
    if isinstance(at_door, str) and at_door:
        centre = [at_door]
    discard = _seq(v.get("guest_discard"))
    doorway = str(discard[-1]) if discard else ""
    most = max([len(centre) + (1 if doorway else 0)] + [len(c) for c in claimed] + [1])
    width = max(300 + 92 * most, 560)
    height = 96 + 70 * seats + 24
    pic = Svg(width, height, title)
    x = 12
    pic.text(
        x, 18, "guest at the door" if at_door else "guests waiting in the centre", anchor="start", size=12,
        weight="bold",
    )
    for g in centre:
        _guest_card(pic, x, 28, g, suit_of, suits, name_of)
        x += 92
    if not centre:
        pic.text(x + 4, 58, "(none)", anchor="start", size=11, fill="#888")
        x += 60
    if doorway:
        _guest_card(pic, x + 16, 28, doorway, suit_of, suits, name_of, note="in the doorway")
        x += 108
    piles = []
    for key, label in (
        ("dessert_pile", "dessert pile"), ("guest_pile", "guest pile"), ("dessert_discard", "dessert discards"),
    ):
        if key in v:
            piles.append(f"{label}: {len(_seq(v.get(key)))}")
    for k, text in enumerate(piles):
        pic.text(width - 12, 40 + 16 * k, text, anchor="end", size=11, fill="#444")
    winner = v.get("winner")
    for s in range(seats):
        y = 96 + 70 * s
        pic.line(8, y - 6, width - 8, y - 6, stroke="#e3ddd0")
        moving = _mover(v, to_move, str(s))
        label = f"seat {s}" + ("  \u25b6 to move" if moving else "") + ("  \u2605 winner" if winner == s else "")
        pic.text(12, y + 12, label, anchor="start", size=12, weight="bold" if moving else "normal")
        hx = 12
        if s < len(hands):
            hx += _hand(pic, 12, y + 18, len(hands[s]))
        gx = max(hx + 8, 150)
        for g in claimed[s] if s < len(claimed) else []:
            _guest_card(pic, gx, y + 14, str(g), suit_of, suits, name_of)
            gx += 92
        if s < len(dishes):
            pic.text(width - 12, y + 40, f"dirty dishes: {len(dishes[s])}", anchor="end", size=11, fill="#444")
    phase = v.get("phase")
    if phase:
        pic.text(12, height - 8, f"phase: {phase}", anchor="start", size=11, fill="#666")
    pic.text(width - 12, height - 8, _footer(to_move), anchor="end", size=11, fill="#666")
    return pic.render()


# --------------------------------------------------------------------------- any rule set


def _generic(v: Mapping[str, Any], title: str) -> str:
    lines = [f"{k}: {v[k]}"[:90] for k in sorted(v)]
    pic = Svg(640, 20 + 16 * len(lines), title)
    for i, line in enumerate(lines):
        pic.text(10, 18 + 16 * i, line, anchor="start", size=11)
    return pic.render()


def draw(ruleset_id: str, variables: Mapping[str, Any], *, title: str = "", players: int | None = None,
         components: Any = None, to_move: str | None = None) -> str:
    """The position as SVG text.

    ``variables`` is ``rules.state_vars(state)`` (or a vector state decoded with
    :func:`tablerules.vectors.decode`); ``components`` (the setup's components, optional)
    gives Just Desserts guests their names and suits; ``to_move`` (an actor text such as
    ``seat 1``, ``CHANCE`` or ``TERMINAL``) marks who acts next, else the state's ``turn`` does.
    """
    title = title or f"{ruleset_id} position"
    if "places" in variables:
        return _dishes(variables, title, players, to_move)
    if any(k in variables for k in ("claimed", "collected", "centre", "hands")):
        return _jd(variables, title, players, components, to_move)
    return _generic(variables, title)
