"""Tile names, place names and the tile-set argument.

Contents (rulebook) and FACTS.md: six picture types, four of each; each dirty-side colour
has exactly one tile of each type.  The protocol names the types and colours in a fixed
order and lets the driver ask for the first T types and first C colours only.
"""

TYPES = ("dessert", "main", "drinks", "forks", "soup", "knives")
COLOURS = ("red", "yellow", "c3", "c4")
NTYPES = len(TYPES)

_PLACE_CACHE = {}


class Unsupported(Exception):
    """A tile set or player count this reading cannot play."""


def parse_components(components):
    """Return (T, C): how many types and colours are in play."""
    if components is None:
        return len(TYPES), len(COLOURS)
    if not isinstance(components, dict):
        raise Unsupported("components must be an object or null")
    arg = components.get("argument")
    if arg is None:
        arg = components.get("name")
    if arg is None or arg == "box":
        return len(TYPES), len(COLOURS)
    if not isinstance(arg, str):
        raise Unsupported("tile set argument must be a string")
    parts = arg.strip().lower().split("x")
    if len(parts) != 2 or not all(p.isdigit() for p in parts):
        raise Unsupported("unknown tile set %r (expected 'box' or 'TxC')" % arg)
    t, c = int(parts[0]), int(parts[1])
    if not (1 <= t <= len(TYPES)) or not (1 <= c <= len(COLOURS)):
        raise Unsupported("tile set %r out of range (1..6 types, 1..4 colours)" % arg)
    return t, c


def place_tables(n):
    """(names, index): place name of each cell (layout*6 + type) and the reverse map.

    Module-level cache of constants, so engine copies never carry it.
    """
    tab = _PLACE_CACHE.get(n)
    if tab is None:
        names = ["%d.%s" % (lay, typ) for lay in range(n) for typ in TYPES]
        tab = (tuple(names), {nm: i for i, nm in enumerate(names)})
        _PLACE_CACHE[n] = tab
    return tab
