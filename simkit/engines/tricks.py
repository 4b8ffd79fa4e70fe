"""The shared trick-taking engine: legal moves from rule tables, trick winners, card points.

Every trick-taking game in the texts (Hearts, Klaberjass, Handjass, Stovkahra, Piquet) is described
to these kernels by three small tables, built once in plain Python and passed to ``@njit`` code:

* ``tr = trick_rules(...)`` (``int64[8]``): the obligations when playing to a trick (follow suit,
  trump when void, overtrump, undertrump, head the trick, the Handjass trump-jack exception).
* ``strength = strength_tables(plain_order, trump_order)`` (``int64[2, 16]``): the strength of each
  rank (``strength[0, rank]`` in a plain suit, ``strength[1, rank]`` in trumps; bigger is stronger,
  0 for a rank the game does not use).  Card codes are :mod:`simkit.core.cards`' ``suit*16 + rank``.
* ``points = points_table(plain, trump)`` (``int64[2, 16]``): card points per rank out of and in
  trumps (the last-trick bonus is a game constant added by the game to the last trick's points).

A hand of one deck is a ``uint64`` mask with bit ``code`` set for each card held (suit lanes of 16
bits).  A trick is an ``int64`` array of card codes ``trick[0..ntrick-1]`` in playing order; the
player who plays ``trick[i]`` is ``(leader + i) % players`` (:func:`seat_of`).  ``trump`` is a suit
``0..3`` or ``-1`` (no trump).  Games with two decks (Cancellation Hearts) keep two masks per hand
(cards held at least once / twice) and pass the first one to :func:`legal_moves`;
:func:`cancel_winner` gives the winner of a trick in which equal cards cancel.

Rule switches of :func:`trick_rules` (the tests state each one by a hand-worked case):

``follow``
    a player holding the led suit must play it (when ``False``: no obligation to follow).
``must_trump``
    a player void in the led suit who holds a trump must play one.
``overtrump_on_trump_lead``
    on a trump lead, a player must play a trump higher than the best one in the trick when able
    (Klaberjass, Belote).
``overtrump_always``
    whoever plays a trump to a trick that already holds a trump must beat it when able.
``undertrump``
    when ``False`` a player may not play a trump lower than one already in the trick unless he
    holds nothing else (with ``must_trump`` the obligation to trump lapses instead; Handjass).
``must_beat``
    a player must head the trick (play a card that would win it so far) when able (Stovkahra).
``trump_jack_free``
    on a trump lead a player whose only trump is the trump jack need not play it (Handjass).
``trump_instead``
    on a plain lead a player holding the led suit may play a trump instead of following, and a
    hand of nothing but trumps may undertrump even when it could overtrump (Handjass; with
    ``undertrump=False`` the other lower trumps stay barred).

Nothing here knows a game's leading restrictions (Hearts' "hearts broken", 2♣ leads); games
intersect :func:`legal_moves`' mask with their own.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from simkit.core.bits import highest_code, lowest_code, nth_code, popcount  # noqa: F401
from simkit.core.bits import trailing_zeros  # numba's, or plain Python under NUMBA_DISABLE_JIT
from simkit.core.rng import bounded
from simkit.errors import SimkitError

# indices into the rule table
(FOLLOW, MUST_TRUMP, OVERTRUMP_LEAD, OVERTRUMP_ALWAYS, UNDERTRUMP, MUST_BEAT, TRUMP_JACK_FREE,
 TRUMP_INSTEAD) = range(8)
N_RULES = 8
JACK = 11
_ONE = np.uint64(1)
_LANE = np.uint64(0xFFFF)

_RANK_NAMES = {"a": 14, "t": 10, "10": 10, "k": 13, "q": 12, "j": 11, "т": 14, "к": 13, "д": 12,
               "в": 11}
_RANK_NAMES.update({str(r): r for r in range(2, 10)})


# --------------------------------------------------------------------------- tables (plain Python)

def trick_rules(follow=True, must_trump=False, overtrump_on_trump_lead=False,
                overtrump_always=False, undertrump=True, must_beat=False,
                trump_jack_free=False, trump_instead=False) -> np.ndarray:
    """The rule table (``int64[8]``) that :func:`legal_moves` takes; see the module docstring."""
    tr = np.zeros(N_RULES, np.int64)
    tr[FOLLOW] = bool(follow)
    tr[MUST_TRUMP] = bool(must_trump)
    tr[OVERTRUMP_LEAD] = bool(overtrump_on_trump_lead)
    tr[OVERTRUMP_ALWAYS] = bool(overtrump_always)
    tr[UNDERTRUMP] = bool(undertrump)
    tr[MUST_BEAT] = bool(must_beat)
    tr[TRUMP_JACK_FREE] = bool(trump_jack_free)
    tr[TRUMP_INSTEAD] = bool(trump_instead)
    return tr


def parse_ranks(order) -> list[int]:
    """``"A 10 K Q J 9 8 7"`` (or ``"A T K ..."``, Russian letters, or a sequence of ints 2..14)
    -> a list of ranks."""
    if isinstance(order, str):
        out = []
        for tok in order.replace(",", " ").replace(">", " ").split():
            t = tok.strip().lower()
            if t not in _RANK_NAMES:
                raise SimkitError(f"cannot read rank {tok!r}: write 2-10, T, J, Q, K, A (or В Д К Т)")
            out.append(_RANK_NAMES[t])
        order = out
    ranks = [int(r) for r in order]
    if any(not 0 <= r <= 15 for r in ranks) or len(set(ranks)) != len(ranks):
        raise SimkitError(f"bad rank order {order!r}: ranks are 0..15, each at most once")
    return ranks


def strength_tables(plain_order, trump_order=None) -> np.ndarray:
    """``int64[2, 16]`` rank strengths from orders written strongest first.

    Row 0 is a plain suit, row 1 the trump suit (the plain order when ``trump_order`` is None).
    Klaberjass: ``strength_tables("A 10 K Q J 9 8 7", "J 9 A 10 K Q 8 7")``; Hearts and Piquet:
    :func:`natural_strength`.  Ranks not listed get 0 (weaker than any listed rank).
    """
    out = np.zeros((2, 16), np.int64)
    for row, order in enumerate((plain_order, plain_order if trump_order is None else trump_order)):
        ranks = parse_ranks(order)
        for i, r in enumerate(ranks):
            out[row, r] = len(ranks) - i
    return out


def natural_strength() -> np.ndarray:
    """Ace high, deuce low, the same in trumps (rank value = strength)."""
    out = np.zeros((2, 16), np.int64)
    out[:, :15] = np.arange(15)
    return out


def points_table(plain, trump=None) -> np.ndarray:
    """``int64[2, 16]`` card points per rank: ``plain`` and ``trump`` are ``{rank: points}`` (ranks
    as in :func:`parse_ranks`) or strings ``"A=11 10=10 K=4 Q=3 J=2"``; trump defaults to plain."""
    out = np.zeros((2, 16), np.int64)
    for row, table in enumerate((plain, plain if trump is None else trump)):
        if isinstance(table, str):
            items = [t.split("=") for t in table.replace(",", " ").split()]
            if any(len(kv) != 2 for kv in items):
                raise SimkitError(f"cannot read points {table!r}: write RANK=POINTS ...")
            table = {parse_ranks(k)[0]: int(v) for k, v in items}
        for r, p in table.items():
            out[row, parse_ranks([r] if isinstance(r, int) else str(r))[0]] = int(p)
    return out


# --------------------------------------------------------------------------- bit helpers (njit)

@njit(cache=True, nogil=True, inline="always")
def bit(code):
    """The mask of one card code."""
    return _ONE << np.uint64(code)


@njit(cache=True, nogil=True, inline="always")
def suit_mask(suit):
    """The 16-bit lane of ``suit`` (0..3); 0 for ``suit < 0``."""
    if suit < 0:
        return np.uint64(0)
    return _LANE << np.uint64(16 * suit)


@njit(cache=True, nogil=True, inline="always")
def random_card(m, s):
    """A uniformly random card of the non-zero mask ``m`` from splitmix state ``s``:
    ``(code, new s)``."""
    k, s = bounded(s, popcount(m))
    return nth_code(m, k), s


@njit(cache=True, nogil=True, inline="always")
def seat_of(leader, i, players):
    """The seat that plays the ``i``-th card of a trick led by ``leader`` (clockwise), for
    ``0 <= leader, i < players``: ``(leader + i) % players`` without the division, which would
    cost more than the rest of a card's play."""
    j = leader + i
    return j - players if j >= players else j


@njit(cache=True, nogil=True, inline="always")
def rank_strength(code, trump, strength):
    """The strength of a card: its rank's entry in the trump row when it is a trump."""
    return strength[1 if (code >> 4) == trump else 0, code & 15]


@njit(cache=True, nogil=True)
def stronger_cards(m, row, than, strength):
    """The cards of mask ``m`` whose strength in ``row`` (0 plain, 1 trump) exceeds ``than``."""
    out = np.uint64(0)
    x = np.uint64(m)
    while x:
        c = trailing_zeros(x)
        x &= x - _ONE
        if strength[row, c & 15] > than:
            out |= _ONE << np.uint64(c)
    return out


@njit(cache=True, nogil=True)
def strongest_of_suit(m, suit, trump, strength):
    """The strongest card of ``suit`` in mask ``m`` (``-1`` when there is none)."""
    x = np.uint64(m) & suit_mask(suit)
    row = 1 if suit == trump else 0
    best, bs = -1, -1
    while x:
        c = np.int64(trailing_zeros(x))
        x &= x - _ONE
        v = strength[row, c & 15]
        if v > bs:
            best, bs = c, v
    return best


@njit(cache=True, nogil=True)
def weakest_of_suit(m, suit, trump, strength):
    """The weakest card of ``suit`` in mask ``m`` (``-1`` when there is none)."""
    x = np.uint64(m) & suit_mask(suit)
    row = 1 if suit == trump else 0
    best, bs = -1, 1 << 30
    while x:
        c = np.int64(trailing_zeros(x))
        x &= x - _ONE
        v = strength[row, c & 15]
        if v < bs:
            best, bs = c, v
    return best


# --------------------------------------------------------------------------- tricks (njit)

@njit(cache=True, nogil=True, inline="always")
def beats(card, best, trump, strength):
    """Whether ``card`` played after ``best`` (the trick's winning card so far) takes the lead."""
    cs = card >> 4
    bs = best >> 4
    if cs == bs:
        row = 1 if cs == trump else 0
        return strength[row, card & 15] > strength[row, best & 15]
    return cs == trump


@njit(cache=True, nogil=True)
def trick_winner(trick, ntrick, trump, strength):
    """Index in the trick of the card that wins it so far (highest trump, else highest of the
    led suit)."""
    w = 0
    wc = trick[0]
    for i in range(1, ntrick):
        c = trick[i]
        if beats(c, wc, trump, strength):
            w = i
            wc = c
    return w


@njit(cache=True, nogil=True)
def trick_points(trick, ntrick, trump, points):
    """Card points in the trick (rank points out of or in trumps); jokers (suit 4) count 0."""
    t = 0
    for i in range(ntrick):
        c = trick[i]
        if (c >> 4) < 4:
            t += points[1 if (c >> 4) == trump else 0, c & 15]
    return t


@njit(cache=True, nogil=True)
def hand_value(hand, trump, points, per_trump):
    """A hand's card points (trumps at their trump value) plus ``per_trump`` for each trump: the
    measure of strength that the Klaberjass and Handjass baselines start from."""
    v = 0
    x = np.uint64(hand)
    while x:
        c = lowest_code(x)
        x &= x - np.uint64(1)
        if (c >> 4) == trump:
            v += points[1, c & 15] + per_trump
        else:
            v += points[0, c & 15]
    return v


@njit(cache=True, nogil=True)
def cancel_winner(trick, ntrick, trump, strength):
    """Winner of a two-deck trick in which equal cards cancel: ``(index or -1, pairs)``.

    A card that another card of the trick equals cannot win; the winner is the strongest card
    left (trumps first, else the led suit, the led suit being the first card's even when it is
    cancelled); ``-1`` when no trump and no card of the led suit is left.  ``pairs`` counts the
    cancelled pairs (a game decides what two pairs do)."""
    pairs = 0
    for i in range(ntrick):
        for j in range(i + 1, ntrick):
            if trick[i] == trick[j]:
                pairs += 1
    led = trick[0] >> 4
    w = -1
    for i in range(ntrick):
        c = trick[i]
        dup = False
        for j in range(ntrick):
            if j != i and trick[j] == c:
                dup = True
                break
        if dup:
            continue
        if w < 0:
            if (c >> 4) == led or (trump >= 0 and (c >> 4) == trump):
                w = i
        elif beats(c, trick[w], trump, strength):
            w = i
    return w, pairs


@njit(cache=True, nogil=True, inline="always")
def follow_suit(hand, led):
    """The legal cards when the only duty is to follow suit (no trumps, no heading): the cards
    of suit ``led`` if any, else the whole hand.  A scalar fast path equal to
    ``legal_moves(hand, trick, n, -1, trick_rules(), strength)`` for ``n > 0``."""
    hand = np.uint64(hand)
    f = hand & suit_mask(led)
    return f if f != 0 else hand


@njit(cache=True, nogil=True)
def legal_moves(hand, trick, ntrick, trump, tr, strength):
    """The mask of the cards of ``hand`` that may be played to ``trick[0..ntrick-1]``.

    Any card may lead (games add their own leading restrictions).  Then, in order: following suit
    (with the overtrump / head-the-trick duties inside the led suit and the trump-jack exception),
    else trumping when void, overtrumping, the undertrump ban and heading the trick.
    """
    hand = np.uint64(hand)
    if ntrick == 0 or hand == 0:
        return hand
    led = trick[0] >> 4
    F = hand & suit_mask(led) if led < 4 else np.uint64(0)
    if tr[FOLLOW] and F != 0 and led != trump and not tr[MUST_BEAT] and not tr[TRUMP_INSTEAD]:
        return F                       # the common case needs no trick winner
    if trump < 0 and not tr[MUST_BEAT]:
        return F if (tr[FOLLOW] and F != 0) else hand
    w = trick_winner(trick, ntrick, trump, strength)
    wc = trick[w]
    trumped = trump >= 0 and (wc >> 4) == trump
    wstr = rank_strength(wc, trump, strength)
    if tr[FOLLOW] and F != 0:
        if led == trump:
            if tr[TRUMP_JACK_FREE] and F == bit(trump * 16 + JACK):
                return hand
            if tr[OVERTRUMP_LEAD] or tr[MUST_BEAT]:
                hi = stronger_cards(F, 1, wstr, strength)
                if hi:
                    return hi
            return F
        if tr[TRUMP_INSTEAD]:          # follow or trump (a hand with the led suit is not all trumps)
            T = hand & suit_mask(trump)
            if trumped and not tr[UNDERTRUMP]:
                T = stronger_cards(T, 1, wstr, strength)
            return F | T
        if tr[MUST_BEAT] and not trumped:
            hi = stronger_cards(F, 0, wstr, strength)
            if hi:
                return hi
        return F
    T = hand & suit_mask(trump)
    if tr[TRUMP_INSTEAD] and T == hand and T != 0:
        return hand                    # nothing but trumps: any of them, undertrumps too
    legal = hand
    if tr[MUST_TRUMP] and T != 0:
        legal = T
    if trumped and T != 0:
        hi = stronger_cards(T, 1, wstr, strength)
        lower = T & ~hi
        if hi != 0 and (tr[OVERTRUMP_ALWAYS] or tr[MUST_BEAT]) and (legal & ~lower) != 0:
            legal &= ~lower
        if not tr[UNDERTRUMP] and (legal & lower) != 0:
            rest = legal & ~lower
            if rest == 0:
                rest = hand & ~lower
            if rest != 0:
                legal = rest
    if tr[MUST_BEAT]:
        if trumped:
            win = stronger_cards(T, 1, wstr, strength)
        else:
            win = T | stronger_cards(F, 0, wstr, strength)
        if (legal & win) != 0:
            legal &= win
    return legal


@njit(cache=True, nogil=True)
def must_beat_moves(hand, led, best, trump, strength):
    """The legal cards under follow suit, trump when void and head the trick (Stovkahra's
    ``trick_rules(follow=True, must_trump=True, must_beat=True)``) from the led suit and the
    trick's winning card so far: a scalar fast path equal to :func:`legal_moves` for a trick of
    at least one card, which the caller keeps the winning card of as it goes."""
    hand = np.uint64(hand)
    F = hand & suit_mask(led)
    if F != 0:
        if (best >> 4) != led:
            return F                   # trumped: follow, nothing of the suit can head it
        row = 1 if led == trump else 0
        hi = stronger_cards(F, row, strength[row, best & 15], strength)
        return hi if hi != 0 else F
    T = hand & suit_mask(trump)
    if T == 0:
        return hand
    if (best >> 4) == trump:
        hi = stronger_cards(T, 1, strength[1, best & 15], strength)
        return hi if hi != 0 else T
    return T
