"""Check items for the tests of `tablerules check --jobs`: one passes, one raises, one kills
the worker that runs it, one asks z3 for a model (importable by the spawned workers)."""

from __future__ import annotations

import os
from functools import partial

from tablerules.proofs.checks import PASS, CheckItem, CheckResult, Context


def _passes(ctx: Context, name: str) -> CheckResult:
    return CheckResult("toy", name, PASS, f"seed {ctx.seed}")


def _raises(ctx: Context, name: str) -> CheckResult:
    raise ValueError("a broken check")


def _dies(ctx: Context, name: str) -> CheckResult:
    os._exit(9)


def _z3_model(ctx: Context, name: str) -> CheckResult:
    """The colouring z3 finds for the Dishes worked example depends on what the same z3
    context solved before (called twice in one context, it finds two colourings)."""
    from tablerules.proofs.dishes.proofs import worked_example

    return CheckResult("toy", name, PASS, worked_example().rows[-1][1])


def build(rulesets: list[str], ctx: Context) -> list[CheckItem]:
    kinds = {"pass": _passes, "raise": _raises, "die": _dies, "z3": _z3_model}
    names = [f"{kind} {i}" for i, kind in enumerate(rulesets)]
    return [CheckItem("toy", name, partial(kinds[kind], name=name)) for name, kind in zip(names, rulesets)]
