"""A plain-Python statement of sets and runs with wild cards, written from the rules'
definitions only (it shares no code with :mod:`simkit.engines.melds`): used by
``tests/test_melds.py`` to check the engine.

Cards are codes ``suit * 16 + rank`` (rank 2..14, the ace 14), 64 a joker; a hand is a list of
codes (repeats allowed).  The rules are read from any object with the fields of
``MeldRules`` (the meaning of each field is restated here):

* a *run* is ``n`` cards of one suit on ``n`` rank positions that follow each other in the list of
  positions ``seq_ranks`` allows (position 1 is an ace played low, 14 an ace played high);
* a *set* is ``n`` cards of one rank (a rank of ``set_ranks``) whose suits obey ``set_suits``:
  any suits (0), all different (1), all one suit or all different (2); ranks of
  ``free_set_ranks`` take any suits;
* a wild card (the joker, or a card of a rank in ``wild_ranks``) stands for any card; the others
  are natural and stand for themselves; a meld has ``min_size..max_size`` cards, at most
  ``max_wild`` wilds and at least ``min_natural`` naturals, and runs hold wilds only if
  ``run_wilds``.

:func:`least_deadwood` tries every partition of the hand: it lists the hand's legal melds once
(:func:`melds_of`: every sub-multiset that could be one is tried against the definitions), and
then the lowest card left is either deadwood or in one of those melds that the cards left still
hold; the least over these choices is remembered for each multiset of cards left.
:func:`least_deadwood_slow`, the first statement (it searches the melds holding the lowest
natural card afresh at every step), is kept to check it.
"""
from __future__ import annotations

import itertools
from collections import Counter
from functools import lru_cache

JOKER = 64


def is_wild(R, c) -> bool:
    return c == JOKER or (R.wild_ranks >> (c % 16)) & 1 == 1


@lru_cache(maxsize=None)
def positions(R) -> tuple[int, ...]:
    return tuple(q for q in range(1, 15) if (R.seq_ranks >> q) & 1)


def card_at(suit, q) -> int:
    return suit * 16 + (14 if q == 1 else q)


@lru_cache(maxsize=None)
def windows(R, suit, n) -> list:
    """Every ``n`` positions that follow each other in ``positions(R)``, with the card of
    ``suit`` each holds."""
    seq = positions(R)
    out = []
    for lo in range(len(seq) - n + 1):
        window = seq[lo:lo + n]
        out.append((window, tuple(card_at(suit, q) for q in window)))
    return out


def _set_suits_ok(R, rank, suits) -> bool:
    if (R.free_set_ranks >> rank) & 1 or R.set_suits == 0:
        return True
    distinct = len(set(suits)) == len(suits)
    if R.set_suits == 1:
        return distinct
    return distinct or len(set(suits)) == 1


def _counts_ok(R, n, w) -> bool:
    """May a meld have ``n`` cards, ``w`` of them wild?"""
    return R.min_size <= n <= R.max_size and w <= R.max_wild and n - w >= R.min_natural


def set_namings(R, cards) -> list:
    """Every rank ``r`` and tuple of stood-for cards (naturals first as given, then wilds) under
    which ``cards`` is a legal set."""
    return list(_set_namings(R, cards))


def _set_namings(R, cards):
    if not R.sets:
        return
    nat = [c for c in cards if not is_wild(R, c)]
    wild = [c for c in cards if is_wild(R, c)]
    if not _counts_ok(R, len(cards), len(wild)):
        return
    ranks = {c % 16 for c in nat}
    if len(ranks) > 1:
        return
    cand = ranks if ranks else {r for r in range(2, 15) if not (R.wild_ranks >> r) & 1}
    for r in sorted(cand):
        if not (R.set_ranks >> r) & 1:
            continue
        for names in itertools.product(range(4), repeat=len(wild)):
            suits = [c // 16 for c in nat] + list(names)
            if _set_suits_ok(R, r, suits):
                yield r, tuple(nat) + tuple(s * 16 + r for s in names)


def run_namings(R, cards) -> list:
    """Every (suit, positions) under which ``cards`` is a legal run: ``positions`` lists the
    rank positions in order and which card (index into ``cards``) sits at each."""
    return list(_run_namings(R, cards))


def _run_namings(R, cards):
    if not R.runs:
        return
    nat = [i for i, c in enumerate(cards) if not is_wild(R, c)]
    wild = [i for i, c in enumerate(cards) if is_wild(R, c)]
    if not _counts_ok(R, len(cards), len(wild)):
        return
    if wild and not R.run_wilds:
        return
    suits = {cards[i] // 16 for i in nat}
    if len(suits) > 1:
        return
    n = len(cards)
    for suit in (sorted(suits) if suits else range(4)):
        for window, held in windows(R, suit, n):
            if any(cards[i] not in held for i in nat):
                continue
            # put each natural card on a position of the window holding its card (an ace may
            # have two), no two on one position; wild cards on the rest
            spots = [[p for p in range(n) if held[p] == cards[i]] for i in nat]
            for perm in itertools.product(*spots):
                if len(set(perm)) < len(perm):
                    continue
                seat = [None] * n
                for k, p in enumerate(perm):
                    seat[p] = nat[k]
                rest = iter(wild)
                seat = [s if s is not None else next(rest) for s in seat]
                yield suit, tuple(window), tuple(seat)


@lru_cache(maxsize=200_000)
def _is_meld_sorted(R, cards) -> bool:
    """Has ``cards`` (sorted) a naming as a set or a run (the first one found answers)."""
    return (next(_set_namings(R, cards), None) is not None
            or next(_run_namings(R, cards), None) is not None)


def is_meld(R, cards) -> bool:
    return _is_meld_sorted(R, tuple(sorted(cards)))


def signatures(R, cards) -> set:
    """The distinct ways to lay ``cards`` down: ``(kind, key, n, sorted cards, wild positions)``
    (a run's wild positions as a tuple of indices; a set's empty).  All-wild cards count once,
    as a set of the lowest rank sets may have, or else as a run of clubs from the lowest
    position (the engine's one form for them)."""
    cards = list(cards)
    srt = tuple(sorted(cards))
    allwild = all(is_wild(R, c) for c in cards)
    out = set()
    sn = set_namings(R, cards)
    if sn:
        if allwild:
            out.add((0, min(r for r, _ in sn), len(cards), srt, ()))
            return out
        for r, _ in sn:
            out.add((0, r, len(cards), srt, ()))
    for suit, window, seat in run_namings(R, cards):
        if allwild:
            if suit == 0 and window[0] == positions(R)[0]:
                out.add((1, window[0], len(cards), srt, tuple(range(len(cards)))))
            continue
        wpos = tuple(j for j, i in enumerate(seat) if is_wild(R, cards[i]))
        out.add((1, suit * 16 + window[0], len(cards), srt, wpos))
    return out


def sub_multisets(cards, lo, hi):
    """Every sub-multiset of ``cards`` with ``lo..hi`` cards, as sorted tuples, once each."""
    cards = sorted(cards)
    return sorted({sub for n in range(lo, min(hi, len(cards)) + 1)
                   for sub in itertools.combinations(cards, n)})


def meld_pools(R, hand) -> list[list[int]]:
    """Pools holding every legal meld of ``hand``: a meld's natural cards share a rank (a set) or
    a suit (a run), so its cards are one rank's or one suit's natural cards with wild cards (or
    wild cards only)."""
    wild = [c for c in hand if is_wild(R, c)]
    nat = [c for c in hand if not is_wild(R, c)]
    groups = [[c for c in nat if c % 16 == r] for r in range(2, 15)]
    groups += [[c for c in nat if c // 16 == s] for s in range(4)]
    return [wild] + [g + wild for g in groups if g]


def melds_of(R, hand) -> list[tuple]:
    """Every legal meld ``hand`` holds, as a sorted tuple of cards, once each."""
    found = set()
    for pool in meld_pools(R, hand):
        for sub in sub_multisets(pool, R.min_size, R.max_size):
            if sub not in found and _is_meld_sorted(R, sub):
                found.add(sub)
    return sorted(found)


def least_deadwood(R, hand, dw) -> int:
    """The least total value ``dw[code]`` of the cards left out of melds, over every partition
    of ``hand`` into legal melds and deadwood.

    A multiset of cards is a vector of counts over the hand's distinct cards (lowest first).  In
    any partition of the cards left, their lowest card is deadwood or in one meld: a legal meld
    of the hand whose lowest card it is, that the cards left hold.  Each choice leaves a smaller
    multiset, partitioned in turn."""
    keys = sorted(set(hand))
    where = {c: i for i, c in enumerate(keys)}
    starting = [[] for _ in keys]       # starting[i]: the melds whose lowest card is keys[i]
    for meld in melds_of(R, hand):
        starting[where[meld[0]]].append(Counter(where[c] for c in meld))

    @lru_cache(maxsize=None)
    def best(rest):
        i = next((i for i, k in enumerate(rest) if k), None)
        if i is None:
            return 0
        left = list(rest)
        left[i] -= 1
        b = int(dw[keys[i]]) + best(tuple(left))
        for meld in starting[i]:
            if all(rest[j] >= m for j, m in meld.items()):
                left = list(rest)
                for j, m in meld.items():
                    left[j] -= m
                b = min(b, best(tuple(left)))
        return b

    return best(tuple(hand.count(c) for c in keys))


def _meld_candidates(R, rest, first):
    """Sub-multisets of ``rest`` holding ``first`` (one copy) that are legal melds: the other
    cards of a set are of ``first``'s rank or wild, of a run of its suit or wild."""
    others = list(rest)
    others.remove(first)
    found = set()
    for same in (lambda c: c % 16 == first % 16, lambda c: c // 16 == first // 16):
        pool = [c for c in others if is_wild(R, c) or same(c)]
        for sub in sub_multisets(pool, R.min_size - 1, R.max_size - 1):
            cards = tuple(sorted((first,) + sub))
            if cards not in found and is_meld(R, cards):
                found.add(cards)
    return sorted(found)


def least_deadwood_slow(R, hand, dw) -> int:
    """:func:`least_deadwood` as first written: the lowest natural card left is either deadwood
    or in a legal meld with other cards left (every sub-multiset holding it is tried, at every
    step), and the wild cards left at the end are deadwood or form melds of wild cards only."""

    @lru_cache(maxsize=None)
    def best(rest):
        nat = [c for c in rest if not is_wild(R, c)]
        if not nat:
            return wilds_only(rest)
        first = min(nat)
        left = list(rest)
        left.remove(first)
        b = dw[first] + best(tuple(left))
        for meld in _meld_candidates(R, rest, first):
            left = list(rest)
            for c in meld:
                left.remove(c)
            b = min(b, best(tuple(sorted(left))))
        return b

    @lru_cache(maxsize=None)
    def wilds_only(rest):
        if not rest:
            return 0
        first = rest[0]
        b = dw[first] + wilds_only(rest[1:])
        if R.min_natural == 0:
            others = list(rest[1:])
            for sub in sub_multisets(others, R.min_size - 1, R.max_size - 1):
                cards = (first,) + sub
                if is_meld(R, cards):
                    left = list(rest)
                    for c in cards:
                        left.remove(c)
                    b = min(b, wilds_only(tuple(sorted(left))))
        return b

    return best(tuple(sorted(hand)))


def legal_signatures(R, hand, must=None, min_n=0) -> set:
    """The signatures of every legal meld ``hand`` holds (with card ``must`` in it, and
    ``min_n`` cards at least, when given): every sub-multiset of :func:`meld_pools` is tried."""
    seen = set()
    out = set()
    for pool in meld_pools(R, hand):
        for sub in sub_multisets(pool, max(R.min_size, min_n), R.max_size):
            if sub in seen or (must is not None and must not in sub):
                continue
            seen.add(sub)
            out |= signatures(R, sub)
    return out


def row_signature(R, row) -> tuple:
    n = int(row[1])
    cards = [int(row[3 + 2 * j]) for j in range(n)]
    wpos = tuple(j for j in range(n) if is_wild(R, cards[j])) if row[0] == 1 else ()
    return (int(row[0]), int(row[2]), n, tuple(sorted(cards)), wpos)


def row_legal(R, row) -> bool:
    """Is a meld row a legal meld as written: each natural card standing for itself, the wilds
    standing for cards that make a set of its key's rank or a run from its key's position."""
    kind, n, key = int(row[0]), int(row[1]), int(row[2])
    if n < 1 or 3 + 2 * n > len(row):
        return False
    act = [int(row[3 + 2 * j]) for j in range(n)]
    st = [int(row[4 + 2 * j]) for j in range(n)]
    if any(x != -1 for x in row[3 + 2 * n:]):
        return False
    for a, s in zip(act, st):
        if not (0 <= s < 64 and 2 <= s % 16 <= 14):
            return False
        if not is_wild(R, a) and a != s:
            return False
        if not (a == JOKER or (0 <= a < 64 and 2 <= a % 16 <= 14)):
            return False
    if not _counts_ok(R, n, sum(is_wild(R, a) for a in act)):
        return False
    if kind == 0:
        if not R.sets or not (R.set_ranks >> key) & 1 or (R.wild_ranks >> key) & 1:
            return False
        return all(s % 16 == key for s in st) and _set_suits_ok(R, key, [s // 16 for s in st])
    if kind != 1 or not R.runs:
        return False
    if any(is_wild(R, a) for a in act) and not R.run_wilds:
        return False
    suit, q0 = key // 16, key % 16
    seq = positions(R)
    if q0 not in seq:
        return False
    i = seq.index(q0)
    window = seq[i:i + n]
    return len(window) == n and st == [card_at(suit, q) for q in window]


def add_signatures(R, row, code) -> set:
    """The signatures of the melds ``row`` becomes with the card ``code`` added: a set stays a
    set of its rank (its wilds may name other suits); a run keeps its cards where they are and
    takes the card at one end, standing for the card there."""
    kind, n, key = int(row[0]), int(row[1]), int(row[2])
    act = [int(row[3 + 2 * j]) for j in range(n)] + [code]
    out = set()
    if kind == 0:
        for r, _ in set_namings(R, act):
            if r == key:
                out.add((0, r, n + 1, tuple(sorted(act)), ()))
        return out
    suit, q0 = key // 16, key % 16
    seq = positions(R)
    i = seq.index(q0)
    for lo in (i - 1, i):
        if lo < 0:
            continue
        window = seq[lo:lo + n + 1]
        if len(window) != n + 1:
            continue
        newpos = 0 if lo == i - 1 else n
        want = card_at(suit, window[newpos])
        if not is_wild(R, code) and code != want:
            continue
        cards = [int(row[3 + 2 * j]) for j in range(n)]
        seat = cards + [code] if newpos == n else [code] + cards
        fake = [1, n + 1, suit * 16 + window[0]]
        for a, q in zip(seat, window):
            fake += [a, card_at(suit, q)]
        fake += [-1] * (len(row) - len(fake))
        if row_legal(R, fake):
            out.add(row_signature(R, fake))
    return out


def joker_position(row, code) -> int:
    for j in range(int(row[1])):
        if int(row[3 + 2 * j]) == JOKER and int(row[4 + 2 * j]) == code:
            return j
    return -1
