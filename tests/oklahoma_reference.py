"""A slow, plain-Python statement of Oklahoma (Q♠ rummy), written from the rule text
(``003_25b072003b534ab4.txt`` lines 85-88), READINGS-rummy.md section 4 and the readings fixed in
:mod:`simkit.games.oklahoma.rules` — not from the engine.  It replays a logged hand (the move-log
format of :mod:`simkit.games.oklahoma.engine`'s docstring), rebuilds every hand, meld, the stock
and the pile, checks each move against the rules, and scores the hand by line 87-88.

Cards are the common codes (``suit * 16 + rank``, ranks 2..14, the joker 64).  A meld on the
table is a list of ``(card, stands)`` pairs: a natural card stands for itself, a wild (a deuce or
the joker, line 86) for the natural card its player named.

What it checks (line numbers of text 003):

* the pack is 2 x 52 + 1 joker (85); the deal, the upcard and every stock card come out of what
  is left of it: the stock is tracked as an exact multiset, and after a reshuffle
  (``stock_end=reshuffle``) it is exactly the old pile but its top card;
* turns go round from the dealer's left; a turn starts with a stock draw or a pile take; the
  pile is taken only to meld its top card at once, in a new meld with at least two cards from
  the hand held before the take (``pile_take=new_meld``) or, with ``pile_take=layoff``, also laid
  off on the taker's own meld; the rest of the pile goes to the hand (85);
* a meld is 3 or 4 cards, a set of one rank (repeated cards allowed) or a run of one suit in
  sequence, the ace high or low but not round the corner; each wild names a natural card, a
  natural stands for itself, and the named cards form the set or run; at least ``min_natural``
  natural cards (85-86);
* a layoff goes on the player's own meld, never beyond four cards, keeping the meld legal with
  its earlier namings (85);
* a joker swap puts exactly the card the joker stands for (as logged when it was laid) in its
  place and the joker goes to the hand; deuces are never taken back (86).  In a set too the
  named card is one card, suit and all ("какую натуральную карту", 86).  A joker standing for a
  deuce (A-Jo-3) may be taken back with that very deuce: it is the named card, though wild
  itself (the reading taken here);
* the Q♠ is discarded only when the player holds nothing but Q♠s (87); every turn that does not
  go out ends with one discard (the Q♠ clause presumes a discard is owed each turn); a player
  whose hand is empty after melding goes out without one; with ``final_discard=false`` the last
  card may not be discarded (88, the option), so a player may not meld down to one card;
* a hand ends when a player goes out with an empty hand (88), when the player to move finds the
  stock empty (after the one reshuffle, if the option allows it) and cannot take the pile, or at
  the safety stop of ``max_turns`` turns.

Scores (87-88): melds plus, cards in hand minus; any ace 20; Q♠ melded 50, in hand 100; K..8 10;
7..3 5; the joker melded 100, in hand 200; a melded deuce by the card it stands for: K..8 10, 7..3
5, an ace 10 when high (a set of aces or the top of a run) and 5 when low (A-2-3), a deuce 5; a
deuce in hand 20; going out +``going_out`` (100).
"""
from __future__ import annotations

import itertools
from collections import Counter
from dataclasses import dataclass, field

import numpy as np

from simkit.core.cards import JOKER_SUIT, QUEEN, SPADES, card

JOKER = JOKER_SUIT * 16
QS = card(QUEEN, SPADES)
N_HAND = 13
NHEAD = 2
DRAW, TAKE, MELD, CARD, LAYOFF, SWAP, DISCARD, OUT, RESHUFFLE, END = range(1, 11)
KIND_NAMES = {DRAW: "draw", TAKE: "take", MELD: "meld", CARD: "card", LAYOFF: "layoff",
              SWAP: "swap", DISCARD: "discard", OUT: "out", RESHUFFLE: "reshuffle", END: "end"}
NATURALS = [s * 16 + r for s in range(4) for r in range(2, 15)]   # cards a wild may name


class Illegal(Exception):
    """A move the rules forbid, or a log that contradicts itself (``event`` its index)."""

    def __init__(self, event: int, msg: str):
        super().__init__(f"event {event}: {msg}")
        self.event = event


class Truncated(Exception):
    """The log filled its room: the hand cannot be checked to its end."""


def pack() -> Counter:
    """Line 85: two 52-card decks and one joker, 105 cards."""
    c = Counter({x: 2 for x in NATURALS})
    c[JOKER] = 1
    return c


def rank(c: int) -> int:
    return c & 15


def suit(c: int) -> int:
    return c >> 4


def is_wild(c: int) -> bool:
    """Line 86: the joker and every deuce are wild (a deuce never counts as a natural)."""
    return c == JOKER or rank(c) == 2


def name(c: int) -> str:
    if c == JOKER:
        return "Jo"
    return "??23456789TJQKA"[rank(c)] + "cdhs"[suit(c)] if 0 <= suit(c) < 4 else f"#{c}"


# --------------------------------------------------------------------------- melds

def run_positions(ranks: list[int]) -> list[int] | None:
    """The positions (1 = a low ace .. 14 = a high ace) of a run's named ranks, or None when they
    are no sequence (not round the corner: K-A-2 is none)."""
    for ace in (14, 1):
        pos = sorted(ace if r == 14 else r for r in ranks)
        if all(b == a + 1 for a, b in zip(pos, pos[1:])):
            return pos
    return None


def shape(stands: list[int]) -> str | None:
    """``'set'``, ``'run'`` or None for the named cards of a meld (3 or 4 of them)."""
    if not 3 <= len(stands) <= 4:
        return None
    if len({rank(s) for s in stands}) == 1:
        return "set"
    if len({suit(s) for s in stands}) == 1 and run_positions([rank(s) for s in stands]):
        return "run"
    return None


def meld_error(entries, min_natural: int) -> str | None:
    """Why ``entries`` (``(card, stands)`` pairs) is no legal meld, or None (lines 85-86)."""
    n = len(entries)
    if not 3 <= n <= 4:
        return f"a meld of {n} cards (3 or 4)"
    for c, s in entries:
        if not (c == JOKER or c in NATURALS):
            return f"no such card {c}"
        if is_wild(c):
            if s not in NATURALS:
                return f"the wild {name(c)} stands for {s}, not a natural card"
        elif s != c:
            return f"the natural {name(c)} stands for {name(s)}"
    nat = sum(not is_wild(c) for c, _ in entries)
    if nat < min_natural:
        return f"{nat} natural cards, fewer than {min_natural}"
    if shape([s for _, s in entries]) is None:
        return "the named cards " + " ".join(name(s) for _, s in entries) + " are no set or run"
    return None


def can_form(cards, min_natural: int) -> bool:
    """May these physical cards be laid as one meld, naming the wilds at will?"""
    n = len(cards)
    if not 3 <= n <= 4:
        return False
    nat = [c for c in cards if not is_wild(c)]
    if len(nat) < min_natural:
        return False
    if len({rank(c) for c in nat}) <= 1:
        return True                      # a set (wilds name the naturals' rank, or any rank)
    if len({suit(c) for c in nat}) != 1:
        return False
    for lo in range(1, 16 - n):          # a run on positions lo .. lo + n - 1 (1 = a low ace)
        window = set(range(lo, lo + n))
        for ace in (14, 1):
            pos = [ace if rank(c) == 14 else rank(c) for c in nat]
            if len(set(pos)) == len(pos) and set(pos) <= window:
                return True
    return False


def low_ace_run(stands: list[int]) -> bool:
    pos = run_positions([rank(s) for s in stands]) if shape(stands) == "run" else None
    return pos is not None and pos[0] == 1


def hand_value(c: int) -> int:
    """Line 87, a card left in hand."""
    if c == JOKER:
        return 200
    if c == QS:
        return 100
    r = rank(c)
    return 20 if r in (14, 2) else 10 if r >= 8 else 5


def meld_value(entries) -> int:
    """Line 87, a meld on the table."""
    low = low_ace_run([s for _, s in entries])
    t = 0
    for c, s in entries:
        if c == JOKER:
            t += 100
        elif rank(c) == 2:               # a deuce by the card it stands for
            r = rank(s)
            t += (5 if low else 10) if r == 14 else 10 if r >= 8 else 5
        elif c == QS:
            t += 50
        else:
            r = rank(c)
            t += 20 if r == 14 else 10 if r >= 8 else 5
    return t


# --------------------------------------------------------------------------- the replay

@dataclass
class Hand:
    """The state of a hand being replayed, and what it adds up to."""
    rules: object
    K: int
    dealer: int = 0
    hands: list = field(default_factory=list)       # Counter per seat
    melds: list = field(default_factory=list)       # per seat: list of [(card, stands)]
    stock: Counter = field(default_factory=Counter)
    stock_n: int = 0                                 # cards in the stock
    pile: list = field(default_factory=list)
    reshuffled: bool = False
    takes: list = field(default_factory=list)
    turns: int = 0
    player: int = 0          # the seat to move (or moving)
    phase: str = "start"     # start, play, discarded, done
    out: int = -1
    seen: Counter = field(default_factory=Counter)   # events replayed, by kind name

    def points(self) -> list[int]:
        pts = []
        for q in range(self.K):
            v = sum(meld_value(m) for m in self.melds[q])
            v -= sum(hand_value(c) * k for c, k in self.hands[q].items())
            if q == self.out:
                v += self.rules.going_out
            pts.append(v)
        return pts

    def metrics(self) -> dict:
        pts = self.points()
        res = {}
        for q in range(self.K):
            res[f"p{q + 1}_points"] = pts[q]
            res[f"p{q + 1}_out"] = 1.0 if q == self.out else 0.0
            res[f"p{q + 1}_qs_stuck"] = 1.0 if self.hands[q][QS] > 0 else 0.0
            res[f"p{q + 1}_takes"] = self.takes[q]
        res["turns"] = self.turns
        res["stock_out"] = 1.0 if self.out < 0 else 0.0
        return res


def decode(e: int):
    e = int(e)
    return e >> 20, (e >> 16) & 15, (e >> 8) & 255, e & 255


def can_take(H: Hand, p: int) -> bool:
    """May seat ``p`` take the pile now (line 85; the ``pile_take`` reading)?"""
    if not H.pile:
        return False
    top = H.pile[-1]
    R = H.rules
    hand = H.hands[p]
    held = sum(hand.values())

    def leaves_ok(from_hand):
        # final_discard=false: a take that leaves exactly one card is not allowed (the turn's
        # discard would empty the hand)
        return R.final_discard or held - from_hand + len(H.pile) - 1 != 1

    pool = [c for c in sorted(hand) if is_wild(c) or top == JOKER or is_wild(top)
            or rank(c) == rank(top) or suit(c) == suit(top)]
    for k in (2, 3):
        if not leaves_ok(k):
            continue
        for combo in set(itertools.combinations(
                [c for c in pool for _ in range(min(hand[c], k))], k)):
            if can_form(list(combo) + [top], R.min_natural):
                return True
    if R.pile_take == "layoff" and leaves_ok(0):
        for m in H.melds[p]:
            if len(m) >= 4:
                continue
            names = NATURALS if is_wild(top) else [top]
            if any(meld_error(m + [(top, s)], R.min_natural) is None for s in names):
                return True
    return False


def replay(row, rules, stop: int | None = None) -> Hand:
    """Replay one logged hand (a row of the engine's move log) under ``rules`` (an
    ``OklahomaRules``).  Returns the final state; raises :class:`Illegal` at the first move the
    rules forbid, :class:`Truncated` when the log ran out of room.  ``stop``: replay only the
    events before this index and return the state there (no end-of-hand checks)."""
    K = rules.players
    H = Hand(rules=rules, K=K)
    H.dealer, n_ev = int(row[0]), int(row[1])
    if not 0 <= H.dealer < K or (getattr(rules, "unit", "hand") == "hand" and H.dealer != K - 1):
        raise Illegal(-1, f"dealer {H.dealer} with {K} players (a single hand: the last seat)")
    dealt = [int(x) for x in row[NHEAD:NHEAD + N_HAND * K]]
    up = int(row[NHEAD + N_HAND * K])
    start = NHEAD + N_HAND * K + 1
    events = [int(x) for x in row[start:start + max(n_ev, 0)]]
    if n_ev < 0 or len(events) < n_ev:
        raise Illegal(-1, f"the header counts {n_ev} events, the row holds {len(events)}")
    if start + n_ev >= len(row) and n_ev > 0 and stop is None:
        raise Truncated(f"{n_ev} events fill the log")
    left = pack()
    H.hands = [Counter() for _ in range(K)]
    H.melds = [[] for _ in range(K)]
    H.takes = [0] * K
    for j, c in enumerate(dealt + [up]):
        if left[c] <= 0:
            raise Illegal(-1, f"dealt card {j} ({c}) is not left in the pack")
        left[c] -= 1
        if j < N_HAND * K:
            H.hands[(H.dealer + 1 + j) % K][c] += 1
    H.pile = [up]
    H.stock = +left
    H.stock_n = sum(H.stock.values())
    H.player = (H.dealer + 1) % K
    if stop is not None:
        events = events[:stop]
    Stepper(H, events).run(stop is None)
    return H


class Stepper:
    """Walks the events of one hand, one rule check at a time."""

    def __init__(self, H: Hand, events: list[int]):
        self.H, self.ev, self.i = H, events, 0
        self.at = 0               # the index of the move's first event
        self.pending = None       # the pile's rest, while its top card waits to be melded
        self.top = None
        self.reshuffle_now = False

    def fail(self, msg):
        raise Illegal(self.at, msg)

    def next_event(self):
        if self.i >= len(self.ev):
            self.fail("the log ends in the middle of a move")
        kind, seat, aux, c = decode(self.ev[self.i])
        self.i += 1
        return kind, seat, aux, c

    def run(self, to_the_end: bool = True):
        H = self.H
        while self.i < len(self.ev):
            if H.phase == "done":
                self.fail(f"a {KIND_NAMES.get(decode(self.ev[self.i])[0])} after the hand ended")
            self.step()
        if not to_the_end:
            return
        if H.phase != "done":
            self.fail("the log ends before the hand does")
        total = +H.stock + Counter(H.pile)
        for q in range(H.K):
            total += H.hands[q]
            for m in H.melds[q]:
                total += Counter(c for c, _ in m)
        if total != pack():
            self.fail("the cards at the end are not the 105-card pack")

    def step(self):
        H, R = self.H, self.H.rules
        self.at = self.i
        kind, seat, aux, c = self.next_event()
        H.seen[KIND_NAMES.get(kind, "?")] += 1
        if kind in (DRAW, TAKE, RESHUFFLE, END):
            self.begin_turn(kind, seat)
        p = H.player
        if kind not in (RESHUFFLE, END) and seat != p:
            self.fail(f"seat {seat} moves in seat {p}'s turn")
        hand = H.hands[p]
        if kind == DRAW:
            if H.stock_n == 0:
                self.fail("a draw from an empty stock")
            if H.stock[c] <= 0:
                self.fail(f"{name(c)} drawn is not in the stock")
            H.stock[c] -= 1
            H.stock_n -= 1
            hand[c] += 1
            H.turns += 1
            H.phase = "play"
        elif kind == RESHUFFLE:
            if H.stock_n or R.stock_end != "reshuffle" or H.reshuffled:
                self.fail("a reshuffle the rules do not allow now")
            if len(H.pile) < 2 or aux != len(H.pile) - 1:
                self.fail(f"a reshuffle of {aux} cards from a pile of {len(H.pile)}")
            H.stock = Counter(H.pile[:-1])
            H.stock_n = len(H.pile) - 1
            H.pile = H.pile[-1:]
            H.reshuffled = True
            if self.i >= len(self.ev) or decode(self.ev[self.i])[0] != DRAW:
                self.fail("a reshuffle not followed by a draw")
            self.reshuffle_now = True
        elif kind == TAKE:
            if not H.pile:
                self.fail("a take of an empty pile")
            if c != H.pile[-1] or aux != len(H.pile) % 256:
                self.fail(f"take of {name(c)} ({aux} cards): the pile's top is "
                          f"{name(H.pile[-1])} of {len(H.pile)}")
            self.pending, self.top = H.pile[:-1], c
            H.pile = []
            H.takes[p] += 1
            H.turns += 1
            H.phase = "play"
            k2 = decode(self.ev[self.i])[0] if self.i < len(self.ev) else None
            if k2 == MELD:
                self.step()
            elif k2 == LAYOFF and R.pile_take == "layoff":
                self.step()
            else:
                self.fail("the pile's top card is not melded at once")
            if self.top is not None:
                self.fail(f"the pile's top card {name(self.top)} did not go into the meld")
            hand.update(self.pending)
            self.pending = None
        elif kind == MELD:
            self.need_play("meld")
            if aux != len(H.melds[p]):
                self.fail(f"meld index {aux}, the seat has {len(H.melds[p])} melds")
            entries = []
            for _ in range(c):
                k, s, st, a = self.next_event()
                if k != CARD or s != p:
                    self.fail(f"meld of {c} cards: event {KIND_NAMES.get(k)} of seat {s} "
                              f"among its cards")
                entries.append((a, st))
            err = meld_error(entries, R.min_natural)
            if err:
                self.fail("illegal meld: " + err)
            used = Counter(a for a, _ in entries)
            if self.top is not None:
                if used[self.top] == 0:
                    self.fail(f"the meld taking the pile lacks its top card {name(self.top)}")
                used[self.top] -= 1
                self.top = None
            self.spend(hand, used)
            H.melds[p].append(entries)
        elif kind == LAYOFF:
            self.need_play("layoff")
            if not 0 <= aux < len(H.melds[p]):
                self.fail(f"layoff on meld {aux}: the seat has {len(H.melds[p])} melds")
            m = H.melds[p][aux]
            if c != len(m) + 1:
                self.fail(f"layoff makes meld {aux} of {len(m)} cards {c} cards long")
            if c > 4:
                self.fail(f"a layoff beyond four cards (meld {aux} would hold {c})")
            k, s, st, a = self.next_event()
            if k != CARD or s != p:
                self.fail("a layoff without its card")
            new = m + [(a, st)]
            err = meld_error(new, R.min_natural)
            if err:
                self.fail(f"illegal layoff of {name(a)} on meld {aux}: " + err)
            if self.top is not None:
                if a != self.top:
                    self.fail(f"the pile is taken with a layoff of {name(a)}, not its top "
                              f"{name(self.top)}")
                self.top = None
            else:
                self.spend(hand, Counter([a]))
            H.melds[p][aux] = new
        elif kind == SWAP:
            self.need_play("joker swap")
            if not 0 <= aux < len(H.melds[p]):
                self.fail(f"swap on meld {aux}: the seat has {len(H.melds[p])} melds")
            m = H.melds[p][aux]
            if c not in NATURALS:
                self.fail(f"a swap puts {name(c)}, not a named card, in the joker's place")
            j = next((j for j, (a, st) in enumerate(m) if a == JOKER and st == c), None)
            if j is None:
                self.fail(f"meld {aux} holds no joker standing for {name(c)}")
            self.spend(hand, Counter([c]))
            m[j] = (c, c)
            hand[JOKER] += 1
        elif kind == DISCARD:
            self.need_play("discard")
            n = sum(hand.values())
            if hand[c] <= 0:
                self.fail(f"seat {p} discards {name(c)}, which it does not hold")
            if c == QS and hand[QS] != n:
                self.fail("the Q♠ discarded while holding other cards")
            if n == 1 and not R.final_discard:
                self.fail("the last card discarded with final_discard=false")
            self.spend(hand, Counter([c]))
            H.pile.append(c)
            H.phase = "discarded"
        elif kind == OUT:
            if H.phase not in ("play", "discarded"):
                self.fail("going out outside a turn")
            if sum(hand.values()):
                self.fail(f"seat {p} goes out holding {sum(hand.values())} cards")
            H.out = p
            H.phase = "done"
        elif kind == END:
            if H.turns >= R.max_turns:
                H.phase = "done"            # the safety stop after max_turns turns
                return
            if H.stock_n:
                self.fail("the hand ends with cards in the stock")
            if R.stock_end == "reshuffle" and not H.reshuffled and len(H.pile) > 1:
                self.fail("the hand ends where the pile should be reshuffled")
            if can_take(H, p):
                self.fail(f"the hand ends though seat {p} could take the pile "
                          f"(top {name(H.pile[-1])})")
            H.turns += 1
            H.phase = "done"
        else:
            self.fail(f"an event of kind {kind}")

    def begin_turn(self, kind, seat):
        """A draw, a take, a reshuffle or an end opens a turn (or, at ``max_turns``, ends the
        hand): the turn before must be over, by a discard."""
        H = self.H
        if self.reshuffle_now:          # the draw of a reshuffled stock, in the same turn
            self.reshuffle_now = False
            return
        if H.phase == "discarded":
            H.player = (H.player + 1) % H.K
        elif H.phase == "play":
            q = H.player
            n = sum(H.hands[q].values())
            if n == 0:
                self.fail(f"seat {q} emptied its hand and did not go out")
            self.fail(f"seat {q} ended its turn without a discard ({n} cards in hand)")
        H.phase = "start"
        if kind == RESHUFFLE or (kind == END and H.turns >= H.rules.max_turns):
            return                      # the engine logs these with seat 0 / the next seat
        if seat != H.player:
            self.fail(f"seat {seat} plays in seat {H.player}'s turn")

    def need_play(self, what):
        if self.H.phase != "play":
            self.fail(f"a {what} outside the play of a turn ({self.H.phase})")

    def spend(self, hand: Counter, used: Counter):
        for c, k in used.items():
            if hand[c] < k:
                self.fail(f"seat {self.H.player} lays {k} x {name(c)}, holding {hand[c]}")
        hand.subtract(used)
        for c in [c for c, k in hand.items() if k == 0]:
            del hand[c]


# --------------------------------------------------------------------------- whole runs

def check_rows(rows, log, rules, limit: int = 10) -> dict:
    """Replay every row of ``log`` and compare with the engine's metrics ``rows`` (a DataFrame of
    the same deals).  Returns counts (hands, illegal, mismatch, truncated; what the legal hands
    held: events by kind, reshuffles, hands ended with nobody out) and the first ``limit``
    problems."""
    engine = {k: np.asarray(rows[k], float) for k in rows.columns}
    out = dict(hands=0, illegal=0, mismatch=0, truncated=0, problems=[], seen=Counter(),
               reshuffled=0, stock_out=0)
    for i in range(len(log)):
        out["hands"] += 1
        try:
            H = replay(log[i], rules)
        except Illegal as e:
            out["illegal"] += 1
            if len(out["problems"]) < limit:
                out["problems"].append(f"deal {i}: illegal: {e}")
            continue
        except Truncated as e:
            out["truncated"] += 1
            if len(out["problems"]) < limit:
                out["problems"].append(f"deal {i}: truncated: {e}")
            continue
        out["seen"] += H.seen
        out["reshuffled"] += H.reshuffled
        out["stock_out"] += H.out < 0
        mine = H.metrics()
        bad = {k: (v, float(engine[k][i])) for k, v in mine.items()
               if float(v) != float(engine[k][i])}
        if bad:
            out["mismatch"] += 1
            if len(out["problems"]) < limit:
                out["problems"].append(f"deal {i}: (reference, engine) {bad}")
    return out
