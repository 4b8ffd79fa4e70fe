"""What core builds from a game's parts (:class:`~simkit.core.registry.GameSpec`): a chunk of
deals for the runner, one stacked deal, and a seeded playthrough.

No game writes these: each supplies ``prepare`` (its named records), ``kernel`` (its deal, on the
core deal loop), ``pack`` and, where it logs moves, ``log_columns``.
"""
from __future__ import annotations

from collections import Counter

import numpy as np

from simkit.core import cards as C
from simkit.core.registry import GameSpec, resolve_strategies
from simkit.core.rng import stream_state
from simkit.errors import SimkitError

NO_LOG = np.zeros((0, 1), np.int64)
# NO_LOG is for Python callers only: njit code that calls a game's kernel must pass an empty log
# array of its own (``np.zeros((0, 1), np.int64)``), since numba reads a global array as
# read-only and a kernel that writes its move log then fails to type ("setitem(readonly array")


def wraps():
    """Around a kernel call: under NUMBA_DISABLE_JIT=1 the kernels run as plain Python on numpy
    scalars, whose uint64 arithmetic wraps as compiled code does but warns of it (the random
    streams overflow by design)."""
    return np.errstate(over="ignore")


def run_chunk(spec: GameSpec, rules, strategies, state, n: int, rows: bool = False, log=None):
    """Play ``n`` deals from xoshiro ``state`` (advanced in place).

    Returns ``(acc, rows, cards)``: ``acc`` the ``float64[2, M]`` sums and sums of squares of
    the metrics, ``rows`` the ``float64[n, M]`` per-deal metrics (or ``None``), ``cards`` the
    cards dealt.  ``log``: an ``int64[n, width]`` array receiving each deal's moves."""
    R, S, W = spec.prepare(rules, strategies, None)
    M = len(spec.metrics(rules))
    acc = np.zeros((2, M))
    out = np.zeros((n if rows else 0, M))
    with wraps():
        cards = spec.kernel(R, S, W, state, n, acc, out, NO_LOG if log is None else log)
    return acc, (out if rows else None), int(cards)


def play_logged(spec: GameSpec, rules, strategies=None, n: int = 1000, seed: int = 0,
                chunk: int = 0, fill: int = -1):
    """Play ``n`` units of chunk ``chunk`` of ``seed`` with their move log: ``(rows DataFrame,
    log int64[n, len(spec.log_columns(rules))])``, the log's unused entries ``fill``."""
    import pandas as pd
    strategies = resolve_strategies(spec, rules, strategies)
    log = np.full((n, len(spec.log_columns(rules))), fill, np.int64)
    _, rows, _ = run_chunk(spec, rules, strategies, stream_state(seed, chunk), n, True, log)
    return pd.DataFrame(rows, columns=[m.name for m in spec.metrics(rules)]), log


def deal_blocks(log, nhead: int, width: int, played: int) -> np.ndarray:
    """A move log of units of several deals (``int64[n, nhead + D * width]``: a head of
    ``nhead`` entries, the number of deals played at column ``played``, then one block of
    ``width`` entries per deal) as one row per played deal: ``int64[k, 1 + width]``, the unit's
    row index first (Klaberjass, Handjass, Stovkahra)."""
    log = np.asarray(log, np.int64).reshape(-1, np.shape(log)[-1])
    D = (log.shape[1] - nhead) // width
    out = []
    for i in range(log.shape[0]):
        for j in range(min(int(log[i, played]), D)):
            c = nhead + j * width
            out.append(np.concatenate([[i], log[i, c:c + width]]))
    return np.array(out, np.int64).reshape(-1, 1 + width)


def _card_name(c: int) -> str:
    try:
        return C.format_card(c)
    except SimkitError:
        return str(c)


def check_stack(spec: GameSpec, rules, cards, what: str = "stacked deck") -> np.ndarray:
    """A stacked deck as ``int64`` codes, refused (:class:`SimkitError`) if it repeats a card more
    often than the game's pack holds it or names a card the pack does not have.  ``what``: how
    the refusal names the cards (e.g. ``seen`` for the cards an exact analysis takes out)."""
    deck = C.parse(cards) if isinstance(cards, str) else np.asarray(cards, np.int64)
    if deck.ndim != 1:
        raise SimkitError(f"a {what} is a sequence of cards")
    pack = Counter(int(c) for c in spec.pack(rules))
    have = Counter(int(c) for c in deck)
    for c, k in have.items():
        if c not in pack:
            raise SimkitError(f"{what}: {_card_name(c)} is "
                              f"not in the {sum(pack.values())}-card pack of "
                              f"{spec.name} with these rules")
        if k > pack[c]:
            raise SimkitError(f"{what}: {C.format_card(c)} appears {k} times; the pack holds "
                              f"it {pack[c]} time{'s' if pack[c] > 1 else ''}")
    return deck.astype(np.int64)


def play_stacked(spec: GameSpec, rules, strategies, cards, log: bool = False, **settings):
    """Play one deal with the cards dealt in the order given (the game's docstring says who gets
    which).  Returns the deal's metrics by name, and its move log too with ``log=True``.
    ``settings`` go to the game's ``prepare`` (e.g. Hearts' pass direction)."""
    strategies = resolve_strategies(spec, rules, strategies)
    deck = check_stack(spec, rules, cards)
    R, S, W = spec.prepare(rules, strategies, deck, **settings)
    names = [m.name for m in spec.metrics(rules)]
    rows = np.zeros((1, len(names)))
    width = len(spec.log_columns(rules)) if (log and spec.log_columns) else 1
    lg = np.zeros((1 if log else 0, width), np.int64)
    with wraps():
        spec.kernel(R, S, W, np.ones(4, np.uint64), 1, np.zeros((2, len(names))), rows, lg)
    res = dict(zip(names, rows[0].tolist()))
    return (res, lg[0]) if log else res


def playthrough(spec: GameSpec, rules, strategies=None, seed: int = 1) -> dict:
    """One seeded deal, in full: its move log (where the game keeps one, without the trailing
    ``-1`` padding of its row) and its metric row.

    The deal is the first of chunk 0 of ``seed`` (the runner's stream), so it is the first row
    of ``simkit run GAME --seed SEED --rows``."""
    return unit_log(spec, rules, strategies, seed, 1)


def unit_log(spec: GameSpec, rules, strategies=None, seed: int = 1, unit: int = 1) -> dict:
    """Unit ``unit`` (1-based) of chunk 0 of ``seed``, in full, as :func:`playthrough` gives
    the first: its metric row and, where the game keeps one, its move log.  The chunk's first
    ``unit`` units are played in one call (a kernel's buffers may carry over from one unit to
    the next, as in a run), so this is row ``unit`` of ``simkit run GAME --seed SEED --rows``
    while ``unit`` is within the run's first chunk."""
    strategies = resolve_strategies(spec, rules, strategies)
    names = [m.name for m in spec.metrics(rules)]
    cols = spec.log_columns(rules) if spec.log_columns else None
    lg = np.zeros((unit, len(cols)), np.int64) if cols else None
    _, rows, _ = run_chunk(spec, rules, strategies, stream_state(seed, 0), unit, True, lg)
    out = dict(metrics=dict(zip(names, rows[unit - 1].tolist())))
    if cols:
        log = lg[unit - 1].tolist()
        while log and log[-1] == -1:  # the row's unused room (games pad with -1)
            log.pop()
        out["log_columns"] = list(cols)[:len(log)]
        out["log"] = log
    return out
