"""Hearts kernels: deal, pass and play hands (or whole games) from an RNG stream.

Cards use :mod:`simkit.core.cards`' codes; the Cancellation joker, "the zero of clubs" (text line
232), is code 0 (clubs, rank 0), so it follows clubs, loses to every club and is the lowest club.
A hand is two ``uint64`` masks, the cards held at least once (``h1``) and twice (``h2``, two decks
only); following suit comes from :func:`simkit.engines.tricks.legal_moves` on ``h1``, and the
Hearts restrictions (the lowest club leads, no points on the first trick, hearts broken) are
intersected here.

Each deal takes one key from the chunk's xoshiro stream; the cards (and, with ``passing=random``,
the pass direction) come from a splitmix64 sequence started at the key, the strategies' choices
from a second one started at ``key ^ STRAT_SALT``.  The dealt cards are a partial Fisher-Yates
shuffle of the pack's positions (:func:`simkit.core.rng.shuffle_prefix`, six draws per 64-bit
output), one deck or two alike.

Metric layout (:func:`metrics`): ``unit=hand``: per seat ``pK_points_per_hand``, ``pK_zero``
(the hand scored 0) and ``pK_moon`` (he shot the moon), then ``moon_rate`` and
``zero_point_rate`` (the share of the deal's players with 0 points).  ``unit=game``: per seat
``pK_win`` (1 for the lowest final total, shared equally on a tie) and ``pK_score`` (final
total), then ``hands_per_game`` and ``moons_per_game``.

The optional move log (one ``int16`` row per deal, :func:`log_layout`) records the pass offset, the
cards in deal order (card ``j`` to seat ``j % players``), each seat's passed cards, every play as
``seat * 64 + code`` in order, and each trick's winning seat (``-1``: held over).
"""
from __future__ import annotations

import numpy as np
from numba import njit

from simkit.core.accumulate import add_deal
from simkit.core.registry import Metric
from simkit.core.rng import bounded, shuffle_prefix, xoshiro_step
from simkit.engines.tricks import (
    FOLLOW,
    MUST_BEAT,
    bit,
    cancel_winner,
    follow_suit,
    legal_moves,
    lowest_code,
    natural_strength,
    popcount,
    random_card,
    seat_of,
    suit_mask,
    trick_rules,
    trick_winner,
)

CLUBS, DIAMONDS, HEARTS, SPADES = 0, 1, 2, 3
QS = SPADES * 16 + 12
TD = DIAMONDS * 16 + 10
JOKER = 0
STRAT_SALT = np.uint64(0x6A09E667F3BCC909)
MAX_HANDS = 1000
MOON_ALARM = 5  # the heuristic defends once one player alone has taken this many moon cards

# cfg slots
(C_K, C_HAND, C_PASSN, C_PASSING, C_NOPTS1, C_BROKEN, C_QSBREAK, C_MOON, C_TWO, C_HOLD, C_UNIT,
 C_TARGET) = range(12)
N_CFG = 12
PASSING_CODES = {"cycle": 0, "left": 1, "right": 2, "across": 3, "none": 4, "random": 5}
MOON_CODES = {"add": 0, "subtract": 1, "best": 2, "off": 3}
# pass directions inside the kernel
D_NONE, D_LEFT, D_RIGHT, D_ACROSS = 0, 1, 2, 3
# strategy kinds
K_RANDOM, K_HEURISTIC, K_MOON = 0, 1, 2

_HEARTS_LANE = np.uint64(0xFFFF) << np.uint64(16 * HEARTS)
_CLUBS_LANE = np.uint64(0xFFFF)
_QS_BIT = np.uint64(1) << np.uint64(QS)


# --------------------------------------------------------------------------- tables (Python)

def make_deck(rules) -> np.ndarray:
    """The pack as ``uint8`` codes (the joker is code 0), from the deal table of line 231."""
    K = rules.players
    one = [s * 16 + r for s in range(4) for r in range(2, 15)]
    if K == 4:
        return np.array(one, np.uint8)
    if K == 2:
        return np.array([c for c in one if (c & 15) in (2, 4, 6, 8, 10, 12, 14)], np.uint8)
    cards = sorted(one * 2)
    c2, d2, s2 = CLUBS * 16 + 2, DIAMONDS * 16 + 2, SPADES * 16 + 2
    remove = {5: [], 6: [c2, d2], 7: [], 8: [c2], 9: [c2, d2, d2, s2, s2], 10: [c2, d2, d2, s2],
              11: [c2, d2, d2, s2, s2]}[K]
    for c in remove:
        cards.remove(c)
    if K in (5, 7, 8):
        cards = [JOKER] + cards
    return np.array(cards, np.uint8)


def card_tables(rules):
    """``(points, need)``: ``int64[64]`` points per code and ``int64[64]`` 1 for the cards the
    moon needs (hearts, Q♠, and the 10♦ in Omnibus)."""
    pts = np.zeros(64, np.int64)
    need = np.zeros(64, np.int64)
    for r in range(2, 15):
        pts[HEARTS * 16 + r] = 1
        need[HEARTS * 16 + r] = 1
    pts[QS] = 13
    need[QS] = 1
    if rules.omnibus:
        pts[TD] = -10
        need[TD] = 1
    return pts, need


def encode(rules):
    """The rules as the kernel's arguments: ``(cfg, pts, need, deck, tr, strength)``."""
    cfg = np.zeros(N_CFG, np.int64)
    cfg[C_K] = rules.players
    cfg[C_HAND] = rules.hand_size
    cfg[C_PASSN] = rules.pass_cards
    cfg[C_PASSING] = PASSING_CODES[rules.passing]
    cfg[C_NOPTS1] = rules.no_points_first_trick
    cfg[C_BROKEN] = rules.hearts_broken
    cfg[C_QSBREAK] = rules.qs_breaks_hearts
    cfg[C_MOON] = MOON_CODES[rules.moon]
    cfg[C_TWO] = rules.cancellation
    cfg[C_HOLD] = rules.holdover == "no_winner"
    cfg[C_UNIT] = rules.unit == "game"
    cfg[C_TARGET] = rules.target
    pts, need = card_tables(rules)
    return cfg, pts, need, make_deck(rules), trick_rules(follow=True), natural_strength()


def metrics(rules) -> list[Metric]:
    K = rules.players
    if rules.unit == "game":
        out = []
        for k in range(K):
            out += [Metric(f"p{k + 1}_win", binary=False, doc="share of games won (ties shared)"),
                    Metric(f"p{k + 1}_score", binary=False, doc="final total")]
        return out + [Metric("hands_per_game", binary=False), Metric("moons_per_game", binary=False)]
    out = []
    for k in range(K):
        out += [Metric(f"p{k + 1}_points_per_hand", binary=False, doc="points scored in the hand"),
                Metric(f"p{k + 1}_zero", doc="scored 0 in the hand"),
                Metric(f"p{k + 1}_moon", doc="shot the moon")]
    return out + [Metric("moon_rate", doc="someone shot the moon"),
                  Metric("zero_point_rate", binary=False, doc="share of players scoring 0")]


def log_layout(rules) -> dict[str, int]:
    """Offsets of the move log's sections (see the module docstring) and its width."""
    K, H = rules.players, rules.hand_size
    off = {"pass_offset": 0, "dealt": 1}
    off["passed"] = off["dealt"] + K * H
    off["plays"] = off["passed"] + K * rules.pass_cards
    off["winners"] = off["plays"] + K * H
    off["width"] = off["winners"] + H
    return off


# --------------------------------------------------------------------------- small helpers (njit)

@njit(cache=True, nogil=True, inline="always")
def _add(h1, h2, p, c):
    """Seat ``p`` takes card ``c``: into ``h2`` if ``h1`` holds it already.  Branch-free: a
    branch on the held bit costs ~8 ns a card, the deal's largest cost."""
    b = np.uint64(1) << np.uint64(c)
    h2[p] |= h1[p] & b
    h1[p] |= b


@njit(cache=True, nogil=True, inline="always")
def _remove(h1, h2, p, c):
    """Seat ``p`` gives up card ``c``: from ``h2`` if it holds two (branch-free, like _add)."""
    b = np.uint64(1) << np.uint64(c)
    d = h2[p] & b
    h2[p] &= ~b
    h1[p] &= ~b | d


@njit(cache=True, nogil=True, inline="always")
def _suit_len(a, b, suit):
    return popcount(a & suit_mask(suit)) + popcount(b & suit_mask(suit))


@njit(cache=True, nogil=True, inline="always")
def _top(m):
    """The highest-ranked card of mask ``m`` (ties: the lowest suit); ``-1`` if empty."""
    best, br = -1, -1
    x = np.uint64(m)
    while x:
        c = lowest_code(x)
        x &= x - np.uint64(1)
        if (c & 15) > br:
            best, br = c, c & 15
    return best


@njit(cache=True, nogil=True, inline="always")
def _bottom(m):
    """The lowest-ranked card of mask ``m`` (ties: the lowest suit); ``-1`` if empty."""
    best, br = -1, 99
    x = np.uint64(m)
    while x:
        c = lowest_code(x)
        x &= x - np.uint64(1)
        if (c & 15) < br:
            best, br = c, c & 15
    return best


@njit(cache=True, nogil=True, inline="always")
def _hcp(a, b):
    """High-card points of a hand (A 4, K 3, Q 2, J 1), both copies counted."""
    t = 0
    for m in (a, b):
        x = np.uint64(m)
        while x:
            c = lowest_code(x)
            x &= x - np.uint64(1)
            r = c & 15
            if r > 10:
                t += r - 10
    return t


@njit(cache=True, nogil=True)
def pass_offset(d, K):
    """Seats between passer and receiver for direction ``d``."""
    if d == D_LEFT:
        return 1
    if d == D_RIGHT:
        return K - 1
    if d == D_ACROSS:
        return K // 2
    return 0


# --------------------------------------------------------------------------- strategies (njit)

@njit(cache=True, nogil=True)
def choose_pass(kind, thr, a, b, u):
    """One card to pass from the hand ``(a, b)``: ``(code, u)``."""
    hand = a | b
    if kind == K_RANDOM:
        return random_card(a, u)  # a holds every distinct card; a double is passed like a single
    if kind == K_MOON and _hcp(a, b) >= thr:
        return _bottom(hand), u
    low_spades = popcount(hand & suit_mask(SPADES) & np.uint64(0xFFF << 48))  # below the queen
    best, bs = -1, -1e9
    x = hand
    while x:
        c = lowest_code(x)
        x &= x - np.uint64(1)
        s, r = c >> 4, c & 15
        if s == SPADES and r >= 12:
            sc = (110.0 if r == 12 else 90.0 + r) if low_spades < 4 else r - 20.0
        elif s == HEARTS:
            sc = 60.0 + r if r >= 11 else r - 20.0
        elif s == SPADES:
            sc = r - 30.0
        else:
            sc = 20.0 + r - 4.0 * _suit_len(a, b, s)
        if sc > bs:
            best, bs = c, sc
    return best, u


@njit(cache=True, nogil=True)
def choose_play(kind, viable, danger, legal, a, b, trick, nt, w, K, first, qs_out, u):
    """The card to play from ``legal``: ``(code, u)``.  ``viable``: a moon attempt is on;
    ``danger``: the trick is being won by a player who may be shooting the moon; ``w``: the
    index in the trick of the card winning it so far (with Cancellation's pairs cancelled;
    ``-1``: none yet, every card of the led suit cancelled)."""
    if kind == K_RANDOM:
        return random_card(legal, u)
    if popcount(legal) == 1:
        return lowest_code(legal), u
    hand = a | b
    if viable:
        if nt == 0 or (legal & suit_mask(trick[0] >> 4)) != 0:
            return _top(legal), u          # try to win every trick
        safe = legal & ~_HEARTS_LANE & ~_QS_BIT
        return _bottom(safe if safe else legal), u
    if nt == 0:
        # smoke out the queen with a low spade when safe to
        sp = legal & suit_mask(SPADES)
        high_sp = hand & (np.uint64(0x7 << 12) << np.uint64(48))  # Q, K, A of spades
        if sp != 0 and not qs_out and high_sp == 0:
            return _bottom(sp), u
        best, bl = -1, 99
        for s in range(4):
            m = legal & suit_mask(s)
            if m == 0 or s == HEARTS:
                continue
            if s == SPADES and high_sp != 0 and not qs_out:
                continue
            ln = _suit_len(a, b, s)
            if ln < bl:
                best, bl = _bottom(m), ln
        if best >= 0:
            return best, u
        return _bottom(legal), u
    led = trick[0] >> 4
    if danger:
        # stop a moon: beat the threatening winner if possible, never hand him a point card
        if (legal & suit_mask(led)) != 0:
            top = _top(legal)
            if (top & 15) > (trick[w] & 15):  # danger implies a winner, w >= 0
                return top, u
        else:
            safe = legal & ~_HEARTS_LANE & ~_QS_BIT
            if safe:
                return _top(safe), u
    if (legal & suit_mask(led)) != 0:
        wr = trick[w] & 15 if w >= 0 else 0
        if first:
            return _top(legal & ~_QS_BIT if legal & ~_QS_BIT else legal), u
        if led == SPADES and (legal & _QS_BIT) != 0 and wr > 12:
            return QS, u
        below = np.uint64(0)
        x = legal
        while x:
            c = lowest_code(x)
            x &= x - np.uint64(1)
            if (c & 15) < wr:
                below |= np.uint64(1) << np.uint64(c)
        if below:
            return _top(below), u
        nq = legal & ~_QS_BIT
        if nq == 0:
            nq = legal
        if nt == K - 1:
            return _top(nq), u
        return _bottom(nq), u
    # void in the led suit: dump points
    if legal & _QS_BIT:
        return QS, u
    high_sp = legal & (np.uint64(0x6 << 12) << np.uint64(48))  # K, A of spades
    if high_sp != 0 and not qs_out:
        return _top(high_sp), u
    hts = legal & _HEARTS_LANE
    if hts:
        return _top(hts), u
    best, bl = -1, 99
    for s in range(4):
        m = legal & suit_mask(s)
        if m == 0:
            continue
        ln = _suit_len(a, b, s)
        if ln < bl:
            best, bl = _top(m), ln
    return best, u



# --------------------------------------------------------------------------- one hand (njit)

@njit(cache=True, nogil=True)
def play_hand(cfg, pts, need, scoring, deck, tr, strength, kinds, thr, s, u, pdir, stacked, totals,
              hand_pts, h1, h2, perm, trick, raw, needc, passbuf, shooting, log, li):
    """Deal, pass and play one hand; its scores go to ``hand_pts[K]``.  Returns
    ``(s, u, shooter or -1)``.  ``li`` is the log row to write (``-1``: none); ``pdir`` is the
    pass direction (``-1``: draw it from the card stream)."""
    K = cfg[C_K]
    H = cfg[C_HAND]
    nd = deck.shape[0]
    ndeal = K * H
    # Hearts' table is "follow suit" only: take the engine's scalar fast path for it
    fast_follow = tr[FOLLOW] == 1 and tr[MUST_BEAT] == 0
    for p in range(K):
        h1[p] = 0
        h2[p] = 0
        raw[p] = 0
        needc[p] = 0
    # ---- deal
    for i in range(nd):
        perm[i] = i
    if not stacked:
        s = shuffle_prefix(perm, ndeal, s)
    seat = 0
    for j in range(ndeal):
        c = np.int64(deck[perm[j]])
        _add(h1, h2, seat, c)
        seat = seat + 1 if seat + 1 < K else 0
        if li >= 0:
            log[li, 1 + j] = c
    if pdir < 0:
        d, s = bounded(s, 4)
        pdir = d
    off = pass_offset(pdir, K)
    # points and moon cards in play
    pos_total = 0
    need_total = 0
    for p in range(K):
        for m in (h1[p], h2[p]):
            x = m & scoring
            while x:
                c = lowest_code(x)
                x &= x - np.uint64(1)
                if pts[c] > 0:
                    pos_total += pts[c]
                need_total += need[c]
    # ---- pass
    npass = cfg[C_PASSN]
    if li >= 0:
        log[li, 0] = off
    if off != 0 and npass > 0:
        for p in range(K):
            for q in range(npass):
                c, u = choose_pass(kinds[p], thr[p], h1[p], h2[p], u)
                _remove(h1, h2, p, c)
                passbuf[p, q] = c
                if li >= 0:
                    log[li, 1 + ndeal + p * npass + q] = c
        for p in range(K):
            for q in range(npass):
                _add(h1, h2, seat_of(p, off, K), passbuf[p, q])
    for p in range(K):
        shooting[p] = kinds[p] == K_MOON and _hcp(h1[p], h2[p]) >= thr[p]
    # ---- play
    lead_card = -1
    leader = 0
    for p in range(K):
        cl = h1[p] & _CLUBS_LANE
        if cl:
            c = lowest_code(cl)
            if lead_card < 0 or c < lead_card:
                lead_card, leader = c, p
    broken = cfg[C_BROKEN] == 0
    qs_out = False
    two = cfg[C_TWO] != 0
    nopts1 = cfg[C_NOPTS1] != 0
    pend_pts = 0
    pend_need = 0
    plays = 1 + ndeal + K * npass
    for t in range(H):
        for i in range(K):
            p = seat_of(leader, i, K)
            if t == 0 and i == 0 and lead_card >= 0:
                legal = bit(lead_card)
            else:
                if fast_follow:
                    legal = follow_suit(h1[p], trick[0] >> 4) if i > 0 else h1[p]
                else:
                    legal = legal_moves(h1[p], trick, i, -1, tr, strength)
                if t == 0 and nopts1:
                    clean = legal & ~_HEARTS_LANE & ~_QS_BIT
                    if clean:
                        legal = clean
                if i == 0 and not broken:
                    nh = legal & ~_HEARTS_LANE
                    if nh:
                        legal = nh
            viable = False
            if shooting[p]:
                viable = True
                for q in range(K):
                    if q != p and needc[q] > 0:
                        viable = False
            if kinds[p] == K_RANDOM:
                c, u = random_card(legal, u)
            else:
                danger = False
                w = -1
                if i > 0:
                    w = cancel_winner(trick, i, -1, strength)[0] if two else \
                        trick_winner(trick, i, -1, strength)
                if w >= 0:
                    ws = seat_of(leader, w, K)
                    danger = ws != p and needc[ws] + pend_need >= MOON_ALARM
                    for q in range(K):
                        if q != ws and needc[q] > 0:
                            danger = False
                c, u = choose_play(kinds[p], viable, danger, legal, h1[p], h2[p], trick, i, w, K,
                                   t == 0, qs_out, u)
            _remove(h1, h2, p, c)
            trick[i] = c
            if li >= 0:
                log[li, plays] = p * 64 + c
                plays += 1
            if (c >> 4) == HEARTS:
                broken = True
            if c == QS:
                qs_out = True
                if cfg[C_QSBREAK]:
                    broken = True
        tp = 0
        tn = 0
        for i in range(K):
            tp += pts[trick[i]]
            tn += need[trick[i]]
        hold = False
        if two:
            w, pairs = cancel_winner(trick, K, -1, strength)
            hold = w < 0 or (cfg[C_HOLD] == 0 and pairs >= 2)
        else:
            w = trick_winner(trick, K, -1, strength)
        if hold:
            pend_pts += tp
            pend_need += tn
            if li >= 0:
                log[li, 1 + ndeal + K * npass + K * H + t] = -1
        else:
            winner = seat_of(leader, w, K)
            raw[winner] += tp + pend_pts
            needc[winner] += tn + pend_need
            pend_pts = 0
            pend_need = 0
            leader = winner
            if li >= 0:
                log[li, 1 + ndeal + K * npass + K * H + t] = winner
    # ---- score
    shooter = -1
    if cfg[C_MOON] != 3 and need_total > 0:
        for p in range(K):
            if needc[p] == need_total:
                shooter = p
    for p in range(K):
        hand_pts[p] = raw[p]
    if shooter >= 0:
        sub = cfg[C_MOON] == 1
        if cfg[C_MOON] == 2 and cfg[C_UNIT] == 1:
            sub = _prefer_subtract(totals, raw, shooter, pos_total, K, cfg[C_TARGET])
        for p in range(K):
            if p == shooter:
                hand_pts[p] = raw[p] - (2 * pos_total if sub else pos_total)
            elif not sub:
                hand_pts[p] = raw[p] + pos_total
    return s, u, shooter


@njit(cache=True, nogil=True)
def _option_value(totals, add, shooter, K, target):
    """How good a moon choice leaves the shooter: game over and won / lost, else his lead."""
    best_other = 1 << 40
    top = -(1 << 40)
    mine = totals[shooter] + add[shooter]
    for p in range(K):
        v = totals[p] + add[p]
        top = max(top, v)
        if p != shooter:
            best_other = min(best_other, v)
    if top >= target:
        if mine < best_other:
            return 1e12
        if mine == best_other:
            return 1e11
        return -1e12
    return float(best_other - mine)


@njit(cache=True, nogil=True)
def _prefer_subtract(totals, raw, shooter, pos_total, K, target):
    a = np.zeros(K, np.int64)
    sb = np.zeros(K, np.int64)
    for p in range(K):
        a[p] = raw[p] + pos_total
        sb[p] = raw[p]
    a[shooter] = raw[shooter] - pos_total
    sb[shooter] = raw[shooter] - 2 * pos_total
    return _option_value(totals, sb, shooter, K, target) > _option_value(totals, a, shooter, K,
                                                                         target)


# --------------------------------------------------------------------------- the run (njit)

@njit(cache=True, nogil=True)
def simulate(cfg, pts, need, deck, tr, strength, kinds, thr, state, n, acc, rows, log,
             stacked=False, fixed_dir=-1):
    """Play ``n`` deals (hands or games, ``cfg[C_UNIT]``) into ``acc[2, M]``; with a non-empty
    ``rows`` (``log``) also write each deal's metrics (moves).  Returns the cards dealt.

    ``kinds[K]`` and ``thr[K]`` are the seats' strategy kinds and moon thresholds.
    ``fixed_dir >= 0`` forces the pass direction (stacked tests)."""
    K = cfg[C_K]
    H = cfg[C_HAND]
    h1 = np.zeros(K, np.uint64)
    h2 = np.zeros(K, np.uint64)
    perm = np.zeros(deck.shape[0], np.int64)
    trick = np.zeros(K, np.int64)
    raw = np.zeros(K, np.int64)
    needc = np.zeros(K, np.int64)
    passbuf = np.zeros((K, max(cfg[C_PASSN], 1)), np.int64)
    shooting = np.zeros(K, np.bool_)
    hand_pts = np.zeros(K, np.int64)
    totals = np.zeros(K, np.int64)
    M = acc.shape[1]
    vals = np.zeros(M)
    scoring = np.uint64(0)    # the cards that score or that the moon needs
    for c in range(64):
        if pts[c] != 0 or need[c] != 0:
            scoring |= np.uint64(1) << np.uint64(c)
    write_log = log.shape[0] > 0
    passing = cfg[C_PASSING]
    game = cfg[C_UNIT] == 1
    x0, x1, x2, x3 = state[0], state[1], state[2], state[3]
    cards = 0
    for i in range(n):
        key, x0, x1, x2, x3 = xoshiro_step(x0, x1, x2, x3)
        s = key
        u = key ^ STRAT_SALT
        for p in range(K):
            totals[p] = 0
        hands = 0
        moons = 0
        while True:
            if fixed_dir >= 0:
                pdir = fixed_dir
            elif passing == 0:
                idx = hands if game else i
                pdir = (D_LEFT, D_RIGHT, D_ACROSS, D_NONE)[idx % 4]
            elif passing == 5:
                pdir = -1
            else:
                pdir = (0, D_LEFT, D_RIGHT, D_ACROSS, D_NONE)[passing]
            li = i if (write_log and hands == 0) else -1
            s, u, shooter = play_hand(cfg, pts, need, scoring, deck, tr, strength, kinds, thr, s,
                                      u, pdir, stacked, totals, hand_pts, h1, h2, perm, trick, raw, needc,
                                      passbuf, shooting, log, li)
            cards += K * H
            hands += 1
            moons += shooter >= 0
            if not game:
                break
            top = 0
            for p in range(K):
                totals[p] += hand_pts[p]
                top = max(top, totals[p])
            if top >= cfg[C_TARGET] or hands >= MAX_HANDS:
                break
        if game:
            low = totals[0]
            for p in range(K):
                low = min(low, totals[p])
            nlow = 0
            for p in range(K):
                nlow += totals[p] == low
            for p in range(K):
                vals[2 * p] = (1.0 / nlow) if totals[p] == low else 0.0
                vals[2 * p + 1] = totals[p]
            vals[2 * K] = hands
            vals[2 * K + 1] = moons
        else:
            zeros = 0
            for p in range(K):
                vals[3 * p] = hand_pts[p]
                z = hand_pts[p] == 0
                vals[3 * p + 1] = z
                zeros += z
                vals[3 * p + 2] = shooter == p
            vals[3 * K] = shooter >= 0
            vals[3 * K + 1] = zeros / K
        add_deal(acc, rows, i, vals)
    state[0], state[1], state[2], state[3] = x0, x1, x2, x3
    return cards
