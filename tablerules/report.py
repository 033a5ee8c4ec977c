"""Tables and progress lines for scripts (benchmarks): the same as :mod:`tablerules.console`."""

from __future__ import annotations

from .console import Progress, table

__all__ = ["Progress", "table"]
