"""Canasta kernels: classic four-hand partnership Canasta and two-hand Canasta on 108 cards.

Canasta melds are groups of one rank, one meld per rank per side (READINGS-rummy.md 3.1), so a
side's melds are two count tables, naturals ``W.rk[MN + side, r]`` and wilds
``W.rk[MW + side, r]`` by rank index ``r`` (:data:`RI`: 0 joker, 1 red three, 2 deuce, 3 black
three, 4..14 the naturals), and no general meld search is needed.  A hand is a count vector of
card codes ``W.cd[seat]`` with its rank-index counts ``W.rk[seat]`` and size ``W.st[HN + seat]``;
the cards a side laid are also counted by code (``W.cd[MC + side]``) and the faced red threes
(``W.cd[FC]``), so a deal's cards can be counted back (hands + melds + pile + stock + faced
threes = the pack).

The stock is the pack shuffled lazily (the house's :func:`~simkit.engines.melds.stock.draw_stock`);
a stacked deck is dealt in its order: ``hand_size`` cards one at a time from the dealer's left, the
upcard (and its covering cards), the replacements of dealt red threes, then the stock.

Seat ``p`` plays for side ``p % 2`` (partners opposite; two hands: side = seat).  A turn
(:func:`turn`) is the draw (``draw`` cards, red threes faced and replaced) or the pile take (its
top card laid at once, :func:`take`), the lays, and the discard or going out.  The stock's end
(:func:`stock_turn`): ``stock_end=continue`` (Hoyle) lets play go on while each player takes the
discard (obligatory when it can be added to his side's meld), ``end`` ends the hand at once.

Scores of a hand (:func:`score_hand`): canasta bonuses, red threes (100 each, 800 all four; minus
when the side made no meld, or has no canasta with ``red_threes_minus=no_canasta``), going out
100 (concealed 200), the melded cards' values, less the values of both partners' hands.

Cuban Canasta (``preset=cuban``, 003:84): black threes are faced and replaced as red ones are
(counted per seat in ``W.st[B3 + seat]``, scored by colour with :func:`threes`); a side's
wild-card meld lives in the meld rows' rank slot :data:`WM` (2, unused by natural melds): its
deuces in ``W.rk[MN + side, WM]``, its jokers in ``W.rk[MW + side, WM]``, logged as lays on the
meld of rank 2; ``canasta_max`` caps every lay, take and going-out plan (:func:`meld_size`).

Metrics (:func:`metrics`), ``unit=hand``: per seat ``pK_points``, ``pK_canasta_bonus``,
``pK_red3``, ``pK_out_bonus``, ``pK_melded``, ``pK_in_hand`` (the side's values: partners report
the same number), ``pK_went_out`` and ``pK_takes`` (the seat's own); ``turns``, ``stock_out``.
``unit=game``: ``pK_win``, ``pK_score`` (the side's), ``hands``.

Move log: the format written in ``/work/wt/CANASTA.md`` (final, 2026-12-04): a head of
:data:`NHEAD` entries (dealer, number of events, players, hand size, draw, canastas to go out,
stock end, the two sides' initial minimums, max wild), then events ``kind<<20|seat<<16|aux<<8|card``
of kinds ``EV_*`` below.  Brazilian from 7000 (003:83): a side's minimum in the head is -1 (its
initial meld must hold a canasta), -2 (a canasta, 200 over the meld), -3 (a natural canasta);
the state keeps the count in ``W.st[MINS + seat]`` and the requirement in ``W.st[REQ + seat]``
(:func:`requirement`), met by :func:`canasta_seed` (the strategies' initial melds and pile
takes) and checked by :func:`req_met` (going out without an earlier meld).  Bicycle's readings
(READINGS 3.6; rules.py): ``initial_pile_take=false`` lists no take before a side's first meld
(:func:`take_forms`), ``ask_partner=always`` asks before every going out (:func:`try_out`) and
allows only takes that leave two cards (:func:`take_plan`), ``escalera_out_ends`` lets the
going-out plan put hand cards on the ends of the side's escaleras (:func:`out_plan`,
:func:`esc_hold`); all are bits of the head's ``log[13]`` (CANASTA.md 2026-12-04 15:35, 15:55).
"""
from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from simkit.core.deals import SALT, deal_loop
from simkit.core.records import record, seat_slot, slots
from simkit.core.registry import Metric
from simkit.core.rng import bounded
from simkit.engines.melds.stock import draw_stock, reset_stock
from simkit.engines.moves import put_event
from simkit.games.canasta.strategies import K_RANDOM, MIX, PARAMS, TWO_HAND_MIX, TWO_HAND_WILD_GAP

JOKER = 64
NC = 65
N_PACK = 108
NR = 16
R_JOKER, R_RED3, R_DEUCE, R_BLACK3 = 0, 1, 2, 3
MAX_LOG = 3000
NHEAD = 10
NOPT = 128
NSEQ = 12          # sequences per side (Samba family; meld ids 16 + k in the log)
SEQ_ID = 16
EV_DEAL, EV_UP, EV_RED3, EV_DRAW, EV_TAKE, EV_LAY, EV_DISCARD, EV_ASK, EV_OUT, EV_END, \
    EV_PILE, EV_LONE = range(1, 13)
LP = 3             # the log position's slot in W.st
O_STOP, O_OUT, O_NAT, O_WILD, O_NEW3, O_NEWW, O_NEWWM, O_SEQ, O_EXT = range(9)
WM = 2             # the meld rows' slot of a side's wild-card meld (deuces in MN, jokers in MW)

SEAT_HAND = ["points", "canasta_bonus", "red3", "out_bonus", "melded", "in_hand", "went_out",
             "takes", "net"]
SEAT_HAND3 = SEAT_HAND + ["lone"]     # three hands (cutthroat): the lone hand's flag
TAIL_HAND = ["turns", "stock_out"]
SEAT_GAME = ["win", "score"]
TAIL_GAME = ["hands"]
SH = slots(SEAT_HAND)
SG = slots(SEAT_GAME)
NSH, NSG = len(SEAT_HAND), len(SEAT_GAME)
DOCS = {"points": "the side's score of the hand (bonuses + red threes + melded - in hand)",
        "canasta_bonus": "the side's canasta bonuses (natural 500, mixed 300; Cuban wild "
                          "2000/3000/4000; Samba family sequence 1500, Bolivia wild 2500; "
                          "Brazilian: less 1000 per incomplete wild meld or sequence)",
        "red3": "the side's red threes (100 each, 800 all four; minus without a meld; Cuban: "
                "every three, by colour 100/300/500/1000, minus without a canasta)",
        "out_bonus": "the side's going-out bonus (100, concealed 200)",
        "melded": "the values of the side's melded cards",
        "in_hand": "the values of the cards left in the side's hands (counted minus)",
        "went_out": "this seat went out", "takes": "times this seat took the discard pile",
        "net": "the seat's points minus the most any opponent scored (two sides: our side's "
               "points minus theirs; the hand's objective, what a game to 5000 is won by)",
        "lone": "this seat was the lone hand (cutthroat: the first to take the pile, or to go "
                "out before any take)",
        "turns": "turns played in the hand", "stock_out": "the hand ended with nobody out",
        "win": "the side won the game", "score": "the side's final total", "hands": "hands played"}
UNITS = {"points": "points per hand", "canasta_bonus": "points per hand",
         "red3": "points per hand", "out_bonus": "points per hand", "melded": "points per hand",
         "in_hand": "points per hand", "went_out": "share of hands (0..1)",
         "takes": "takes per hand", "net": "points per hand", "lone": "share of hands (0..1)", "turns": "turns per hand",
         "stock_out": "share of hands (0..1)", "win": "share of games (0..1)",
         "score": "points per game", "hands": "hands per game"}
BINARY = {"went_out", "stock_out", "win", "lone"}


def tables():
    """Rank index and value by card code; value by rank index (READINGS 3.1: joker 50; A, 2 20;
    K..8 10; 7..4 and black 3 5; a red three scores as a bonus, 0 here)."""
    ri = np.zeros(NC, np.int64)
    for s in range(4):
        for r in range(2, 15):
            c = s * 16 + r
            ri[c] = (R_RED3 if s in (1, 2) else R_BLACK3) if r == 3 else r
    ri[JOKER] = R_JOKER
    rv = np.array([50, 0, 20, 5] + [5] * 4 + [10] * 6 + [20, 0], np.int64)
    return ri, rv


RI, RV = tables()


def make_deck(rules=None) -> np.ndarray:
    """Two decks and four jokers (108 cards); ``decks=3``: three and six (162, Samba 003:72)."""
    k = 2 if rules is None else rules.decks
    one = [s * 16 + r for s in range(4) for r in range(2, 15)]
    return np.array(sorted(one * k) + [JOKER] * (2 * k), np.uint8)


class Table(NamedTuple):
    players: int
    hand_size: int
    draw: int
    need: int             # canastas to go out
    cont: bool            # stock_end=continue
    max_wild: int
    wle: bool             # wild_le_natural
    always_frozen: bool
    minus_canasta: bool   # red_threes_minus=no_canasta
    going_out: int
    concealed: int
    nat_can: int
    mix_can: int
    game: bool
    game_to: int
    max_turns: int
    max_hands: int
    cut: bool             # three hands, the lone hand (cutthroat, 003:57-59)
    nsh: int              # per-seat hand metrics (len(SEAT_HAND) or len(SEAT_HAND3))
    wild_melds: bool      # melds of wild cards only (Cuban, 003:84)
    wild_can: int         # their canasta bonuses: any, all four jokers, seven deuces
    wild_can_j: int
    wild_can_d: int
    cap: int              # most cards in a meld (canasta_max; 0: no limit -> 1000)
    b3faced: bool         # black_threes=faced (Cuban): every three faced and replaced
    r3cuban: bool         # red3_table=cuban: per colour 100/300/500/1000
    init: int             # initial_table: 0 classic, 1 cuban, 2 cuban_rg, 3 samba, 4 samba160,
                          # 5 brazilian (samba below 7000, then a canasta required, 003:83)
    samba: bool           # decks=3: sequences and Samba's pile rules (003:74-78)
    seq_can: int          # the bonus of a samba (sequence_canasta)
    r3samba: bool         # red3_table=samba: 100 each, 1000 for all six
    wcap: int             # a wild card joins only a group of fewer cards (Samba 7: none on a
                          # canasta; else cap)
    npack: int            # cards in the pack (108, 162)
    nhead: int            # entries of the log's head (NHEAD; 14 with decks=3)
    wmcap: int            # most cards in the wild-card meld (7 with decks=3: a bolivia is
                          # closed, READINGS 3.5; else cap)
    esc: bool             # escalera_required: a sequence canasta among those to go out
    b3pen: int            # black_three_penalty: each black three in a hand when one goes out
    variant: int          # the log head's variant: 1 samba, 2 bolivia, 3 brazilian (decks=3)
    r3brazil: bool        # red3_table=brazilian: 100 each to four, five 1000, six 1200
    incpen: int           # incomplete_penalty: 0 none, 1 text, 2 bicycle_seq_lt5
    init_take: bool       # initial_pile_take: the pile may be taken for a side's initial meld
    ask_always: bool      # ask_partner=always (Bicycle's Brazilian, READINGS 3.6)
    esc_ends: bool        # escalera_out_ends: going out may add to an escalera's ends (Bicycle)


class Seats(NamedTuple):
    """The strategies, the house's record (:func:`~simkit.core.records.seat_arrays`): per seat
    the kind code and each parameter of :data:`~simkit.games.canasta.strategies.PARAMS` (a
    random seat gets the defaults).  :func:`play_deal` reads it once per deal into one
    :class:`Seat` per seat (scalars: the per-turn helpers count no references, jit rule 2)."""
    kind: np.ndarray
    b50: np.ndarray
    b90: np.ndarray
    b120: np.ndarray
    take_min: np.ndarray
    take_min2: np.ndarray
    pairs: np.ndarray
    wild_gap: np.ndarray
    freeze: np.ndarray
    b3_pile: np.ndarray
    feed: np.ndarray
    go_out: np.ndarray
    ask: np.ndarray
    ask_max: np.ndarray
    lone_min: np.ndarray
    wmeld: np.ndarray
    seq_min: np.ndarray
    seq_keep: np.ndarray
    seq_take: np.ndarray
    seq_out: np.ndarray
    seq_first: np.ndarray


class Seat(NamedTuple):
    """One seat's strategy as scalars (the fields of :class:`Seats`); the helpers get ``Q``, a
    tuple of four (seats beyond the table repeat the last), and read ``Q[p].field``."""
    kind: int
    b50: int
    b90: int
    b120: int
    take_min: int
    take_min2: int
    pairs: int
    wild_gap: int
    freeze: int
    b3_pile: int
    feed: int
    go_out: int
    ask: int
    ask_max: int
    lone_min: int
    wmeld: int
    seq_min: int
    seq_keep: int
    seq_take: int
    seq_out: int
    seq_first: int


if Seats._fields != Seat._fields or Seats._fields[1:] != tuple(q.name for q in PARAMS):
    raise ImportError("canasta: Seats/Seat out of step with strategies.PARAMS")


# two-hand's mixed default (strategies.TWO_HAND_MIX): a lever at MIX takes, each hand, the value
# of one pair drawn for the seat's role (row 0: eldest, who plays first; row 1: the dealer) with
# these integer weights; module constants (jit rule 1), spelled out here so that a change
# recompiles this file's cache, and checked against the strategies' table
MIX_TAKE = np.array([[5, 5, 3], [5, 3, 3]], np.int64)     # take_min2 of each pair
MIX_B3 = np.array([[2, 4, 2], [3, 2, 2]], np.int64)       # b3_pile of each pair
MIX_CUM = np.array([[8, 16, 20], [7, 11, 11]], np.int64)  # cumulative weights (a repeat: none)
MIX_SALT = np.uint64(0xBB67AE8584CAA73B)  # the mixture's stream: key ^ MIX_SALT (not the cards')
MIX_GAP = np.array([0, 1], np.int64)  # wild_gap at MIX: each role's (TWO_HAND_WILD_GAP)


def _mix_table():
    """The constants above as :data:`~simkit.games.canasta.strategies.TWO_HAND_MIX` spells it."""
    out = {}
    for row, role in enumerate(("eldest", "dealer")):
        w = np.diff(MIX_CUM[row], prepend=0)
        out[role] = tuple((int(t), int(b), int(x)) for t, b, x in
                          zip(MIX_TAKE[row], MIX_B3[row], w) if x > 0)
    return out


if _mix_table() != TWO_HAND_MIX or tuple(MIX_GAP) != tuple(TWO_HAND_WILD_GAP.values()):
    raise ImportError("canasta: engine.MIX_* out of step with strategies.TWO_HAND_MIX/_WILD_GAP")


@njit(cache=True, nogil=True)
def mixed_seat(S, k, role, j):
    """Seat ``k``'s :class:`Seat` with ``take_min2``/``b3_pile`` at :data:`MIX` replaced by the
    pair ``j`` of ``role``'s mixture and ``wild_gap`` at MIX by ``role``'s value (a lever given
    explicitly is kept)."""
    t = MIX_TAKE[role, j] if S.take_min2[k] == MIX else S.take_min2[k]
    b = MIX_B3[role, j] if S.b3_pile[k] == MIX else S.b3_pile[k]
    g = MIX_GAP[role] if S.wild_gap[k] == MIX else S.wild_gap[k]
    return Seat(S.kind[k], S.b50[k], S.b90[k], S.b120[k], S.take_min[k], t, S.pairs[k], g,
                S.freeze[k], b, S.feed[k], S.go_out[k], S.ask[k], S.ask_max[k], S.lone_min[k],
                S.wmeld[k], S.seq_min[k], S.seq_keep[k], S.seq_take[k], S.seq_out[k],
                S.seq_first[k])


@njit(cache=True, nogil=True)
def seat_tuple(S, K):
    """Every seat's :class:`Seat` (four: seats beyond the table repeat the last); a lever at
    :data:`MIX` plays the first pair of the eldest's mixture (for callers of :func:`play_hand`
    that draw none; :func:`play_deal` draws one per seat and hand, :func:`hand_seats`)."""
    return (mixed_seat(S, 0, 0, 0), mixed_seat(S, 1, 0, 0), mixed_seat(S, min(2, K - 1), 0, 0),
            mixed_seat(S, min(3, K - 1), 0, 0))


@njit(cache=True, nogil=True)
def mix_pick(m, role):
    """A pair of ``role``'s mixture drawn with its weight from the splitmix state ``m``:
    ``(j, m)``."""
    v, m = bounded(m, MIX_CUM[role, -1])
    j = 0
    while v >= MIX_CUM[role, j]:
        j += 1
    return j, m


@njit(cache=True, nogil=True)
def hand_seats(S, K, dealer, m):
    """The seats for one hand dealt by ``dealer`` (as :func:`seat_tuple`) and the mixture
    stream ``m`` after it: every seat draws a pair each hand for its role (the dealer's, else
    the eldest's), mixing or not, so that a seat's pairs do not depend on the other seats'
    strategies; a seat plays its pair only on levers at :data:`MIX`."""
    r0, r1, r2, r3 = int(dealer == 0), int(dealer == 1), int(dealer == 2), int(dealer == 3)
    j0, m = mix_pick(m, r0)
    j1, m = mix_pick(m, r1)
    j2, m = mix_pick(m, r2)
    j3, m = mix_pick(m, r3)
    return (mixed_seat(S, 0, r0, j0), mixed_seat(S, 1, r1, j1),
            mixed_seat(S, min(2, K - 1), r2, j2), mixed_seat(S, min(3, K - 1), r3, j3)), m


class Work(NamedTuple):
    """A kernel call copies and reference-counts every array of its records, so the state lives
    in few arrays (measured: :func:`out_plan` took 145 ns a call with 22 arrays, 62 with 6)."""
    pk: np.ndarray        # int64[3, 108]: the pack (or the stacked deck) in order, the stock
                          # (drawn from st[0] on), the pile (st[2] cards)
    stacked: bool
    cd: np.ndarray        # int64[8, 65]: by card code: the seats' hands (rows 0..3), the
                          # sides' melded cards (MC + side), the faced red threes (FC)
    rk: np.ndarray        # int64[13, 16]: by rank index: the seats' hands (rows 0..3), the
                          # sides' melds' naturals (MN + side) and wilds (MW + side), the plan of
                          # cards to lay (PL: naturals, PL + 1: jokers, PL + 2: deuces)
    st: np.ndarray        # int64[NST]: the scalars (ST_* below) and small vectors (HN.. PTS)
    opts: np.ndarray      # int64[NOPT, 2]: a random decision's options (kind, rank)
    rs: np.ndarray        # uint64[2]: the card stream and the strategy stream


# W.st: 0 stock top, 1 stock end, 2 pile size, 3 log position, 4 turns, 5 pile frozen, 6 value
# laid this turn, 7 side melded before the turn, 8 seat laid before the turn, 9 partner said no,
# 10 seat out (-1), 11 concealed; then per seat (HN, R3, LAID, TAKES, MINS, SCORES, SIDE) or per
# side (MVAL, MELDED; NSIDE sides: three hands start as three sides, see make_lone):
NSIDE = 3
HN, MVAL, R3, MELDED, LAID, TAKES, MINS, SCORES, PTS = 12, 16, 19, 23, 26, 30, 34, 38, 42
SIDE = PTS + 24       # PTS + 6 * seat + part: points, canasta, red threes, out, melded, in hand
LONE = SIDE + 4       # SIDE + seat: the seat's side; LONE: the lone hand (-1: none yet)
NODISC = LONE + 1     # this turn may not discard (a red three was the stock's last card)
B3 = NODISC + 1       # B3 + seat: black threes faced (black_threes=faced)
SQ = B3 + 4           # SQ + 3 * (NSEQ * side + k) + (0 suit, 1 low rank, 2 high rank): sequences
SQN = SQ + 3 * NSEQ * NSIDE     # SQN + side: sequences the side started
TSEQ = SQN + NSIDE    # the sequence a pile take's top card extends (-1: none)
REQ = TSEQ + 1        # REQ + seat: Brazilian's canasta requirement of its initial meld (0 none,
                      # 1 a canasta, 2 a canasta and 200 over the meld, 3 a natural canasta)
ESC = REQ + 4         # escalera_out_ends: ESC the number of hand cards planned onto escaleras'
                      # ends for going out, ESC + 1 + j: the j-th as 256 * sequence + card
NST = ESC + 1 + NSEQ
MC, FC = 4, 7
MN, MW, PL = 4, 7, 10


def table(rules) -> Table:
    return record(Table, players=rules.players, hand_size=rules.hand_size, draw=rules.draw,
                  need=rules.canastas_to_out, cont=rules.stock_end == "continue",
                  max_wild=rules.max_wild, wle=rules.wild_le_natural,
                  always_frozen=rules.pile_always_frozen,
                  minus_canasta=rules.red_threes_minus == "no_canasta",
                  going_out=rules.going_out, concealed=rules.concealed,
                  nat_can=rules.natural_canasta, mix_can=rules.mixed_canasta,
                  game=rules.unit == "game", game_to=rules.game_to, max_turns=rules.max_turns,
                  max_hands=rules.max_hands, cut=rules.players == 3 and rules.lone_hand,
                  nsh=len(SEAT_HAND3) if rules.players == 3 else len(SEAT_HAND),
                  wild_melds=rules.wild_melds, wild_can=rules.wild_canasta,
                  wild_can_j=rules.wild_canasta_jokers, wild_can_d=rules.wild_canasta_deuces,
                  cap=rules.canasta_max or 1000, b3faced=rules.black_threes == "faced",
                  r3cuban=rules.red3_table == "cuban",
                  init=3 if rules.initial_table == "bolivia" else (
                      "classic", "cuban", "cuban_rg", "samba", "samba160", "brazilian").index(
                      rules.initial_table),
                  samba=rules.decks == 3, seq_can=rules.sequence_canasta,
                  r3samba=rules.red3_table == "samba",
                  wcap=7 if rules.decks == 3 else (rules.canasta_max or 1000),
                  npack=54 * rules.decks, nhead=nhead(rules),
                  wmcap=7 if rules.decks == 3 else (rules.canasta_max or 1000),
                  esc=rules.escalera_required, b3pen=rules.black_three_penalty,
                  variant=3 if rules.initial_table == "brazilian" else 2 if rules.wild_melds
                  else 1, r3brazil=rules.red3_table == "brazilian",
                  incpen=("none", "text", "bicycle_seq_lt5").index(rules.incomplete_penalty),
                  init_take=rules.initial_pile_take, ask_always=rules.ask_partner == "always",
                  esc_ends=rules.escalera_out_ends)


def nhead(rules) -> int:
    """The log head's length: :data:`NHEAD`, and four more with ``decks=3`` (CANASTA.md,
    2026-12-04 12:35 note: decks, sequences, variant, wild_melds)."""
    return NHEAD + 4 if rules.decks == 3 else NHEAD


def work(rules, stacked=None) -> Work:
    d = make_deck(rules) if stacked is None else np.asarray(stacked, np.int64)
    pk = np.zeros((3, 54 * rules.decks), np.int64)
    pk[0] = d.astype(np.int64)
    return record(Work, pk=pk, stacked=stacked is not None, cd=np.zeros((8, NC), np.int64),
                  rk=np.zeros((13, NR), np.int64), st=np.zeros(NST, np.int64),
                  opts=np.zeros((NOPT, 2), np.int64), rs=np.zeros(2, np.uint64))


def metrics(rules) -> list[Metric]:
    game = rules.unit == "game"
    seat, tail = (SEAT_GAME, TAIL_GAME) if game else (SEAT_HAND, TAIL_HAND)
    if not game and rules.players == 3:
        seat = SEAT_HAND3
    out = [Metric(f"p{k + 1}_{n}", binary=n in BINARY, doc=f"p{k + 1}: " + DOCS[n], unit=UNITS[n])
           for k in range(rules.players) for n in seat]
    return out + [Metric(n, binary=n in BINARY, doc=DOCS[n], unit=UNITS[n]) for n in tail]


def log_columns(rules) -> list[str]:
    return ["dealer", "events", "players", "hand_size", "draw", "canastas_to_out", "stock_end",
            "minimum_0", "minimum_1", "max_wild"] + (
                ["decks", "sequences", "variant", "wild_melds"] if rules.decks == 3 else []) + [
                f"event_{j}" for j in range(MAX_LOG)]


# --------------------------------------------------------------------------- cards

@njit(cache=True, nogil=True, inline="always")
def add_card(W, p, c):
    W.cd[p, c] += 1
    W.rk[p, RI[c]] += 1
    W.st[HN + p] += 1


@njit(cache=True, nogil=True, inline="always")
def drop_card(W, p, c):
    W.cd[p, c] -= 1
    W.rk[p, RI[c]] -= 1
    W.st[HN + p] -= 1


@njit(cache=True, nogil=True)
def code_of(W, p, r):
    """A card of rank index ``r`` in seat ``p``'s hand (-1: none)."""
    if r == R_JOKER:
        return JOKER if W.cd[p, JOKER] > 0 else -1
    for s in range(4):
        c = s * 16 + (3 if r == R_RED3 or r == R_BLACK3 else r)
        if W.cd[p, c] > 0 and RI[c] == r:
            return c
    return -1


@njit(cache=True, nogil=True, inline="always")
def is_wild_r(r):
    return r == R_JOKER or r == R_DEUCE


@njit(cache=True, nogil=True, inline="always")
def bonus3(R, r):
    """Is rank index ``r`` a three faced and replaced when drawn (red; black too with
    ``black_threes=faced``, Cuban 003:84)?"""
    return r == R_RED3 or (R.b3faced and r == R_BLACK3)


@njit(cache=True, nogil=True, inline="always")
def meld_size(W, s, r):
    """Cards in side ``s``'s meld of rank ``r`` with those planned (``W.rk[PL:PL + 3]``)."""
    return W.rk[MN + s, r] + W.rk[MW + s, r] + W.rk[PL, r] + W.rk[PL + 1, r] + W.rk[PL + 2, r]


@njit(cache=True, nogil=True, inline="always")
def frozen(R, W):
    return R.always_frozen or W.st[5] != 0


@njit(cache=True, nogil=True)
def canastas(W, s):
    n = sambas(W, s) + (1 if W.rk[MN + s, WM] + W.rk[MW + s, WM] >= 7 else 0)
    for r in range(4, 15):
        if W.rk[MN + s, r] + W.rk[MW + s, r] >= 7:
            n += 1
    return n


@njit(cache=True, nogil=True)
def hand_value(W, p):
    t = 0
    for r in range(NR):
        t += W.rk[p, r] * RV[r]
    return t


@njit(cache=True, nogil=True, inline="always")
def to_meld(W, p, m, c, log, i):
    """Card ``c`` (out of seat ``p``'s hand already, or the pile's top card) joins the side's
    meld of rank ``m``."""
    s = W.st[SIDE + p]
    r = RI[c]
    if m == WM and r == R_DEUCE:        # a wild-card meld's deuces count in its MN row
        W.rk[MN + s, m] += 1
    elif r == R_JOKER or r == R_DEUCE:
        W.rk[MW + s, m] += 1
    else:
        W.rk[MN + s, m] += 1
    W.cd[MC + s, c] += 1
    W.st[MVAL + s] += RV[r]
    W.st[6] += RV[r]
    W.st[LAID + p] = 1
    W.st[MELDED + s] = 1
    put_event(log, i, W.st, LP, EV_LAY, p, m, c)


@njit(cache=True, nogil=True)
def lay(W, p, c, from_hand, log, i):
    """Seat ``p`` lays the natural ``c`` on its side's meld of ``c``'s rank (from its hand, or
    the pile's top card)."""
    if from_hand:
        drop_card(W, p, c)
    to_meld(W, p, RI[c], c, log, i)


@njit(cache=True, nogil=True)
def lay_wild(W, p, m, joker, log, i):
    """Seat ``p`` lays a wild card (a joker when ``joker`` and one is held, else a deuce, else a
    joker) on its side's meld of rank ``m``."""
    r = R_JOKER if (joker and W.rk[p, R_JOKER] > 0) or W.rk[p, R_DEUCE] == 0 else R_DEUCE
    c = code_of(W, p, r)
    drop_card(W, p, c)
    to_meld(W, p, m, c, log, i)


@njit(cache=True, nogil=True)
def lay_natural(W, p, r, log, i):
    lay(W, p, code_of(W, p, r), True, log, i)


@njit(cache=True, nogil=True)
def wild_room(R, nat, wild):
    """Wild cards a meld of ``nat`` naturals and ``wild`` wilds can still take."""
    cap = R.max_wild
    if R.wle and nat < cap:
        cap = nat
    return cap - wild


# --------------------------------------------------------------------------- sequences

@njit(cache=True, nogil=True, inline="always")
def seq_len(W, s, k):
    b = SQ + 3 * (NSEQ * s + k)
    return W.st[b + 2] - W.st[b + 1] + 1


@njit(cache=True, nogil=True)
def sambas(W, s):
    """Side ``s``'s sambas (sequences of seven, 003:74)."""
    n = 0
    for k in range(W.st[SQN + s]):
        if seq_len(W, s, k) >= 7:
            n += 1
    return n


@njit(cache=True, nogil=True)
def seq_end(W, s, k, hi):
    """The card that extends side ``s``'s sequence ``k`` below (``hi`` 0) or above (1): -1 past
    4 or the ace, or when the sequence is a samba (closed, 003:74)."""
    b = SQ + 3 * (NSEQ * s + k)
    if W.st[b + 2] - W.st[b + 1] + 1 >= 7:
        return -1
    r = W.st[b + 2] + 1 if hi else W.st[b + 1] - 1
    if r < 4 or r > 14:
        return -1
    return W.st[b] * 16 + r


@njit(cache=True, nogil=True)
def seq_for(W, s, c):
    """The first sequence of side ``s`` that card ``c`` extends (-1: none)."""
    for k in range(W.st[SQN + s]):
        if seq_end(W, s, k, 0) == c or seq_end(W, s, k, 1) == c:
            return k
    return -1


@njit(cache=True, nogil=True)
def to_seq(W, p, k, c, log, i):
    """Card ``c`` (out of seat ``p``'s hand already, or the pile's top card) joins the side's
    sequence ``k``; ``k`` = the number of sequences the side has starts one (its cards follow
    in ascending order).  Logged as a lay on meld id ``SEQ_ID + k``."""
    s = W.st[SIDE + p]
    b = SQ + 3 * (NSEQ * s + k)
    r = c & 15
    if k == W.st[SQN + s]:
        W.st[SQN + s] += 1
        W.st[b], W.st[b + 1], W.st[b + 2] = c >> 4, r, r
    elif r < W.st[b + 1]:
        W.st[b + 1] = r
    else:
        W.st[b + 2] = r
    W.cd[MC + s, c] += 1
    W.st[MVAL + s] += RV[r]
    W.st[6] += RV[r]
    W.st[LAID + p] = 1
    W.st[MELDED + s] = 1
    put_event(log, i, W.st, LP, EV_LAY, p, SEQ_ID + k, c)


@njit(cache=True, nogil=True)
def seq_options(W, p, s, k):
    """The random player's sequence lays, appended to ``W.opts`` from ``k``: extending a
    sequence of the side at either end (``O_EXT``, ``2 * seq + end``), starting one of three
    cards held (``O_SEQ``, its lowest card); keeping two cards."""
    if W.st[HN + p] >= 3:
        for q in range(W.st[SQN + s]):
            for hi in range(2):
                c = seq_end(W, s, q, hi)
                if c >= 0 and W.cd[p, c] > 0:
                    W.opts[k, 0], W.opts[k, 1] = O_EXT, 2 * q + hi
                    k += 1
    if W.st[HN + p] >= 5 and W.st[SQN + s] < NSEQ:
        for u in range(4):
            for r in range(4, 13):
                c = u * 16 + r
                if W.cd[p, c] > 0 and W.cd[p, c + 1] > 0 and W.cd[p, c + 2] > 0:
                    W.opts[k, 0], W.opts[k, 1] = O_SEQ, c
                    k += 1
    return k


@njit(cache=True, nogil=True)
def seq_extend(W, p, keep, log, i):
    """Extend seat ``p``'s side's sequences with every card held that fits (in turn, so a run
    held goes on card by card) while the hand holds more than ``keep`` cards."""
    s = W.st[SIDE + p]
    more = True
    while more:
        more = False
        for q in range(W.st[SQN + s]):
            for hi in range(2):
                c = seq_end(W, s, q, hi)
                if c >= 0 and W.cd[p, c] > 0 and W.st[HN + p] > keep:
                    drop_card(W, p, c)
                    to_seq(W, p, q, c, log, i)
                    more = True


@njit(cache=True, nogil=True)
def seq_lays(Q, W, p, log, i):
    """The baseline's sequences (Samba): extend the side's sequences with every card held that
    fits, then start one from each run of ``seq_min`` or more cards of a suit held (up to
    seven); always keeping two cards."""
    s = W.st[SIDE + p]
    seq_extend(W, p, 2, log, i)
    m = Q[p].seq_min
    if m < 3:
        return
    for u in range(4):
        r = 4
        while r <= 14:
            n = 0
            while r + n <= 14 and W.cd[p, u * 16 + r + n] > 0:
                n += 1
            n = min(n, 7)
            if n >= m and W.st[HN + p] - n >= 2 and W.st[SQN + s] < NSEQ:
                k = W.st[SQN + s]
                for d in range(n):
                    drop_card(W, p, u * 16 + r + d)
                    to_seq(W, p, k, u * 16 + r + d, log, i)
            r += max(n, 1)


# --------------------------------------------------------------------------- stock, deal

@njit(cache=True, nogil=True)
def face_red3(W, p, c, from_pile, log, i):
    """A three faced (red; black with ``black_threes=faced``), counted by colour."""
    W.cd[FC, c] += 1
    W.st[(B3 if RI[c] == R_BLACK3 else R3) + p] += 1
    put_event(log, i, W.st, LP, EV_RED3, p, from_pile, c)


@njit(cache=True, nogil=True)
def draw_card(R, W, p, aux, log, i):
    """Seat ``p`` draws from the stock; a red three is faced and replaced.  Returns 0; -1 when a
    red three was the stock's last card (the hand ends after this turn's lays, no discard); -2
    when the stock was empty."""
    c = draw_stock(W.pk[1], W.st, W.rs, W.stacked)
    if c < 0:
        return -2
    put_event(log, i, W.st, LP, EV_DRAW, p, aux, c)
    while bonus3(R, RI[c]):
        face_red3(W, p, c, 0, log, i)
        c = draw_stock(W.pk[1], W.st, W.rs, W.stacked)
        if c < 0:
            return -1
        put_event(log, i, W.st, LP, EV_DRAW, p, 1, c)
    add_card(W, p, c)
    return 0


@njit(cache=True, nogil=True)
def minimum(R, sc):
    """The initial meld's minimum at score ``sc``: classic 15/50/90/120 (READINGS 3.1); cuban
    95 below 3000 (negative scores too), 125 to 4995, 155 from 5000 (003:84); cuban_rg 150 from
    5000 (READINGS 3.7, rummy-games); brazilian: samba's rows to 6995, then 0 from 7000, 200
    from 8000 (over the meld's cards, with a canasta), 0 from 9000 (the canasta requirement of
    :func:`requirement` replaces the count, 003:83)."""
    if R.init == 5:
        if sc < 7000:
            return 15 if sc < 0 else 50 if sc < 1500 else 90 if sc < 3000 else 120
        return 200 if 8000 <= sc < 9000 else 0
    if R.init == 0 or R.init >= 3:     # samba: 150 from 7000 (003:77), samba160 160
        if R.init == 0 or sc < 7000:
            return 15 if sc < 0 else 50 if sc < 1500 else 90 if sc < 3000 else 120
        return 150 if R.init == 3 else 160
    if sc < 3000:
        return 95
    if sc < 5000:
        return 125
    return 155 if R.init == 1 else 150


@njit(cache=True, nogil=True)
def requirement(R, sc):
    """Brazilian's canasta requirement of the initial meld at score ``sc`` (003:83): 0 none
    (below 7000, or not Brazilian), 1 a canasta (7000), 2 a canasta, the meld counting 200 or
    more (8000; the count is :func:`minimum`'s), 3 a natural canasta (9000)."""
    if R.init != 5 or sc < 7000:
        return 0
    return 1 if sc < 8000 else 2 if sc < 9000 else 3


@njit(cache=True, nogil=True)
def deal(R, W, dealer, log, i):
    """Deal ``hand_size`` each one at a time from the dealer's left, turn the upcard (covered
    while it is wild or a red three: the pile is then frozen), face the dealt red threes; the
    initial minimums from the scores (a seat's score: its side's; three hands: its own, 003:57);
    each seat's side (``p % 2``; three hands: its own until the lone hand is known)."""
    K = R.players
    for p in range(K):
        sc = W.st[SCORES + p]
        W.st[MINS + p] = minimum(R, sc)
        W.st[REQ + p] = requirement(R, sc)
        W.st[SIDE + p] = p if K == 3 else p % 2
        W.st[R3 + p] = 0
        W.st[B3 + p] = 0
    W.st[LONE] = -1
    reset_stock(W.pk[1], W.st, W.pk[0])
    for k in range(2, 12):
        W.st[k] = 0
    for k in range(SQ, TSEQ):
        W.st[k] = 0
    W.st[TSEQ] = -1
    W.st[LP] = R.nhead
    W.st[10] = -1
    for s in range(NSIDE):
        W.st[MVAL + s] = 0
        W.st[MELDED + s] = 0
        for r in range(NR):
            W.rk[MN + s, r] = 0
            W.rk[MW + s, r] = 0
        for c in range(NC):
            W.cd[MC + s, c] = 0
    for c in range(NC):
        W.cd[FC, c] = 0
    for p in range(K):
        for c in range(NC):
            W.cd[p, c] = 0
        for r in range(NR):
            W.rk[p, r] = 0
        W.st[HN + p] = 0
        W.st[LAID + p] = 0
        W.st[TAKES + p] = 0
    for j in range(R.hand_size * K):
        c = draw_stock(W.pk[1], W.st, W.rs, W.stacked)
        p = (dealer + 1 + j) % K
        add_card(W, p, c)
        put_event(log, i, W.st, LP, EV_DEAL, p, j // K, c)
    while True:
        c = draw_stock(W.pk[1], W.st, W.rs, W.stacked)
        W.pk[2, W.st[2]] = c
        W.st[2] += 1
        put_event(log, i, W.st, LP, EV_UP, 0, 0, c)
        r = RI[c]
        if not (is_wild_r(r) or bonus3(R, r)):
            break
        W.st[5] = 1
    for j in range(K):
        p = (dealer + 1 + j) % K
        while W.rk[p, R_RED3] > 0 or (R.b3faced and W.rk[p, R_BLACK3] > 0):
            c = code_of(W, p, R_RED3 if W.rk[p, R_RED3] > 0 else R_BLACK3)
            drop_card(W, p, c)
            face_red3(W, p, c, 0, log, i)
            if draw_card(R, W, p, 1, log, i) < 0:
                break


# --------------------------------------------------------------------------- plans

@njit(cache=True, nogil=True)
def clear_plan(W):
    for k in range(3):
        for r in range(NR):
            W.rk[PL + k, r] = 0


@njit(cache=True, nogil=True)
def plan_cards(W):
    t = 0
    for k in range(3):
        for r in range(NR):
            t += W.rk[PL + k, r]
    return t


@njit(cache=True, nogil=True)
def fill_step(R, W, p, t):
    """One greedy step of :func:`initial_fill`: the addition worth most per card, naturals first
    on ties (a natural on a planned meld, a new meld of three naturals; then a joker or a deuce
    on a planned meld, a new meld of a pair and a wild); returns its value, 0 when none is left."""
    s = W.st[SIDE + p]
    h = W.rk[p]
    jk = h[R_JOKER] - W.rk[PL + 1, 0]
    du = h[R_DEUCE] - W.rk[PL + 2, 0]
    jk -= W.rk[PL + 1, WM]             # a planned wild-card canasta (Brazilian, canasta_seed)
    du -= W.rk[PL + 2, WM]
    for r in range(4, 15):
        jk -= W.rk[PL + 1, r]
        du -= W.rk[PL + 2, r]
    bk, br, bv, bs = -1, 0, 0, 0
    for ps in range(2):
        for r in range(4, 15):
            nat = W.rk[MN + s, r] + W.rk[PL + 0, r] + (1 if r == t else 0)
            wild = W.rk[MW + s, r] + W.rk[PL + 1, r] + W.rk[PL + 2, r]
            left = h[r] - W.rk[PL + 0, r]
            k, v, n = -1, 0, 1
            if nat >= 2 and nat + wild < R.cap:
                if ps == 0 and left > 0:
                    k, v = 2, RV[r]
                elif ps == 1 and wild_room(R, nat, wild) > 0 and jk + du > 0 and \
                        nat + wild < R.wcap:
                    k, v = (0, 50) if jk > 0 else (1, 20)
            elif nat == 0:
                if ps == 0 and left >= 3:
                    k, v, n = 3, 3 * RV[r], 3
                elif ps == 1 and left == 2 and jk + du > 0 and wild_room(R, 2, 0) > 0:
                    k, v, n = 4, 2 * RV[r] + (50 if jk > 0 else 20), 3
            if k >= 0 and (6 * v) // n > bs:
                bk, br, bv, bs = k, r, v, (6 * v) // n
    if bk < 0:
        return 0
    if bk == 0:
        W.rk[PL + 1, br] += 1
    elif bk == 1:
        W.rk[PL + 2, br] += 1
    elif bk == 2:
        W.rk[PL + 0, br] += 1
    elif bk == 3:
        W.rk[PL + 0, br] += 3
    else:
        W.rk[PL + 0, br] += 2
        if jk > 0:
            W.rk[PL + 1, br] += 1
        else:
            W.rk[PL + 2, br] += 1
    return bv


@njit(cache=True, nogil=True)
def initial_fill(R, W, p, t, need):
    """The plan of an initial meld (``W.rk[PL:PL + 3]``) reaching ``need`` greedily, the most
    value per card first: with the pile's top card of rank ``t`` (-1: none) and a natural pair of
    it from the hand.  Returns the plan's value (the top card's included), or a bound below
    ``need`` when even every natural of a pair or more and every wild card fall short; -1 when
    the seat's side must meld a canasta first (Brazilian from 7000) and the hand cannot
    (:func:`canasta_seed`)."""
    h = W.rk[p]
    ub = h[R_JOKER] * 50 + h[R_DEUCE] * 20 + (RV[t] if t >= 0 else 0)
    for r in range(4, 15):
        if h[r] >= 2 or r == t:
            ub += h[r] * RV[r]
    clear_plan(W)
    if ub < need:
        return ub
    v = 0
    if W.st[REQ + p] > 0:
        v = canasta_seed(R, W, p, t, W.st[REQ + p])
        if v < 0:
            clear_plan(W)
            return -1
    elif t >= 0:
        W.rk[PL + 0, t] = 2
        v = 3 * RV[t]
    for _ in range(40):
        if v >= need:
            break
        g = fill_step(R, W, p, t)
        if g == 0:
            break
        v += g
    return v


@njit(cache=True, nogil=True)
def canasta_seed(R, W, p, t, req):
    """Brazilian from 7000 (003:83): plan the canasta the initial meld must hold (``req``:
    :func:`requirement`), laid in this turn from the hand with the pile's top card of rank ``t``
    (-1: none; then a natural pair of it is planned too): the group of seven needing the fewest
    wild cards (at most ``max_wild``; none for a natural canasta, ``req`` 3), the higher rank on
    ties; else (``req`` 1, 2) a wild-card canasta of seven (deuces first).  Returns the plan's
    value (the top card's included), -1 when no canasta can be planned."""
    h = W.rk[p]
    nw = h[R_JOKER] + h[R_DEUCE]
    br, bw, bv = -1, 8, 0
    for r in range(4, 15):
        top = 1 if r == t else 0
        nat = min(h[r] + top, 7)
        if nat < 2 or (top and h[r] < 2):
            continue
        w = 7 - nat
        if w > 0 and (req == 3 or w > min(wild_room(R, nat, 0), nw)):
            continue
        if w < bw or (w == bw and RV[r] > bv):
            br, bw, bv = r, w, RV[r]
    v = 0
    if t >= 0:
        W.rk[PL + 0, t] = 2
        v = 3 * RV[t]
    if br >= 0:
        k = 7 - bw - (1 if br == t else 0)
        v += (k - W.rk[PL + 0, br]) * RV[br]
        W.rk[PL + 0, br] = k
        jk = h[R_JOKER]
        for _ in range(bw):
            if jk > 0:
                W.rk[PL + 1, br] += 1
                jk -= 1
                v += 50
            else:
                W.rk[PL + 2, br] += 1
                v += 20
        return v
    if req == 3 or not R.wild_melds or nw < 7:
        return -1
    d = min(h[R_DEUCE], 7)
    W.rk[PL + 2, WM] = d
    W.rk[PL + 1, WM] = 7 - d
    return v + 20 * d + 50 * (7 - d)


@njit(cache=True, nogil=True)
def req_met(R, W, s, req):
    """Does side ``s`` with the plan (:func:`out_plan`'s) hold the canasta ``req`` asks
    (:func:`requirement`; 3: a group of seven naturals or more and no wild card)?"""
    if req == 0:
        return True
    if req < 3:
        return plan_canastas(R, W, s, -1) >= 1
    for r in range(4, 15):
        if W.rk[MN + s, r] + W.rk[PL, r] >= 7 and \
                W.rk[MW + s, r] + W.rk[PL + 1, r] + W.rk[PL + 2, r] == 0:
            return True
    return False


@njit(cache=True, nogil=True)
def lay_plan(W, p, log, i):
    """Lay the plan (``W.rk[PL:PL + 3]``) (naturals first, then the wild cards, rank by rank)."""
    for r in range(NR):
        for _ in range(W.rk[PL + 0, r]):
            lay_natural(W, p, r, log, i)
        for _ in range(W.rk[PL + 1, r]):
            lay_wild(W, p, r, True, log, i)
        for _ in range(W.rk[PL + 2, r]):
            lay_wild(W, p, r, False, log, i)


@njit(cache=True, nogil=True)
def canastas_with_plan(W, s, t):
    """Canastas of side ``s``'s groups and wild-card meld with the plan, the top card of rank
    ``t`` (-1: none) on its group (sequences: :func:`seq_canastas`)."""
    n = 1 if meld_size(W, s, WM) >= 7 else 0
    for r in range(4, 15):
        tot = W.rk[MN + s, r] + W.rk[MW + s, r] + W.rk[PL, r] + W.rk[PL + 1, r] \
            + W.rk[PL + 2, r]
        if r == t:
            tot += 1
        if tot >= 7:
            n += 1
    return n


@njit(cache=True, nogil=True)
def seq_canastas(W, s):
    """Side ``s``'s sambas, a take's top card on the sequence ``W.st[TSEQ]`` (-1: none)
    included."""
    k = W.st[TSEQ]
    return sambas(W, s) + (1 if k >= 0 and seq_len(W, s, k) == 6 else 0)


@njit(cache=True, nogil=True)
def plan_canastas(R, W, s, t):
    """:func:`canastas_with_plan` and, with sequences, :func:`seq_canastas`."""
    n = canastas_with_plan(W, s, t)
    return n + seq_canastas(W, s) if R.samba else n


@njit(cache=True, nogil=True)
def enough(R, W, s, t):
    """Has side ``s`` with the plan (see :func:`plan_canastas`) the canastas to go out: the
    number needed, one of them a sequence canasta with ``escalera_required`` (Bolivia, 003:82)?"""
    if plan_canastas(R, W, s, t) < R.need:
        return False
    return not R.esc or seq_canastas(W, s) >= 1


# --------------------------------------------------------------------------- the pile

@njit(cache=True, nogil=True)
def take_forms(R, W, p):
    """The legal ways to take the pile, as bits: 1 add the top card to the side's meld, 2 a
    natural pair from the hand, 4 a natural and a wild, 8 add the top card alone to a sequence
    it extends (1, 4 and 8 only for a pile unfrozen for the side; Samba: no 4, and 1, 2 only on
    a group of fewer than seven, 003:78).  0: the pile cannot be taken (empty, a wild or black three on top)."""
    n = W.st[2]
    if n == 0:
        return 0
    top = W.pk[2, n - 1]
    t = RI[top]
    if t < 4:
        return 0
    s = W.st[SIDE + p]
    if not R.init_take and not W.st[MELDED + s]:    # Bicycle's Brazilian (READINGS 3.6)
        return 0
    f = 0
    size = W.rk[MN + s, t] + W.rk[MW + s, t]
    room = size < 7 or not R.samba      # Samba: the top card joins only a meld of fewer than 7
    if W.rk[p, t] >= 2 and size + 3 <= R.cap and room:
        f |= 2
    if W.st[MELDED + s] and not frozen(R, W):
        if W.rk[MN + s, t] > 0:
            if size < R.cap and room:
                f |= 1
        elif not R.samba and W.rk[p, t] >= 1 and W.rk[p, R_JOKER] + W.rk[p, R_DEUCE] > 0 \
                and wild_room(R, 2, 0) > 0:
            f |= 4
        if R.samba and seq_for(W, s, top) >= 0:
            f |= 8
    return f


@njit(cache=True, nogil=True)
def take_plan(R, W, p, form):
    """The plan of a take by ``form`` (1, 2, 4 or 8: ``W.st[TSEQ]``); for a side without a meld, the greedy initial
    fill to its minimum.  Returns whether the take is legal: the minimum reached and the taker
    left able to discard (two cards or more) or to go out (trap (b): no other hand-size limit)."""
    s = W.st[SIDE + p]
    n = W.st[2]
    t = RI[W.pk[2, n - 1]]
    W.st[TSEQ] = -1
    if form == 8:
        W.st[TSEQ] = seq_for(W, s, W.pk[2, n - 1])
        clear_plan(W)
        t = -1
    elif not W.st[MELDED + s]:
        if initial_fill(R, W, p, t, W.st[MINS + p]) < W.st[MINS + p]:
            return False
    else:
        clear_plan(W)
        if form == 2:
            W.rk[PL + 0, t] = 2
        elif form == 4:
            W.rk[PL + 0, t] = 1
            if W.rk[p, R_DEUCE] > 0:
                W.rk[PL + 2, t] = 1
            else:
                W.rk[PL + 1, t] = 1
    rest = n - 1
    for j in range(n - 1):
        if bonus3(R, RI[W.pk[2, j]]):
            rest -= 1
    left = W.st[HN + p] - plan_cards(W) + rest
    if R.ask_always:                  # partner may say no: the taker must keep a card to
        return left >= 2              # discard and one to hold (rules.py, ask_partner)
    if left >= 2 or enough(R, W, s, t):
        return True
    return left == 1 and rest == 0 and last_card_out(R, W, p, s, t)


@njit(cache=True, nogil=True)
def last_card_out(R, W, p, s, t):
    """A take that would leave seat ``p`` one card of its hand: legal when that card can be laid
    with the take (then in the plan) and the side then has the canastas to go out (trap (b);
    the referee's case: a take completing one canasta, the last card the other)."""
    for r in range(NR):
        held = W.rk[p, r] - W.rk[PL + 0, r]
        if r == R_JOKER:
            held = W.rk[p, r] - plan_wild(W, 1)
        elif r == R_DEUCE:
            held = W.rk[p, r] - plan_wild(W, 2)
        if held <= 0:
            continue
        if r >= 4:
            if (W.rk[MN + s, r] + W.rk[PL + 0, r] > 0 or r == t) and \
                    meld_size(W, s, r) + (1 if r == t else 0) < R.cap:
                W.rk[PL + 0, r] += 1
                if enough(R, W, s, t):
                    return True
                W.rk[PL + 0, r] -= 1
        elif r == R_JOKER or r == R_DEUCE:
            row = PL + 1 if r == R_JOKER else PL + 2
            for m in range(4, 15):
                nat = W.rk[MN + s, m] + W.rk[PL + 0, m] + (1 if m == t else 0)
                wild = W.rk[MW + s, m] + W.rk[PL + 1, m] + W.rk[PL + 2, m]
                if nat >= 2 and wild_room(R, nat, wild) > 0 and \
                        nat + wild < R.wcap:
                    W.rk[row, m] += 1
                    if enough(R, W, s, t):
                        return True
                    W.rk[row, m] -= 1
        return False
    return False


@njit(cache=True, nogil=True)
def plan_wild(W, k):
    """The wild cards of row ``PL + k`` of the plan (jokers 1, deuces 2) over the meld ranks."""
    n = W.rk[PL + k, WM]
    for m in range(4, 15):
        n += W.rk[PL + k, m]
    return n


@njit(cache=True, nogil=True)
def take(R, W, p, log, i):
    """Take the pile by the plan (``W.rk[PL:PL + 3]``): lay its top card at once with the
    plan's cards, then the rest of the pile goes to the hand (its red threes faced, not
    replaced); the pile is unfrozen."""
    n = W.st[2]
    top = W.pk[2, n - 1]
    if R.cut and W.st[LONE] < 0:
        make_lone(W, p, 0, log, i)
    put_event(log, i, W.st, LP, EV_TAKE, p, n, top)
    if W.st[TSEQ] >= 0:
        to_seq(W, p, W.st[TSEQ], top, log, i)
        W.st[TSEQ] = -1
    else:
        lay(W, p, top, False, log, i)
    lay_plan(W, p, log, i)
    put_event(log, i, W.st, LP, EV_PILE, p, n - 1, 0)
    for j in range(n - 1):
        c = W.pk[2, j]
        if bonus3(R, RI[c]):
            face_red3(W, p, c, 1, log, i)
        else:
            add_card(W, p, c)
    W.st[2] = 0
    W.st[5] = 0
    W.st[TAKES + p] += 1


@njit(cache=True, nogil=True)
def make_lone(W, p, why, log, i):
    """Three hands (cutthroat, 003:57): seat ``p`` becomes the lone hand, by the deal's first
    pile take (``why`` 0) or by going out before any take (1, 003:59).  On a take the other two
    become partners and their melds are merged rank by rank into one side's (the lower seat's):
    a merged meld of seven or more is a canasta, one holding more than ``max_wild`` wild cards
    takes no more.  On going out nothing is merged (the hand is over; the two score together)."""
    W.st[LONE] = p
    put_event(log, i, W.st, LP, EV_LONE, p, why, 0)
    if why == 1:
        return
    a = (p + 1) % 3
    b = (p + 2) % 3
    if b < a:
        a, b = b, a
    for r in range(NR):
        W.rk[MN + a, r] += W.rk[MN + b, r]
        W.rk[MW + a, r] += W.rk[MW + b, r]
        W.rk[MN + b, r] = 0
        W.rk[MW + b, r] = 0
    for c in range(NC):
        W.cd[MC + a, c] += W.cd[MC + b, c]
        W.cd[MC + b, c] = 0
    W.st[MVAL + a] += W.st[MVAL + b]
    W.st[MVAL + b] = 0
    W.st[MELDED + a] = 1 if W.st[MELDED + a] or W.st[MELDED + b] else 0
    W.st[MELDED + b] = 0
    W.st[SIDE + b] = a


# --------------------------------------------------------------------------- going out

@njit(cache=True, nogil=True)
def out_plan(R, W, p):
    """Can seat ``p`` lay its whole hand but at most one card (discarded) now?  Fills the plan
    (``W.rk[PL:PL + 3]``) and returns the number of cards left (0 or 1), or -1 when it cannot:
    too many cards left, too few canastas for its side, or the side's initial minimum not
    reached.  With ``escalera_out_ends`` (Bicycle), when the groups alone do not take the hand
    out, the cards that extend the side's escaleras are planned onto their ends
    (``W.st[ESC:]``, :func:`esc_hold`) and the rest planned as before."""
    W.st[ESC] = 0
    left = out_groups(R, W, p, 0)
    if left >= 0 or not R.esc_ends:
        return left
    v = esc_hold(W, p, W.st[SIDE + p])
    left = out_groups(R, W, p, v)
    for j in range(W.st[ESC]):                   # the held cards back to the hand
        add_card(W, p, W.st[ESC + 1 + j] & 255)
    if left < 0:
        W.st[ESC] = 0
    return left


@njit(cache=True, nogil=True)
def esc_hold(W, p, s):
    """Bicycle's Brazilian (READINGS 3.6): seat ``p``'s cards that extend side ``s``'s
    escaleras (sequences of seven or more) at either end, one after another, taken out of the
    hand into ``W.st[ESC + 1:]`` (256 * sequence + card; their number in ``W.st[ESC]``);
    returns their value."""
    n = 0
    v = 0
    for k in range(W.st[SQN + s]):
        if seq_len(W, s, k) < 7:
            continue
        b = SQ + 3 * (NSEQ * s + k)
        for hi in range(2):
            r = W.st[b + 2] + 1 if hi else W.st[b + 1] - 1
            while 4 <= r <= 14 and W.cd[p, W.st[b] * 16 + r] > 0 and n < NSEQ:
                c = W.st[b] * 16 + r
                drop_card(W, p, c)
                W.st[ESC + 1 + n] = 256 * k + c
                n += 1
                v += RV[r]
                r = r + 1 if hi else r - 1
    W.st[ESC] = n
    return v


@njit(cache=True, nogil=True)
def out_groups(R, W, p, v):
    """:func:`out_plan` by the groups (and the wild-card meld); ``v`` the value of the cards
    already planned onto escaleras."""
    s = W.st[SIDE + p]
    h = W.rk[p]
    loose = h[R_BLACK3] if h[R_BLACK3] < 3 else 0      # cards that cannot be laid at all
    for r in range(4, 15):
        if h[r] == 1 and W.rk[MN + s, r] == 0:
            loose += 1
    if loose > 1:
        return -1
    clear_plan(W)
    left = 0
    wl = h[R_JOKER] + h[R_DEUCE]
    for r in range(4, 15):
        n = h[r]
        if n == 0:
            continue
        if W.rk[MN + s, r] > 0 or n >= 3:
            k = min(n, R.cap - W.rk[MN + s, r] - W.rk[MW + s, r])   # canasta_max
            W.rk[PL + 0, r] = k
            v += k * RV[r]
            left += n - k
        elif n == 2 and wl > 0:
            W.rk[PL + 0, r] = 2
            v += 2 * RV[r]
            wl -= 1
            if W.rk[PL + 2, 0] < h[R_DEUCE]:
                W.rk[PL + 2, r] += 1
                W.rk[PL + 2, 0] += 1
            else:
                W.rk[PL + 1, r] += 1
                W.rk[PL + 1, 0] += 1
        else:
            left += n
    if h[R_BLACK3] >= 3:
        W.rk[PL + 0, R_BLACK3] = h[R_BLACK3]
        v += 5 * h[R_BLACK3]
    else:
        left += h[R_BLACK3]
    if left > 1:
        return -1
    while wl > 0:           # the other wild cards: on the meld nearest a canasta with room
        best, bt = -1, -1
        for r in range(4, 15):
            nat = W.rk[MN + s, r] + W.rk[PL + 0, r]
            wild = W.rk[MW + s, r] + W.rk[PL + 1, r] + W.rk[PL + 2, r]
            if nat >= 2 and wild_room(R, nat, wild) > 0 and nat + wild < R.wcap:
                tot = nat + wild
                key = tot if tot < 7 else -tot
                if key > bt:
                    best, bt = r, key
        if best < 0:
            break
        wl -= 1
        v += plan_wild_on(W, h, best)
    if R.wild_melds and wl > 0:     # the rest on the side's wild-card meld, or a new one of 3+
        have = W.rk[MN + s, WM] + W.rk[MW + s, WM]
        k = min(wl, R.wmcap - have) if have > 0 else (min(wl, R.wmcap) if wl >= 3 else 0)
        for _ in range(k):
            wl -= 1
            v += plan_wild_on(W, h, WM)
    left += wl
    W.rk[PL + 1, 0] = 0
    W.rk[PL + 2, 0] = 0
    if left > 1 or not enough(R, W, s, -1) or (left == 1 and W.st[NODISC]):
        return -1
    if not W.st[7] and (W.st[6] + v < W.st[MINS + p] or not req_met(R, W, s, W.st[REQ + p])):
        return -1
    return left


@njit(cache=True, nogil=True, inline="always")
def plan_wild_on(W, h, m):
    """:func:`out_plan`: one more wild card of hand ``h`` planned on meld ``m`` (deuces first;
    ``W.rk[PL + 2, 0]`` / ``W.rk[PL + 1, 0]`` count those planned); returns its value."""
    if W.rk[PL + 2, 0] < h[R_DEUCE]:
        W.rk[PL + 2, m] += 1
        W.rk[PL + 2, 0] += 1
        return 20
    W.rk[PL + 1, m] += 1
    W.rk[PL + 1, 0] += 1
    return 50


@njit(cache=True, nogil=True)
def go_out(R, W, p, log, i):
    """Lay the plan (``W.rk[PL:PL + 3]``, from :func:`out_plan`; first the cards it planned
    onto escaleras' ends) and discard the last card if one is left."""
    for j in range(W.st[ESC]):
        x = W.st[ESC + 1 + j]
        drop_card(W, p, x & 255)
        to_seq(W, p, x >> 8, x & 255, log, i)
    W.st[ESC] = 0
    lay_plan(W, p, log, i)
    if W.st[HN + p] == 1:
        for c in range(NC):
            if W.cd[p, c] > 0:
                discard(W, p, c, log, i)
                break
    mark_out(R, W, p, log, i)


@njit(cache=True, nogil=True)
def mark_out(R, W, p, log, i):
    """Seat ``p`` went out: concealed when it laid no card before this turn (three hands: the
    lone hand when nobody took the pile yet)."""
    if R.cut and W.st[LONE] < 0:
        make_lone(W, p, 1, log, i)
    W.st[10] = p
    W.st[11] = 1 if W.st[8] == 0 else 0
    put_event(log, i, W.st, LP, EV_OUT, p, W.st[11], 0)


@njit(cache=True, nogil=True)
def discard(W, p, c, log, i):
    drop_card(W, p, c)
    W.pk[2, W.st[2]] = c
    W.st[2] += 1
    if RI[c] == R_JOKER or RI[c] == R_DEUCE:
        W.st[5] = 1
    put_event(log, i, W.st, LP, EV_DISCARD, p, 0, c)


@njit(cache=True, nogil=True)
def answer(R, Q, W, q):
    """Partner ``q``'s answer to "may I go out?" (binding)."""
    if Q[q].kind == K_RANDOM:
        v, W.rs[1] = bounded(W.rs[1], 2)
        return v == 1
    return hand_value(W, q) <= Q[q].ask_max


@njit(cache=True, nogil=True)
def ask_partner(R, Q, W, p, log, i):
    """Seat ``p`` asks its partner; a "no" forbids going out this turn (``W.st[9]``)."""
    q = (p + 2) % R.players
    yes = answer(R, Q, W, q)
    put_event(log, i, W.st, LP, EV_ASK, p, 1 if yes else 0, 0)
    if not yes:
        W.st[9] = 1
    return yes


# --------------------------------------------------------------------------- baseline

@njit(cache=True, nogil=True)
def budget(Q, p, need):
    return Q[p].b50 if need <= 50 else Q[p].b90 if need <= 90 else Q[p].b120


@njit(cache=True, nogil=True)
def baseline_take(R, Q, W, p, forced):
    """Take the pile (the plan ``W.rk[PL:PL + 3]`` set) when that is legal and it holds
    ``take_min`` cards or more (``take_min2`` where a draw is two cards; ``forced``: the stock
    is empty, any size): by adding the top
    card to the side's meld, else with a natural pair (and the rank's other naturals), else a
    natural and a wild."""
    f = take_forms(R, W, p)
    least = Q[p].take_min2 if R.draw == 2 else Q[p].take_min
    if R.cut and W.st[LONE] < 0 and Q[p].lone_min > least:
        least = Q[p].lone_min
    if f == 0:
        return False
    small = not forced and W.st[2] < least
    if small and not (f & 8 and 0 < Q[p].seq_take <= W.st[2]):    # seq_take: a smaller pile
        return False                                                 # that extends a sequence
    for form in (1, 8, 2, 4):
        if small and form != 8:
            continue
        if f & form and take_plan(R, W, p, form):
            t = RI[W.pk[2, W.st[2] - 1]]
            s = W.st[SIDE + p]
            k = min(W.rk[p, t], R.cap - 1 - W.rk[MN + s, t] - W.rk[MW + s, t])
            if form == 2 and W.st[MELDED + s] and k > 2:
                W.rk[PL + 0, t] = k
                if not take_plan_ok(R, W, p):
                    W.rk[PL + 0, t] = 2
            return True
    return False


@njit(cache=True, nogil=True)
def take_plan_ok(R, W, p):
    """Does the taker keep two cards after the take by the plan (``W.rk[PL:PL + 3]``)?"""
    n = W.st[2]
    rest = n - 1
    for j in range(n - 1):
        if bonus3(R, RI[W.pk[2, j]]):
            rest -= 1
    return W.st[HN + p] - plan_cards(W) + rest >= 2


@njit(cache=True, nogil=True)
def try_out(R, Q, W, p, log, i, want, mincan):
    """Go out when :func:`out_plan` allows it with at least ``mincan`` canastas, the partner
    (asked when ``want`` says so; always with ``ask_partner=always``, Bicycle's Brazilian)
    agrees and no earlier "no" stands.  Returns whether the seat went out."""
    if W.st[9]:
        return False
    if out_plan(R, W, p) < 0 or plan_canastas(R, W, W.st[SIDE + p], -1) < mincan:
        return False
    if R.ask_always or (want and R.players == 4 and W.st[HN + p] > 1):   # a take that left it
        if not ask_partner(R, Q, W, p, log, i):      # one card or none committed it to going
            return False                             # out: no asking (unless always)
        out_plan(R, W, p)
    go_out(R, W, p, log, i)
    return True


@njit(cache=True, nogil=True)
def baseline_lays(R, Q, W, p, log, i):
    """After the side's first meld: lay off naturals, meld triples (and pairs with a wild when
    ``pairs`` is 0), complete canastas with wild cards; always keeping two cards.  Sequences
    (:func:`seq_lays`) after the groups, or first with ``seq_first`` (a natural that fits both
    then goes on the sequence)."""
    s = W.st[SIDE + p]
    if R.samba and Q[p].seq_first == 1:
        seq_lays(Q, W, p, log, i)
    for r in range(4, 15):
        if W.rk[MN + s, r] > 0:
            while W.rk[p, r] > 0 and W.st[HN + p] > 2 and \
                    W.rk[MN + s, r] + W.rk[MW + s, r] < R.cap:
                lay_natural(W, p, r, log, i)
        elif W.rk[p, r] >= 3 and W.st[HN + p] - W.rk[p, r] >= 2:
            for _ in range(min(W.rk[p, r], R.cap)):
                lay_natural(W, p, r, log, i)
        elif W.rk[p, r] == 2 and Q[p].pairs == 0 and W.st[HN + p] >= 5 and \
                W.rk[p, R_DEUCE] + W.rk[p, R_JOKER] > 0:
            lay_natural(W, p, r, log, i)
            lay_natural(W, p, r, log, i)
            lay_wild(W, p, r, False, log, i)
    for r in range(4, 15):
        tot = W.rk[MN + s, r] + W.rk[MW + s, r]
        if W.rk[MN + s, r] > 0 and tot < 7 and 7 - tot <= Q[p].wild_gap:
            nw = W.rk[p, R_JOKER] + W.rk[p, R_DEUCE]
            if nw >= 7 - tot and wild_room(R, W.rk[MN + s, r], W.rk[MW + s, r]) >= 7 - tot and \
                    W.st[HN + p] - (7 - tot) >= 2:
                for _ in range(7 - tot):
                    lay_wild(W, p, r, False, log, i)
    if R.wild_melds and Q[p].wmeld > 0:
        wild_meld_lays(R, W, p, Q[p].wmeld, log, i)
    if R.samba:
        seq_lays(Q, W, p, log, i)


@njit(cache=True, nogil=True)
def wild_meld_lays(R, W, p, start, log, i):
    """The baseline's wild-card meld (``wmeld``): started when it holds ``start`` wild cards or
    more, then every wild card held goes on it up to the seven of a canasta (deuces first, for
    the bonus of seven deuces); always keeping two cards."""
    s = W.st[SIDE + p]
    have = W.rk[MN + s, WM] + W.rk[MW + s, WM]
    nw = W.rk[p, R_JOKER] + W.rk[p, R_DEUCE]
    if have == 0 and (nw < start or nw < 3 or W.st[HN + p] - 3 < 2):
        return
    while W.rk[p, R_JOKER] + W.rk[p, R_DEUCE] > 0 and W.st[HN + p] > 2 and \
            W.rk[MN + s, WM] + W.rk[MW + s, WM] < R.wmcap:
        lay_wild(W, p, WM, False, log, i)


@njit(cache=True, nogil=True)
def baseline_meld(R, Q, W, p, log, i):
    """The baseline's lays of a turn; returns whether it went out."""
    s = W.st[SIDE + p]
    if try_out(R, Q, W, p, log, i, Q[p].ask == 1, Q[p].go_out):
        return True
    if not W.st[MELDED + s]:
        need = W.st[MINS + p]
        v = initial_fill(R, W, p, -1, need)
        fits = plan_cards(W) <= budget(Q, p, need) or W.st[REQ + p] > 0   # a required canasta:
        if v >= need and fits and W.st[HN + p] - plan_cards(W) >= 2:          # laid when it can be
            lay_plan(W, p, log, i)
        else:
            return False
    baseline_lays(R, Q, W, p, log, i)
    if try_out(R, Q, W, p, log, i, Q[p].ask == 1, Q[p].go_out):
        return True
    if R.samba and Q[p].seq_out == 1 and W.st[SQN + s] > 0 and seq_out_ok(R, Q, W, p):
        return seq_out(R, Q, W, p, log, i)
    return False


@njit(cache=True, nogil=True)
def seq_fits(W, p, s, out):
    """Move every card of seat ``p``'s hand that extends a sequence of side ``s`` (in turn, so
    a run held extends it card by card) from the hand onto the sequences' bounds in ``W.st``,
    without logging; the cards go to ``out`` (returns how many).  :func:`seq_out_ok` undoes it."""
    k = 0
    more = True
    while more:
        more = False
        for q in range(W.st[SQN + s]):
            for hi in range(2):
                c = seq_end(W, s, q, hi)
                if c >= 0 and W.cd[p, c] > 0:
                    drop_card(W, p, c)
                    b = SQ + 3 * (NSEQ * s + q)
                    W.st[b + 1 + hi] = c & 15
                    out[k] = c
                    k += 1
                    more = True
    return k


@njit(cache=True, nogil=True)
def seq_out_ok(R, Q, W, p):
    """``seq_out``: could seat ``p`` go out (:func:`out_plan`, at least ``go_out`` canastas) after
    laying on its side's sequences every card held that extends one?  The state is restored."""
    if W.st[9]:
        return False
    s = W.st[SIDE + p]
    b0 = SQ + 3 * NSEQ * s
    keep = W.st[b0:b0 + 3 * NSEQ].copy()
    out = np.empty(W.st[HN + p] + 1, np.int64)
    k = seq_fits(W, p, s, out)
    ok = k > 0 and out_plan(R, W, p) >= 0 and plan_canastas(R, W, s, -1) >= Q[p].go_out
    for j in range(k):
        add_card(W, p, out[j])
    W.st[b0:b0 + 3 * NSEQ] = keep
    clear_plan(W)
    return ok


@njit(cache=True, nogil=True)
def seq_out(R, Q, W, p, log, i):
    """``seq_out``: go out by :func:`seq_out_ok`'s lays (partner asked first when ``ask``):
    lay every card that extends a sequence, then the rest by :func:`out_plan`."""
    if Q[p].ask == 1 and R.players == 4 and W.st[HN + p] > 1:
        if not ask_partner(R, Q, W, p, log, i):
            return False
    seq_extend(W, p, 0, log, i)
    if W.st[HN + p] > 0:
        out_plan(R, W, p)
        go_out(R, W, p, log, i)
    else:
        mark_out(R, W, p, log, i)
    return True


@njit(cache=True, nogil=True)
def opp_melded(W, s, r):
    """Has a side other than ``s`` melded (``r`` < 0), or a meld of rank ``r``?"""
    for o in range(NSIDE):
        if o == s:
            continue
        if r < 0 and W.st[MELDED + o] != 0:
            return True
        if r >= 0 and W.rk[MN + o, r] > 0:
            return True
    return False


@njit(cache=True, nogil=True)
def baseline_discard(R, Q, W, p):
    """The card worth least to keep (003:52-53): see :mod:`~simkit.games.canasta.strategies`."""
    s = W.st[SIDE + p]
    npile = W.st[2]
    fz = Q[p].freeze
    freeze = fz > 0 and opp_melded(W, s, -1) and not W.st[MELDED + s] and npile >= fz \
        and not frozen(R, W)
    if R.samba and Q[p].seq_keep > 0:
        return seq_discard(R, Q, W, p, freeze)
    best, bc = -1, 1 << 40
    for r in range(NR):
        if W.rk[p, r] == 0:
            continue
        cost = discard_cost(R, Q, W, p, r, freeze)
        if cost < bc:
            best, bc = r, cost
    return code_of(W, p, best)


@njit(cache=True, nogil=True)
def discard_cost(R, Q, W, p, r, freeze):
    """:func:`baseline_discard`'s cost of discarding a card of rank index ``r``."""
    s = W.st[SIDE + p]
    npile = W.st[2]
    if is_wild_r(r):
        return (-1000 if freeze else 1000) + RV[r]
    if r == R_BLACK3:
        return -500 if npile >= Q[p].b3_pile else 200
    cost = RV[r] + (25 if W.rk[p, r] >= 2 else 0) + (25 if W.rk[MN + s, r] > 0 else 0)
    if opp_melded(W, s, r) and not frozen(R, W):
        cost += Q[p].feed * npile
    return cost


@njit(cache=True, nogil=True)
def seq_discard(R, Q, W, p, freeze):
    """``seq_keep``: :func:`baseline_discard` by card, a natural (4 to ace) charged ``seq_keep``
    more for each tie to a sequence: a sequence of the side it would extend after one more card
    (two ties when it extends one now: held when only two cards are left), a natural of its
    suit held one or two ranks away."""
    s = W.st[SIDE + p]
    best, bc = -1, 1 << 40
    for c in range(NC):
        if W.cd[p, c] == 0:
            continue
        r = RI[c]
        cost = discard_cost(R, Q, W, p, r, freeze)
        rank = c & 15
        if r >= 4 and c < 64 and rank >= 4:
            ties = 0
            for q in range(W.st[SQN + s]):
                for hi in range(2):
                    e = seq_end(W, s, q, hi)
                    if e == c:
                        ties += 2
                    elif e >= 0 and e >> 4 == c >> 4 and (e & 15) + (2 * hi - 1) == rank:
                        ties += 1
            for d in (-2, -1, 1, 2):
                if 4 <= rank + d <= 14 and W.cd[p, c + d] > 0:
                    ties += 1
            cost += Q[p].seq_keep * ties
        if cost < bc:
            best, bc = c, cost
    return best


# --------------------------------------------------------------------------- random

@njit(cache=True, nogil=True)
def random_options(R, W, p):
    """The random player's lay options (``W.opts``): stop, going out, a natural or a wild on a
    meld of the side, a new meld of three naturals or of a pair and a wild."""
    s = W.st[SIDE + p]
    k = 1
    W.opts[0, 0] = O_STOP
    if not W.st[9] and out_plan(R, W, p) >= 0:
        W.opts[k, 0] = O_OUT
        k += 1
    nw = W.rk[p, R_JOKER] + W.rk[p, R_DEUCE]
    for r in range(4, 15):
        if W.rk[MN + s, r] > 0:
            full = W.rk[MN + s, r] + W.rk[MW + s, r] >= R.cap
            if W.rk[p, r] > 0 and W.st[HN + p] >= 3 and not full:
                W.opts[k, 0], W.opts[k, 1] = O_NAT, r
                k += 1
            if nw > 0 and W.st[HN + p] >= 3 and not full and \
                    W.rk[MN + s, r] + W.rk[MW + s, r] < R.wcap and \
                    wild_room(R, W.rk[MN + s, r], W.rk[MW + s, r]) > 0:
                W.opts[k, 0], W.opts[k, 1] = O_WILD, r
                k += 1
        elif W.st[HN + p] >= 5:
            if W.rk[p, r] >= 3:
                W.opts[k, 0], W.opts[k, 1] = O_NEW3, r
                k += 1
            if W.rk[p, r] >= 2 and nw > 0 and wild_room(R, 2, 0) > 0:
                W.opts[k, 0], W.opts[k, 1] = O_NEWW, r
                k += 1
    if R.wild_melds:
        have = W.rk[MN + s, WM] + W.rk[MW + s, WM]
        if have > 0 and have < R.wmcap and nw > 0 and W.st[HN + p] >= 3:
            W.opts[k, 0], W.opts[k, 1] = O_WILD, WM
            k += 1
        elif have == 0 and nw >= 3 and W.st[HN + p] >= 5:
            W.opts[k, 0], W.opts[k, 1] = O_NEWWM, WM
            k += 1
    if R.samba:
        k = seq_options(W, p, s, k)
    return k


@njit(cache=True, nogil=True)
def random_meld(R, Q, W, p, log, i):
    """Random lays until it picks "stop"; returns whether it went out."""
    s = W.st[SIDE + p]
    if not W.st[MELDED + s]:
        c, W.rs[1] = bounded(W.rs[1], 2)
        if c == 1 and try_out(R, Q, W, p, log, i, False, 0):
            return True
        v = initial_fill(R, W, p, -1, W.st[MINS + p])
        c, W.rs[1] = bounded(W.rs[1], 2)
        if c == 0 or v < W.st[MINS + p] or W.st[HN + p] - plan_cards(W) < 2:
            return False
        lay_plan(W, p, log, i)
    for _ in range(200):
        k = random_options(R, W, p)
        j, W.rs[1] = bounded(W.rs[1], k)
        o, r = W.opts[j, 0], W.opts[j, 1]
        if o == O_STOP:
            return False
        if o == O_OUT:
            c, W.rs[1] = bounded(W.rs[1], 2)
            return try_out(R, Q, W, p, log, i, c == 1, 0)
        if o == O_NAT:
            lay_natural(W, p, r, log, i)
        elif o == O_WILD:
            c, W.rs[1] = bounded(W.rs[1], 2)
            lay_wild(W, p, r, c == 1, log, i)
        elif o == O_SEQ:
            q = W.st[SQN + s]
            for d in range(3):
                drop_card(W, p, r + d)
                to_seq(W, p, q, r + d, log, i)
        elif o == O_EXT:
            c = seq_end(W, s, r >> 1, r & 1)
            drop_card(W, p, c)
            to_seq(W, p, r >> 1, c, log, i)
        elif o == O_NEWWM:
            for _ in range(3):
                c, W.rs[1] = bounded(W.rs[1], 2)
                lay_wild(W, p, WM, c == 1, log, i)
        else:
            lay_natural(W, p, r, log, i)
            lay_natural(W, p, r, log, i)
            if o == O_NEW3:
                lay_natural(W, p, r, log, i)
            else:
                c, W.rs[1] = bounded(W.rs[1], 2)
                lay_wild(W, p, r, c == 1, log, i)
    return False


@njit(cache=True, nogil=True)
def random_take(R, W, p, forced):
    """A uniform choice among drawing (at the stock's end: ending the hand) and the legal takes;
    the plan (``W.rk[PL:PL + 3]``) set for the take chosen."""
    f = take_forms(R, W, p)
    legal = 0
    k = 0
    for form in (1, 2, 4, 8):
        if f & form and take_plan(R, W, p, form):
            legal |= form
            k += 1
    if k == 0:
        return False
    j, W.rs[1] = bounded(W.rs[1], k + 1)
    for form in (1, 2, 4, 8):
        if legal & form:
            if j == 0:
                take_plan(R, W, p, form)
                return True
            j -= 1
    return False


@njit(cache=True, nogil=True)
def random_discard(W, p):
    j, W.rs[1] = bounded(W.rs[1], W.st[HN + p])
    for c in range(NC):
        j -= W.cd[p, c]
        if j < 0:
            return c
    return -1


# --------------------------------------------------------------------------- turn, hand

@njit(cache=True, nogil=True)
def choose_take(R, Q, W, p, forced):
    if Q[p].kind == K_RANDOM:
        return random_take(R, W, p, forced)
    return baseline_take(R, Q, W, p, forced)


@njit(cache=True, nogil=True)
def turn(R, Q, W, p, log, i):
    """Seat ``p``'s turn: 0 play on, 1 went out, 2 the hand ends (the stock's end)."""
    s = W.st[SIDE + p]
    W.st[6] = 0
    W.st[7] = W.st[MELDED + s]
    W.st[8] = W.st[LAID + p]
    W.st[9] = 0
    W.st[NODISC] = 0
    last = False
    if W.st[0] >= W.st[1]:
        if not R.cont:
            return 2
        f = take_forms(R, W, p)
        must = ((f & 1) != 0 and take_plan(R, W, p, 1)) or \
            ((f & 8) != 0 and take_plan(R, W, p, 8))
        if must:
            take(R, W, p, log, i)
        elif choose_take(R, Q, W, p, True):
            take(R, W, p, log, i)
        else:
            return 2
    elif choose_take(R, Q, W, p, False):
        take(R, W, p, log, i)
    else:
        for _ in range(R.draw):
            d = draw_card(R, W, p, 0, log, i)
            if d < 0:
                last = d == -1
                W.st[NODISC] = 1 if last else 0
                break
    W.st[TSEQ] = -1
    if Q[p].kind == K_RANDOM:
        out = random_meld(R, Q, W, p, log, i)
    else:
        out = baseline_meld(R, Q, W, p, log, i)
    if out:
        return 1
    if W.st[HN + p] == 0:            # a take that emptied the hand with the canastas to go out
        mark_out(R, W, p, log, i)
        return 1
    if last:
        return 2
    c = random_discard(W, p) if Q[p].kind == K_RANDOM else baseline_discard(R, Q, W, p)
    discard(W, p, c, log, i)
    if W.st[HN + p] == 0:            # the last card discarded: the side had its canastas
        mark_out(R, W, p, log, i)
        return 1
    return 0


@njit(cache=True, nogil=True, inline="always")
def together(R, W, q, g):
    """Do seats ``q`` and ``g`` score together?  Partners (same side); three hands: the two
    seats other than the lone hand once there is one (003:58-59), else each alone."""
    if R.players != 3:
        return W.st[SIDE + q] == W.st[SIDE + g]
    L = W.st[LONE]
    if L < 0 or q == L or g == L:
        return q == g
    return True


@njit(cache=True, nogil=True)
def score_seat(R, W, q):
    """``W.st[PTS + 6 * q:]``: seat ``q``'s points, canasta bonuses, red threes, going out,
    melded, in hand: the values of the seats scoring with it (each side counted once), the red
    threes of the side (three hands: the seat's own, 003:58)."""
    cb, ob, mv, ih, n3, nb = 0, 0, 0, 0, 0, 0
    melded = False
    has_can = False
    for g in range(R.players):
        if not together(R, W, q, g):
            continue
        s = W.st[SIDE + g]
        ih += hand_value(W, g)
        if W.st[10] >= 0:              # Bolivia: a black three left in hand -100 (003:82)
            ih += R.b3pen * W.rk[g, R_BLACK3]
        if R.players != 3 or g == q:
            n3 += W.st[R3 + g]
            nb += W.st[B3 + g]
        first = True
        for g2 in range(g):
            if together(R, W, q, g2) and W.st[SIDE + g2] == s:
                first = False
        if not first:
            continue
        has_can = has_can or canastas(W, s) > 0
        for r in range(4, 15):
            if W.rk[MN + s, r] + W.rk[MW + s, r] >= 7:
                cb += R.nat_can if W.rk[MW + s, r] == 0 else R.mix_can
        cb += R.seq_can * sambas(W, s)                         # Samba 1500 (003:81)
        if W.st[10] >= 0 and R.incpen > 0:                    # Brazilian -1000 (003:83)
            cb -= 1000 * incomplete(R, W, s)
        if W.rk[MN + s, WM] + W.rk[MW + s, WM] >= 7:         # a wild-card canasta (003:84)
            cb += R.wild_can_j if W.rk[MW + s, WM] == 4 else \
                R.wild_can_d if W.rk[MN + s, WM] == 7 else R.wild_can
        mv += W.st[MVAL + s]
        melded = melded or W.st[MELDED + s] != 0
        if W.st[10] >= 0 and W.st[SIDE + W.st[10]] == s:
            ob = R.concealed if W.st[11] else R.going_out
    r3 = threes(R, n3) + threes(R, nb)
    if (R.minus_canasta and not has_can) or (not R.minus_canasta and not melded):
        r3 = -r3
    W.st[PTS + 6 * q + 1], W.st[PTS + 6 * q + 2], W.st[PTS + 6 * q + 3] = cb, r3, ob
    W.st[PTS + 6 * q + 4], W.st[PTS + 6 * q + 5] = mv, ih
    W.st[PTS + 6 * q + 0] = cb + r3 + ob + mv - ih


@njit(cache=True, nogil=True)
def incomplete(R, W, s):
    """Brazilian (003:83): side ``s``'s melds penalised when a player goes out: ``text`` every
    wild-card meld and sequence of fewer than seven cards; ``bicycle_seq_lt5`` every sequence of
    fewer than five (READINGS 3.6)."""
    short = 7 if R.incpen == 1 else 5
    n = 0
    for k in range(W.st[SQN + s]):
        if seq_len(W, s, k) < short:
            n += 1
    have = W.rk[MN + s, WM] + W.rk[MW + s, WM]
    if R.incpen == 1 and 0 < have < 7:
        n += 1
    return n


@njit(cache=True, nogil=True)
def threes(R, n):
    """The score of ``n`` faced threes of one colour: classic 100 each, 800 for four (READINGS
    3.1); cuban 100 / 300 / 500 / 1000 (003:84: the first 100, the second and third 200 each,
    the fourth 500)."""
    if R.r3brazil:                     # Bicycle (READINGS 3.6): five 1000, six 1200
        return 1200 if n == 6 else 1000 if n == 5 else 100 * n
    if R.r3samba:                      # 003:81: all six to one side 1000 (instead of 600)
        return 1000 if n == 6 else 100 * n
    if R.r3cuban:
        return 0 if n == 0 else 100 if n == 1 else 300 if n == 2 else 500 if n == 3 else 1000
    return 800 if n == 4 else 100 * n


@njit(cache=True, nogil=True)
def score_hand(R, W):
    for q in range(R.players):
        score_seat(R, W, q)


@njit(cache=True, nogil=True)
def write_head(R, W, dealer, log, i):
    log[i, 0] = dealer
    log[i, 2] = R.players
    log[i, 3] = R.hand_size
    log[i, 4] = R.draw
    log[i, 5] = R.need
    log[i, 6] = 0 if R.cont else 1
    for s in range(2):                 # Brazilian from 7000: -1/-2/-3 codes its requirement
        log[i, 7 + s] = -W.st[REQ + s] if W.st[REQ + s] else W.st[MINS + s]
    log[i, 9] = R.max_wild
    if R.samba:                        # CANASTA.md 2026-12-04 12:35 (samba)
        log[i, 10] = 3
        log[i, 11] = 1
        log[i, 12] = R.variant
        log[i, 13] = (1 if R.wild_melds else 0) | (0 if R.init_take else 2) | (
            4 if R.ask_always else 0) | (8 if R.esc_ends else 0)    # bits: Bicycle's readings
        #                                                   (CANASTA.md 2026-12-04 15:35, 15:55)


@njit(cache=True, nogil=True)
def play_hand(R, Q, W, dealer, log, i):
    """One hand from ``dealer``'s deal (``log``: empty for no logging); fills the score parts
    (``W.st[PTS:]``).
    Returns the turns played."""
    K = R.players
    deal(R, W, dealer, log, i)
    if log.shape[0] > 0:
        write_head(R, W, dealer, log, i)
    p = (dealer + 1) % K
    t = 0
    reason = 2
    while t < R.max_turns:
        t += 1
        r = turn(R, Q, W, p, log, i)
        if r != 0:
            reason = 0 if r == 1 else 1
            break
        p = (p + 1) % K
    put_event(log, i, W.st, LP, EV_END, 0, reason, 0)
    W.st[4] = t
    if log.shape[0] > 0:
        log[i, 1] = W.st[LP] - R.nhead
    score_hand(R, W)
    return t


@njit(cache=True, nogil=True)
def play_deal(R, S, W, i, key, ukey, v, log):
    K = R.players
    Q, m = hand_seats(S, K, K - 1, key ^ MIX_SALT)
    logging = log.shape[0] > 0
    if logging:
        for q in range(log.shape[1]):
            log[i, q] = -1
    W.rs[0], W.rs[1] = key, ukey
    for q in range(K):
        W.st[SCORES + q] = 0
    n = R.npack
    if not R.game:
        t = play_hand(R, Q, W, K - 1, log, i)
        for q in range(K):
            for m in range(6):
                v[seat_slot(m, R.nsh, q)] = W.st[PTS + 6 * q + m]
            v[seat_slot(SH.went_out, R.nsh, q)] = 1.0 if W.st[10] == q else 0.0
            v[seat_slot(SH.takes, R.nsh, q)] = W.st[TAKES + q]
            v[seat_slot(SH.net, R.nsh, q)] = W.st[PTS + 6 * q] - best_opponent(W, K, q)
            if K == 3:
                v[seat_slot(NSH, R.nsh, q)] = 1.0 if W.st[LONE] == q else 0.0
        v[R.nsh * K] = t
        v[R.nsh * K + 1] = 1.0 if W.st[10] < 0 else 0.0
        return n
    dealer = K - 1
    hands = 0
    for h in range(R.max_hands):
        if h > 0:
            Q, m = hand_seats(S, K, dealer, m)
        play_hand(R, Q, W, dealer, log if h == 0 else log[:0], i)
        hands += 1
        for q in range(K):
            W.st[SCORES + q] += W.st[PTS + 6 * q + 0]
        if top_score(W, K) >= R.game_to and top_alone(W, K):
            break
        dealer = (dealer + 1) % K
    alone = top_alone(W, K)
    top = top_score(W, K)
    for q in range(K):
        v[seat_slot(SG.win, NSG, q)] = 1.0 if alone and W.st[SCORES + q] == top else 0.0
        v[seat_slot(SG.score, NSG, q)] = W.st[SCORES + q]
    v[NSG * K] = hands
    return n * hands


@njit(cache=True, nogil=True)
def best_opponent(W, K, q):
    """The most points of a hand scored by a seat not on seat ``q``'s side; with three hands and
    a lone hand, the lone hand's opponents are the other two and theirs the lone hand (the two
    score together even when he went out before any take and their melds were not merged)."""
    lone = W.st[LONE] if K == 3 else -1
    b = -(1 << 40)
    for r in range(K):
        if r == q:
            continue
        opp = (r == lone or q == lone) if lone >= 0 else W.st[SIDE + r] != W.st[SIDE + q]
        if opp and W.st[PTS + 6 * r] > b:
            b = W.st[PTS + 6 * r]
    return b


@njit(cache=True, nogil=True)
def top_score(W, K):
    top = W.st[SCORES]
    for q in range(1, K):
        top = max(top, W.st[SCORES + q])
    return top


@njit(cache=True, nogil=True)
def top_alone(W, K):
    """Is the top score one column's (partners share a column: four hands ``q % 2``)?"""
    top = top_score(W, K)
    col = -1
    for q in range(K):
        if W.st[SCORES + q] == top:
            c = q % 2 if K == 4 else q
            if col >= 0 and c != col:
                return False
            col = c
    return True


@njit(cache=True, nogil=True)
def run_deals(R, S, W, state, n, acc, rows, log):
    return deal_loop(play_deal, SALT, R, S, W, state, n, acc, rows, log)
