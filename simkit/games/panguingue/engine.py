"""Panguingue kernels: deal ten from 320 cards, go on top, draw and meld at once, conditions in chips.

Cards inside the kernel are indices ``suit * 10 + pos`` (``pos`` 0..9 for A, 2-7, J, Q, K: the
Spanish order, the seven followed by the jack, line 90); the log and the pack use the house codes
(:mod:`simkit.core.cards`, :data:`IDX2CODE`).  A hand is a count vector ``int64[40]`` (eight packs
repeat each card eight times).  A seat's melds are rows of ``Work.md`` (kind, rank or rope's
low end, rope's high end, suit, suits held as bits, the condition's value per player, 0 for none,
the cards that fit it as bits, its length, a set's cards by suit, the cards it may lend as bits:
the ``M_`` columns, kept by :func:`meld_words` after every change); a seat melds at most
eleven cards in new melds of three or more (splits and borrows keep every meld at three or
more), so four rows suffice.  Melds are checked
by :func:`classify` and :func:`fits` (line 95-96), cross-checked against :mod:`simkit.engines.melds` and a plain-Python
reference in the tests.

The stock is the pack shuffled lazily (each card drawn swaps a uniformly random undrawn card to
the front), so a deal's cards depend on its key alone.  A stacked deck is dealt in its order: five
cards to each seat from p1 (the eldest; the last seat deals, play goes p1, p2, ... "to the right"),
five more each, the upcard, then the stock from the top.  (In a session's later deals the eldest
is another seat: the deal, the decisions and the turns start from it.)

A deal (:func:`play_deal`): the upcard, the go-on-top decisions from p1 (a forfeit into the pot,
line 93), then turns (:func:`turn`) until a seat has melded eleven cards (it wins: line 101's
settlement in :func:`settle`) or the stock runs out (``stock_end``).  Chips move only between the
seats and the pot, and the pot is emptied every deal, so each deal's chips sum to zero.

Metrics (:func:`metrics`): per seat ``pK_chips`` (net chips of the deal), ``pK_win``, ``pK_top``
(went on top), ``pK_conditions`` (chips collected for conditions during play), ``pK_melded``
(cards melded when the deal ended); then ``turns`` and ``stock_out`` (no winner).  With
``unit=session`` (:func:`play_deal`): per seat ``pK_chips``, ``pK_wins``, ``pK_tops``,
``pK_conditions`` summed over the session's deals, then ``turns`` and ``stock_outs``.

Move log (:func:`log_columns`): the dealer, the number of events, the cards dealt in order, the
upcard, then events ``kind << 20 | seat << 16 | aux << 8 | card`` (house card codes):

===========  =======================  ===============================================
kind         aux                      card
===========  =======================  ===============================================
1 top        1 goes on top, 0 stays   0
2 demand     the seat made to take    the top discard (a forced take, line 100)
3 take       0                        the top discard, melded at once
4 draw       0                        the stock card
5 meld       the new meld's index     the number of cards; its cards follow as kind 6
6 card       0                        a card of the meld
7 add        the meld's index         the card added to an own meld
8 pay        chips per active player  0 (a condition paid to the seat, line 97-99)
9 discard    0                        the card discarded
10 out       0                        0 (eleven cards melded: the seat wins)
11 end       0                        0 (the stock is exhausted or the safety stop)
12 borrow    the meld lent from       the card borrowed; the new meld (kind 5) follows
13 split     the meld split           the number of cards moved; they follow as kind 6
===========  =======================  ===============================================

A session's row (``unit=session``) holds every deal that fits in it: the deals played and the
deals logged, then each logged deal's block back to back in the layout above (dealer, events,
cards dealt, upcard, events: its eldest is the seat after the dealer), trimmed to its events.  The
row has room for :data:`LOG_DEALS` deals of :data:`SESSION_EVENTS` events (fewer when the session
is shorter); the first deal that does not fit ends the logging (:func:`log_blocks` reads it).

A borrow or split (line 99) is followed by the pay events of the conditions it makes (see
:func:`revalue`); a borrow's new meld then pays as any new meld.
"""
from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from simkit.core.bits import lowest_code
from simkit.core.deals import SALT, deal_loop
from simkit.core.jit import NO_REFCOUNT  # the house's reference-count rule (simkit.core.jit)
from simkit.core.records import record, slots
from simkit.core.registry import Metric
from simkit.core.rng import bounded, deal_step
from simkit.engines.melds.stock import draw_stock, reset_stock
from simkit.engines.moves import put_event
from simkit.games.panguingue.rules import (AGAIN, CONDITIONS, DISCARD_TAKE, MIXED_ADD,
                                           NEXT_ELDEST, STOCK_END, UNIT)
from simkit.games.panguingue.strategies import K_RANDOM

RANKS = (14, 2, 3, 4, 5, 6, 7, 11, 12, 13)   # pos 0..9: A, 2-7, J, Q, K (house ranks)
NT = 40
N_HAND = 10
SPADES = 3
MAXM = 4
NOPT = 512
MAX_LOG = 4000
NHEAD = 2
NHEAD_S = 2           # a session's row: deals played, deals logged, then the deals' blocks
LOG_DEALS = 10        # a session's row has room for this many deals (or 'deals', if fewer)
SESSION_EVENTS = 1000  # ... of this many events each (a six-player deal logs about 160)
FREE, ONE, DIFF, ROPE = 0, 1, 2, 3
EV_TOP, EV_DEMAND, EV_TAKE, EV_DRAW, EV_MELD, EV_CARD, EV_ADD, EV_PAY, EV_DISCARD, EV_OUT, \
    EV_END, EV_BORROW, EV_SPLIT = range(1, 14)

IDX2CODE = np.array([s * 16 + RANKS[p] for s in range(4) for p in range(10)], np.int64)
CODE2IDX = np.full(80, -1, np.int64)
CODE2IDX[IDX2CODE] = np.arange(NT)

SEAT = ["chips", "win", "top", "conditions", "melded"]
TAIL = ["turns", "stock_out"]
SEAT_S = ["chips", "wins", "tops", "conditions"]
TAIL_S = ["turns", "stock_outs"]
SM = slots(SEAT)
SS = slots(SEAT_S)
NS = len(SEAT)
NSS = len(SEAT_S)
DOCS = {"chips": "net chips of the deal (conditions, settlement, forfeits; lines 93, 97-101)",
        "win": "won the deal (eleven cards melded first, line 100)",
        "top": "went on top (dropped out, paying the forfeit, line 93)",
        "conditions": "chips collected for conditions during play (lines 97-99)",
        "melded": "cards melded when the deal ended",
        "turns": "turns played in the deal",
        "stock_out": "the deal ended with no winner (stock exhausted)",
        "wins": "deals of the session won", "tops": "deals of the session it went on top",
        "stock_outs": "deals of the session that ended with no winner"}
S_DOCS = {"chips": "net chips over the session's deals", "turns": "turns over the session"}
UNITS = {"chips": "chips per deal", "win": "share of deals (0..1)",
         "top": "share of deals (0..1)", "conditions": "chips per deal",
         "melded": "cards per deal", "turns": "turns per deal", "stock_out": "share of deals (0..1)",
         "wins": "deals per session", "tops": "deals per session",
         "stock_outs": "deals per session"}
S_UNITS = {"chips": "chips per session", "conditions": "chips per session",
           "turns": "turns per session"}
BINARY = {"win", "top", "stock_out"}


def make_deck(rules=None) -> np.ndarray:
    """The pack's house codes: ``packs`` Spanish packs, less one set of spades if removed."""
    packs = 8 if rules is None else rules.packs
    cards = list(IDX2CODE) * packs
    if rules is not None and rules.spades_removed:
        for p in range(10):
            cards.remove(int(IDX2CODE[SPADES * 10 + p]))
    return np.array(sorted(cards), np.uint8)


class Table(NamedTuple):
    players: int
    forfeit: int
    win_pp: int
    layoff_only: bool
    published: bool
    new_suit: bool
    rope_pays: bool
    base_again: bool
    void: bool
    max_turns: int
    session: bool         # unit=session
    deals: int
    rotate: bool          # next_eldest=rotate


class Seats(NamedTuple):
    kind: np.ndarray
    top: np.ndarray
    top_seat: np.ndarray
    demand: np.ndarray
    pair: np.ndarray
    valle: np.ndarray
    feed: np.ndarray
    borrow: np.ndarray


# Work's per-seat scalars (W.sv columns), meld fields (W.md's last axis) and option fields (W.op)
Q_NH, Q_NM, Q_NMELD, Q_ACTIVE, Q_CHIPS, Q_CU, Q_CB, Q_COND, Q_DONE, Q_FA, Q_ML, Q_NS, Q_HB = range(13)
NQ = 13
M_K, M_R, M_H, M_S, M_M, M_V, M_FB, M_L = range(8)
M_C = 8               # M_C .. M_C + 3: a set's cards by suit
M_LK, M_LA = 12, 13   # the cards the meld may lend (lendable): keeping its condition; any
NMD = 14
O_M, O_B = 3, 4       # W.op[o, 0:3] the option's cards


class Work(NamedTuple):
    """The kernel's state, in few arrays: every call of a helper that is not inlined passes
    each array of the record by value (:mod:`simkit.core.jit`), so fields of one shape share
    an array."""
    deck: np.ndarray      # int64[N]: the pack (or the stacked deck) in order, as indices
    stacked: bool
    stk: np.ndarray       # int64[N]: the stock, drawn from st[0] on
    hand: np.ndarray      # int64[K, 40]
    sv: np.ndarray        # int64[K, NQ]: per seat: Q_NH cards in hand, Q_NM cards melded,
                          # Q_NMELD melds on the table, Q_ACTIVE 1 playing (0 went on top),
                          # Q_CHIPS, Q_CU condition chips per payer collected this deal, Q_CB
                          # the base values of its conditions, Q_COND chips collected for
                          # conditions, Q_DONE 1 when its last meld phase found nothing to do
                          # and its melds have not changed since (its hand only shrank), Q_FA
                          # the cards that fit one of its melds, as bits, Q_ML the length of
                          # its longest meld (a borrow needs four cards, a split six), Q_NS 1
                          # once options_hand found nothing this deal: the hand, which only
                          # shrinks, makes no new meld again (only additions may come), Q_HB
                          # the cards in hand as bits (kept by deal, turn and the phases)
    md: np.ndarray        # int64[K, MAXM, NMD]: per meld: M_K kind, M_R rank pos (a set) or
                          # low end (a rope), M_H a rope's high end, M_S suit (one-suit set,
                          # rope; -1 otherwise), M_M suits held as bits, M_V condition value
                          # per player (0: none), M_FB the cards that fit it as bits
                          # (fit_bits), M_L its number of cards, M_C.. a set's cards by
                          # suit (unused for a rope), M_LK and M_LA the cards it may lend
                          # as bits (lendable with keep, without): meld_words
    op: np.ndarray        # int64[NOPT, 5]: an option's cards (new meld) or card (addition),
                          # O_M the meld an addition goes to (-1 for a new meld), O_B a new
                          # meld's second card is borrowed from this meld (-1)
    sc: np.ndarray        # int64[16]: scratch (a split's cards by suit; 0:8 unused)
    st: np.ndarray        # int64[8]: stock top, stock size, pile top (-1 none), log pos, turns, pot
    rs: np.ndarray        # uint64[2]: the card stream and the strategy stream


def table(rules) -> Table:
    return record(Table, players=rules.players, forfeit=rules.forfeit,
                  win_pp=rules.winner_per_player,
                  layoff_only=rules.discard_take == DISCARD_TAKE[1],
                  published=rules.conditions == CONDITIONS[1],
                  new_suit=rules.mixed_add == MIXED_ADD[1], rope_pays=rules.rope_extended_pays,
                  base_again=rules.again == AGAIN[1], void=rules.stock_end == STOCK_END[1],
                  max_turns=rules.max_turns, session=rules.unit == UNIT[1], deals=rules.deals,
                  rotate=rules.next_eldest == NEXT_ELDEST[1])


def work(rules, stacked=None) -> Work:
    d = make_deck(rules) if stacked is None else np.asarray(stacked, np.int64)
    d = CODE2IDX[np.asarray(d, np.int64)]
    K = rules.players

    def z(*shape):
        return np.zeros(shape, np.int64)
    return record(Work, deck=d, stacked=stacked is not None, stk=z(d.shape[0]), hand=z(K, NT),
                  sv=z(K, NQ), md=z(K, MAXM, NMD), op=z(NOPT, 5), sc=z(16), st=z(8),
                  rs=np.zeros(2, np.uint64))


def metrics(rules) -> list[Metric]:
    if rules.unit == "session":
        def doc(n):
            return S_DOCS.get(n, DOCS[n])

        def unit(n):
            return S_UNITS.get(n, UNITS[n])
        out = [Metric(f"p{k + 1}_{n}", binary=False, doc=f"p{k + 1}: " + doc(n), unit=unit(n))
               for k in range(rules.players) for n in SEAT_S]
        return out + [Metric(n, binary=False, doc=doc(n), unit=unit(n)) for n in TAIL_S]
    out = [Metric(f"p{k + 1}_{n}", binary=n in BINARY, doc=f"p{k + 1}: " + DOCS[n], unit=UNITS[n])
           for k in range(rules.players) for n in SEAT]
    return out + [Metric(n, binary=n in BINARY, doc=DOCS[n], unit=UNITS[n]) for n in TAIL]


def log_columns(rules) -> list[str]:
    if rules.unit == "session":
        room = min(rules.deals, LOG_DEALS) * (NHEAD + rules.players * N_HAND + 1 + SESSION_EVENTS)
        return ["deals", "logged"] + [f"entry_{j}" for j in range(room)]
    return (["dealer", "events"] + [f"dealt_{j}" for j in range(rules.players * N_HAND)]
            + ["upcard"] + [f"event_{j}" for j in range(MAX_LOG)])


def log_blocks(rules, row) -> tuple[list[list[int]], int]:
    """``(blocks, deals played)``: the logged deals of a unit's row, each in a deal's layout
    (dealer, events, cards dealt, upcard, events), trimmed to its events."""
    row = [int(x) for x in row]
    if rules.unit != "session":
        return [row], 1
    out, b = [], NHEAD_S
    for _ in range(row[1]):
        end = b + NHEAD + rules.players * N_HAND + 1 + row[b + 1]
        out.append(row[b:end])
        b = end
    return out, row[0]


# --------------------------------------------------------------------------- melds

@njit(cache=True, nogil=True, **NO_REFCOUNT)
def is_valle(r):
    return r == 2 or r == 4 or r == 6


@njit(cache=True, nogil=True, **NO_REFCOUNT)
def classify(a, b, c):
    """The meld three cards make (line 95-96): ``(kind, rank or low, high, suit, suit bits)``,
    kind -1 when they make none."""
    ra, rb, rc = a % 10, b % 10, c % 10
    sa, sb, sc = a // 10, b // 10, c // 10
    bits = (1 << sa) | (1 << sb) | (1 << sc)
    if ra == rb and rb == rc:
        if ra == 0 or ra == 9:
            return FREE, ra, ra, -1, bits
        if sa == sb and sb == sc:
            return ONE, ra, ra, sa, bits
        if sa != sb and sa != sc and sb != sc:
            return DIFF, ra, ra, -1, bits
        return -1, 0, 0, -1, 0
    if sa == sb and sb == sc:
        lo = min(ra, min(rb, rc))
        hi = max(ra, max(rb, rc))
        if hi - lo == 2 and ra != rb and ra != rc and rb != rc:
            return ROPE, lo, hi, sa, bits
    return -1, 0, 0, -1, 0


@njit(cache=True, nogil=True, **NO_REFCOUNT)
def cond_value(kind, r, hi, s, published):
    """A new meld's condition value per active player (line 98; the published fourth row)."""
    sp = s == SPADES
    if kind == ONE:
        if is_valle(r):
            return 4 if sp else 2
        return (2 if sp else 1) if published else 0
    if kind == DIFF:
        return 1 if is_valle(r) else 0
    if kind == ROPE and ((r == 0 and hi == 2) or (r == 7 and hi == 9)):
        return 2 if sp else 1
    return 0


@njit(cache=True, nogil=True, **NO_REFCOUNT)
def fits(W, p, m, c, new_suit):
    """May card ``c`` be added to seat ``p``'s meld ``m`` (line 96)?"""
    k = W.md[p, m, M_K]
    r, s = c % 10, c // 10
    if k == FREE:
        return r == W.md[p, m, M_R]
    if k == ONE:
        return r == W.md[p, m, M_R] and s == W.md[p, m, M_S]
    if k == DIFF:
        return r == W.md[p, m, M_R] and (not new_suit or (W.md[p, m, M_M] >> s) & 1 == 0)
    return s == W.md[p, m, M_S] and (r == W.md[p, m, M_R] - 1 or r == W.md[p, m, M_H] + 1)


@njit(cache=True, nogil=True, **NO_REFCOUNT)
def add_value(R, W, p, m, c):
    """The condition value adding ``c`` to seat ``p``'s meld ``m`` pays (:func:`meld_add_value`)."""
    return meld_add_value(R, W.md[p], m, c)


@njit(cache=True, nogil=True, **NO_REFCOUNT)
def meld_add_value(R, md, m, c):
    """The condition value adding ``c`` to meld ``m`` (``md`` the seat's rows of ``W.md``) pays
    (line 99; ``rope_extended_pays``)."""
    v = md[m, M_V]
    if v == 0 and R.rope_pays and md[m, M_K] == ROPE:
        lo, hi = min(md[m, M_R], c % 10), max(md[m, M_H], c % 10)
        if lo == 0 or hi == 9:
            v = 2 if md[m, M_S] == SPADES else 1
    return v


@njit(cache=True, nogil=True, inline="always", **NO_REFCOUNT)
def fitting(W, p, c):
    """Does ``c`` fit one of seat ``p``'s melds (``W.sv[p, Q_FA]``, kept by :func:`refit`)?"""
    return (W.sv[p, Q_FA] >> c) & 1 != 0


@njit(cache=True, nogil=True, **NO_REFCOUNT)
def refit(R, W, p):
    """Seat ``p``'s meld words (:func:`meld_words`) and seat words (:func:`seat_words`), every
    meld recomputed."""
    for m in range(W.sv[p, Q_NMELD]):
        meld_words(R, W.md[p], m)
    seat_words(W.md[p], W.sv[p])


@njit(cache=True, nogil=True, **NO_REFCOUNT)
def refit_meld(R, md, sv, m):
    """A seat's words after its meld ``m`` (alone) changed, its condition value included
    (``md``, ``sv``: the seat's rows of ``W.md`` and ``W.sv``; plain arrays, not the record:
    simkit.core.jit rule 2)."""
    meld_words(R, md, m)
    seat_words(md, sv)


@njit(cache=True, nogil=True, **NO_REFCOUNT)
def seat_words(md, sv):
    """``Q_FA`` (the cards that fit one of the seat's melds) and ``Q_ML`` (its longest meld)
    from the melds' words."""
    a, ml = 0, 0
    for m in range(sv[Q_NMELD]):
        a |= md[m, M_FB]
        ml = max(ml, md[m, M_L])
    sv[Q_FA] = a
    sv[Q_ML] = ml


@njit(cache=True, nogil=True, **NO_REFCOUNT)
def meld_words(R, md, m):
    """Meld ``m``'s words (``md`` the seat's rows of ``W.md``), kept up to date after every
    change of it: ``M_FB`` the cards that fit it (:func:`fit_bits`), ``M_L`` its length,
    ``M_LA`` / ``M_LK`` the cards it may lend (:func:`lendable` without / with ``keep``; its
    condition value ``M_V`` must be current)."""
    md[m, M_FB] = fit_bits(R, md, m)
    rope = md[m, M_K] == ROPE
    if rope:
        n = md[m, M_H] - md[m, M_R] + 1
    else:
        n = md[m, M_C + 0] + md[m, M_C + 1] + md[m, M_C + 2] + md[m, M_C + 3]
    md[m, M_L] = n
    la, lk = 0, 0
    if n >= 4:
        r, v = md[m, M_R], md[m, M_V]
        if rope:                         # either end (lendable's rope case)
            lo, hi, s = r, md[m, M_H], md[m, M_S]
            la = (1 << (s * 10 + lo)) | (1 << (s * 10 + hi))
            if part_value(R, ROPE, lo + 1, hi, s) == v:
                lk |= 1 << (s * 10 + lo)
            if part_value(R, ROPE, lo, hi - 1, s) == v:
                lk |= 1 << (s * 10 + hi)
        else:                            # a card of each suit held (lendable's set case)
            c0, c1, c2, c3 = md[m, M_C], md[m, M_C + 1], md[m, M_C + 2], md[m, M_C + 3]
            for q in range(4):
                if md[m, M_C + q] == 0:
                    continue
                d0, d1, d2, d3 = c0 - (q == 0), c1 - (q == 1), c2 - (q == 2), c3 - (q == 3)
                if not set_legal(r, d0, d1, d2, d3, R.new_suit):
                    continue
                la |= 1 << (q * 10 + r)
                k, s = set_kind(r, d0, d1, d2, d3)
                if part_value(R, k, r, r, s) == v:
                    lk |= 1 << (q * 10 + r)
    md[m, M_LA] = la
    md[m, M_LK] = lk


# --------------------------------------------------------------------------- log and chips



@njit(cache=True, nogil=True, **NO_REFCOUNT)
def pay(sv, st, p, v, log, i):
    """Every other active player pays ``v`` to ``p`` (a condition, line 97; ``sv``, ``st``:
    ``W.sv``, ``W.st``)."""
    for q in range(sv.shape[0]):
        if q != p and sv[q, Q_ACTIVE]:
            sv[q, Q_CHIPS] -= v
            sv[p, Q_CHIPS] += v
            sv[p, Q_COND] += v
    sv[p, Q_CU] += v
    put_event(log, i, st, 3, EV_PAY, p, v, 0)


@njit(cache=True, nogil=True, **NO_REFCOUNT)
def lay_new(R, sv, md, st, p, a, b, c, log, i):
    """Seat ``p`` lays a new meld of ``a``, ``b``, ``c`` (taken out of the hand by the caller;
    ``sv``, ``st``: ``W.sv``, ``W.st``; ``md`` the seat's rows of ``W.md``: plain arrays, not
    the record, simkit.core.jit rule 2)."""
    k, r, hi, s, bits = classify(a, b, c)
    m = sv[p, Q_NMELD]
    md[m, M_K], md[m, M_R], md[m, M_H], md[m, M_S], md[m, M_M] = k, r, hi, s, bits
    v = cond_value(k, r, hi, s, R.published)
    md[m, M_V] = v
    for q in range(4):
        md[m, M_C + q] = 0
    if k != ROPE:
        md[m, M_C + a // 10] += 1
        md[m, M_C + b // 10] += 1
        md[m, M_C + c // 10] += 1
    sv[p, Q_NMELD] = m + 1
    sv[p, Q_NM] += 3
    sv[p, Q_DONE] = 0
    refit_meld(R, md, sv[p], m)
    put_event(log, i, st, 3, EV_MELD, p, m, 3)
    put_event(log, i, st, 3, EV_CARD, p, 0, IDX2CODE[a])
    put_event(log, i, st, 3, EV_CARD, p, 0, IDX2CODE[b])
    put_event(log, i, st, 3, EV_CARD, p, 0, IDX2CODE[c])
    if v > 0:
        sv[p, Q_CB] += v
        pay(sv, st, p, v, log, i)


@njit(cache=True, nogil=True, **NO_REFCOUNT)
def lay_add(R, sv, md, st, p, m, c, log, i):
    """Seat ``p`` adds ``c`` to its meld ``m`` (taken out of the hand by the caller; arrays as
    :func:`lay_new`)."""
    v = meld_add_value(R, md, m, c)
    if md[m, M_V] == 0 and v > 0:
        md[m, M_V] = v
        sv[p, Q_CB] += v
    r = c % 10
    if md[m, M_K] == ROPE:
        md[m, M_R] = min(md[m, M_R], r)
        md[m, M_H] = max(md[m, M_H], r)
    else:
        md[m, M_C + c // 10] += 1
    md[m, M_M] |= 1 << (c // 10)
    sv[p, Q_NM] += 1
    sv[p, Q_DONE] = 0
    refit_meld(R, md, sv[p], m)
    put_event(log, i, st, 3, EV_ADD, p, m, IDX2CODE[c])
    if v > 0:
        pay(sv, st, p, v, log, i)


# --------------------------------------------------------------------------- options

@njit(cache=True, nogil=True, **NO_REFCOUNT)
def put(W, k, m, a, b, c):
    return put_op(W.op, k, m, a, b, c)


@njit(cache=True, nogil=True, **NO_REFCOUNT)
def put_op(op, k, m, a, b, c):
    """Option ``k`` (``W.op``'s row): an addition to meld ``m`` or a new meld (``m`` -1)."""
    if k < NOPT:
        op[k, O_M] = m
        op[k, O_B] = -1
        op[k, 0], op[k, 1], op[k, 2] = a, b, c
        return k + 1
    return k


@njit(cache=True, nogil=True, **NO_REFCOUNT)
def options_with(h, md, op, fa, nmeld, c, adds_only):
    """The ways a seat melds card ``c`` (not in its hand ``h``): additions to its melds (``md``
    its rows of ``W.md``, ``fa`` and ``nmeld`` its ``Q_FA`` and ``Q_NMELD``), then new melds
    with two hand cards (distinct by card), written to ``op`` (``W.op``; plain arrays, not the
    record: simkit.core.jit rule 2).  Returns the number of options."""
    k = 0
    if (fa >> c) & 1:
        for m in range(nmeld):
            if (md[m, M_FB] >> c) & 1:
                k = put_op(op, k, m, c, -1, -1)
    if adds_only:
        return k
    r, s = c % 10, c // 10
    free = r == 0 or r == 9
    for s1 in range(4):
        x = s1 * 10 + r
        if h[x] == 0:
            continue
        for s2 in range(s1, 4):
            y = s2 * 10 + r
            if h[y] < (2 if y == x else 1):
                continue
            if free or (s == s1 and s1 == s2) or (s != s1 and s != s2 and s1 != s2):
                k = put_op(op, k, -1, c, x, y)     # a set (classify's rule for one rank)
    for d in range(-2, 1):
        lo = r + d
        if lo < 0 or lo + 2 > 9:
            continue
        ok = True
        for j in range(3):
            if lo + j != r and h[s * 10 + lo + j] == 0:
                ok = False
        if ok:
            x = s * 10 + (lo if lo != r else lo + 1)
            y = s * 10 + (lo + 2 if lo + 2 != r else lo + 1)
            k = put_op(op, k, -1, c, x, y)
    return k


RANK_BITS = (1 << 0) | (1 << 10) | (1 << 20) | (1 << 30)   # a rank's four cards as bits


@njit(cache=True, nogil=True, **NO_REFCOUNT)
def fit_bits(R, md, m):
    """The cards that fit meld ``m`` (:func:`fits`; ``md`` the seat's rows of ``W.md``) as bits
    of a 40-bit word."""
    k, r = md[m, M_K], md[m, M_R]
    if k == FREE:
        return RANK_BITS << r
    if k == ONE:
        return 1 << (md[m, M_S] * 10 + r)
    if k == DIFF:
        if not R.new_suit:
            return RANK_BITS << r
        b = 0
        for q in range(4):
            if (md[m, M_M] >> q) & 1 == 0:
                b |= 1 << (q * 10 + r)
        return b
    b, base, hi = 0, md[m, M_S] * 10, md[m, M_H]
    if r >= 1:
        b |= 1 << (base + r - 1)
    if hi <= 8:
        b |= 1 << (base + hi + 1)
    return b


@njit(cache=True, nogil=True, **NO_REFCOUNT)
def options_hand(h, md, op, fa, nmeld):
    """A seat's melds from hand ``h``: new three-card melds (distinct by cards), then additions
    of a hand card to an own meld (arguments as :func:`options_with`).  Returns the number of
    options.  (The ropes and additions are found on bit words of the hand and of the cards the
    melds take, in the order of a plain scan: suit, then low end; card, then meld.)"""
    k = 0
    held = 0
    for r in range(10):
        h0, h1, h2, h3 = h[r], h[10 + r], h[20 + r], h[30 + r]
        held |= ((1 if h0 > 0 else 0) | ((1 if h1 > 0 else 0) << 10) | ((1 if h2 > 0 else 0) << 20)
                 | ((1 if h3 > 0 else 0) << 30)) << r
        if h0 + h1 + h2 + h3 >= 3 and (r == 0 or r == 9 or max(max(h0, h1), max(h2, h3)) >= 3
                                       or suits_held(h0, h1, h2, h3) >= 3):
            k = sets_from_hand(op, h, r, k)      # (only where a set is: sets_from_hand's rule)
    for s in range(4):
        b = (held >> (s * 10)) & 1023
        run = b & (b >> 1) & (b >> 2)
        if run == 0:
            continue
        for lo in range(8):
            if (run >> lo) & 1:
                a = s * 10 + lo
                k = put_op(op, k, -1, a, a + 1, a + 2)
    fit = fa & held
    if fit == 0:
        return k
    for c in range(NT):
        if (fit >> c) == 0:
            break
        if (fit >> c) & 1:
            for m in range(nmeld):
                if (md[m, M_FB] >> c) & 1:
                    k = put_op(op, k, m, c, -1, -1)
    return k


@njit(cache=True, nogil=True, **NO_REFCOUNT)
def sets_from_hand(op, h, r, k):
    """The new sets of rank ``r`` in hand ``h`` (distinct by cards) appended to ``k`` options
    (:func:`classify`'s rule for one rank: aces and kings any suits, else one suit or three)."""
    free = r == 0 or r == 9
    for s1 in range(4):
        a = s1 * 10 + r
        if h[a] == 0:
            continue
        for s2 in range(s1, 4):
            b = s2 * 10 + r
            for s3 in range(s2, 4):
                c = s3 * 10 + r
                if a == c:
                    ok = h[a] >= 3
                elif a == b:
                    ok = h[a] >= 2 and h[c] >= 1
                elif b == c:
                    ok = h[b] >= 2
                else:
                    ok = h[b] >= 1 and h[c] >= 1
                if ok and (free or s1 == s3 or (s1 != s2 and s2 != s3)):
                    k = put_op(op, k, -1, a, b, c)
    return k


@njit(cache=True, nogil=True, **NO_REFCOUNT)
def apply_option(R, W, p, o, from_hand, log, i):
    """Lay option ``o``; ``from_hand``: its first card comes from the hand too (else it is the
    card drawn).  The other cards of a new meld always come from the hand."""
    m = W.op[o, O_M]
    a, b, c = W.op[o, 0], W.op[o, 1], W.op[o, 2]
    if from_hand:
        W.hand[p, a] -= 1
        W.sv[p, Q_NH] -= 1
    if m >= 0:
        lay_add(R, W.sv, W.md[p], W.st, p, m, a, log, i)
        return
    if W.op[o, O_B] >= 0:
        lend(R, W, p, W.op[o, O_B], b, log, i)
    else:
        W.hand[p, b] -= 1
        W.sv[p, Q_NH] -= 1
    W.hand[p, c] -= 1
    W.sv[p, Q_NH] -= 1
    lay_new(R, W.sv, W.md[p], W.st, p, a, b, c, log, i)


@njit(cache=True, nogil=True, **NO_REFCOUNT)
def option_value(R, W, p, o):
    """Chips per active player the option pays (a condition made or added to)."""
    m = W.op[o, O_M]
    if m >= 0:
        return add_value(R, W, p, m, W.op[o, 0])
    k, r, hi, s, _ = classify(W.op[o, 0], W.op[o, 1], W.op[o, 2])
    return cond_value(k, r, hi, s, R.published)


@njit(cache=True, nogil=True, **NO_REFCOUNT)
def best_option(R, W, p, k):
    """The baseline's pick among ``k`` options: the most chips, then the most cards (the only
    one, unvalued, when ``k`` is 1: most calls)."""
    if k <= 1:
        return 0
    best, bv = 0, -1
    for o in range(k):
        v = option_value(R, W, p, o) * 10 + (1 if W.op[o, O_M] >= 0 else (2 if W.op[o, O_B] >= 0 else 3))
        if v > bv:
            best, bv = o, v
    return best


@njit(cache=True, nogil=True, **NO_REFCOUNT)
def rand(W, n):
    j, W.rs[1] = bounded(W.rs[1], n)
    return j


# --------------------------------------------------------------------------- split and borrow

@njit(cache=True, nogil=True, **NO_REFCOUNT)
def suits_held(c0, c1, c2, c3):
    """How many of the four counts are positive (as ints: numpy's bools would add as "or" in
    plain Python, where the compiled kernel counts)."""
    return (1 if c0 > 0 else 0) + (1 if c1 > 0 else 0) + (1 if c2 > 0 else 0) + (1 if c3 > 0 else 0)


@njit(cache=True, nogil=True, **NO_REFCOUNT)
def set_kind(r, c0, c1, c2, c3):
    """A set's kind and suit (-1 unless one suit) from its cards by suit."""
    if r == 0 or r == 9:
        return FREE, -1
    ns = suits_held(c0, c1, c2, c3)
    if ns != 1:
        return DIFF, -1
    return ONE, (0 if c0 > 0 else (1 if c1 > 0 else (2 if c2 > 0 else 3)))


@njit(cache=True, nogil=True, **NO_REFCOUNT)
def set_legal(r, c0, c1, c2, c3, new_suit):
    """A part of a split or borrow that is a set stays a legal meld (line 96, 99): three or more
    cards; aces and kings any suits; else one suit, or three suits or more (with
    ``mixed_add=new_suit`` no suit twice)."""
    if min(min(c0, c1), min(c2, c3)) < 0:
        return False
    n = c0 + c1 + c2 + c3
    ns = suits_held(c0, c1, c2, c3)
    mx = max(max(c0, c1), max(c2, c3))
    if n < 3:
        return False
    if r == 0 or r == 9 or ns == 1:
        return True
    return ns >= 3 and (not new_suit or mx == 1)


@njit(cache=True, nogil=True, **NO_REFCOUNT)
def part_value(R, kind, r, hi, s):
    """The condition a meld's cards make (line 98): a rope from the ace or to the king, a set as
    :func:`cond_value`."""
    if kind == ROPE:
        return (2 if s == SPADES else 1) if (r == 0 or hi == 9) else 0
    return cond_value(kind, r, hi, s, R.published)


@njit(cache=True, nogil=True, **NO_REFCOUNT)
def content_value(R, W, p, m):
    return part_value(R, W.md[p, m, M_K], W.md[p, m, M_R], W.md[p, m, M_H], W.md[p, m, M_S])


@njit(cache=True, nogil=True, **NO_REFCOUNT)
def reclass(W, p, m):
    """A set's kind, suit and suit bits from its cards (after a split or borrow)."""
    if W.md[p, m, M_K] == ROPE:
        return
    c = W.md[p, m, M_C:M_C + 4]
    k, s = set_kind(W.md[p, m, M_R], c[0], c[1], c[2], c[3])
    W.md[p, m, M_K], W.md[p, m, M_S] = k, s
    bits = 0
    for q in range(4):
        if W.md[p, m, M_C + q] > 0:
            bits |= 1 << q
    W.md[p, m, M_M] = bits


@njit(cache=True, nogil=True, **NO_REFCOUNT)
def revalue(R, W, p, m, v0, log, i):
    """Meld ``m`` after a split or borrow (line 99): it continues the condition ``v0`` of the
    meld it came from when its cards still make that condition; otherwise the condition its
    cards make (if any) is made now and pays.  Returns True when it continued ``v0``."""
    cv = content_value(R, W, p, m)
    if v0 > 0 and cv == v0:
        W.md[p, m, M_V] = v0
        return True
    W.md[p, m, M_V] = cv
    if cv > 0:
        W.sv[p, Q_CB] += cv
        pay(W.sv, W.st, p, cv, log, i)
    return False


@njit(cache=True, nogil=True, **NO_REFCOUNT)
def meld_len(W, p, m):
    return W.md[p, m, M_L]


@njit(cache=True, nogil=True, **NO_REFCOUNT)
def lendable(R, md, m, x, keep):
    """May card ``x`` be borrowed from meld ``m`` (``md`` the seat's rows of ``W.md``, its
    length ``M_L`` current): the meld keeps three cards or more and stays legal (line 99; a
    rope lends an end card); with ``keep`` (the baseline) also its condition (or none) is
    unchanged, so the borrow pays nothing there."""
    if md[m, M_L] < 4:
        return False
    if md[m, M_K] == ROPE:
        r, lo, hi, s = x % 10, md[m, M_R], md[m, M_H], md[m, M_S]
        if x // 10 != s or (r != lo and r != hi):
            return False
        lo, hi = (lo + 1, hi) if r == lo else (lo, hi - 1)
        return not keep or part_value(R, ROPE, lo, hi, s) == md[m, M_V]
    r = md[m, M_R]
    if x % 10 != r or md[m, M_C + x // 10] == 0:
        return False
    q = x // 10
    c0, c1 = md[m, M_C] - (q == 0), md[m, M_C + 1] - (q == 1)
    c2, c3 = md[m, M_C + 2] - (q == 2), md[m, M_C + 3] - (q == 3)
    if not set_legal(r, c0, c1, c2, c3, R.new_suit):
        return False
    if not keep:
        return True
    k, s = set_kind(r, c0, c1, c2, c3)
    return part_value(R, k, r, r, s) == md[m, M_V]


@njit(cache=True, nogil=True, **NO_REFCOUNT)
def lend(R, W, p, m, x, log, i):
    """Card ``x`` leaves seat ``p``'s meld ``m`` for a new meld (a borrow, line 99)."""
    put_event(log, i, W.st, 3, EV_BORROW, p, m, IDX2CODE[x])
    v0 = W.md[p, m, M_V]
    if W.md[p, m, M_K] == ROPE:
        if x % 10 == W.md[p, m, M_R]:
            W.md[p, m, M_R] += 1
        else:
            W.md[p, m, M_H] -= 1
    else:
        W.md[p, m, M_C + x // 10] -= 1
        reclass(W, p, m)
    W.sv[p, Q_NM] -= 1
    W.sv[p, Q_DONE] = 0
    revalue(R, W, p, m, v0, log, i)
    refit_meld(R, W.md[p], W.sv[p], m)  # after revalue: the lend words read M_V


@njit(cache=True, nogil=True, **NO_REFCOUNT)
def put_borrow(op, k, m, a, x, c):
    k2 = put_op(op, k, -1, a, x, c)
    if k2 > k:
        op[k, O_B] = m
    return k2


def _tables():
    """``NEAR[c]``: the cards that may share a three-card meld with ``c`` (its rank, or its suit
    within two ranks) as bits; ``CAND[x, :NCAND[x]]``: the cards that may complete a meld with
    ``x`` (the four of its rank by suit, then its suit's neighbours at -2, -1, 1, 2)."""
    near = np.zeros(NT, np.int64)
    cand = np.zeros((NT, 8), np.int64)
    ncand = np.zeros(NT, np.int64)
    for x in range(NT):
        r, s = x % 10, x // 10
        for y in range(NT):
            if y % 10 == r or (y // 10 == s and abs(y % 10 - r) <= 2):
                near[x] |= 1 << y
        n = 0
        for s2 in range(4):
            cand[x, n], n = s2 * 10 + r, n + 1
        for d in (-2, -1, 1, 2):
            if 0 <= r + d <= 9:
                cand[x, n], n = s * 10 + r + d, n + 1
        ncand[x] = n
    return near, cand, ncand


NEAR, CAND, NCAND = _tables()


@njit(cache=True, nogil=True, **NO_REFCOUNT)
def options_borrow(R, W, p, c, k, keep):
    """New melds with a card borrowed from an own meld (line 99) appended to ``k`` options:
    with two hand cards (``c`` -1: the melds from hand) or with the card ``c`` drawn and one
    hand card; ``keep``: only from melds whose condition stays (:func:`lendable`, read from the
    melds' ``M_LK`` / ``M_LA`` words).  Returns the number of options."""
    col = M_LK if keep else M_LA
    nm = W.sv[p, Q_NMELD]
    lb = 0
    for m in range(nm):
        lb |= W.md[p, m, col]
    if c >= 0:
        lb &= NEAR[c]
    if lb == 0:
        return k
    return borrow_list(W.hand[p], W.md[p], W.op, nm, c, k, col)


@njit(cache=True, nogil=True, **NO_REFCOUNT)
def borrow_list(h, md, op, nmeld, c, k, col):
    """:func:`options_borrow`'s listing on plain arrays (the seat's hand row, its ``W.md``
    rows, ``W.op``; ``col`` the lend word read): by meld, card lent (:func:`lend_card`'s
    order), then hand cards in ``CAND``'s order."""
    for m in range(nmeld):
        lb = md[m, col]
        if c >= 0:
            lb &= NEAR[c]
        if lb == 0:
            continue
        rope = md[m, M_K] == ROPE
        for t in range(2 if rope else 4):
            if rope:
                x = md[m, M_S] * 10 + (md[m, M_R] if t == 0 else md[m, M_H])
            else:
                x = t * 10 + md[m, M_R]
            if (lb >> x) & 1 == 0:
                continue
            nc, held = NCAND[x], 0
            for j in range(nc):
                held += h[CAND[x, j]]
            if held < (1 if c >= 0 else 2):
                continue
            for j in range(nc):
                y = CAND[x, j]
                if h[y] == 0:
                    continue
                if c >= 0:
                    if classify(c, x, y)[0] >= 0:
                        k = put_borrow(op, k, m, c, x, y)
                    continue
                for j2 in range(j, nc):
                    z = CAND[x, j2]
                    if h[z] >= (2 if z == y else 1) and cand_meld(x, j, j2):
                        k = put_borrow(op, k, m, y, x, z)
    return k


@njit(cache=True, nogil=True, **NO_REFCOUNT)
def cand_meld(x, j, j2):
    """Do ``x`` and its candidates ``CAND[x, j]``, ``CAND[x, j2]`` (``j <= j2``) make a meld
    (:func:`classify` on ``CAND``'s layout: three of one rank, or three in suit sequence)?"""
    r, s = x % 10, x // 10
    if j2 < 4:                            # a set: the suits j, j2 (and x's)
        return r == 0 or r == 9 or (j == s and j2 == s) or (j != s and j2 != s and j != j2)
    if j < 4:                             # one of the rank, one of the suit: none
        return False
    dy, dz = CAND[x, j] % 10 - r, CAND[x, j2] % 10 - r      # dy < dz (CAND's order)
    return (dy == -2 and dz == -1) or (dy == -1 and dz == 1) or (dy == 1 and dz == 2)


@njit(cache=True, nogil=True, **NO_REFCOUNT)
def split_gain(v0, vr, vn):
    """Chips per player a split pays (:func:`revalue` on the part kept, then the part moved)."""
    if v0 > 0 and vr == v0:
        return 0 if vn == 0 else vn
    if v0 > 0 and vn == v0:
        return vr
    return vr + vn


@njit(cache=True, nogil=True, **NO_REFCOUNT)
def split_pattern(t, j):
    """The ``j``-th way (0..8) a set's cards may move in a split, as counts by suit in ``t``:
    three of suit ``j`` (j < 4), or one each of the suits but ``j - 4`` (j 4..7: three suits;
    j 8: all four)."""
    for q in range(4):
        t[q] = (3 if q == j else 0) if j < 4 else (0 if q == j - 4 else 1)


@njit(cache=True, nogil=True, **NO_REFCOUNT)
def nth_split(R, W, p, want, moved):
    """Seat ``p``'s legal splits (line 99: each part a legal meld of three cards or more) in
    the order :func:`best_split` visits them: a rope cut before card ``j``, a set's cards moved
    by :func:`split_pattern`.  Returns ``(count, meld, cut)``: with ``want`` < 0 the count (meld
    -1); else the ``want``-th split's meld and cut (-1 for a set: ``moved`` then holds its
    cards by suit).  None while the seat has :data:`MAXM` melds."""
    n = 0
    if W.sv[p, Q_NMELD] >= MAXM:
        return 0, -1, -1
    t = W.sc[12:16]
    for m in range(W.sv[p, Q_NMELD]):
        if meld_len(W, p, m) < 6:
            continue
        if W.md[p, m, M_K] == ROPE:
            for j in range(W.md[p, m, M_R] + 3, W.md[p, m, M_H] - 1):
                if n == want:
                    return n, m, j
                n += 1
            continue
        r, c = W.md[p, m, M_R], W.md[p, m, M_C:M_C + 4]
        for j in range(9):
            split_pattern(t, j)
            if not (set_legal(r, c[0] - t[0], c[1] - t[1], c[2] - t[2], c[3] - t[3], R.new_suit)
                    and set_legal(r, t[0], t[1], t[2], t[3], R.new_suit)):
                continue
            if n == want:
                for q in range(4):
                    moved[q] = t[q]
                return n, m, -1
            n += 1
    return n, -1, -1


@njit(cache=True, nogil=True, **NO_REFCOUNT)
def best_split(R, W, p, moved):
    """The split of one of seat ``p``'s melds that pays most (line 99: each part a legal meld):
    a rope cut in two, or a set giving three cards of one suit or one card of each of three or
    four suits.  Returns ``(meld, cut, chips)``, ``cut`` a rope's first card moved or -1 for a
    set (``moved`` then holds the cards moved by suit); meld -1 when no split pays."""
    bm, bc, bg = -1, -1, 0
    t = W.sc[12:16]
    for m in range(W.sv[p, Q_NMELD]):
        if meld_len(W, p, m) < 6:
            continue
        v0 = W.md[p, m, M_V]
        if W.md[p, m, M_K] == ROPE:
            lo, hi, s = W.md[p, m, M_R], W.md[p, m, M_H], W.md[p, m, M_S]
            for j in range(lo + 3, hi - 1):
                g = split_gain(v0, part_value(R, ROPE, lo, j - 1, s), part_value(R, ROPE, j, hi, s))
                if g > bg:
                    bm, bc, bg = m, j, g
            continue
        r, c = W.md[p, m, M_R], W.md[p, m, M_C:M_C + 4]
        for j in range(9):
            split_pattern(t, j)
            r0, r1, r2, r3 = c[0] - t[0], c[1] - t[1], c[2] - t[2], c[3] - t[3]
            if not (set_legal(r, r0, r1, r2, r3, R.new_suit)
                    and set_legal(r, t[0], t[1], t[2], t[3], R.new_suit)):
                continue
            kr, sr = set_kind(r, r0, r1, r2, r3)
            kn, sn = set_kind(r, t[0], t[1], t[2], t[3])
            g = split_gain(v0, part_value(R, kr, r, r, sr), part_value(R, kn, r, r, sn))
            if g > bg:
                bm, bc, bg = m, -1, g
                for q in range(4):
                    moved[q] = t[q]
    return bm, bc, bg


@njit(cache=True, nogil=True, **NO_REFCOUNT)
def do_split(R, W, p, m, cut, moved, log, i):
    """Split meld ``m``: the rope's cards from ``cut`` up (or the set's cards ``moved``) become
    a new meld; the conditions the parts make pay (line 99)."""
    n = W.sv[p, Q_NMELD]
    v0 = W.md[p, m, M_V]
    W.md[p, n, M_K], W.md[p, n, M_R], W.md[p, n, M_H], W.md[p, n, M_S] = W.md[p, m, M_K], W.md[p, m, M_R], W.md[p, m, M_H], W.md[p, m, M_S]
    W.md[p, n, M_M] = W.md[p, m, M_M]
    if cut >= 0:
        W.md[p, n, M_R] = cut
        W.md[p, m, M_H] = cut - 1
        put_event(log, i, W.st, 3, EV_SPLIT, p, m, W.md[p, n, M_H] - cut + 1)
        for q in range(cut, W.md[p, n, M_H] + 1):
            put_event(log, i, W.st, 3, EV_CARD, p, 0, IDX2CODE[W.md[p, n, M_S] * 10 + q])
    else:
        put_event(log, i, W.st, 3, EV_SPLIT, p, m, moved[0] + moved[1] + moved[2] + moved[3])
        for q in range(4):
            W.md[p, n, M_C + q] = moved[q]
            W.md[p, m, M_C + q] -= moved[q]
            for _ in range(moved[q]):
                put_event(log, i, W.st, 3, EV_CARD, p, 0, IDX2CODE[q * 10 + W.md[p, m, M_R]])
        reclass(W, p, m)
        reclass(W, p, n)
    W.sv[p, Q_NMELD] = n + 1
    W.sv[p, Q_DONE] = 0
    kept = revalue(R, W, p, m, v0, log, i)
    revalue(R, W, p, n, 0 if kept else v0, log, i)
    meld_words(R, W.md[p], m)            # after revalue: the lend words read M_V
    refit_meld(R, W.md[p], W.sv[p], n)


@njit(cache=True, nogil=True, **NO_REFCOUNT)
def split_pays(R, W, p, log, i):
    """The baseline's splits (``borrow`` >= 1): while one makes a condition, the best."""
    moved = W.sc[8:12]
    while W.sv[p, Q_NMELD] < MAXM:
        m, cut, g = best_split(R, W, p, moved)
        if m < 0:
            return
        do_split(R, W, p, m, cut, moved, log, i)


# --------------------------------------------------------------------------- the baseline

@njit(cache=True, nogil=True, **NO_REFCOUNT)
def connections(hb, x, dup, pair):
    """Keep value of card ``x``, held, from the other cards of a hand (``hb`` its cards as bits;
    ``dup``: it holds two of ``x`` or more): ``pair`` for the copy, 2 for each other suit of
    its rank, 2 for each neighbour in its suit, 1 for each card two away."""
    r = x % 10
    t = pair if dup else 0
    t += 2 * (((hb >> r) & 1) + ((hb >> (10 + r)) & 1) + ((hb >> (20 + r)) & 1)
              + ((hb >> (30 + r)) & 1) - 1)
    w = (hb >> (x - r)) & 1023                  # its suit's ten cards (r - 1, r - 2 below 0: 0)
    t += 2 * (((w >> (r + 1)) & 1) + (((w << 1) >> r) & 1))
    return t + ((w >> (r + 2)) & 1) + (((w << 2) >> r) & 1)


@njit(cache=True, nogil=True, **NO_REFCOUNT)
def quality(h, hb):
    """The go-on-top measure of hand ``h`` (``hb`` its cards as bits): each card's connections,
    at most two each (0..20)."""
    t = 0
    b = hb
    while b:
        x = lowest_code(b)
        b &= b - 1
        t += h[x] * min(2, connections(hb, x, h[x] > 1, 2))
    return t


@njit(cache=True, nogil=True, inline="always", **NO_REFCOUNT)
def next_active(W, p):
    K = W.sv.shape[0]
    q = (p + 1) % K
    while not W.sv[q, Q_ACTIVE]:
        q = (q + 1) % K
    return q


@njit(cache=True, nogil=True, inline="always", **NO_REFCOUNT)
def baseline_discard(R, S, W, p):
    h = W.hand[p]
    hb = W.sv[p, Q_HB]
    nxt = next_active(W, p)
    best, bv = -1, 1 << 40
    b = hb
    while b:                              # the cards held, lowest first
        x = lowest_code(b)
        b &= b - 1
        v = connections(hb, x, h[x] > 1, S.pair[p])
        if is_valle(x % 10):
            v += S.valle[p]
        if nxt != p and fitting(W, nxt, x):
            v += S.feed[p]
        if v < bv:
            best, bv = x, v
    return best


@njit(cache=True, nogil=True, inline="always", **NO_REFCOUNT)
def random_discard(W, p):
    j = rand(W, W.sv[p, Q_NH])
    for x in range(NT):
        j -= W.hand[p, x]
        if j < 0:
            return x
    return -1


@njit(cache=True, nogil=True, inline="always", **NO_REFCOUNT)
def demands(R, S, W, q, p, c):
    """Does seat ``q`` demand that ``p`` take and meld the discard ``c`` (line 100)?"""
    if S.kind[q] == K_RANDOM:
        return rand(W, 2) == 1
    if S.demand[q] == 0 or W.sv[p, Q_NH] == 0 or W.sv[p, Q_NH] > S.demand[q]:
        return False
    for m in range(W.sv[p, Q_NMELD]):
        if (W.md[p, m, M_FB] >> c) & 1 and add_value(R, W, p, m, c) > 0:
            return False
    return True


@njit(cache=True, nogil=True, **NO_REFCOUNT)
def goes_on_top(S, W, p, pos, K):
    if S.kind[p] == K_RANDOM:
        return rand(W, 2) == 1
    t = S.top[p] + (S.top_seat[p] * pos) // max(1, K - 1)
    return quality(W.hand[p], W.sv[p, Q_HB]) < t


# --------------------------------------------------------------------------- a turn

@njit(cache=True, nogil=True, inline="always", **NO_REFCOUNT)
def forced_take(R, S, W, p, log, i):
    """Line 100: the top discard fits ``p``'s melds and another active seat demands it.
    Returns True when ``p`` took it (and melded it)."""
    c = W.st[2]
    if c < 0 or not fitting(W, p, c):
        return False
    K = R.players
    for d in range(1, K):
        q = (p + d) % K
        if W.sv[q, Q_ACTIVE] and demands(R, S, W, q, p, c):
            put_event(log, i, W.st, 3, EV_DEMAND, q, p, IDX2CODE[c])
            put_event(log, i, W.st, 3, EV_TAKE, p, 0, IDX2CODE[c])
            W.st[2] = -1
            k = options_with(W.hand[p], W.md[p], W.op, W.sv[p, Q_FA], W.sv[p, Q_NMELD], c, True)
            o = rand(W, k) if S.kind[p] == K_RANDOM else best_option(R, W, p, k)
            apply_option(R, W, p, o, False, log, i)
            W.sv[p, Q_HB] = held_left(W.hand[p], W.sv[p, Q_HB], W.op[o, 0], W.op[o, 1], W.op[o, 2])
            return True
    return False


WINDOW = tuple(((31 << r) >> 2) & 1023 for r in range(10))   # pos r-2 .. r+2 of a suit, as bits


@njit(cache=True, nogil=True, **NO_REFCOUNT)
def near_bits(x):
    """The cards that share a meld with card ``x``: its rank's, and its suit's within two ranks,
    as bits of a 40-bit word (``x`` itself included)."""
    r = x % 10
    return (RANK_BITS << r) | (WINDOW[r] << (x // 10 * 10))


@njit(cache=True, nogil=True, **NO_REFCOUNT)
def may_meld_two(h, hb, c):
    """False when card ``c`` surely makes no new meld with two cards of hand ``h`` (``hb`` its
    cards as bits): a set needs two hand cards of its rank, a rope the two others of three in
    sequence of its suit (:func:`options_with`)."""
    r = c % 10
    if h[r] + h[10 + r] + h[20 + r] + h[30 + r] >= 2:
        return True
    w = ((hb >> (c - r)) & 1023) | (1 << r)     # its suit's cards held, and c
    return w & (w >> 1) & (w >> 2) & ((7 << r) >> 2) != 0   # a run of three from r - 2 .. r


@njit(cache=True, nogil=True, **NO_REFCOUNT)
def held_left(h, hb, a, b, c):
    """The hand's bits ``hb`` after cards ``a``, ``b``, ``c`` (-1: none) may have left hand ``h``."""
    for x in (a, b, c):
        if x >= 0 and h[x] == 0:
            hb &= ~(1 << x)
    return hb


@njit(cache=True, nogil=True, **NO_REFCOUNT)
def two_near(h, hb, x):
    """Does hand ``h`` (``hb`` its cards as bits) hold two cards (copies count) that share a
    meld with card ``x`` (:func:`near_bits`)?"""
    b = hb & near_bits(x)
    return b & (b - 1) != 0 or (b != 0 and h[lowest_code(b)] >= 2)


@njit(cache=True, nogil=True, **NO_REFCOUNT)
def may_borrow(hb, md, nmeld, c):
    """False when :func:`options_borrow` surely finds no borrow with the card drawn ``c`` (``hb``
    the hand's bits, ``md`` the seat's ``W.md`` rows): a borrowed card ``x`` comes from a meld of
    four or more (a rope's end, a set's card) and shares a meld with ``c`` (its rank, or its suit
    within two ranks), and the third card is a hand card that shares one with ``c``."""
    nb = near_bits(c)
    if hb & nb == 0:
        return False
    r, s = c % 10, c // 10
    for m in range(nmeld):
        if md[m, M_K] == ROPE:
            lo, hi = md[m, M_R], md[m, M_H]
            if hi - lo >= 3 and (lo == r or hi == r
                                 or (md[m, M_S] == s and (abs(lo - r) <= 2 or abs(hi - r) <= 2))):
                return True
            continue
        if md[m, M_C] + md[m, M_C + 1] + md[m, M_C + 2] + md[m, M_C + 3] < 4:
            continue
        if md[m, M_R] == r or (md[m, M_C + s] > 0 and abs(md[m, M_R] - r) <= 2):
            return True
    return False


@njit(cache=True, nogil=True, inline="always", **NO_REFCOUNT)
def draw(R, S, W, p, log, i):
    """The draw of a turn that had no forced take: the top discard, taken only to meld it at
    once (line 94), or the stock card.  Returns the stock card (melded later in the turn or
    discarded), -1 when the discard was taken and melded, -2 when the stock is empty and the
    discard not taken."""
    rnd = S.kind[p] == K_RANDOM
    c = W.st[2]
    k = 0
    if c >= 0:
        if fitting(W, p, c) or may_meld_two(W.hand[p], W.sv[p, Q_HB], c):
            k = options_with(W.hand[p], W.md[p], W.op, W.sv[p, Q_FA], W.sv[p, Q_NMELD], c,
                             R.layoff_only)
        if ((rnd or S.borrow[p] > 0) and not R.layoff_only and W.sv[p, Q_ML] >= 4
                and may_borrow(W.sv[p, Q_HB], W.md[p], W.sv[p, Q_NMELD], c)):
            k = options_borrow(R, W, p, c, k, not rnd)
    if k > 0 and (not rnd or rand(W, 2) == 1 or W.st[0] >= W.st[1]):
        put_event(log, i, W.st, 3, EV_TAKE, p, 0, IDX2CODE[c])
        W.st[2] = -1
        o = rand(W, k) if rnd else best_option(R, W, p, k)
        apply_option(R, W, p, o, False, log, i)
        W.sv[p, Q_HB] = held_left(W.hand[p], W.sv[p, Q_HB], W.op[o, 0], W.op[o, 1], W.op[o, 2])
        return -1
    c = draw_stock(W.stk, W.st, W.rs, W.stacked)
    if c < 0:
        return -2
    put_event(log, i, W.st, 3, EV_DRAW, p, 0, IDX2CODE[c])
    return c


@njit(cache=True, nogil=True, inline="always", **NO_REFCOUNT)
def meld_drawn(R, S, W, p, c, log, i):
    """The stock card ``c`` after the melds from hand: melded (True) or to be discarded."""
    k = 0
    if fitting(W, p, c) or may_meld_two(W.hand[p], W.sv[p, Q_HB], c):
        k = options_with(W.hand[p], W.md[p], W.op, W.sv[p, Q_FA], W.sv[p, Q_NMELD], c, False)
    if ((S.kind[p] == K_RANDOM or S.borrow[p] > 0) and W.sv[p, Q_ML] >= 4
            and may_borrow(W.sv[p, Q_HB], W.md[p], W.sv[p, Q_NMELD], c)):
        k = options_borrow(R, W, p, c, k, S.kind[p] != K_RANDOM)
    if S.kind[p] == K_RANDOM:
        o = rand(W, k + 1)
        if o == k:
            return False
    elif k > 0:
        o = best_option(R, W, p, k)
    else:
        return False
    apply_option(R, W, p, o, False, log, i)
    W.sv[p, Q_HB] = held_left(W.hand[p], W.sv[p, Q_HB], W.op[o, 0], W.op[o, 1], W.op[o, 2])
    return True


@njit(cache=True, nogil=True, **NO_REFCOUNT)
def may_borrow_hand(h, hb, md, nmeld):
    """False when :func:`options_borrow` surely finds no borrow with two hand cards (``hb`` the
    hand's bits): a card it may lend (a rope's end or a set's card, of a meld of four or more)
    needs two hand cards of its rank or of its suit within two ranks (the count it requires)."""
    for m in range(nmeld):
        r = md[m, M_R]
        if md[m, M_K] == ROPE:
            if md[m, M_H] - r >= 3 and (two_near(h, hb, md[m, M_S] * 10 + r)
                                        or two_near(h, hb, md[m, M_S] * 10 + md[m, M_H])):
                return True
            continue
        if md[m, M_C] + md[m, M_C + 1] + md[m, M_C + 2] + md[m, M_C + 3] < 4:
            continue
        for t in range(4):
            if md[m, M_C + t] > 0 and two_near(h, hb, t * 10 + r):
                return True
    return False


@njit(cache=True, nogil=True, **NO_REFCOUNT)
def phase_idle(h, md, sv, p, wide):
    """True when :func:`meld_phase` surely finds nothing for seat ``p`` (plain arrays: its hand
    row, its ``W.md`` rows, ``W.sv``; ``wide``: it may borrow and split): no hand card (or no
    new meld, ``Q_NS``, and no hand card that fits a meld), and no meld long enough to lend or
    split, or no two hand cards a card it may lend could meld with."""
    ml = sv[p, Q_ML]
    if wide and (ml >= 6 or (ml >= 4 and may_borrow_hand(h, sv[p, Q_HB], md, sv[p, Q_NMELD]))):
        return False
    return sv[p, Q_NH] == 0 or (sv[p, Q_NS] != 0 and sv[p, Q_FA] & sv[p, Q_HB] == 0)


@njit(cache=True, nogil=True, **NO_REFCOUNT)
def meld_phase(R, S, W, p, log, i):
    """Melds from hand until the strategy stops: the random player picks uniformly among its
    melds, additions, borrows, splits (line 99) and stopping; the baseline with ``borrow`` first
    makes the splits that pay, then borrows only where the lending meld keeps its condition.
    A phase that ended with nothing to do stays so (``Q_DONE``) until the seat's melds change:
    its hand only loses cards in between (a drawn card never stays, line 94).  The random
    player's draws are unchanged: it draws only when it has something to do."""
    if W.sv[p, Q_DONE]:
        return
    rnd = S.kind[p] == K_RANDOM
    bor = S.borrow[p] > 0 and not rnd
    moved = W.sc[8:12]
    while True:
        if bor and W.sv[p, Q_ML] >= 6:
            split_pays(R, W, p, log, i)
        if W.sv[p, Q_NH] == 0:
            W.sv[p, Q_DONE] = 1
            return
        k = 0
        if not W.sv[p, Q_NS] or W.sv[p, Q_FA] & W.sv[p, Q_HB] != 0:
            k = options_hand(W.hand[p], W.md[p], W.op, W.sv[p, Q_FA], W.sv[p, Q_NMELD])
            if k == 0:
                W.sv[p, Q_NS] = 1
        if ((bor or rnd) and W.sv[p, Q_ML] >= 4
                and may_borrow_hand(W.hand[p], W.sv[p, Q_HB], W.md[p], W.sv[p, Q_NMELD])):
            k = options_borrow(R, W, p, -1, k, not rnd)
        ns = nth_split(R, W, p, -1, moved)[0] if rnd and W.sv[p, Q_ML] >= 6 else 0
        if k + ns == 0:
            W.sv[p, Q_DONE] = 1
            return
        if rnd:
            o = rand(W, k + ns + 1)
            if o == k + ns:
                return
            if o >= k:
                _, m, cut = nth_split(R, W, p, o - k, moved)
                do_split(R, W, p, m, cut, moved, log, i)
                continue
        else:
            o = best_option(R, W, p, k)
        apply_option(R, W, p, o, True, log, i)
        W.sv[p, Q_HB] = held_left(W.hand[p], W.sv[p, Q_HB], W.op[o, 0], W.op[o, 1], W.op[o, 2])


@njit(cache=True, nogil=True, inline="always", **NO_REFCOUNT)
def turn(R, S, W, p, log, i):
    """Seat ``p`` plays a turn: 1 when it wins, -1 when the stock is out, 0 otherwise.  The
    card drawn is never kept (line 94): a taken discard is melded at once; a stock card is
    melded after the melds from hand (then the hand may meld again) or discarded."""
    left = -1
    if not forced_take(R, S, W, p, log, i):
        left = draw(R, S, W, p, log, i)
        if left == -2:
            put_event(log, i, W.st, 3, EV_END, p, 0, 0)
            return -1
    wide = S.kind[p] == K_RANDOM or S.borrow[p] > 0
    if not W.sv[p, Q_DONE]:              # (meld_phase returns at once when done)
        if phase_idle(W.hand[p], W.md[p], W.sv, p, wide):
            W.sv[p, Q_DONE] = 1
        else:
            meld_phase(R, S, W, p, log, i)
    if left >= 0 and meld_drawn(R, S, W, p, left, log, i):
        left = -1
        if not W.sv[p, Q_DONE]:
            if phase_idle(W.hand[p], W.md[p], W.sv, p, wide):
                W.sv[p, Q_DONE] = 1
            else:
                meld_phase(R, S, W, p, log, i)
    if left < 0:
        if W.sv[p, Q_NH] == 0:
            put_event(log, i, W.st, 3, EV_OUT, p, 0, 0)
            return 1
        left = random_discard(W, p) if S.kind[p] == K_RANDOM else baseline_discard(R, S, W, p)
        W.hand[p, left] -= 1
        W.sv[p, Q_NH] -= 1
        if W.hand[p, left] == 0:
            W.sv[p, Q_HB] &= ~(1 << left)
    W.st[2] = left
    put_event(log, i, W.st, 3, EV_DISCARD, p, 0, IDX2CODE[left])
    return 0


# --------------------------------------------------------------------------- a deal

@njit(cache=True, nogil=True, **NO_REFCOUNT)
def deal(R, W, e, log, i, logging, b):
    """Ten cards to each seat in fives from the eldest ``e`` (line 92), then the upcard; logged
    from column ``b`` of row ``i``."""
    K = R.players
    reset_stock(W.stk, W.st, W.deck)
    W.st[4], W.st[5] = 0, 0
    for p in range(K):
        for c in range(NT):
            W.hand[p, c] = 0
        W.sv[p, Q_NH], W.sv[p, Q_NM], W.sv[p, Q_NMELD], W.sv[p, Q_DONE], W.sv[p, Q_FA] = N_HAND, 0, 0, 0, 0
        W.sv[p, Q_ML], W.sv[p, Q_NS], W.sv[p, Q_HB] = 0, 0, 0
        W.sv[p, Q_ACTIVE], W.sv[p, Q_CHIPS], W.sv[p, Q_CU], W.sv[p, Q_CB], W.sv[p, Q_COND] = 1, 0, 0, 0, 0
    n, s, stacked = W.st[1], W.rs[0], W.stacked     # (the pack holds more than N_HAND * K cards)
    for j in range(N_HAND * K):                     # draw_stock's steps, the stream kept local
        c, s = deal_step(W.stk, j, n, s, stacked)
        q = (e + j // 5) % K
        W.hand[q, c] += 1
        W.sv[q, Q_HB] |= 1 << c
        if logging:
            log[i, b + NHEAD + j] = IDX2CODE[c]
    W.st[2], W.rs[0] = deal_step(W.stk, N_HAND * K, n, s, stacked)
    W.st[0] = N_HAND * K + 1
    if logging:
        log[i, b] = (e + K - 1) % K
        log[i, b + NHEAD + N_HAND * K] = IDX2CODE[W.st[2]]
        W.st[3] = b + NHEAD + N_HAND * K + 1


@njit(cache=True, nogil=True, **NO_REFCOUNT)
def go_on_top(R, S, W, e, log, i):
    """Line 93: each seat from the eldest ``e`` stays or pays the forfeit and drops (the last
    one stays when nobody else does).  Returns the number of active seats."""
    K = R.players
    na = K
    for d in range(K):
        p = (e + d) % K
        top = 0
        if not (d == K - 1 and na == 1):
            top = 1 if goes_on_top(S, W, p, d, K) else 0
        put_event(log, i, W.st, 3, EV_TOP, p, top, 0)
        if top:
            W.sv[p, Q_ACTIVE] = 0
            W.sv[p, Q_CHIPS] -= R.forfeit
            W.st[5] += R.forfeit
            na -= 1
    return na


@njit(cache=True, nogil=True, **NO_REFCOUNT)
def settle(R, W, w):
    """Line 101: the winner collects his conditions again and ``win_pp`` from each active
    player, and the forfeits; with no winner (``w`` -1) the forfeits go back (``stock_end``)."""
    K = R.players
    if w < 0:
        for p in range(K):
            if R.void:
                W.sv[p, Q_CHIPS] = 0
            elif not W.sv[p, Q_ACTIVE]:
                W.sv[p, Q_CHIPS] += R.forfeit
        return
    again = W.sv[w, Q_CB] if R.base_again else W.sv[w, Q_CU]
    for q in range(K):
        if q != w and W.sv[q, Q_ACTIVE]:
            W.sv[q, Q_CHIPS] -= again + R.win_pp
            W.sv[w, Q_CHIPS] += again + R.win_pp
    W.sv[w, Q_CHIPS] += W.st[5]


@njit(cache=True, nogil=True, **NO_REFCOUNT)
def play_one(R, S, W, e, lg, i, logging, b):
    """One deal with eldest ``e`` (logged from column ``b``): returns ``(winner or -1, turns)``;
    chips in ``W.sv[:, Q_CHIPS]``."""
    K = R.players
    deal(R, W, e, lg, i, logging, b)
    na = go_on_top(R, S, W, e, lg, i)
    w = -1
    t = 0
    p = next_active(W, (e + K - 1) % K)
    if na == 1:
        w = p
        put_event(lg, i, W.st, 3, EV_OUT, w, 0, 0)
    else:
        while True:
            if t >= R.max_turns:
                put_event(lg, i, W.st, 3, EV_END, p, 0, 0)
                break
            t += 1
            r = turn(R, S, W, p, lg, i)
            if r == 1:
                w = p
                break
            if r < 0:
                break
            p = next_active(W, p)
    settle(R, W, w)
    return w, t


@njit(cache=True, nogil=True, **NO_REFCOUNT)
def play_deal(R, S, W, i, key, ukey, v, log):
    """One unit: a deal (p1 eldest), or a session of ``R.deals`` deals, the eldest of each
    the last one's winner (``next_eldest=winner``; after a deal with no winner, or with
    ``rotate``, the next seat)."""
    K = R.players
    logging = log.shape[0] > 0
    if logging:
        for q in range(log.shape[1]):
            log[i, q] = -1
    W.rs[0], W.rs[1] = key, ukey
    lg = log if logging else log[:0]
    if not R.session:
        w, t = play_one(R, S, W, 0, lg, i, logging, 0)
        for q in range(K):
            v[NS * q + SM.chips] = W.sv[q, Q_CHIPS]
            v[NS * q + SM.win] = 1.0 if q == w else 0.0
            v[NS * q + SM.top] = 1.0 - W.sv[q, Q_ACTIVE]
            v[NS * q + SM.conditions] = W.sv[q, Q_COND]
            v[NS * q + SM.melded] = W.sv[q, Q_NM]
        v[NS * K] = t
        v[NS * K + 1] = 1.0 if w < 0 else 0.0
        if logging:
            log[i, 1] = W.st[3] - (NHEAD + N_HAND * K + 1)
        return W.deck.shape[0]
    e = 0
    b, on, logged = NHEAD_S, logging, 0
    for d in range(R.deals):
        on = on and b + NHEAD + N_HAND * K + 1 < log.shape[1]
        w, t = play_one(R, S, W, e, lg if on else lg[:0], i, on, b)
        if on:
            b, on = session_block(log, i, W.st, b, K)
            logged += 1 if on else 0
        for q in range(K):
            v[NSS * q + SS.chips] += W.sv[q, Q_CHIPS]
            v[NSS * q + SS.wins] += 1.0 if q == w else 0.0
            v[NSS * q + SS.tops] += 1.0 - W.sv[q, Q_ACTIVE]
            v[NSS * q + SS.conditions] += W.sv[q, Q_COND]
        v[NSS * K] += t
        v[NSS * K + 1] += 1.0 if w < 0 else 0.0
        e = w if (w >= 0 and not R.rotate) else (e + 1) % K
    if logging:
        log[i, 0], log[i, 1] = R.deals, logged
    return W.deck.shape[0] * R.deals


@njit(cache=True, nogil=True, **NO_REFCOUNT)
def session_block(log, i, st, b, K):
    """A session's deal just logged from column ``b``: ``(next block's column, True)`` when it
    fit in the row (its number of events written), else ``(b, False)`` with the partial block
    cleared (a deal that fills the row to its end may have lost events)."""
    end = st[3]
    if end >= log.shape[1]:
        for q in range(b, log.shape[1]):
            log[i, q] = -1
        return b, False
    log[i, b + 1] = end - (b + NHEAD + N_HAND * K + 1)
    return end, True


@njit(cache=True, nogil=True)
def run_deals(R, S, W, state, n, acc, rows, log):
    return deal_loop(play_deal, SALT, R, S, W, state, n, acc, rows, log)
