"""Exact analysis of «31» with a bank for one punter against the banker, by recursion over the
pack's composition (value classes: ace, 2..9, ten-valued).

The cards of a round are a uniformly random order of the pack, so the seats' cards can be taken
in any fixed order of positions: the recursion deals the punter's three cards, follows his
draws (he never sees the banker's cards, so his play depends on his own only), and only then
deals the banker's three cards and his draws from what is left.  A banker dealt 31 ends the round
before anyone draws; by the same exchangeability its chance, summed over the punter's draws, is
its chance before them, so every leaf of the punter's tree is settled against the banker's
distribution from the composition left there (:func:`_bank_deal`, memoised by composition; its
three cards are enumerated as multisets, his draws card by card).

* :func:`banker_distribution`: the banker alone drawing to ``banker_stand``: his final total
  (exact rationals), from a fresh pack or with cards ``seen``.
* :func:`evaluate`: a punter strategy (``stand_at`` or ``count``) against the banker: the
  simulation's metrics exactly (float64, every term enumerated), from any composition.
* :func:`best_threshold`: the best ``stand_at(t, soft)`` and its value; :func:`grid`: banker
  threshold x punter threshold, and the bank's best threshold against the punter's best reply.
* :func:`remark_97`: line 97's remark, exactly: for every dealt hand of 26 or 27, standing
  against buying one card (and against buying on by the best threshold).
* :func:`talia_counting`: over whole talias (compositions taken from simulated talias' move
  logs), the exact value of each round's best threshold for its pack against the fixed one.
"""
from __future__ import annotations

import functools
import time
from fractions import Fraction

import numpy as np
import pandas as pd
from numba import njit, types
from numba.typed import Dict

from simkit.core.exact import tidy as exact_table
from simkit.core.play import check_stack
from simkit.core.registry import game_string, parse_rules, parse_strategy
from simkit.engines.moves import split_event
from simkit.errors import SimkitError
from simkit.games.thirty_one_bank import engine as E
from simkit.games.thirty_one_bank.rules import ThirtyOneBankRules

NV = E.NV
VALUES = np.arange(1, NV + 1, dtype=np.int64)   # class r has value r + 1 (ace 1, ten-valued 10)
NB = 34          # banker slots: final best total 0..31, 32 over 31, 33 dealt 31
NOUT = NB + 32   # a memo entry: the final slots, then the three-card best totals 0..31
# categories accumulated by the round: the punter's and the banker's
PC = ["win", "push", "loss", "bust", "dealt31", "result"]
BC = ["banker_dealt31", "banker_bust", "banker_idle"]
MIN_CARDS = 20   # a round of one punter from this many cards always deals the banker three


# ------------------------------------------------------------------------------- kernels

@njit(cache=True)
def _code(counts, radix):
    c = 0
    for r in range(NV):
        c += counts[r] * radix[r]
    return c


@njit(cache=True)
def _bank_deal(counts, left, B, radix, memo):
    """The banker's three cards and his draws from ``counts``: ``float64[NOUT]`` with the final
    distribution of rounds he is not dealt 31 in slots 0..32 (32: over 31), his dealt-31 chance
    in slot 33 and his three-card best total's distribution in slots 34..65.  Memoised by
    composition.

    ``B`` lists every final hand the banker's rule can end with as a multiset of value classes
    (:func:`banker_hands`) with its number of valid orders: a value sequence's chance is
    ``prod_i (c_i)_(m_i) / (left)_(m)`` whatever the order, so each final hand is one product of
    falling factorials (``ff``), and the banker's play is enumerated once per rules, not once
    per composition."""
    key = _code(counts, radix)
    if key in memo:
        return memo[key]
    cls, mult, ways, cat, size, ff = B
    out = np.zeros(NOUT)
    for h in range(ways.shape[0]):
        if size[h] > left or (cat[h] >= NOUT and size[h] < left):
            continue
        p = ways[h] / ff[left, size[h]]
        for j in range(cls.shape[1]):
            r = cls[h, j]
            if r < 0:
                break
            p *= ff[counts[r], mult[h, j]]
            if p == 0.0:
                break
        out[cat[h] - NOUT if cat[h] >= NOUT else cat[h]] += p
    memo[key] = out
    return out


@njit(cache=True)
def _draws(counts, left, hard, aces, kind, t, soft, q):
    """Whether the punter buys a card (``stand_at``: kind 0, ``count``: kind 2)."""
    b = E.best(hard, aces)
    if b != hard:
        return b < soft
    if kind == 2:
        need = 32 - hard
        if b >= 31:
            return False
        if need > 10:
            return 0.0 < q
        num = 0
        for r in range(need - 1, NV):
            num += counts[r]
        return (num / left if left > 0 else 1.0) < q
    return b < t


# 11 parameters: the exact recursion's position (the pack's composition and size, the punter's
# hard total and aces, its probability), the payments P, the banker's memo context (B, radix,
# memo) and the two sums it adds into, as _punter and _stand_or_hit pass them on
@njit(cache=True)
def _leaf(counts, left, hard, aces, p, P, B, radix, memo, acc, hist):
    """The punter stops with (hard, aces) (probability ``p``): settle against the banker.
    ``acc``: PC then BC probabilities/expectations; ``hist[0..32]``: the banker's final total."""
    d = _bank_deal(counts, left, B, radix, memo)
    q31 = d[33]
    stake31, push31, bust_pays, bbust, show = P[0], P[1], P[2], P[3], P[4]
    acc[2] += p * q31                    # loss to the banker's 31
    acc[5] -= p * q31 * stake31
    acc[6] += p * q31                    # banker_dealt31
    hist[31] += p * q31
    if hard > 31:
        acc[3] += p * (1.0 - q31)
        acc[2] += p * (1.0 - q31)
        acc[5] -= p * (1.0 - q31) * bust_pays
        acc[8] += p * (1.0 - q31)        # idle: nobody left in
        for b in range(31):
            hist[b] += p * d[NB + b]
        return
    pt = E.best(hard, aces)
    for b in range(33):
        w = p * d[b]
        if w == 0.0:
            continue
        hist[b] += w
        if b == 32:
            acc[7] += w
            acc[0] += w
            acc[5] += w * bbust
        elif pt > b:
            acc[0] += w
            acc[5] += w * show
        elif pt < b:
            acc[2] += w
            acc[5] -= w * show
        else:
            acc[1] += w


# 13 parameters: the recursion's position (composition, size, hard total, aces), the punter's
# strategy as four scalars (kind, t, soft, q: what _draws reads), the payments P and the
# banker's and punter's memo context; self-recursive, so each is passed on as it is
@njit(cache=True)
def _punter(counts, left, hard, aces, kind, t, soft, q, P, B, radix, memo, pmemo):
    """Follow the punter's strategy from (hard, aces): ``float64[42]``, the round's categories
    (9) and the banker's final-total histogram (33) per unit chance of reaching this hand.
    Memoised by composition (the punter's cards are the pack less it) in ``pmemo``, one per
    strategy.  Self-recursive."""
    key = _code(counts, radix)
    if key in pmemo:
        return pmemo[key]
    out = np.zeros(42)
    if hard > 31 or left == 0 or not _draws(counts, left, hard, aces, kind, t, soft, q):
        _leaf(counts, left, hard, aces, 1.0, P, B, radix, memo, out[:9], out[9:])
    else:
        for r in range(NV):
            c = counts[r]
            if c > 0:
                counts[r] = c - 1
                out += (c / left) * _punter(counts, left - 1, hard + r + 1, aces + (r == 0),
                                            kind, t, soft, q, P, B, radix, memo, pmemo)
                counts[r] = c
    pmemo[key] = out
    return out


# 12 parameters: as _punter's (its strategy scalars, payments and memos) for a fresh round's
# composition, and the two sums it adds into
@njit(cache=True)
def _round(counts, kind, t, soft, q, P, B, radix, memo, pmemo, acc, hist):
    """A whole round from ``counts``: the punter's three cards, then as in :func:`_punter`."""
    left = counts.sum()
    stake31, push31 = P[0], P[1]
    for r1 in range(NV):
        c1 = counts[r1]
        if c1 == 0:
            continue
        counts[r1] = c1 - 1
        for r2 in range(r1, NV):
            c2 = counts[r2]
            if c2 == 0:
                continue
            counts[r2] = c2 - 1
            for r3 in range(r2, NV):
                c3 = counts[r3]
                if c3 == 0:
                    continue
                perms = 6.0 if (r1 != r2 and r2 != r3) else (1.0 if r1 == r3 else 3.0)
                p = perms * c1 / left * c2 / (left - 1) * c3 / (left - 2)
                counts[r3] = c3 - 1
                hard = r1 + r2 + r3 + 3
                aces = (r1 == 0) + (r2 == 0) + (r3 == 0)
                if E.best(hard, aces) == 31:      # dealt 31: paid at once (line 92)
                    d = _bank_deal(counts, left - 3, B, radix, memo)
                    q31 = d[33]
                    acc[4] += p
                    acc[6] += p * q31
                    hist[31] += p * q31
                    if push31 > 0.5:
                        acc[1] += p * q31
                    else:
                        acc[0] += p * q31
                        acc[5] += p * q31 * stake31
                    acc[0] += p * (1.0 - q31)
                    acc[5] += p * (1.0 - q31) * stake31
                    acc[8] += p * (1.0 - q31)
                    for b in range(31):
                        hist[b] += p * d[NB + b]
                else:
                    v = _punter(counts, left - 3, hard, aces, kind, t, soft, q, P, B, radix,
                                memo, pmemo)
                    acc += p * v[:9]
                    hist += p * v[9:]
                counts[r3] = c3
            counts[r2] = c2
        counts[r1] = c1


# 11 parameters: _leaf's position and context (composition, size, hard total, aces, P and the
# memos) and the one stand_at strategy (t, soft) it follows after the card bought
@njit(cache=True)
def _stand_or_hit(counts, left, hard, aces, P, B, radix, memo, pmemo, t, soft):
    """From a punter hand: (value of standing, of buying exactly one card, of buying one card
    and then playing ``stand_at(t, soft)``)."""
    acc = np.zeros(9)
    hist = np.zeros(33)
    _leaf(counts, left, hard, aces, 1.0, P, B, radix, memo, acc, hist)
    v_stand = acc[5]
    one = 0.0
    on = 0.0
    for r in range(NV):
        c = counts[r]
        if c > 0:
            counts[r] = c - 1
            a1 = np.zeros(9)
            _leaf(counts, left - 1, hard + r + 1, aces + (r == 0), c / left, P, B, radix,
                  memo, a1, hist)
            one += a1[5]
            on += c / left * _punter(counts, left - 1, hard + r + 1, aces + (r == 0), 0, t, soft,
                                     0.0, P, B, radix, memo, pmemo)[5]
            counts[r] = c
    return v_stand, one, on


def _memo():
    return Dict.empty(key_type=types.int64, value_type=types.float64[:])


# ------------------------------------------------------------------------------- set-up

class _Setup:
    """The pack by value class, the rules' payments, and the banker memo (per banker_stand)."""

    def __init__(self, rules):
        if rules.punters != 1:
            raise SimkitError(f"exact analysis is for one punter against the banker, not "
                              f"punters={rules.punters}; simulate more punters with simkit run")
        self.rules = rules
        self.full = E.by_class(E.pack(rules))
        self.radix = np.cumprod(np.r_[1, self.full[:-1] + 1]).astype(np.int64)
        self.P = np.array([rules.stake31, float(rules.both31 == "push"), rules.bust_pays,
                           rules.banker_bust_pays, rules.showdown_pays])
        self.memos: dict[int, Dict] = {}

    def memo(self, stand: int):
        if stand not in self.memos:
            self.memos[stand] = _memo()
        return self.memos[stand]

    def hands(self, stand: int):
        """The banker's final hands for ``banker_stand=stand`` as the kernel's tuple."""
        return _hands_arrays(tuple(int(x) for x in self.full), stand)

    def remaining(self, seen) -> np.ndarray:
        counts = self.full.copy()
        from simkit.games.thirty_one_bank import SPEC
        cards = check_stack(SPEC, self.rules, seen if seen is not None else [], what="seen")
        v = E.card_values()
        for c in cards:        # no card more often than the pack holds it, so no class either
            counts[v[c] - 1] -= 1
        if counts.sum() < MIN_CARDS:
            raise SimkitError(f"seen: {counts.sum()} cards left; the exact round needs at least "
                              f"{MIN_CARDS} (so that the banker always gets his three cards)")
        return counts


def _bank(rules) -> tuple[int, int]:
    """The banker's rule: ``(banker_stand, his threshold on a soft hand)``."""
    return rules.banker_stand, rules.banker_soft or rules.banker_stand


def banker_hands(full, stand):
    """Every hand the banker can end with (``stand``: ``banker_stand``, or ``(banker_stand,
    banker_soft)``: on a soft hand, an ace counted 11, he draws while below the second), as
    ``{multiset: (orders, slot)}``: a multiset of value classes (a tuple of counts, within the pack
    ``full``), the number of value orders in which the banker's rule deals it and stops there, and
    its slot (final best total 0..31, 32 over 31, 33 dealt 31); plus, with slot ``34 + best``, every
    three-card hand (what he holds when no punter is left in), and with slot ``NOUT + best`` every
    hand on which he draws on (it ends his play where it takes the last card of the pack: he stands,
    as ``short_pack=stand`` has it).  The orders do not depend on the composition."""
    full = tuple(int(x) for x in full)
    stand, soft = (stand, stand) if isinstance(stand, (int, np.integer)) else stand

    def stands(b, hard):
        return b >= (soft if b > hard else stand)
    cont = {(0,) * NV: 1}
    out: dict = {}
    size = 0
    while cont:
        size += 1
        nxt: dict = {}
        for mu, n in cont.items():
            for i in range(NV):
                if mu[i] >= full[i]:
                    continue
                nu = mu[:i] + (mu[i] + 1,) + mu[i + 1:]
                hard = sum((j + 1) * m for j, m in enumerate(nu))
                b = int(E.best(hard, nu[0]))
                slot = None
                if size == 3:
                    k = (nu, 34 + b)
                    out[k] = out.get(k, 0) + n
                    slot = 33 if b == 31 else (b if stands(b, hard) else None)
                elif size > 3:
                    slot = 32 if hard > 31 else (b if stands(b, hard) else None)
                if slot is None:
                    nxt[nu] = nxt.get(nu, 0) + n
                    if size >= 3:     # he would draw on: where the pack is spent, he stands
                        out[(nu, NOUT + b)] = out.get((nu, NOUT + b), 0) + n
                else:
                    out[(nu, slot)] = out.get((nu, slot), 0) + n
        cont = nxt
    return out


@functools.lru_cache(maxsize=16)
def _hands_arrays(full: tuple, stand: int):
    hands = banker_hands(full, stand)
    n = len(hands)
    width = max(sum(1 for m in mu if m) for mu, _ in hands)
    cls = np.full((n, width), -1, np.int64)
    mult = np.zeros((n, width), np.int64)
    ways = np.zeros(n)
    cat = np.zeros(n, np.int64)
    size = np.zeros(n, np.int64)
    for h, ((mu, slot), w) in enumerate(hands.items()):
        nz = [(i, m) for i, m in enumerate(mu) if m]
        cls[h, :len(nz)] = [i for i, _ in nz]
        mult[h, :len(nz)] = [m for _, m in nz]
        ways[h], cat[h], size[h] = float(w), slot, sum(mu)
    top = sum(full)
    ff = np.zeros((top + 1, top + 1))
    for c in range(top + 1):
        ff[c, 0] = 1.0
        for k in range(1, c + 1):
            ff[c, k] = ff[c, k - 1] * (c - k + 1)
    return cls, mult, ways, cat, size, ff


@functools.lru_cache(maxsize=8)
def _setup(rules) -> _Setup:
    return _Setup(rules)


def _rules(game) -> ThirtyOneBankRules:
    if isinstance(game, str):
        from simkit.games.thirty_one_bank import SPEC
        return parse_rules(SPEC, game)
    return game


def _strategy(strategy):
    from simkit.games.thirty_one_bank import SPEC as spec
    s = parse_strategy(spec, strategy) if isinstance(strategy, str) else strategy
    if s.kind == "random":
        raise SimkitError("exact evaluation takes stand_at or count, not random")
    v = s.values
    return (2 if s.kind == "count" else 0, int(v.get("t", 0)), int(v.get("soft", 0)),
            float(v.get("q", 0.0)))


def _counts_of(s: _Setup, counts=None, seen=None):
    if counts is not None:
        c = np.asarray(counts, np.int64).copy()
        if c.shape != (NV,) or (c < 0).any() or (c > s.full).any() or c.sum() < MIN_CARDS:
            raise SimkitError(f"counts: {NV} value-class counts within the pack, at least "
                              f"{MIN_CARDS} cards")
        return c
    return s.remaining(seen)


# ------------------------------------------------------------------------------- public API

def banker_distribution(game="thirty_one_bank", seen=None) -> dict[str, Fraction]:
    """The banker alone, dealt three cards and drawing while below ``banker_stand``: his final
    total as exact fractions (``banker_31_dealt``, ``banker_<t>``, ``banker_bust``), from a
    fresh pack or with cards ``seen`` out of it."""
    rules = _rules(game)
    s = _Setup(rules.replace(punters=1))
    counts = [int(x) for x in s.remaining(seen)]
    left = sum(counts)

    def ff(c, k):
        out = 1
        for j in range(k):
            out *= c - j
        return out

    res: dict[int, Fraction] = {}
    for (mu, slot), w in banker_hands(s.full, _bank(rules)).items():
        if slot >= NOUT and sum(mu) == left:
            slot -= NOUT                    # the pack is spent: he stands
        if slot >= 34:
            continue
        num = w
        for c, m in zip(counts, mu):
            num *= ff(c, m)
        if num:
            res[slot] = res.get(slot, Fraction(0)) + Fraction(num, ff(left, sum(mu)))
    names = {33: "banker_31_dealt", 32: "banker_bust"}
    order = [33] + list(range(32)) + [32]
    return {names.get(k, f"banker_{k}"): res[k] for k in order if k in res}


def evaluate(game="thirty_one_bank", strategy="stand_at", seen=None, counts=None) -> dict:
    """Exact metrics of one punter playing ``strategy`` against the banker from a fresh pack,
    or from the pack less ``seen`` cards (or the value-class ``counts`` left), with the
    simulation's names (``p1_result``, ``banker_bust`` ...) and the banker's final-total
    distribution in the round (``banker_total_<t>``, 32: over 31)."""
    rules = _rules(game)
    s = _setup(rules)
    kind, t, soft, q = _strategy(strategy)
    c = _counts_of(s, counts, seen)
    acc = np.zeros(9)
    hist = np.zeros(33)
    _round(c, kind, t, soft, q, s.P, s.hands(_bank(rules)), s.radix,
           s.memo(_bank(rules)), _memo(), acc, hist)
    out = {f"p1_{n}": float(acc[i]) for i, n in enumerate(PC)}
    out["bank_result"] = -out["p1_result"]
    out.update({n: float(acc[6 + i]) for i, n in enumerate(BC)})
    out["banker_total"] = float(hist @ np.arange(33))
    out.update({f"banker_total_{b}": float(hist[b]) for b in range(33) if hist[b] > 0})
    return out


def thresholds(game="thirty_one_bank", t_range=range(20, 32), soft_range=None, seen=None,
               counts=None) -> pd.DataFrame:
    """``p1_result`` of every ``stand_at(t, soft)`` (float64, exact)."""
    rules = _rules(game)
    s = _setup(rules)
    c = _counts_of(s, counts, seen)
    soft_range = t_range if soft_range is None else soft_range
    memo = s.memo(_bank(rules))
    B = s.hands(_bank(rules))
    rec = []
    for t in t_range:
        for so in soft_range:
            acc = np.zeros(9)
            _round(c.copy(), 0, t, so, 0.0, s.P, B, s.radix, memo, _memo(), acc, np.zeros(33))
            rec.append(dict(t=t, soft=so, p1_result=float(acc[5]), p1_bust=float(acc[3])))
    return pd.DataFrame(rec)


def best_threshold(game="thirty_one_bank", t_range=range(20, 32), soft_range=None, seen=None,
                   counts=None) -> dict:
    """The best ``stand_at(t, soft)`` and its ``p1_result``."""
    df = thresholds(game, t_range, soft_range, seen, counts)
    row = df.loc[df.p1_result.idxmax()]
    return dict(t=int(row.t), soft=int(row.soft), p1_result=float(row.p1_result))


def grid(game="thirty_one_bank", banker=range(22, 32), t_range=range(20, 32),
         soft_range=None) -> pd.DataFrame:
    """``p1_result`` for banker threshold x punter ``stand_at(t, soft)``, with ``best_reply``
    marking the punter's best pair against each banker threshold (the Очко banker question)."""
    rules = _rules(game)
    recs = []
    for b in banker:
        df = thresholds(rules.replace(banker_stand=b), t_range, soft_range)
        df.insert(0, "banker_stand", b)
        df["best_reply"] = df.index == df.p1_result.idxmax()
        recs.append(df)
    out = pd.concat(recs, ignore_index=True)
    out["bank_result"] = -out["p1_result"]
    return out


def bank_best_threshold(df: pd.DataFrame) -> dict:
    """From :func:`grid`: the banker threshold whose edge is largest when the punter answers it
    with his best pair (minimax), that edge, and the reply."""
    rep = df[df.best_reply].set_index("banker_stand")
    b = int(rep.bank_result.idxmax())
    return dict(banker_stand=b, bank_result=float(rep.loc[b, "bank_result"]),
                reply_t=int(rep.loc[b, "t"]), reply_soft=int(rep.loc[b, "soft"]))


def remark_97(game="thirty_one_bank", totals=(26, 27), t=None, soft=None) -> pd.DataFrame:
    """Line 97: "with 26 or 27 a punter gains nothing by buying".  For every dealt three-card
    hand whose best total is in ``totals`` (its chance from a fresh pack), the exact value of
    standing, of buying exactly one card, and of buying one and playing on by ``stand_at(t,
    soft)`` (default: the best pair)."""
    rules = _rules(game)
    s = _setup(rules)
    if t is None or soft is None:
        bt = best_threshold(rules)
        t, soft = bt["t"] if t is None else t, bt["soft"] if soft is None else soft
    memo = s.memo(_bank(rules))
    full = s.full
    left = int(full.sum())
    rows = []
    for r1 in range(NV):
        for r2 in range(r1, NV):
            for r3 in range(r2, NV):
                c = full.copy()
                p = 1.0
                for k, r in enumerate((r1, r2, r3)):
                    p *= c[r] / (left - k)
                    c[r] -= 1
                if p <= 0:
                    continue
                p *= 6.0 if (r1 != r2 and r2 != r3) else (1.0 if r1 == r3 else 3.0)
                hard = r1 + r2 + r3 + 3
                aces = (r1 == 0) + (r2 == 0) + (r3 == 0)
                b = int(E.best(hard, aces))
                if b not in totals:
                    continue
                vs, v1, von = _stand_or_hit(c, left - 3, hard, aces, s.P,
                                            s.hands(_bank(rules)), s.radix, memo, _memo(),
                                            t, soft)
                # every value includes the banker's dealt 31 the same way: differences are gains
                rows.append(dict(hand="-".join(str(r + 1) for r in (r1, r2, r3)), total=b,
                                 soft=b != hard, p_dealt=p, stand=vs, buy_one=v1,
                                 buy_on=von))
    df = pd.DataFrame(rows)
    df["gain_one"] = df.buy_one - df.stand
    df["gain_on"] = df.buy_on - df.stand
    return df


def talia_counting(game="thirty_one_bank(unit=talia)", talias=20, seed=1, strategy="stand_at",
                   t_range=range(21, 28), soft_range=range(27, 30), best=True) -> pd.DataFrame:
    """The worth of counting over whole talias: ``talias`` simulated talias of one punter
    playing ``strategy`` (its move logs give the composition at every round's start); for each
    round the exact ``p1_result`` of the fixed strategy and of the best ``stand_at`` for that
    composition (a counter who knows the best threshold for every pack; ``best=False`` skips
    it).  Rounds whose pack holds fewer than ``MIN_CARDS`` (20) cards at their start are marked
    ``exact=False`` and get no exact values.  The exact round stands where the pack is spent
    (``short_pack=stand``); with ``reshuffle`` the rare round that spends its pack differs.
    ``talia_result`` and ``talia_win`` (on each talia's first round) are the simulated
    talia's ``p1_result`` and ``p1_win``; ``fixed_win`` each round's exact ``p1_win``."""
    from simkit.core.play import run_chunk
    from simkit.core.registry import resolve_strategies
    from simkit.core.rng import stream_state
    from simkit.games.thirty_one_bank import SPEC as spec
    rules = _rules(game)
    if rules.unit != "talia":
        raise SimkitError("talia_counting needs unit=talia")
    strats = resolve_strategies(spec, rules, [f"p1={strategy}"])
    cols = E.log_columns(rules)
    log = np.zeros((talias, len(cols)), np.int64)
    _, rows, _ = run_chunk(spec, rules, strats, stream_state(seed, 0), talias, True, log)
    names = [m.name for m in spec.metrics(rules)]
    s = _setup(rules.replace(unit="round"))
    r_round = rules.replace(unit="round")
    v = E.card_values()
    recs = []
    for i in range(talias):
        counts = s.full.copy()
        rnd = -1
        for e in log[i]:
            if e < 0:
                break
            kind, _, rd, c = split_event(e)
            if rd != rnd:   # a new round starts: its composition
                rnd = rd
                start = counts.copy()
                ok = start.sum() >= MIN_CARDS
                rec = dict(talia=i, round=int(rd), cards_left=int(start.sum()), exact=ok)
                if ok:
                    ev = evaluate(r_round, strategy, counts=start)
                    rec["fixed"], rec["fixed_win"] = ev["p1_result"], ev["p1_win"]
                    if best:
                        bt = best_threshold(r_round, t_range, soft_range, counts=start)
                        rec.update(best=bt["p1_result"], best_t=bt["t"], best_soft=bt["soft"])
                if rd == 0:
                    rec["talia_result"] = float(rows[i, names.index("p1_result")])
                    rec["talia_win"] = float(rows[i, names.index("p1_win")])
                recs.append(rec)
            if kind == E.E_RESHUFFLE:
                continue
            counts[v[c] - 1] -= 1
    df = pd.DataFrame(recs)
    df["gain"] = df.get("best", np.nan) - df.get("fixed", np.nan)
    return df


# ------------------------------------------------------------------------------- simkit exact

def tidy(rows, rules, strategies: str, method: str, grid_cols=()) -> pd.DataFrame:
    from simkit.games.thirty_one_bank import SPEC
    return exact_table(SPEC, rules, rows, strategies, method, grid_cols)


def analyze(rules, strategies=None, grid_axes=None):
    """What ``simkit exact thirty_one_bank`` prints: ``(JSON object, tidy table)``.

    Without a grid: the banker's final-total distribution alone (exact rationals), the best
    ``stand_at(t, soft)`` and its value, line 97's remark, and with a ``p1`` strategy its
    metrics.  ``--grid seen=As,10h,...`` takes those cards out of the pack first (any pack
    composition).  ``--grid banker_stand=a..b`` (with ``p1.t``/``p1.soft`` ranges): the
    threshold grid and the bank's best threshold against the punter's best reply."""
    t0 = time.perf_counter()
    from simkit.games.thirty_one_bank import SPEC as spec
    if rules.unit != "round":
        rules = rules.replace(unit="round")  # a round's exact values; talias: talia_counting
    axes = dict(grid_axes or [])
    unknown = set(axes) - {"seen", "banker_stand", "p1.t", "p1.soft"}
    if unknown:
        raise SimkitError(f"exact grids take seen, banker_stand, p1.t and p1.soft, not "
                          f"{', '.join(sorted(unknown))}")
    seen = " ".join(axes.get("seen", [])) or None
    ints = {k: [int(float(x)) for x in axes[k]] for k in ("banker_stand", "p1.t", "p1.soft")
            if k in axes}
    for k, vs in ints.items():
        for x in vs:
            if not 2 <= x <= 32:
                raise SimkitError(f"{k}={x} is out of range: allowed 2..32")
    rstring = game_string(spec, rules)
    t_range = ints.get("p1.t", range(20, 32))
    soft_range = ints.get("p1.soft", t_range)
    if "banker_stand" in ints:
        if seen:
            raise SimkitError("an exact banker_stand grid is from a fresh pack: drop seen")
        if strategies:
            raise SimkitError("an exact banker_stand grid plays stand_at(p1.t, p1.soft): drop -s "
                              "and put p1.t / p1.soft on the grid")
        g = grid(rules, ints["banker_stand"], t_range, soft_range)
        bb = bank_best_threshold(g)
        g = g.rename(columns={"t": "p1.t", "soft": "p1.soft"})   # named as the grid's axes
        obj = dict(game=spec.name, rules=rstring, method="exact enumeration, float64",
                   bank_best=bb, grid=g.to_dict("records"))
        obj["summary"] = [f"bank's best threshold against the punter's best reply: "
                          f"banker_stand={bb['banker_stand']} (punter stand_at({bb['reply_t']},"
                          f"{bb['reply_soft']})), bank edge {bb['bank_result']:.6f} tokens a round"]
        obj["seconds"] = round(time.perf_counter() - t0, 3)
        return obj, tidy(g.drop(columns="best_reply"), rules, "p1=stand_at(t,soft)", "exact",
                         grid_cols=("banker_stand", "p1.t", "p1.soft"))
    dist = banker_distribution(rules, seen)
    bt = best_threshold(rules, t_range, soft_range, seen=seen)
    rem = remark_97(rules, t=bt["t"], soft=bt["soft"]) if not seen else None
    obj = dict(game=spec.name, rules=rstring, seen=seen,
               method={"banker": "exact rational", "punter": "exact enumeration, float64"},
               banker={k: float(v) for k, v in dist.items()},
               banker_exact={k: str(v) for k, v in dist.items()},
               best_threshold=bt)
    rows = {k: float(v) for k, v in dist.items()}
    rows.update({"best_t": float(bt["t"]), "best_soft": float(bt["soft"]),
                 "best_p1_result": bt["p1_result"]})
    summary = [f"best stand_at: t={bt['t']}, soft={bt['soft']} (p1_result {bt['p1_result']:.6f}"
               f" tokens a round)" + (f" with {seen} out of the pack" if seen else "")]
    if rem is not None:
        w = rem.groupby("total").apply(
            lambda d: pd.Series({"p_dealt": d.p_dealt.sum(),
                                 "gain_one": (d.p_dealt * d.gain_one).sum() / d.p_dealt.sum(),
                                 "gain_on": (d.p_dealt * d.gain_on).sum() / d.p_dealt.sum(),
                                 "hands_gaining": int((d.gain_one > 0).sum()),
                                 "hands": len(d)}), include_groups=False)
        obj["remark_97"] = w.reset_index().to_dict("records")
        for tot, r in w.iterrows():
            rows[f"remark97_{tot}_gain_one"] = float(r.gain_one)
            rows[f"remark97_{tot}_gain_on"] = float(r.gain_on)
            summary.append(f"line 97, dealt {tot}: buying one card changes the value by "
                           f"{r.gain_one:+.4f} tokens on average ({int(r.hands_gaining)} of "
                           f"{int(r.hands)} hands gain)")
    label = "-"
    if strategies:
        m = evaluate(rules, strategies[0], seen=seen)
        obj.update(strategies={"p1": str(strategies[0])}, metrics=m)
        rows.update(m)
        label = f"p1={strategies[0]}"
    obj["summary"] = summary
    obj["seconds"] = round(time.perf_counter() - t0, 3)
    return obj, tidy(rows, rules, label, "exact")
