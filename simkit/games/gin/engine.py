"""Gin rummy kernels: one hand (:func:`play_hand`), a game to 100 (:func:`play_match`), one deal
(:func:`play_deal`) on the core deal loop (:func:`run_deals`).

A hand's cards come from a partial Fisher-Yates shuffle driven by a splitmix64 sequence started
at the hand's key, one bounded draw per card as it is needed, so the k-th card off the deck is
the same whoever plays: both seat orders of a swapped deal, and every grid point, see the same
cards (common random numbers).  Strategies' coin flips use a second sequence (``key ^ SALT``).
Cards are bits of the :mod:`~simkit.engines.melds.onedeck` representation.

Seats: seat 0 and seat 1; strategy ``q ^ flip`` sits in seat ``q``.  In ``unit=hand`` seat 1
deals; with ``swap`` the deal is played again with ``flip = 1``.

The kernel's records: the rules as :class:`KernelRules` (:func:`kernel_rules`), the seats'
strategies as the house's record of per-seat arrays
:class:`~simkit.games.gin.strategies.Seats` (read once per deal, :func:`play_deal`, into a pair
``P`` of scalar :class:`~simkit.games.gin.strategies.Policy` records that the per-move helpers
take by value: no reference counts, ``simkit.core.jit`` rule 2), and :class:`Work` (the deck order a hand is shuffled from, its scratch, the match's
hand sums).  Metric slots are :data:`H` and :data:`G`, made from the metric lists themselves.

Move log (``unit=hand``; :func:`log_columns`): the house's events (:mod:`simkit.engines.moves`:
``kind << 20 | seat << 16 | aux << 8 | card``, kinds :data:`KINDS`, seats the kernel's), one
block of :func:`hand_width` per hand of the deal (the second, with ``swap``, the same cards with
the strategies' seats exchanged), padded with -1: ``HAND`` (seat: the dealer, aux: the flip),
per turn ``STOCK`` or ``PILE`` (the seat, the card drawn) then ``DISCARD`` or ``KNOCK`` (the
card discarded), and ``END`` (seat: the knocker, 0 for a dead hand; aux: the outcome), followed
by ``SCORE`` when someone scores (seat: the winner, aux and card: the points' high and low
bytes).  A hand's turns are its turn events (every turn is logged: a hand stops at
``max_turns``).  :func:`simkit.games.gin.replay.hand_events` reads a block back.
"""
from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from simkit.core.bits import popcount
from simkit.core.deals import deal_loop
from simkit.core.records import record, seat_slot, slots
from simkit.core.registry import Metric
from simkit.core.rng import bounded, deal_step, splitmix, uniform
from simkit.engines.moves import put_next
from simkit.engines.melds.onedeck import (
    ONES,
    U0,
    U1,
    _low_index,
    best_discard,
    card_value,
    knock_block,
    knock_result,
    min_deadwood,
)
from simkit.games.gin.strategies import RANDOM, Policy

SALT = np.uint64(0x6A09E667F3BCC909)
DECK = np.array([s * 16 + r for s in range(4) for r in range(13)], np.int64)  # bit indices
FULL = np.uint64(sum(1 << int(i) for i in DECK))

# hand outcomes
DEAD, KNOCK, UNDERCUT, GIN = 0, 1, 2, 3
OUTCOMES = {DEAD: "dead", KNOCK: "knock", UNDERCUT: "undercut", GIN: "gin"}
# where a turn's card comes from
STOCK, PILE = 0, 1
# move-log event kinds (simkit.engines.moves); a kind's code is its index + 1
KINDS = ["HAND", "STOCK", "PILE", "DISCARD", "KNOCK", "END", "SCORE"]
E_HAND, E_STOCK, E_PILE, E_DISCARD, E_KNOCK, E_END, E_SCORE = range(1, 8)

HAND_METRICS = [
    Metric("p1_points", False, "p1's points minus p2's, per hand", net=True),
    Metric("p1_win", True, "p1 scores the hand"),
    Metric("p2_win", True, "p2 scores the hand"),
    Metric("dead", True, "the hand is a draw (stock down to dead_stock, or max_turns reached)"),
    Metric("gin", True, "the hand ends in gin"),
    Metric("knock", True, "the hand ends in a knock short of gin"),
    Metric("undercut", True, "the knocker is undercut"),
    Metric("p1_gin", True, "p1 goes gin"),
    Metric("p2_gin", True, "p2 goes gin"),
    Metric("p1_knock", True, "p1 knocks short of gin"),
    Metric("p2_knock", True, "p2 knocks short of gin"),
    Metric("p1_undercut", True, "p1 knocks and is undercut"),
    Metric("p2_undercut", True, "p2 knocks and is undercut"),
    Metric("turns", False, "cards drawn in the hand, both players"),
]
MATCH_METRICS = [
    Metric("p1_match_win", True, "p1 wins the game"),
    Metric("p2_match_win", True, "p2 wins the game"),
    Metric("p1_match_net", False, "p1's net result of the game (winner's total minus loser's)",
           net=True),
    Metric("p1_shutout", True, "p1 wins by a shutout"),
    Metric("p2_shutout", True, "p2 wins by a shutout"),
    Metric("hands", False, "hands per game, draws included"),
    Metric("unfinished", True, "the game reached max_hands"),
    Metric("_hands", False, "hands in the deal (both seat orders): the ratios' denominator"),
]
NH, NM = len(HAND_METRICS), len(MATCH_METRICS)
# slots: a seat's p2_ slot follows its p1_ slot (p1_win, p2_win; ...): seat_slot(H.p1_win, 1, seat)
H = slots(m.name for m in HAND_METRICS)
G = slots("all" + m.name if m.name.startswith("_") else m.name for m in MATCH_METRICS)
# unit=match vector: the match metrics, then per hand metric its ratio, sum and cross columns
RATIO0, SUM0, CROSS0 = NM, NM + NH, NM + 2 * NH


UNITS = {"p1_points": "points per hand (p1's minus p2's)", "turns": "cards drawn per hand",
         "p1_match_net": "points per game (p1's net)", "hands": "hands per game",
         "_hands": "hands per deal"}


def _unit(m, per: str) -> str:
    return f"share of {per}s (0..1)" if m.binary else UNITS.get(m.name, f"per {per}")


def metrics(rules) -> list[Metric]:
    swap = rules.swap
    if rules.unit == "hand":
        return [Metric(m.name, m.binary and not swap, m.doc, unit=_unit(m, "hand"), net=m.net)
                for m in HAND_METRICS]
    out = [Metric(m.name, m.binary and not swap, m.doc, unit=_unit(m, "game"), net=m.net)
           for m in MATCH_METRICS]
    for m in HAND_METRICS:
        out.append(Metric(m.name, False, m.doc + " (per hand)",
                          ratio=(f"_sum_{m.name}", "_hands", f"_cross_{m.name}"),
                          unit=_unit(m, "hand"), net=m.net))
    out += [Metric(f"_sum_{m.name}", False) for m in HAND_METRICS]
    out += [Metric(f"_cross_{m.name}", False) for m in HAND_METRICS]
    return out


def hand_width(max_turns) -> int:
    """A hand's block of the move log: ``HAND``, two events a turn, ``END`` and ``SCORE``."""
    return 1 + 2 * max_turns + 2


def log_columns(rules):
    """A deal's move-log columns (``unit=hand``; whole games keep no move log): ``h1_e0`` ..,
    and ``h2_e0`` .. with ``swap``."""
    if rules.unit != "hand":
        return None
    return [f"h{h + 1}_e{j}" for h in range(2 if rules.swap else 1)
            for j in range(hand_width(rules.max_turns))]


class KernelRules(NamedTuple):
    """The rules as the kernel reads them (see :class:`~simkit.games.gin.rules.GinRules`)."""
    knock_limit: int
    gin_bonus: int
    undercut_bonus: int
    undercut_on_equal: bool
    dead_stock: int
    discard_taken: bool
    max_turns: int
    target: int
    game_bonus: int
    box_bonus: int
    shutout: bool
    shutout_boxes: bool
    max_hands: int
    swap: bool
    match: bool          # unit == "match": a deal is a whole game to target


class Work(NamedTuple):
    """The deck order a hand is shuffled from (a stacked deck's cards first, dealt in that order
    when ``stacked``), the shuffle's permutation and a game's hand-metric sums."""
    order: np.ndarray    # int64[52] bit indices
    perm: np.ndarray     # int64[52]
    stacked: bool
    hv: np.ndarray       # float64[NH]


def kernel_rules(rules) -> KernelRules:
    return record(KernelRules, knock_limit=rules.knock_limit, gin_bonus=rules.gin_bonus,
                  undercut_bonus=rules.undercut_bonus, undercut_on_equal=rules.undercut_on_equal,
                  dead_stock=rules.dead_stock, discard_taken=rules.discard_taken,
                  max_turns=rules.max_turns, target=rules.target, game_bonus=rules.game_bonus,
                  box_bonus=rules.box_bonus, shutout=rules.shutout,
                  shutout_boxes=rules.shutout_boxes, max_hands=rules.max_hands, swap=rules.swap,
                  match=rules.unit == "match")


def work(order=None) -> Work:
    """Work buffers; ``order``: the bit indices of a stacked deck (dealt first, in order)."""
    stacked = order is not None
    return record(Work, order=DECK.copy() if order is None else np.asarray(order, np.int64),
                  perm=np.zeros(52, np.int64), stacked=stacked, hv=np.zeros(NH))


# ---- the players' decisions --------------------------------------------------------------------

@njit(cache=True, nogil=True)
def stock_frac(k, dead):
    """The fraction of the playable stock left when ``k`` cards are off the deck."""
    return (52 - k - dead) / (31.0 - dead) if dead < 31 else 0.0


@njit(cache=True, nogil=True)
def knock_level(p, frac):
    """Policy ``p``'s knock threshold when a fraction ``frac`` of the playable stock is left."""
    frac = min(max(frac, 0.0), 1.0)
    return p.late + (p.early - p.late) * frac + 1e-9


@njit(cache=True, nogil=True)
def wants_pile(p, h, top, taken_ok, limit, frac, u):
    """Whether policy ``p`` takes the pile's ``top`` card into hand ``h``:
    ``(take, d, card, u)`` where ``(d, card)`` is the best discard after taking it (``d = -1``
    when not computed), which :func:`after_draw` then need not compute again."""
    if p.kind == RANDOM:
        x, u = uniform(u)
        return x < p.take, np.int64(-1), U0, u
    d, card = best_discard(h | top, U0 if taken_ok else top)
    if p.greedy:
        return d < min_deadwood(h), d, card, u
    # only a card that joins a meld of the best 11-card arrangement, or one that lets it knock
    joins = min_deadwood(h | top) < min_deadwood(h) + card_value(top)
    return joins or d <= min(limit, knock_level(p, frac)), d, card, u


@njit(cache=True, nogil=True)
def danger(b, own, known, gone):
    """How useful card ``b`` could be to the opponent: live sets and runs for it among the
    unseen cards, plus 4 per card he is known to hold of its rank or next to it in its suit."""
    i = _low_index(b)
    r = i % 16
    unseen = FULL & ~own & ~gone
    col = ONES << np.uint64(r)
    live = np.int64(popcount(unseen & col) >= 2)
    near = U0
    for o in (-2, -1, 1, 2):
        if 0 <= r + o <= 12:
            near |= (b << np.uint64(o)) if o > 0 else (b >> np.uint64(-o))
    for a, c in ((-2, -1), (-1, 1), (1, 2)):
        if 0 <= r + a <= 12 and 0 <= r + c <= 12:
            ba = (b << np.uint64(a)) if a > 0 else (b >> np.uint64(-a))
            bc = (b << np.uint64(c)) if c > 0 else (b >> np.uint64(-c))
            live += (unseen & ba) != U0 and (unseen & bc) != U0
    return live + 4 * popcount(known & ((col & ~b) | near))


@njit(cache=True, nogil=True)
def random_discard(h, forbid, u):
    """A uniformly random card of ``h`` other than ``forbid``: ``(bit, u)``."""
    x = h & ~forbid
    j, u = bounded(u, popcount(x))
    for _ in range(j):
        x &= x - U1
    return x & (~x + U1), u


@njit(cache=True, nogil=True)
def deadest_discard(h, forbid, card, dmin, slack, known, gone):
    """Among discards leaving at most ``dmin + slack``, the one of least :func:`danger` (ties:
    the highest value); ``card`` (the least-deadwood discard) when none is less dangerous."""
    best, bd, bv = card, np.int64(1 << 30), np.int64(-1)
    x = h & ~forbid
    while x != U0:
        b = x & (~x + U1)
        x ^= b
        if min_deadwood(h ^ b) <= dmin + slack:
            dg = danger(b, h, known, gone)
            v = card_value(b)
            if dg < bd or (dg == bd and v > bv):
                best, bd, bv = b, dg, v
    return best


# 12 parameters: the policy and the hand's scalars (uint64 masks, counts); no array, nothing to pack
@njit(cache=True, nogil=True)
def after_draw(p, h, forbid, pre_d, pre_card, limit, dead, stock, opp_picks, known, gone, u):
    """Policy ``p``'s move with 11 cards ``h``: ``(knock, discard bit, u)``.  ``(pre_d,
    pre_card)`` is the best discard when already known (``pre_d = -1``: not known)."""
    dmin, card = (pre_d, pre_card) if pre_d >= 0 else best_discard(h, forbid)
    if p.kind == RANDOM:
        x, u = uniform(u)
        if dmin <= limit and x < p.chance:
            return True, card, u
        b, u = random_discard(h, forbid, u)
        return False, b, u
    ok = dmin <= limit and dmin <= knock_level(p, stock_frac(52 - stock, dead))
    if ok and p.picks > 0 and opp_picks >= p.picks and dmin > p.guard:
        ok = False
    if ok:
        return True, card, u
    if not p.track:
        return False, card, u
    return False, deadest_discard(h, forbid, card, dmin, p.slack, known, gone), u


# ---- one hand ----------------------------------------------------------------------------------

@njit(cache=True, nogil=True)
def next_card(perm, k, s, stacked):
    """The ``k``-th card off the deck, as a bit: one step of a Fisher-Yates shuffle of ``perm``
    driven by the splitmix state ``s`` (or ``perm``'s own order when ``stacked``): ``(bit, s)``."""
    c, s = deal_step(perm, k, 52, s, stacked)
    return U1 << np.uint64(c), s


@njit(cache=True, nogil=True)
def deal(perm, order, stacked, hands, dealer, s):
    """Ten cards each, one at a time from the non-dealer, then the upcard: ``(upcard, s)``."""
    for i in range(52):
        perm[i] = order[i]
    nd = 1 - dealer
    top = U0
    for k in range(21):
        b, s = next_card(perm, k, s, stacked)
        if k == 20:
            top = b
        else:
            hands[nd if k % 2 == 0 else dealer] |= b
    return top, s


@njit(cache=True, nogil=True)
def first_upcard(P, flip, hands, dealer, top, taken_ok, limit, frac, u):
    """The first upcard (line 9): the non-dealer may take it, else the dealer, else the
    non-dealer draws from the stock.  ``(take, seat to play, d, card, u)`` as :func:`wants_pile`."""
    q = 1 - dealer
    take, pd, pc, u = wants_pile(P[q ^ flip], hands[q], top, taken_ok, limit, frac, u)
    if not take:
        q = dealer
        take, pd, pc, u = wants_pile(P[q ^ flip], hands[q], top, taken_ok, limit, frac, u)
        if not take:
            q = 1 - dealer
    return take, q, pd, pc, u


@njit(cache=True, nogil=True)
def lay_down(R, p, k, d):
    """The knocker's melds (policy ``p``, cards ``k``) against the defender's ``d``, layoffs
    included (line 11): ``(knocker deadwood, defender deadwood)``."""
    if p.block:
        dk, dd, _, _ = knock_block(k, d, R.knock_limit, R.gin_bonus, R.undercut_bonus,
                                   R.undercut_on_equal)
    else:
        dk, dd, _, _ = knock_result(k, d)
    return dk, dd


@njit(cache=True, nogil=True)
def settle(R, q, dk, dd):
    """The knock of seat ``q`` with deadwood ``dk`` against ``dd`` (after layoffs), lines 12-14:
    ``(outcome, winner seat, points)``; the winner is -1 for equal deadwood when that is no
    undercut (nobody scores)."""
    if dk == 0:
        return GIN, q, R.gin_bonus + dd
    if dd < dk or (dd == dk and R.undercut_on_equal):
        return UNDERCUT, 1 - q, dk - dd + R.undercut_bonus
    return KNOCK, (q if dd > dk else -1), dd - dk


@njit(cache=True, nogil=True)
def code_of(b):
    """The simkit card code of the single card ``b`` (ace 14), for the move log."""
    i = _low_index(b)
    r = i % 16
    return (i - r) + (14 if r == 0 else r + 1)


@njit(cache=True, nogil=True)
def log_turn(log, i, lp, q, take, drawn, d, knock):
    """A turn's two events at position ``lp`` of row ``i``: the draw, the discard."""
    lp = put_next(log, i, lp, E_PILE if take else E_STOCK, q, 0, code_of(drawn))
    put_next(log, i, lp, E_KNOCK if knock else E_DISCARD, q, 0, code_of(d))


@njit(cache=True, nogil=True)
def log_hand(log, i, base, turns, outcome, knocker, winner, points):
    """A hand's ``END`` and, when someone scores, ``SCORE`` after its ``turns`` turns' events."""
    lp = put_next(log, i, base + 1 + 2 * turns, E_END, max(knocker, 0), outcome, 0)
    if winner >= 0:
        put_next(log, i, lp, E_SCORE, winner, points >> 8, points & 255)


# 11 parameters: the records and the work arrays taken out of W once per match (no reference
# counts per hand), the hand's seats and key
@njit(cache=True, nogil=True)
def play_hand(R, P, perm, order, stacked, flip, dealer, key, log, i, base):
    """One hand; returns ``(outcome, knocker seat, winner seat, points, turns, cards)``, the
    winner -1 for a draw and for equal deadwood when that is no undercut (nobody scores);
    ``cards``: the cards taken off the deck.

    ``P[q ^ flip]`` is the strategy in seat ``q``; ``perm`` the shuffle's scratch (the work
    buffers' arrays come as plain arguments: no reference counting per card); with
    ``stacked`` the cards come in ``order`` (non-dealer first, one at a time, then the upcard,
    then the stock).  When ``log`` has rows, the turns go into row ``i`` from column ``base``."""
    s = key
    u = key ^ SALT
    hands = np.zeros(2, np.uint64)
    known = np.zeros(2, np.uint64)   # cards each took from the pile and still holds
    picks = np.zeros(2, np.int64)
    top, s = deal(perm, order, stacked, hands, dealer, s)
    nd = 1 - dealer
    k = 21
    gone = U0
    limit, dead, taken_ok = R.knock_limit, R.dead_stock, R.discard_taken
    logging = log.shape[0] > 0
    turns = 0
    q = nd
    opening = True     # the upcard: the non-dealer may take it, else the dealer, else stock
    while True:
        frac = stock_frac(k, dead)
        if opening:
            opening = False
            take, q, pd, pc, u = first_upcard(P, flip, hands, dealer, top, taken_ok, limit,
                                              frac, u)
        else:
            if 52 - k <= dead or turns >= R.max_turns:
                return DEAD, -1, -1, 0, turns, k
            take, pd, pc, u = wants_pile(P[q ^ flip], hands[q], top, taken_ok, limit, frac, u)
        if take:
            drawn = top
            top = U0
            forbid = U0 if taken_ok else drawn
            known[q] |= drawn
            picks[q] += 1
        else:
            drawn, s = next_card(perm, k, s, stacked)
            k += 1
            forbid = U0
            pd = -1
        h = hands[q] | drawn
        knock, d, u = after_draw(P[q ^ flip], h, forbid, pd, pc, limit, dead, 52 - k,
                                 picks[1 - q], known[1 - q], gone, u)
        hands[q] = h ^ d
        known[q] &= ~d
        if logging and turns < R.max_turns:
            log_turn(log, i, base + 1 + 2 * turns, q, take, drawn, d, knock)
        turns += 1
        if knock:
            dk, dd = lay_down(R, P[q ^ flip], hands[q], hands[1 - q])
            outcome, winner, pts = settle(R, q, dk, dd)
            return outcome, q, winner, pts, turns, k
        if top != U0:
            gone |= top
        top = d
        q = 1 - q


@njit(cache=True, nogil=True)
def hand_metrics(v, w, outcome, knocker, winner, points, turns, flip):
    """Add one hand's metrics, weight ``w``, to ``v`` (strategy ``q ^ flip`` sits in seat q)."""
    v[H.turns] += w * turns
    if outcome == DEAD:
        v[H.dead] += w
        return
    ks = knocker ^ flip                  # the knocker's strategy index (0: p1)
    if winner >= 0:
        ws = winner ^ flip
        v[H.p1_points] += w * (points if ws == 0 else -points)
        v[seat_slot(H.p1_win, 1, ws)] += w
    if outcome == GIN:
        v[H.gin] += w
        v[seat_slot(H.p1_gin, 1, ks)] += w
    else:
        v[H.knock] += w
        v[seat_slot(H.p1_knock, 1, ks)] += w
        if outcome == UNDERCUT:
            v[H.undercut] += w
            v[seat_slot(H.p1_undercut, 1, ks)] += w


# ---- a game to target --------------------------------------------------------------------------

@njit(cache=True, nogil=True)
def match_totals(R, score_w, score_l, wins_w, wins_l):
    """The winner's and loser's game totals (line 15-16): points, game bonus, boxes, shutout."""
    tw = score_w + R.game_bonus
    bw = R.box_bonus * wins_w
    shut = R.shutout and wins_l == 0
    if shut:
        tw *= 2
        if R.shutout_boxes:
            bw *= 2
    return tw + bw, score_l + R.box_bonus * wins_l, shut


# 11 parameters: as play_hand's, the work arrays out of W once, and the match's sums and weight
@njit(cache=True, nogil=True)
def play_match(R, P, perm, order, stacked, hv, flip, key, v, w, log):
    """One game to ``target``; adds its hand metrics (sums) to ``hv`` and match metrics to ``v``,
    with weight ``w``.  Returns ``(hands, cards)``."""
    s = key
    x, s = splitmix(s)
    dealer = np.int64(x & U1)
    score = np.zeros(2, np.int64)
    wins = np.zeros(2, np.int64)
    nh = 0
    cards = 0
    for _ in range(R.max_hands):
        hk, s = splitmix(s)
        o, kn, wn, pts, turns, k = play_hand(R, P, perm, order, stacked, flip, dealer, hk, log,
                                             0, 0)
        hand_metrics(hv, 1.0, o, kn, wn, pts, turns, flip)
        nh += 1
        cards += k
        if wn >= 0:
            score[wn] += pts
            wins[wn] += 1
            dealer = wn
            if score[wn] >= R.target:
                tw, tl, shut = match_totals(R, score[wn], score[1 - wn], wins[wn], wins[1 - wn])
                ws = wn ^ flip
                v[seat_slot(G.p1_match_win, 1, ws)] += w
                v[G.p1_match_net] += w * (tw - tl if ws == 0 else tl - tw)
                if shut:
                    v[seat_slot(G.p1_shutout, 1, ws)] += w
                v[G.hands] += w * nh
                return nh, cards
    v[G.hands] += w * nh
    v[G.unfinished] += w
    return nh, cards


# ---- one deal ----------------------------------------------------------------------------------

@njit(cache=True, nogil=True)
def play_hands(R, P, W, key, v, log, i):
    """``unit=hand``: the deal's hand (seat 1 deals), and again with the seats swapped."""
    nflip = 2 if R.swap else 1
    w = 0.5 if R.swap else 1.0
    width = log.shape[1] // nflip
    cards = 0
    for flip in range(nflip):
        base = flip * width
        put_next(log, i, base, E_HAND, 1, flip, 0)
        o, kn, wn, pts, turns, k = play_hand(R, P, W.perm, W.order, W.stacked, flip, 1, key,
                                             log, i, base)
        hand_metrics(v, w, o, kn, wn, pts, turns, flip)
        cards += k
        log_hand(log, i, base, turns, o, kn, wn, pts)
    return cards


@njit(cache=True, nogil=True)
def play_games(R, P, W, key, v):
    """``unit=match``: a game on the deal's key, and again with the seats swapped; the hand
    metrics per hand of the deal's games, with their sums and cross terms for the ratios."""
    nflip = 2 if R.swap else 1
    w = 0.5 if R.swap else 1.0
    for j in range(NH):
        W.hv[j] = 0.0
    hands = 0
    cards = 0
    nolog = np.zeros((0, 1), np.int64)
    for flip in range(nflip):
        nh, k = play_match(R, P, W.perm, W.order, W.stacked, W.hv, flip, key, v, w, nolog)
        hands += nh
        cards += k
    v[G.all_hands] = hands
    for j in range(NH):
        v[RATIO0 + j] = W.hv[j] / hands
        v[SUM0 + j] = W.hv[j]
        v[CROSS0 + j] = W.hv[j] * hands
    return cards


@njit(cache=True, nogil=True)
def policy(S, k):
    """Seat ``k``'s strategy off the :class:`~simkit.games.gin.strategies.Seats` record, as the
    scalar :class:`~simkit.games.gin.strategies.Policy` the per-move helpers read."""
    return Policy(S.kind[k], S.early[k], S.late[k], S.greedy[k], S.track[k], S.slack[k],
                  S.picks[k], S.guard[k], S.take[k], S.chance[k], S.block[k])


@njit(cache=True, nogil=True)
def play_deal(R, S, W, i, key, ukey, v, log):
    """Deal ``i``: hands or whole games (per ``R.match``) from ``key``; the strategies' coin flips
    come from each hand's own ``hand key ^ SALT`` (``ukey`` for a single hand).  Returns the
    cards taken off the deck.  The seats' policies are read off ``S`` here, once per deal, into
    a pair of scalar records (``P[q ^ flip]`` the strategy in seat ``q``)."""
    P = (policy(S, 0), policy(S, 1))
    if log.shape[0] > 0:
        for c in range(log.shape[1]):
            log[i, c] = -1
    if R.match:
        return play_games(R, P, W, key, v)
    return play_hands(R, P, W, key, v, log, i)


@njit(cache=True, nogil=True)
def run_deals(R, S, W, state, n, acc, rows, log):
    """``n`` deals on the core deal loop (see :mod:`simkit.core.deals`)."""
    return deal_loop(play_deal, SALT, R, S, W, state, n, acc, rows, log)
