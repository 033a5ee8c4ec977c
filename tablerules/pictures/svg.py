"""A small SVG writer: rectangles, text and lines, escaped, with a title for screen readers.

>>> from tablerules.pictures.svg import Svg
>>> pic = Svg(120, 40, "one tile")
>>> pic.rect(10, 5, 30, 30, fill="#d9534f")
>>> pic.text(60, 25, "red & hot")
>>> out = pic.render()
>>> out.startswith("<svg") and "red &amp; hot" in out and "<title>one tile</title>" in out
True
"""

from __future__ import annotations

from html import escape


def _num(x: float) -> str:
    return f"{x:.1f}".rstrip("0").rstrip(".")


class Svg:
    """An SVG picture of a fixed size, built element by element."""

    def __init__(self, width: float, height: float, title: str) -> None:
        self.width = width
        self.height = height
        self.title = title
        self.parts: list[str] = []

    def rect(self, x: float, y: float, w: float, h: float, *, fill: str = "none", stroke: str = "#555",
             rx: float = 4, dashed: bool = False, width: float = 1.2, tooltip: str = "") -> None:
        """A rectangle with rounded corners; ``tooltip`` shows on hover."""
        dash = ' stroke-dasharray="4 3"' if dashed else ""
        attrs = (f'x="{_num(x)}" y="{_num(y)}" width="{_num(w)}" height="{_num(h)}" rx="{_num(rx)}" '
                 f'fill="{fill}" stroke="{stroke}" stroke-width="{_num(width)}"{dash}')
        body = f"<title>{escape(tooltip)}</title>" if tooltip else ""
        self.parts.append(f"<rect {attrs}>{body}</rect>" if body else f"<rect {attrs}/>")

    def text(self, x: float, y: float, text: str, *, size: float = 12, anchor: str = "middle",
             weight: str = "normal", fill: str = "#222") -> None:
        """A line of text; ``anchor`` is start, middle or end."""
        self.parts.append(
            f'<text x="{_num(x)}" y="{_num(y)}" font-size="{_num(size)}" text-anchor="{anchor}" '
            f'font-weight="{weight}" fill="{fill}">{escape(text)}</text>')

    def line(self, x1: float, y1: float, x2: float, y2: float, *, stroke: str = "#999", width: float = 1) -> None:
        self.parts.append(f'<line x1="{_num(x1)}" y1="{_num(y1)}" x2="{_num(x2)}" y2="{_num(y2)}" '
                          f'stroke="{stroke}" stroke-width="{_num(width)}"/>')

    def render(self) -> str:
        """The whole picture as SVG text."""
        head = (f'<svg xmlns="http://www.w3.org/2000/svg" width="{_num(self.width)}" height="{_num(self.height)}" '
                f'viewBox="0 0 {_num(self.width)} {_num(self.height)}" role="img" '
                f'font-family="DejaVu Sans, Helvetica, Arial, sans-serif">')
        return "\n".join([head, f"<title>{escape(self.title)}</title>",
                          '<rect width="100%" height="100%" fill="#fffdf8"/>', *self.parts, "</svg>"]) + "\n"
