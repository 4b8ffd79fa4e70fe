"""Exact analysis of Очко for one player against the banker, by recursion over the deck.

A 36-card deck has only 5^9 compositions, so a round can be enumerated card by card: every
sequence of draws is weighted by its probability ``count / cards left`` and followed to the end.
The recursion uses the engine's own rules tables (:func:`engine.card_info`, the stop and
category tables), so exact values and simulations answer the same question, and the simulator
is tested against these numbers.

* :func:`banker_distribution`: the banker's final-total distribution for a threshold, from a
  fresh deck or given cards already seen -- exact rationals (``fractions.Fraction``).
* :func:`evaluate`: a player strategy against the banker: the same metrics as the simulation
  (``p1_win``, ``p1_result``, ``banker_17`` ...), exact enumeration in float64.
* :func:`best_threshold`, :func:`best_play`: the best ``stand_at(t)`` and the fully
  composition-dependent best play (hit or stand knowing his own cards, and the banker's open
  card when ``upcard=True``, as line 40 deals it face up), with its value.
* :func:`grid`: player threshold x banker threshold, and the bank's best threshold against a
  player who answers each threshold with his own best one.

Float64 results are exact up to rounding (about 1e-15): every term is enumerated, nothing is
sampled.  Only ``players=1`` is supported (more players multiply the tree by the seats).
"""
from __future__ import annotations

import functools
import time
from fractions import Fraction

import numpy as np
import pandas as pd
from numba import njit, types
from numba.typed import Dict

from simkit.core import cards as C
from simkit.core.exact import tidy as exact_table
from simkit.core.registry import game_string, parse_rules, parse_strategies
from simkit.errors import SimkitError
from simkit.games.ochko import engine as E
from simkit.games.ochko.strategies import policy_tables, sees_upcard

BK_BUST, BK_GOLDEN = E.BK_BUST, E.BK_GOLDEN
NKEYS = 34  # banker keys: totals 0..31, bust, golden point


def _bcat_of_key() -> np.ndarray:
    cat = np.empty(NKEYS, np.int64)
    for k in range(NKEYS):
        cat[k] = (E.BC_GOLDEN if k == BK_GOLDEN else E.BC_BUST if k > 21
                  else E.BC_LE16 if k < 17 else E.BC_17 + k - 17)
    return cat


BCAT_OF_KEY = _bcat_of_key()


class _Setup:
    """The deck as rank classes and the rules as the engine's tables, for the recursions."""

    def __init__(self, rules):
        if rules.banker_five_pictures:
            raise SimkitError("exact analysis does not model banker_five_pictures; simulate it "
                              "with simkit run")
        if rules.players != 1:
            raise SimkitError(f"exact analysis is for one player against the banker, not "
                              f"players={rules.players}; simulate more players with simkit run")
        self.rules = rules
        deck = C.deck(rules.deck)
        codes, counts = np.unique(deck, return_counts=True)
        ranks = sorted({int(c) & 15 for c in codes})
        self.ranks = np.array(ranks, np.int64)
        self.counts = np.array([4] * len(ranks), np.int64)
        info = E.card_info(rules.values)
        self.rinfo = np.array([info[r] for r in ranks], np.int64)  # suit does not matter
        R = E.tables(rules)
        self.w = R.weights
        self.pcat, self.show, self.bstop, self.bkey = (R.player_cat, R.showdown, R.banker_stop,
                                                       R.banker_key)
        self.T = (self.rinfo, self.pcat, self.show, self.bstop, self.bkey, BCAT_OF_KEY,
                  self.w[:, -1].copy(), 5 ** np.arange(len(ranks), dtype=np.int64),
                  bool(R.five_pictures), bool(R.bonus_hands), int(rules.max_cards))
        self.memo = _memo()  # banker distributions by (composition, hand): shared by calls

    def rank_index(self, code: int) -> int:
        r = int(code) & 15
        if r not in self.ranks:
            raise SimkitError(f"card {C.format_card(code)} is not in the {self.rules.deck}-card deck")
        return int(np.searchsorted(self.ranks, r))

    def remaining(self, seen) -> np.ndarray:
        counts = self.counts.copy()
        for c in (C.parse(seen) if isinstance(seen, str) else seen or []):
            i = self.rank_index(c)
            if counts[i] == 0:
                raise SimkitError(f"more {C.format_card(c)[:-1]}s seen than the deck holds")
            counts[i] -= 1
        return counts


@functools.lru_cache(maxsize=8)
def _setup(rules) -> _Setup:
    """One setup (and banker memo) per rules: a threshold grid reuses it across player
    thresholds."""
    return _Setup(rules)


# ---------------------------------------------------------------------------------- kernels
# T, the tables every recursion reads (a tuple, so signatures stay short):
#   (rinfo, pcat, show, bstop, bkey, bcat_of_key, w_ev, pow5, five, bonus, maxc)

@njit(cache=True)
def _banker(counts, left, h, T, memo):
    """The banker's final-key distribution (``float64[34]``) from hand ``h`` with ``counts``
    left, memoised on (composition, total, cards held)."""
    rinfo, bstop, bkey, pow5 = T[0], T[3], T[4], T[7]
    code = 0
    for r in range(counts.shape[0]):
        code += counts[r] * pow5[r]
    key = code * (E.IDX + 1) + (h & E.IDX)
    if key in memo:
        return memo[key]
    out = np.zeros(NKEYS)
    if bstop[h & E.IDX] or left == 0:
        out[bkey[h & E.IDX]] = 1.0
    else:
        for r in range(counts.shape[0]):
            c = counts[r]
            if c > 0:
                counts[r] = c - 1
                out += (c / left) * _banker(counts, left - 1, h + rinfo[r], T, memo)
                counts[r] = c
    memo[key] = out
    return out


@njit(cache=True)
def _settle(counts, left, h, p, b1, T, memo, pc, bc):
    """The player stops with hand ``h`` (probability ``p``): add the outcome probabilities to
    ``pc``/``bc``.  ``b1`` is the banker's open card's rank class, or -1 if still in the deck."""
    rinfo, pcat, show, bcat_of_key, five, bonus = T[0], T[1], T[2], T[5], T[8], T[9]
    f = five and (h & E.FIVE_MASK) == E.FIVE_PICTURES
    cat = E.FIVE if f else pcat[h & E.IDX]
    is_bonus = (h & ~E.PICTURE_BITS) == E.BONUS_SHAPE
    if cat >= 0:
        if bonus and cat == E.WIN and is_bonus:
            cat = E.BONUS
        pc[cat] += p
        bc[E.BC_IDLE] += p
        return
    if b1 >= 0:
        keys = _banker(counts, left, rinfo[b1], T, memo)
    else:  # the open card was dealt before the player's draws; the order is exchangeable
        keys = np.zeros(NKEYS)
        for r in range(counts.shape[0]):
            c = counts[r]
            if c > 0:
                counts[r] = c - 1
                keys += (c / left) * _banker(counts, left - 1, rinfo[r], T, memo)
                counts[r] = c
    total = (h >> 5) & 63
    for k in range(NKEYS):
        q = keys[k]
        if q > 0.0:
            cat = show[total, k]
            if bonus and cat == E.WIN and is_bonus:
                cat = E.BONUS
            pc[cat] += p * q
            bc[bcat_of_key[k]] += p * q


# 11 parameters: a recursion's state (deck left, hand, probability) and its tables, as they are
@njit(cache=True)
def _player(counts, left, h, p, b1, ptab, hitp, T, memo, pc, bc):
    """Follow the player's strategy (stop table) from hand ``h`` with probability ``p``."""
    rinfo, five = T[0], T[8]
    f = five and (h & E.FIVE_MASK) == E.FIVE_PICTURES
    d = ptab[h & E.IDX]
    hit = 0.0 if (d == E.STOP or f or left == 0) else (1.0 if d == E.DRAW else hitp[h & E.IDX])
    if hit < 1.0:
        _settle(counts, left, h, p * (1.0 - hit), b1, T, memo, pc, bc)
    if hit > 0.0:
        for r in range(counts.shape[0]):
            c = counts[r]
            if c > 0:
                counts[r] = c - 1
                _player(counts, left - 1, h + rinfo[r], p * hit * c / left, b1, ptab, hitp, T,
                        memo, pc, bc)
                counts[r] = c


@njit(cache=True)
def _round(counts, ptab, hitp, T, memo, pc, bc):
    """The whole round from ``counts``: player's first card, banker's open card, then play."""
    rinfo = T[0]
    left = counts.sum()
    for r1 in range(counts.shape[0]):
        c1 = counts[r1]
        if c1 == 0:
            continue
        counts[r1] = c1 - 1
        for rb in range(counts.shape[0]):
            cb = counts[rb]
            if cb == 0:
                continue
            counts[rb] = cb - 1
            _player(counts, left - 2, rinfo[r1], c1 / left * cb / (left - 1), rb, ptab, hitp, T,
                    memo, pc, bc)
            counts[rb] = cb
        counts[r1] = c1


@njit(cache=True)
def _stand_value(counts, left, h, b1, T, memo):
    pc = np.zeros(E.NPC)
    _settle(counts, left, h, 1.0, b1, T, memo, pc, np.zeros(E.NBC))
    return (pc * T[6]).sum(), pc


@njit(cache=True)
def _forced_stop(h, left, T):
    return (T[8] and (h & E.FIVE_MASK) == E.FIVE_PICTURES) or ((h >> 5) & 63) >= 21 \
        or (h & 31) >= T[10] or left == 0


@njit(cache=True)
def _best_value(counts, left, h, b1, T, memo):
    """Best expected payoff from hand ``h`` knowing the player's cards (and ``b1`` if >= 0):
    ``(best, value of hitting, value of standing)``; hitting is ``-inf`` where he must stop.

    Self-recursive only: numba's cache cannot reload mutually recursive functions."""
    stand, _ = _stand_value(counts, left, h, b1, T, memo)
    if _forced_stop(h, left, T):
        return stand, -np.inf, stand
    hit = 0.0
    for r in range(counts.shape[0]):
        c = counts[r]
        if c > 0:
            counts[r] = c - 1
            hit += c / left * _best_value(counts, left - 1, h + T[0][r], b1, T, memo)[0]
            counts[r] = c
    return max(hit, stand), hit, stand


@njit(cache=True)
def _best_walk(counts, left, h, b1, T, memo, weight, decisions, pc_out):
    """Follow the best play from hand ``h`` (reached with probability ``weight``): add its
    outcome probabilities to ``pc_out`` and its choices to ``decisions[total, cards, stand/hit]``."""
    _, hit, stand = _best_value(counts, left, h, b1, T, memo)
    total, n = (h >> 5) & 63, h & 31
    if hit > stand:
        decisions[total, n, 1] += weight
        for r in range(counts.shape[0]):
            c = counts[r]
            if c > 0:
                counts[r] = c - 1
                _best_walk(counts, left - 1, h + T[0][r], b1, T, memo, weight * c / left,
                           decisions, pc_out)
                counts[r] = c
    else:
        if not _forced_stop(h, left, T):
            decisions[total, n, 0] += weight
        pc_out += weight * _stand_value(counts, left, h, b1, T, memo)[1]


def _memo():
    return Dict.empty(key_type=types.int64, value_type=types.float64[:])


# ------------------------------------------------------------------------------- public API

def _rules(rules_or_game):
    if isinstance(rules_or_game, str):
        from simkit.games.ochko import SPEC
        return parse_rules(SPEC, rules_or_game)
    return rules_or_game


def banker_distribution(game="ochko", seen=None, first=None) -> dict[str, Fraction]:
    """The banker's final outcome alone (``banker_le16``, ``banker_17`` .. ``banker_21``,
    ``banker_bust``, ``banker_golden``) as exact fractions.

    ``seen``: cards already out of the deck (e.g. the player's); ``first``: the banker's first
    card, if known.  The banker draws by the rules' ``banker_stop`` and ``banker_max_cards``.
    """
    s = _Setup(_rules(game))
    counts = s.remaining(seen)
    out: dict[int, Fraction] = {}

    def rec(h, p, left):
        if s.bstop[h & E.IDX] or left == 0:
            k = int(s.bkey[h & E.IDX])
            out[k] = out.get(k, Fraction(0)) + p
            return
        for r in range(len(counts)):
            c = int(counts[r])
            if c:
                counts[r] -= 1
                rec(h + int(s.rinfo[r]), p * Fraction(c, left), left - 1)
                counts[r] += 1

    left = int(counts.sum())
    if first is not None:
        code = C.parse(first)[0] if isinstance(first, str) else int(first)
        i = s.rank_index(code)
        if counts[i] == 0:
            raise SimkitError("the banker's first card is not left in the deck")
        counts[i] -= 1
        rec(int(s.rinfo[i]), Fraction(1), left - 1)
    else:
        rec(0, Fraction(1), left)
    names = {**{k: "banker_le16" for k in range(17)}, **{k: f"banker_{k}" for k in range(17, 22)},
             BK_BUST: "banker_bust", BK_GOLDEN: "banker_golden"}
    res = {n: Fraction(0) for n in ["banker_le16", "banker_17", "banker_18", "banker_19",
                                    "banker_20", "banker_21", "banker_bust", "banker_golden"]}
    for k, p in out.items():
        res[names[k]] += p
    return res


def _evaluate_tables(s: _Setup, ptab, hitp, counts=None):
    pc = np.zeros(E.NPC)
    bc = np.zeros(E.NBC)
    _round(s.counts.copy() if counts is None else counts.copy(), ptab, hitp, s.T, s.memo, pc, bc)
    return pc, bc


def _metrics(s: _Setup, pc, bc) -> dict[str, float]:
    """The simulation's metric names from category probabilities."""
    out = {name: float(bc[i]) for i, name in enumerate(E.BANKER_NAMES[:-1])}
    player = pc @ s.w
    ev = float(player[-1])
    out["bank_result"] = -ev
    out.update({f"p1_{name}": float(v) for name, v in zip(E.PLAYER_NAMES, player)})
    return out


def evaluate(game="ochko", strategy="stand_at(17)") -> dict[str, float]:
    """Exact metrics of one player playing ``strategy`` against the banker (float64)."""
    rules = _rules(game)
    s = _setup(rules)
    from simkit.games.ochko import SPEC as spec
    strats = parse_strategies(spec, rules, [f"p1={strategy}"] if isinstance(strategy, str)
                              else {"p1": strategy})
    ptab, hitp = policy_tables(strats, rules)
    if sees_upcard(hitp):
        raise SimkitError(f"exact evaluation takes a policy that ignores the banker's face-up "
                          f"card, not {strats[0]}; best_play(upcard=True) gives the best one "
                          f"that sees it")
    pc, bc = _evaluate_tables(s, ptab[0, 0].reshape(-1), hitp[0, 0].reshape(-1))
    return _metrics(s, pc, bc)


def best_threshold(game="ochko", thresholds=range(2, 23)) -> tuple[int, dict[str, float]]:
    """The ``stand_at(t)`` with the highest ``p1_result``, and its metrics."""
    rules = _rules(game)
    vals = {t: evaluate(rules, f"stand_at({t})") for t in thresholds}
    t = max(vals, key=lambda k: vals[k]["p1_result"])
    return t, vals[t]


def best_play(game="ochko", upcard: bool = True) -> dict:
    """The fully composition-dependent best play: hit or stand knowing his own cards (and the
    banker's open card when ``upcard``).  Returns its value (``p1_result``), win probability, and a
    DataFrame of how often hitting is best at each (total, cards) reached."""
    rules = _rules(game)
    s = _setup(rules)
    counts = s.counts.copy()
    left = int(counts.sum())
    decisions = np.zeros((64, 32, 2))
    pc = np.zeros(E.NPC)
    for r1 in range(len(counts)):
        c1 = int(counts[r1])
        counts[r1] -= 1
        h = int(s.rinfo[r1])
        if upcard:
            for rb in range(len(counts)):
                cb = int(counts[rb])
                if cb == 0:
                    continue
                counts[rb] -= 1
                _best_walk(counts, left - 2, h, rb, s.T, s.memo, c1 / left * cb / (left - 1),
                           decisions, pc)
                counts[rb] += 1
        else:
            _best_walk(counts, left - 1, h, -1, s.T, s.memo, c1 / left, decisions, pc)
        counts[r1] += 1
    value = float(pc @ s.w[:, -1])
    t, n = np.nonzero(decisions.sum(axis=2))
    table = pd.DataFrame(dict(total=t, cards=n, p_reach=decisions[t, n].sum(axis=1),
                              hit_share=decisions[t, n, 1] / decisions[t, n].sum(axis=1)))
    player = pc @ s.w
    return dict(p1_result=float(value), p1_win=float(player[0]), upcard=upcard, policy=table,
                categories=dict(zip(["golden", "five", "bust", "win", "push", "loss", "bonus"],
                                    map(float, pc))))


def grid(game="ochko", player=range(12, 22), banker=range(14, 21)) -> pd.DataFrame:
    """``p1_result`` and ``p1_win`` for every player threshold x banker threshold (float64), with
    ``best_reply`` marking the player's best threshold against each banker threshold."""
    rules = _rules(game)
    recs = []
    for b in banker:
        r = rules.replace(banker_stop=b)
        for t in player:
            m = evaluate(r, f"stand_at({t})")
            recs.append({"banker_stop": b, "p1.t": t, "p1_result": m["p1_result"], "p1_win": m["p1_win"],
                         "bank_result": m["bank_result"]})
    df = pd.DataFrame(recs)
    best = df.loc[df.groupby("banker_stop")["p1_result"].idxmax(), ["banker_stop", "p1.t"]]
    df["best_reply"] = df.set_index(["banker_stop", "p1.t"]).index.isin(
        list(best.itertuples(index=False, name=None)))
    return df


def bank_best_threshold(df: pd.DataFrame) -> tuple[int, float]:
    """From :func:`grid`: the banker threshold whose bank edge is largest when the player
    answers it with his best threshold, and that edge (per unit stake)."""
    replies = df[df["best_reply"]].set_index("banker_stop")["bank_result"]
    b = int(replies.idxmax())
    return b, float(replies[b])


def tidy(rows: dict[str, float] | pd.DataFrame, rules, strategies: str, method: str,
         grid_cols=()) -> pd.DataFrame:
    """Exact numbers as a results table with the simulation's columns (se 0, CI = value)."""
    from simkit.games.ochko import SPEC
    return exact_table(SPEC, rules, rows, strategies, method, grid_cols)


def analyze(rules, strategies=None, grid_axes=None) -> tuple[dict, pd.DataFrame]:
    """What ``simkit exact ochko`` prints: ``(JSON object, tidy table)``; the object's
    ``summary`` lines are printed under the table (the contract of ``GameSpec.exact``).

    Without a grid: the banker's distribution (exact rationals), the best fixed threshold, the
    best composition-dependent play (with and without seeing the banker's open card), and with a
    ``p1`` strategy its ``p1_win``/``p1_result`` and every metric.  With ``grid_axes``
    (``banker_stop`` and ``p1.t`` values) the threshold grid and the bank's best threshold.
    """
    t0 = time.perf_counter()
    from simkit.games.ochko import SPEC as spec
    rstring = game_string(spec, rules)
    if grid_axes:
        axes = dict(grid_axes)
        unknown = set(axes) - {"banker_stop", "p1.t"}
        if unknown:
            raise SimkitError(f"exact grids take banker_stop and p1.t, not {', '.join(sorted(unknown))}")
        if strategies:
            raise SimkitError("an exact grid plays stand_at(p1.t): drop -s and put p1.t on the grid")
        player = [int(float(v)) for v in axes.get("p1.t", range(12, 22))]
        banker = [int(float(v)) for v in axes.get("banker_stop", [rules.banker_stop])]
        for v in player + banker:
            if not 2 <= v <= 22:
                raise SimkitError(f"threshold {v} is out of range: allowed 2..22")
        g = grid(rules, player, banker)
        b, edge = bank_best_threshold(g)
        obj = dict(game="ochko", rules=rstring, method="exact enumeration, float64",
                   seconds=round(time.perf_counter() - t0, 3),
                   bank_best=dict(banker_stop=b, bank_result=edge,
                                  player_reply=int(g[(g.banker_stop == b) & g.best_reply]["p1.t"].iloc[0])),
                   grid=g.to_dict("records"))
        table = tidy(g.drop(columns="best_reply"), rules, "p1=stand_at(t)", "exact",
                     grid_cols=("banker_stop", "p1.t"))
        obj["summary"] = [f"bank's best threshold against the player's best reply: banker_stop="
                          f"{b} (player stand_at({obj['bank_best']['player_reply']})), bank edge "
                          f"{edge:.6f} per unit stake"]
        return obj, table
    dist = banker_distribution(rules)
    short = {k.removeprefix("banker_"): v for k, v in dist.items()}
    if short["le16"] == 0:
        del short["le16"]
    t, tm = best_threshold(rules)
    bp_up = best_play(rules, upcard=True)
    bp_blind = best_play(rules, upcard=False)
    obj = dict(game="ochko", rules=rstring,
               method={"banker": "exact rational", "player": "exact enumeration, float64"},
               banker={k: float(v) for k, v in short.items()},
               banker_exact={k: str(v) for k, v in short.items()},
               best_threshold=dict(t=t, p1_result=tm["p1_result"], p1_win=tm["p1_win"]),
               best_play=dict(upcard=dict(p1_result=bp_up["p1_result"], p1_win=bp_up["p1_win"]),
                              no_upcard=dict(p1_result=bp_blind["p1_result"], p1_win=bp_blind["p1_win"])))
    rows = {f"banker_alone_{k}": float(v) for k, v in short.items()}
    rows.update({"best_t": float(t), "best_t_p1_result": tm["p1_result"],
                 "best_play_p1_ev": bp_up["p1_result"], "best_play_no_upcard_p1_ev": bp_blind["p1_result"]})
    label = "-"
    if strategies:
        m = evaluate(rules, strategies[0])
        obj.update(strategies={"p1": str(strategies[0])}, p1_win=m["p1_win"], p1_result=m["p1_result"],
                   metrics=m)
        rows.update(m)
        label = f"p1={strategies[0]}"
    obj["seconds"] = round(time.perf_counter() - t0, 3)
    obj["summary"] = [f"best stand_at: t={t} (p1_result {tm['p1_result']:.6f}); best play p1_result "
                      f"{bp_up['p1_result']:.6f} seeing the banker's card, {bp_blind['p1_result']:.6f} "
                      f"without"]
    return obj, tidy(rows, rules, label, "exact")
