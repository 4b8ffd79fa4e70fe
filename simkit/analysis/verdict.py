"""Headline claims that say whether the numbers settle them.

Every analysis headline that names a winner (a strategy, a grid point, a side's choice) goes
through :func:`leader`: the winner is named only when its paired difference from every rival
excludes zero at the stated confidence (an intersection of two-sided tests, each at that level,
so the claim as a whole is wrong with at most ``1 - confidence`` chance).  Otherwise the headline
says the question is not resolved, with the margin over the runner-up, its standard error and
the points that cannot be told apart from the leader.

A claim is a plain dict kept beside its headline line (``Analysis.claims``, the JSON, the saved
analysis, a saved sweep's meta)::

    {"claim": "best p1.knock", "leader": "p1.knock=8", "winner": None, "resolved": False,
     "confidence": 0.95, "margin": 0.0012, "se": 0.0031, "runner_up": "p1.knock=9",
     "tied": ["p1.knock=8", ...], "by": "paired", "text": "best p1.knock: not resolved at ..."}

``leader`` is ahead on the numbers, ``winner`` the same when resolved and None otherwise;
``margin`` is the leader's advantage over the runner-up in the direction that is better (so it
is never negative), ``se`` its standard error, ``by`` how that was obtained (``paired`` on
common deals, ``unpaired`` from the two standard errors, ``exact``).
"""
from __future__ import annotations

import math
from typing import Callable

from scipy import stats as sps

CONFIDENCE = 0.95


def quantile(confidence: float = CONFIDENCE, df: float | None = None) -> float:
    """The two-sided critical value at ``confidence``: Student's t with ``df`` degrees of
    freedom, the normal one when ``df`` is None."""
    p = 0.5 + confidence / 2
    if df is None:
        return float(sps.norm.ppf(p))
    return float(sps.t.ppf(p, df)) if df >= 1 else math.inf


def settled(mean: float, se: float, df: float | None = None,
            confidence: float = CONFIDENCE) -> bool:
    """Whether ``mean`` (a difference) excludes zero at ``confidence``: ``|mean| > q se``; an
    exact value (``se == 0``) when it is not zero; no standard error (nan): never."""
    if not (math.isfinite(mean) and se is not None and not math.isnan(se)):
        return False
    if se == 0:
        return bool(mean != 0)
    return bool(abs(mean) > quantile(confidence, df) * se)


def num(v: float) -> str:
    """A margin or standard error with two significant digits (``0.00012``, ``1.7``)."""
    if v is None or not math.isfinite(v):
        return "nan"
    return f"{v + 0.0:.2g}"  # + 0.0: no "-0"


def leader(names: list[str], means, diff: Callable[[int, int], tuple], *, larger: bool = True,
           confidence: float = CONFIDENCE, claim: str = "best") -> dict:
    """The best of ``names`` by ``means`` and whether the numbers settle it.

    ``diff(i, j)`` gives ``(mean, se, df, by)`` of point ``i`` minus point ``j`` (paired where it
    can be; ``df`` None for a normal quantile, ``se`` 0 for exact values).  The leader is
    resolved when its difference from every other point excludes zero at ``confidence``;
    ``tied`` lists the leader and every point it cannot be told apart from."""
    sign = 1.0 if larger else -1.0
    order = sorted(range(len(names)), key=lambda i: -sign * float(means[i]))
    top = order[0]
    out = dict(claim=claim, leader=names[top], winner=None, resolved=True,
               confidence=confidence, margin=math.nan, se=math.nan, runner_up=None,
               tied=[names[top]], by="exact")
    for k, j in enumerate(order[1:]):
        m, se, df, by = diff(top, j)
        if k == 0:
            out.update(margin=sign * float(m), se=float(se), runner_up=names[j], by=by)
        if not settled(m, se, df, confidence):
            out["resolved"] = False
            out["tied"].append(names[j])
    if out["resolved"]:
        out["winner"] = out["leader"]
    out["text"] = say(out)
    return out


def say(c: dict, unit: str = "") -> str:
    """The headline line of claim ``c``: the winner with its margin when resolved; otherwise
    "not resolved", the margin and its standard error, and who cannot be told apart."""
    conf = f"{c['confidence']:.0%}"
    u = f" {unit}" if unit else ""
    if c.get("runner_up") is None:
        return f"{c['claim']}: {c['leader']} (the only point)"
    how = ", unpaired" if c.get("by") == "unpaired" else ""
    gap = f"by {num(c['margin'])}{u}" + ("" if c.get("by") == "exact" else
                                         f" (se {num(c['se'])}{how})")
    if c["resolved"]:
        return (f"{c['claim']}: {c['leader']}, ahead of {c['runner_up']} {gap}; "
                + ("exact values" if c.get("by") == "exact" else f"resolved at {conf} confidence"))
    if c.get("by") == "exact":
        return (f"{c['claim']}: not resolved: {', '.join(c['tied'])} are exactly equal"
                f" (exact values)")
    return (f"{c['claim']}: not resolved at {conf} confidence: {c['leader']} leads "
            f"{c['runner_up']} {gap}; cannot be told apart: {', '.join(c['tied'])}")


def estimate_claim(claim: str, mean: float, se: float, df: float | None = None, *,
                   confidence: float = CONFIDENCE, positive: str = "A", negative: str = "B",
                   by: str = "paired") -> dict:
    """A claim about the sign of one difference (``compare``'s A against B): resolved when its
    interval excludes zero; the winner is ``positive`` or ``negative`` by the sign."""
    ahead = positive if mean > 0 else negative if mean < 0 else None
    ok = settled(mean, se, df, confidence)
    return dict(claim=claim, leader=ahead, winner=ahead if ok else None, resolved=ok,
                confidence=confidence, margin=abs(float(mean)), se=float(se),
                runner_up=(negative if ahead == positive else positive) if ahead else None,
                tied=[] if ok else [positive, negative], by=by)
