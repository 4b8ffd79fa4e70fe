"""Exact initial-meld and first-pile odds when sequences may be melded (the Samba family,
003:71-83, READINGS 3.4-3.6), for :mod:`simkit.games.canasta.exact`.

A **lay** of a hand: groups of one rank 4..A (at least two naturals, at most ``max_wild`` wild
cards, at least three cards; one group per rank, the engine's reading, rules.py), sequences (three
or more naturals of one suit in consecutive ranks 4..A, no wild card; a longer run is laid as
pieces of three to seven, and every run of three or more splits so, so the DP lets a run grow
without limit), and with ``wild_meld`` a meld of 3..``wild_meld`` wild cards alone (Bolivia and
Brazilian: one a side, the engine's reading).  Every card laid adds its value (ace 20, K..8 10,
7..4 5, deuce 20, joker 50), so the best lay is the one of most value.

The method: a DP over the ranks 4..A.  A hand's cards of one rank are its count per suit (0 to
``copies`` each, ``C(copies, k)`` ways).  A **partial lay** of the ranks so far is the state
``(runs, p, s, v)``: per suit the open runs by length (1, 2, 3 or more: ``(n1, n2, n3)``), ``p``
the groups of exactly two naturals (each needs a wild card), ``s`` the groups (each takes up to
``max_wild`` wild cards), ``v`` the naturals' value laid (capped at the largest minimum asked).
At a rank, each suit's cards go to the open runs (a run of length 1 or 2 must go on, a run of 3 or
more may stop; extending a run of three or more rather than opening a new one never loses) or
start new runs; the rest of the rank form its group (three or more: all of them; exactly two:
the group or not).  A hand prefix is described by the SET of its reachable partial lays, pruned
of dominated ones (same runs, ``p`` no greater, ``s`` and ``v`` no smaller); prefixes with equal
card count and equal sets are merged, their ways summed.  At the end the wild cards and black
threes are combined by counts: ``j`` jokers and ``d`` deuces lay ``n`` of them, ``p <= n <=
max_wild * s`` in groups plus the wild meld's, jokers first.

For the first pile, one rank ``x`` is the upcard's: the DP carries a flag, and at the rank chosen
as ``x`` the hand's rank-``x`` cards left after its sequences must be two or more and form the
group with the upcard (the top card never joins a sequence, 003:78), its value counted; the
prefix's ways are multiplied by ``copies * suits - n_x`` (the upcard's copies not held), and the
upcard's share ``1 / (plain cards not held)`` is applied at the end with the wild-card count.

Reach of this set DP (measured 2026-12-04, one core, Python): the real pack's 156 held cards at
hands of 4 / 5 / 6 take 1.3 / 6.5 / 27 s (about x4.5 a card): the sets of partial lays run to
hundreds of states (suits x open runs x value).  **One threshold at a time** (:func:`seq_odds_at`,
below) reaches Samba's 15 cards: the wild cards are fixed first (an outer loop over the held
jokers and deuces, cut to the classes that can differ below the threshold ``T``: at 50 five
classes), the natural DP then judges a partial lay with no short run open as soon as it is
worth ``T`` (a YES prefix is one absorbing state), drops the prefixes that cannot reach ``T``
any more, prunes lays dominated in runs as well (:func:`_runs_ge`), carries the natural card
count as a vector per set, and puts the suits of a set in a canonical order.  It equals the
plain search on the reduced packs (``tests/test_canasta_exact_seq.py``); the 15-card figures
are in :data:`SAMBA15` with their running times (meld50 82 s, take_first_pile 227 s, one
loaded core).  Higher thresholds absorb later: meld90's run without wild cards alone went past
7.5 min wall (4 min CPU) and 1.9 GB unfinished and was stopped, so meld90/120/150 are not in the
table (the sets below 90 keep many more run structures and values).  ``scripts/samba_meld_sim.py`` estimates them by
simulation with the plain search (n = 100,000 hands each, 2026-12-04; SE in brackets), Samba
(``python scripts/samba_meld_sim.py 100000 20261204``): meld50 0.9142 (0.0009), meld90 0.7123
(0.0014), meld120 0.4706 (0.0016), meld150 0.2446 (0.0014), take_first_pile 0.2624 (0.0014),
take_pair 0.2750 (0.0014; exact 0.27611); Bolivia and Brazilian's lay (a wild-card meld of 3-7,
``... 20261205 7``): 0.9135, 0.7151, 0.4805, 0.2524, take_first_pile 0.2635 (take_pair 0.2769).

**Bolivia and Brazilian** (a wild-card meld of 3-7, one a side: the engine's single meld slot
``WM``, capped at 7 with three decks): with ``W`` wild cards held, a lay's wild cards are split
between the groups (two each at most, a pair's group needs one) and that meld (the rest, if
three to seven), :func:`_worth`.  The classes that matter (:func:`wild_classes_meld`): ``W <=
2`` cannot make the meld, so the lay and Samba's cut are Samba's; ``W >= 3`` whose meld alone
(``min(W, 7)``, jokers first) is worth ``T`` reach ``T`` with any naturals (at 50: every hand
with three wild cards or more, three deuces being 60); any other ``(jokers, deuces)`` is its
own class (no cut: at 50 there is none).  Brazilian deals the same pack and hand and at score 0
has the same lay and minimum (50, 003:83: Samba's table below 7000), so its figures are
Bolivia's.  :data:`BOLIVIA15` (equal to the plain search on the reduced packs with the meld):
meld50 0.913637 (79 s; Samba 0.913293), take_first_pile 0.262776 (90 s), both within 1 SE of
the simulation above.  The take equals Samba's exactly, as it must: a hand that takes holds two
naturals of the upcard's rank, so with two wild cards or more its group with the upcard is worth
at least 15 + 2 x 20 = 55 without any wild-card meld; the meld only matters with three wild
cards, which then already reach 50 in Samba's lay.
"""
from __future__ import annotations

import time
from functools import lru_cache
from math import comb
from itertools import product

JOKER_VALUE, DEUCE_VALUE = 50, 20


@lru_cache(maxsize=None)
def _suit_moves(code: tuple, c: int) -> tuple:
    """``(k, code')``: ``k`` of the suit's ``c`` cards of this rank go to sequences, the open runs
    ``code = (n1, n2, n3)`` becoming ``code'``; runs of length 1 or 2 must take a card."""
    n1, n2, n3 = code
    need = n1 + n2
    out = []
    for k in range(need, c + 1):
        e3 = min(n3, k - need)
        out.append((k, (k - need - e3, n1, n2 + e3)))
    return tuple(out)


@lru_cache(maxsize=None)
def _rank_moves(runs: tuple, counts: tuple) -> tuple:
    """``(runs', cards to sequences)`` for every way the rank's cards ``counts`` (per suit) meet
    the open ``runs`` (per suit)."""
    per = [_suit_moves(code, c) for code, c in zip(runs, counts)]
    out = {}
    for pick in product(*per):
        key = tuple(m[1] for m in pick)
        k = sum(m[0] for m in pick)
        out[key] = max(out.get(key, -1), k)           # more cards laid: same runs, more value
    return tuple(out.items())


def _prune(states) -> frozenset:
    """Drop the dominated partial lays (same runs, p no greater, s and v no smaller)."""
    by: dict = {}
    for st in states:
        by.setdefault(st[0], []).append(st[1:])
    keep = []
    for runs, xs in by.items():
        xs = sorted(set(xs), key=lambda t: (t[0], -t[1], -t[2]))
        kept: list = []
        for p, s, v in xs:
            if not any(p2 <= p and s2 >= s and v2 >= v for p2, s2, v2 in kept):
                kept.append((p, s, v))
        keep += [(runs,) + t for t in kept]
    return frozenset(keep)


class SeqPack:
    """A pack by classes for the DP: ``values`` of the natural ranks in order (low to high),
    ``suits`` x ``copies`` of each, ``jokers``, ``deuces``, ``black3`` (held, never laid)."""

    def __init__(self, values, suits, copies, jokers, deuces, black3, max_wild=2, wild_meld=0):
        self.values, self.suits, self.copies = tuple(values), suits, copies
        self.jokers, self.deuces, self.black3 = jokers, deuces, black3
        self.max_wild, self.wild_meld = max_wild, wild_meld

    @property
    def size(self):
        return len(self.values) * self.suits * self.copies + self.jokers + self.deuces + self.black3

    @property
    def plain(self):
        return len(self.values) * self.suits * self.copies + self.black3


def _step(pack, S, counts, v, hand_left, vcap, special):
    """The partial lays after a rank with ``counts`` per suit, of value ``v``; ``special``: this
    is the upcard's rank (its group of the rest plus the upcard is required)."""
    out = []
    n = sum(counts)
    for runs, p, s, val in S:
        for runs2, k in _rank_moves(runs, counts):
            rem = n - k
            base = val + v * k
            if special:
                if rem >= 2:
                    out.append((runs2, p, s + 1, min(vcap, base + v * (rem + 1))))
                continue
            if rem >= 3:
                out.append((runs2, p, s + 1, min(vcap, base + v * rem)))
                continue
            out.append((runs2, p, s, min(vcap, base)))
            if rem == 2 and p + 1 <= hand_left:   # a pair's group needs a wild card held
                out.append((runs2, p + 1, s + 1, min(vcap, base + 2 * v)))
    # wild slots beyond the wild cards the hand can still hold are worth nothing
    scap = -(-hand_left // pack.max_wild) if pack.max_wild else 0
    return _prune((r, p, min(s, scap), val) for r, p, s, val in out if p <= hand_left)


def _dp(pack: SeqPack, hand: int, vcap: int, take: bool) -> dict:
    """``{(natural cards held, final lays): ways}``, the final lays a frozenset of ``(p, s, v)``;
    with ``take``, only the hands with a rank chosen as the upcard's (ways times its copies not
    held)."""
    empty = ((0, 0, 0),) * pack.suits
    start = frozenset({(empty, 0, 0, 0)})
    keys = {(0, 0, start): 1}                    # (cards, flag, lays) -> ways
    combos = [(c, sum(c), _ways(c, pack.copies))
              for c in product(range(pack.copies + 1), repeat=pack.suits)]
    per_rank = pack.suits * pack.copies
    for v in pack.values:
        nxt: dict = {}
        memo: dict = {}
        for (cards, flag, S), w in keys.items():
            for c, n, cw in combos:
                if cards + n > hand:
                    continue
                left = hand - cards - n
                for sp in ((0, 1) if take and not flag else (flag,)):
                    special = sp and not flag
                    if special and n < 2:
                        continue
                    mk = (S, c, left, special)
                    S2 = memo.get(mk)
                    if S2 is None:
                        S2 = memo[mk] = _step(pack, S, c, v, left, vcap, special)
                    if not S2:
                        continue
                    key = (cards + n, sp, S2)
                    nxt[key] = nxt.get(key, 0) + w * cw * ((per_rank - n) if special else 1)
        keys = nxt
    out: dict = {}
    for (cards, flag, S), w in keys.items():
        if take and not flag:
            continue
        fin = _final(S)
        if fin:
            out[(cards, fin)] = out.get((cards, fin), 0) + w
    return out


def _ways(c, copies):
    w = 1
    for k in c:
        w *= comb(copies, k)
    return w


def _final(S) -> frozenset:
    """The complete lays of a set: no run of length 1 or 2 left open."""
    xs = {(p, s, v) for runs, p, s, v in S if all(a == b == 0 for a, b, _ in runs)}
    return frozenset(t for t in xs
                     if not any(t2 != t and t2[0] <= t[0] and t2[1] >= t[1] and t2[2] >= t[2]
                                for t2 in xs))


def wild_value(jokers: int, deuces: int, n: int) -> int:
    j = min(jokers, n)
    return JOKER_VALUE * j + DEUCE_VALUE * min(deuces, n - j)


def best_value(pack: SeqPack, lays, jokers: int, deuces: int) -> int:
    """The best lay's value: over the complete lays ``(p, s, v)`` with ``p`` wild cards at
    least, the wild cards laid in the groups (``p`` to ``max_wild * s``) and, with
    ``wild_meld``, the rest in a wild-card meld of 3..``wild_meld``.  -1: no lay (never: the
    empty lay is always there)."""
    W = jokers + deuces
    best = -1
    for p, s, v in lays:
        if p > W:
            continue
        top = min(W, pack.max_wild * s)
        n = top
        if pack.wild_meld:
            for g in range(p, top + 1):
                m = min(W - g, pack.wild_meld)
                n = max(n, g + (m if m >= 3 else 0))
        best = max(best, v + wild_value(jokers, deuces, n))
    return best


@lru_cache(maxsize=8)
def seq_odds(pack: SeqPack, hand: int, minima: tuple) -> dict:
    """``{"meldM": (count, total), "take_first_pile": (numerator, denominator)}`` as integers:
    the hand held (``hand`` cards of the pack) lays ``M`` or more; eldest holds two naturals of
    the upcard's rank and, the upcard in their group, lays ``minima[0]`` or more."""
    from fractions import Fraction
    total = comb(pack.size, hand)
    vcap = max(minima)
    counts = dict.fromkeys(minima, 0)
    cache: dict = {}
    for (cards, lays), w in _dp(pack, hand, vcap, False).items():
        for j, d, ways in _others(pack, hand - cards):
            b = cache.get((lays, j, d))
            if b is None:
                b = cache[(lays, j, d)] = best_value(pack, lays, j, d)
            for m in minima:
                if b >= m:
                    counts[m] += w * ways
    out = {f"meld{m}": Fraction(counts[m], total) for m in minima}
    take = pair = Fraction(0)
    for (cards, lays), w in _dp(pack, hand, minima[0], True).items():
        for j, d, ways in _others(pack, hand - cards):
            q = Fraction(w * ways, total * (pack.plain - (hand - j - d)))
            pair += q
            if best_value(pack, lays, j, d) >= minima[0]:
                take += q
    out["take_first_pile"] = take
    out["take_pair_dp"] = pair
    return out


def _others(pack: SeqPack, rest: int):
    """``(jokers, deuces, ways)`` filling ``rest`` places with wild cards and black threes."""
    for j in range(min(pack.jokers, rest) + 1):
        for d in range(min(pack.deuces, rest - j) + 1):
            b = rest - j - d
            if b <= pack.black3:
                yield j, d, comb(pack.jokers, j) * comb(pack.deuces, d) * comb(pack.black3, b)


# ------------------------------------------------------------------ one threshold, wilds fixed
#
# With the wild cards fixed (``J`` jokers, ``D`` deuces: only as many as can matter below the
# threshold ``T``, :func:`wild_classes`), a partial lay with no run of length 1 or 2 open is a
# complete lay: its worth is ``v`` plus the wild cards its groups take (``p <= W``, up to
# ``max_wild * s``, jokers first) and, with ``wild_meld`` (Bolivia, Brazilian), the rest in one
# wild-card meld of 3..``wild_meld`` (:func:`_worth`), and it only grows.  So a prefix one of
# whose lays reaches ``T`` is YES whatever follows: its set collapses to one absorbing state per
# card count.  With a wild-card meld the cut is :func:`wild_classes_meld` (Samba's only for two
# wild cards or fewer, which cannot make that meld).

YES = "yes"


def wild_classes(T: int, jokers: int, deuces: int) -> tuple:
    """``(J', D')``: the held jokers and deuces as far as they can matter at threshold ``T`` (the
    wild cards laid jokers first, so once ``J'`` jokers and ``D'`` deuces are worth ``T`` more
    wild cards change nothing: a lay taking more is worth ``T`` already)."""
    a = -(-T // JOKER_VALUE)
    if jokers >= a:
        return a, 0
    return jokers, min(deuces, max(0, -(-(T - JOKER_VALUE * jokers) // DEUCE_VALUE)))


def _worth(pack, p, s, v, J, D):
    """A complete lay's worth with ``J`` jokers and ``D`` deuces held: ``v`` plus the wild cards
    laid, ``g`` in the groups (``p`` to ``max_wild * s``) and, with ``wild_meld``, the rest in one
    wild-card meld of 3..``wild_meld`` (jokers first overall).  Monotone: no worse with ``p``
    smaller, ``s`` or ``v`` larger (the pruning's dominance)."""
    W = J + D
    if p > W:
        return -1
    top = min(W, pack.max_wild * s)
    n = top
    if pack.wild_meld:
        for g in range(p, top + 1):
            m = min(W - g, pack.wild_meld)
            n = max(n, g + (m if m >= 3 else 0))
    return v + wild_value(J, D, n)


def wild_classes_meld(pack, T: int, jokers: int, deuces: int) -> tuple:
    """:func:`wild_classes` for a pack with a wild-card meld (Bolivia, Brazilian).  ``W = jokers +
    deuces``.  ``W <= 2``: no wild-card meld can be laid (it needs three), the lay is Samba's,
    and Samba's cut holds (the class has ``J' + D' <= W <= 2``).  ``W >= 3`` and the wild-card
    meld alone (``min(W, wild_meld)`` of them, jokers first) worth ``T``: every hand reaches
    ``T`` (the lay of that meld alone), whatever its naturals: class ``("all", W)`` (the DP then
    absorbs at the first rank; ``W`` kept as it bounds the natural count).  Otherwise no cut:
    ``(jokers, deuces)`` exactly."""
    W = jokers + deuces
    if W <= 2:
        return wild_classes(T, jokers, deuces)
    if wild_value(jokers, deuces, min(W, pack.wild_meld)) >= T:
        return ("all", W)
    return (jokers, deuces)


def _canon(S, suits) -> frozenset:
    """The set with its suits put in the order of their signatures (the sorted ``(suit's runs,
    p, s, v)`` of the set's lays), ties as they come: the ranks to come are alike in every
    suit, so a suit-permuted prefix has the same future; sets that are suit permutations of each
    other then mostly get one form (merged keys; an unmerged one only costs time)."""
    sig = [sorted((st[0][i],) + st[1:] for st in S) for i in range(suits)]
    perm = sorted(range(suits), key=sig.__getitem__)
    if perm == list(range(suits)):
        return S
    return frozenset((tuple(st[0][i] for i in perm),) + st[1:] for st in S)


def _step_t(pack, S, counts, v, special, T, J, D):
    """:func:`_step` at threshold ``T`` with the wild cards fixed: YES as soon as a lay with no
    short run open is worth ``T``; else the pruned set (``p <= J + D``, ``s`` capped where more
    groups take no more wild cards, ``v`` capped at ``T``)."""
    W = J + D
    scap = -(-W // pack.max_wild) if pack.max_wild else 0
    out = []
    n = sum(counts)
    for runs, p, s, val in S:
        for runs2, k in _rank_moves(runs, counts):
            rem = n - k
            base = val + v * k
            if special:
                cand = [(p, s + 1, base + v * (rem + 1))] if rem >= 2 else []
            elif rem >= 3:
                cand = [(p, s + 1, base + v * rem)]
            else:
                cand = [(p, s, base)]
                if rem == 2 and p + 1 <= W:
                    cand.append((p + 1, s + 1, base + 2 * v))
            closed = all(a == b == 0 for a, b, _ in runs2)
            for p2, s2, v2 in cand:
                if closed and _worth(pack, p2, s2, v2, J, D) >= T:
                    return YES
                out.append((runs2, p2, min(s2, scap), min(v2, T)))
    return _prune_t(out)


@lru_cache(maxsize=None)
def _runs_ge(b, a) -> bool:
    """Suit by suit, the open runs ``b`` come from ``a`` by lengthening runs (1 to 2, or a short
    one to 3+) and adding runs of 3+: ``b`` can lay, card for card, whatever ``a`` lays (a
    lengthened run takes the card ``a``'s run takes and is never shorter; a run of 3+ may stop
    any time), so it is worth at least as much."""
    for (b1, b2, b3), (a1, a2, a3) in zip(b, a):
        if b1 > a1 or b1 + b2 > a1 + a2 or b1 + b2 + b3 < a1 + a2 + a3:
            return False
    return True


@lru_cache(maxsize=None)
def _runs_key(runs):
    return (sum(r[0] for r in runs), sum(r[0] + r[1] for r in runs), -sum(map(sum, runs)))


def _prune_t(states) -> frozenset:
    """Drop the dominated partial lays: ``(runs, p, s, v)`` is dominated by one with runs
    :func:`_runs_ge`, ``p`` no greater, ``s`` and ``v`` no smaller.  In the order below a
    dominating lay comes first, so keeping the lays no kept lay dominates is enough."""
    def key(st):
        return (-st[3], st[1], -st[2]) + _runs_key(st[0])
    kept: list = []
    for st in sorted(set(states), key=key):
        runs, p, s, v = st
        if not any(p2 <= p and s2 >= s and v2 >= v and _runs_ge(r2, runs)
                   for r2, p2, s2, v2 in kept):
            kept.append(st)
    return frozenset(kept)


def _dp_t(pack: SeqPack, hand: int, T: int, J: int, D: int, take: bool) -> dict:
    """``{natural cards held: ways}`` of the prefixes (all ranks) that reach ``T`` with ``J``
    jokers and ``D`` deuces; with ``take``, a rank chosen as the upcard's (its group made) and
    the ways times that rank's copies not held.  A key is ``(flag, set)``, its ways a list by
    natural cards held (the step does not depend on the count: the wild cards are fixed)."""
    start = frozenset({(((0, 0, 0),) * pack.suits, 0, 0, 0)})
    nat_max = hand - J - D
    keys = {(0, start): [1] + [0] * nat_max}
    combos = [(c, sum(c), _ways(c, pack.copies))
              for c in product(range(pack.copies + 1), repeat=pack.suits)]
    per_rank = pack.suits * pack.copies
    wild_top = wild_value(J, D, J + D)
    for i, v in enumerate(pack.values):
        nxt: dict = {}
        memo: dict = {}
        top = max(pack.values[i:])
        for (flag, S), w in keys.items():
            if S is not YES:
                # cards counts at which no lay can reach T with every card left laid at the top
                # value (and the upcard's, and every wild card) are NO: dropped (only YES counts)
                vmax = max(st[3] for st in S) + wild_top + top * (take and not flag)
                w = [x if vmax + top * (nat_max - k) >= T else 0 for k, x in enumerate(w)]
            lo = next((k for k, x in enumerate(w) if x), None)
            if lo is None:
                continue
            for c, n, cw in combos:
                if lo + n > nat_max:
                    continue
                for sp in ((0, 1) if take and not flag else (flag,)):
                    special = sp and not flag
                    if special and n < 2:
                        continue
                    if S is YES:
                        S2 = YES
                    else:
                        mk = (S, c, special)
                        S2 = memo.get(mk)
                        if S2 is None:
                            S2 = _step_t(pack, S, c, v, special, T, J, D)
                            if S2 is not YES and S2:
                                S2 = _canon(S2, pack.suits)
                            memo[mk] = S2
                    if not S2:
                        continue
                    m = cw * ((per_rank - n) if special else 1)
                    acc = nxt.get((sp, S2))
                    if acc is None:
                        acc = nxt[(sp, S2)] = [0] * (nat_max + 1)
                    for k in range(lo, nat_max + 1 - n):
                        if w[k]:
                            acc[k + n] += w[k] * m
        keys = nxt
    out: dict = {}
    for (flag, S), w in keys.items():
        if S is YES and (flag or not take):
            for k, x in enumerate(w):
                if x:
                    out[k] = out.get(k, 0) + x
    return out


def seq_odds_at(pack: SeqPack, hand: int, T: int, take: bool = False, verbose=False):
    """The hand held (``hand`` cards of the pack) lays ``T`` or more (``take``: eldest takes the
    first pile, the upcard uniform over the plain cards not held, its group laid and ``T``
    reached) as an exact Fraction: one :func:`_dp_t` per wild class of :func:`wild_classes`
    (with ``wild_meld``: :func:`wild_classes_meld`), every held (jokers, deuces, black threes)
    summed on it."""
    from fractions import Fraction
    total = comb(pack.size, hand)
    runs: dict = {}
    num = Fraction(0)
    for j in range(min(pack.jokers, hand) + 1):
        for d in range(min(pack.deuces, hand - j) + 1):
            cls = wild_classes_meld(pack, T, j, d) if pack.wild_meld else wild_classes(T, j, d)
            if cls not in runs:
                t0 = time.time()
                runs[cls] = _dp_t(pack, hand, T, *((j, d) if cls[0] == "all" else cls), take)
                if verbose:
                    print(f"  wild class {cls}: {time.time() - t0:.0f} s", flush=True)
            for b in range(min(pack.black3, hand - j - d) + 1):
                w = runs[cls].get(hand - j - d - b, 0)
                if not w:
                    continue
                w *= comb(pack.jokers, j) * comb(pack.deuces, d) * comb(pack.black3, b)
                num += Fraction(w, pack.plain - (hand - j - d)) if take else w
    return num / total


# ------------------------------------------------------------------ the figures exact.py reports

#: Samba's 15-card hand held (156 cards: 4 suits x 3 copies of ranks 4..A, 6 jokers, 12 deuces,
#: 6 black threes; two wild cards a group, no wild-card meld) by :func:`seq_odds_at`, computed
#: by ``python scripts/samba_exact.py 15 T [take]`` (2026-12-04, one loaded core; seconds in the
#: docstring); ``tests/test_canasta_exact_seq.py`` recomputes meld50 (slow tier).  Key: ``(T,
#: take)``.
SAMBA15: dict = {
    (50, False): "34361623127221469083/37623889902193584990",          # 0.913293, 82 s
    (50, True): "366198844542283352451068352324053/1393577415844572136630268503727040",  # 0.262776, 227 s
}

#: The same for Bolivia's and Brazilian's lay (a wild-card meld of 3-7, ``wild_meld=7``), by
#: ``python scripts/samba_exact.py 15 T [take] bolivia`` (2026-12-04; seconds beside).
BOLIVIA15: dict = {
    (50, False): "17187280417539409252/18811944951096792495",          # 0.913637, 79 s
    (50, True): "366198844542283352451068352324053/1393577415844572136630268503727040",  # 0.262776, 90 s
}

SAMBA_VALUES = (5, 5, 5, 5, 10, 10, 10, 10, 10, 10, 20)
LIVE_HAND = 6                  # hands up to this many cards are computed on demand (seconds)


def samba_figure(values, suits, copies, jokers, deuces, black3, max_wild, hand, T, take,
                 wild_meld=0):
    """An exact meldT (``take``: take_first_pile at ``T``) for a Samba-family pack (``wild_meld``:
    Bolivia's and Brazilian's meld of 3..``wild_meld`` wild cards), or None: the tables above at
    Samba's pack and 15 cards (:data:`SAMBA15`; :data:`BOLIVIA15` with ``wild_meld=7``),
    :func:`seq_odds_at` for hands of at most ``LIVE_HAND`` cards, else None (out of reach on
    demand)."""
    from fractions import Fraction
    table = {0: SAMBA15, 7: BOLIVIA15}.get(wild_meld, {})
    if (tuple(values), suits, copies, jokers, deuces, black3, max_wild, hand) == \
            (SAMBA_VALUES, 4, 3, 6, 12, 6, 2, 15) and (T, take) in table:
        return Fraction(table[(T, take)])
    if hand > LIVE_HAND:
        return None
    pack = SeqPack(values, suits, copies, jokers, deuces, black3, max_wild=max_wild,
                   wild_meld=wild_meld)
    return seq_odds_at(pack, hand, T, take)
