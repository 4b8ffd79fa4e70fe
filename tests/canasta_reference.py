"""A slow, plain-Python statement of Canasta (classic four-hand, two-hand and three-hand
cutthroat), written from the rule text (``003_25b072003b534ab4.txt`` lines 48-59), READINGS-rummy.md
3.1-3.3 and the move-log
agreement of /work/wt/CANASTA.md -- not from the engine (nothing of ``simkit.games.canasta`` is
imported here).  It replays a logged hand, rebuilds every hand, meld, the stock and the pile,
checks each move against the rules and scores the hand.

Cards are the house codes (``suit * 16 + rank``, ranks 2..14, the joker 64).  Seats are 0-based;
seat ``p`` plays for side ``p % 2`` (four hands: partners opposite; two hands: side = seat).

What it checks (3.1 rows; 003 line numbers where the text says it):

* the head against the rules; the pack (``decks`` x 52 + ``2 * decks`` jokers); the deal one
  card at a time from the dealer's left; the upcard covered while it is wild or a red three (the
  pile then frozen); the stock an exact multiset of what is left (with ``deck`` given, the exact
  order: every card dealt, turned and drawn where the stacked deck puts it);
* dealt red threes faced and replaced seat by seat from the dealer's left, a replacement red three
  faced and replaced again; drawn ones likewise; those found in a taken pile faced, not replaced;
* turns go round from the dealer's left; a turn starts with ``draw`` stock cards (fewer only
  when the stock runs out) or a pile take; with the stock empty, ``stock_end=end`` ends the hand,
  ``continue`` lets the player take, and obliges him to when the top card can be added to his
  side's meld and the pile is not frozen for him; otherwise the hand ends;
* the pile is taken only when its top is neither wild nor a black three (the stop card), the top
  card laid at once: with a natural pair of its rank from the hand when the pile is frozen for the
  side (it holds a wild or a red three, or the side has not melded); otherwise also with one
  natural and one wild, or onto the side's meld of that rank; before the side's initial meld the
  top card and the melds laid with it from the hand must reach the minimum (the head's minimum of
  the side; the pile's other cards do not count);
* melds of one rank 4..A: at least three cards, at least two natural, at most ``max_wild`` (3,
  line 48) wild cards (no more wilds than naturals with ``wild_le_natural``), one meld per rank and
  side, the side's; black threes melded only when going out, three or four, no wild cards; a side's
  first laying turn reaches its minimum (on a draw turn over all that turn's lays);
* partner's answer to "may I go out?" binds the asker for the turn (yes: he goes out; no: he does
  not; CANASTA.md trap (a)); going out needs ``canastas_to_out`` canastas of the side (55) and an
  empty hand, after the last lay or the last discard; concealed when the player laid no card
  earlier in the hand; a discard ends every other turn; nobody takes by hand size alone (trap (b));
* conservation at the end: hands + melds + pile + faced red threes + stock = the pack.

Three hands (3.3, 003:56-59; CANASTA.md 2026-12-04 04:23): each seat its own side; with the
rules' ``lone_hand`` (the log's head does not say it) the deal's first pile taker becomes the lone
hand (EV_LONE aux 0 just before that take: the other two seats' melds merged rank by rank onto the
lower seat's side, where both then lay; a merged meld may hold more than ``max_wild`` wild cards
but takes no more), or the first to go out before any take (EV_LONE aux 1 just before EV_OUT,
nothing merged); no asking partner.  A seat scores its group's total (the lone hand alone, the two
others pooled, each alone when there is no lone hand) plus its own red threes (minus when its group
made no meld); ``pK_net`` is its points minus the most any seat outside its group scored.

Cuban Canasta (003:84, READINGS 3.7; rules ``black_threes=faced``, ``wild_melds``,
``canasta_max``, ``red3_table=cuban``, ``initial_table=cuban``/``cuban_rg``, read off the rules
object, the log's head does not say them): every three, black or red, is faced when drawn or dealt
and replaced (the upcard covered while it is one, a taken pile's faced, not replaced); they score
by colour, the first 100, the second and third 200 each, the fourth 500 (so 100, 300, 500, 1000),
minus for a side without a canasta (``red_threes_minus``); a meld never holds more than seven
cards; a side may meld wild cards alone (logged as the meld of rank 2): three to seven deuces and
jokers, no natural card, its canasta 2000, 3000 with all four jokers, 4000 with seven deuces; the
initial minimum 95 below 3000 (a single hand: 95), 125 to 4995, 155 (``cuban_rg``: 150) above.

Samba (003:71-81, READINGS 3.4; rules ``sequences`` with ``decks=3``; the log as CANASTA.md's
2026-12-04 12:35 note says: a head of 14 -- decks, sequences, variant, wild-card melds -- and meld
ids 3..14 the side's group of that rank, 16 + k its k-th sequence): 162 cards, 15 each, draw
two; a sequence is three to seven naturals of one suit in order from the four to the ace, no wild
card, seven a samba (closed, a canasta for going out, ``sequence_canasta`` 1500); a group holds at
most ``max_wild`` (2) wild cards, and a canasta takes only natural cards (003:76); the pile is
taken only with a natural pair of its top card or, unfrozen, by the top card alone onto the side's
group or sequence of fewer than seven (never onto a canasta, never starting a sequence, no hand
card with it on a sequence, wild cards no help; 003:78); the stock's end obliges the same take;
minimum 15/50/90/120/150 (``samba160``: 160); red threes 100 each, all six to a side 1000.  The
text lets a side hold several groups of a rank (003:76); the log's ids give one group per rank
(the engine's reading) and the referee checks what the log can say.

Bolivia (003:82, READINGS 3.5; head variant 2): Samba plus the side's wild-card meld (id 2) of
three to seven wild cards, a bolivia of seven closed and scored ``wild_canasta`` (2500); with
``escalera_required`` one of the canastas to go out is a sequence of seven (and the stock's end
obliges a take only when the turn can then end legally); ``black_three_penalty`` (100) for each
black three left in a hand when a player goes out, beyond its value.  Brazilian (003:83, READINGS
3.6; variant 3): a wild canasta 2000, no escalera needed, ``incomplete_penalty``:
-1000 per wild-card meld or sequence of fewer than seven (``bicycle_seq_lt5``: sequences of fewer
than five) when a player goes out, in the canasta bonus; red threes 100 each, five 1000, six 1200,
minus without a canasta; the initial minimum Samba's 15/50/90/120 below 7000, and from 7000 the
head's codes -1 (the initial meld holds a canasta of any kind), -2 (a canasta, the meld counting
200 or more), -3 (a natural canasta: a group of seven or more without a wild card), 003:83 as
the engine's module doc reads it (the count over every card of the initial meld).

Bicycle's Brazilian readings (READINGS 3.6 "Bicycle/rummy-games [read] add: the pile may not be
taken for the initial meld; ... always ask partner before going out"; 003:83 silent), read from
the head's bits (decks=3: ``head[13]`` = wild-card melds 1 | no pile take for the initial meld 2 |
always ask 4; CANASTA.md 2026-12-04 15:35; an older head's 0/1 reads as both off): with bit 2 a
side that has not melded never takes the pile; with bit 8 (15:55 note) a player may lay cards on
an escalera's ends (a sequence then up to eleven cards) only in the turn he goes out; with bit 4
every going out of four hands follows
the player's "yes" from partner in that turn, and (the engine's reading, since the answer may be
no) a pile take leaves the taker two cards or more, so the stock's end obliges a take only then.

Scores (3.1): each side's melded cards at their values (joker 50; A, 2 20; K..8 10; 7..4 and
black 3 5), canastas (>= 7 cards) natural 500 / mixed 300, red threes 100 each (800 for all
four to one side; minus when the side made no meld, or with ``red_threes_minus=no_canasta`` has
no canasta), going out ``going_out`` (concealed: ``concealed`` instead), minus the cards left in
the side's hands.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

JOKER = 64
RED3 = (19, 35)
BLACK3 = (3, 51)
NHEAD = 10
DEAL, UP, RED3_EV, DRAW, TAKE, LAY, DISCARD, ASK, OUT, END, PILE, LONE = range(1, 13)
KIND_NAMES = {DEAL: "deal", UP: "up", RED3_EV: "red3", DRAW: "draw", TAKE: "take", LAY: "lay",
              DISCARD: "discard", ASK: "ask", OUT: "out", END: "end", PILE: "pile",
              LONE: "lone"}


class Illegal(Exception):
    """A move the rules forbid, or a log that contradicts itself (``event`` its index)."""

    def __init__(self, event: int, msg: str):
        super().__init__(f"event {event}: {msg}")
        self.event = event


class Truncated(Exception):
    """The log filled its room: the hand cannot be checked to its end."""


def decode(e: int) -> tuple[int, int, int, int]:
    e = int(e)
    return e >> 20, (e >> 16) & 15, (e >> 8) & 255, e & 255


def encode(kind: int, seat: int, aux: int, card: int) -> int:
    return kind << 20 | seat << 16 | aux << 8 | card


def is_wild(c: int) -> bool:
    return c == JOKER or c & 15 == 2


def rank(c: int) -> int:
    return 0 if c == JOKER else c & 15


def value(c: int) -> int:
    """3.1: joker 50; ace and deuce 20; K..8 10; 7..4 and black threes 5; red threes 100."""
    if c == JOKER:
        return 50
    r = c & 15
    if r in (14, 2):
        return 20
    if r >= 8:
        return 10
    if r == 3:
        return 100 if c in RED3 else 5
    return 5


def pack(decks: int = 2) -> Counter:
    c = Counter({s * 16 + r: decks for s in range(4) for r in range(2, 15)})
    c[JOKER] = 2 * decks
    return c


def name(c: int) -> str:
    if c == JOKER:
        return "Jo"
    return "??23456789TJQKA"[c & 15] + "cdhs"[c >> 4 & 3]


@dataclass
class Hand:
    """The state of a hand being replayed."""
    rules: object
    K: int
    dealer: int
    hand_size: int
    draw: int
    need: int                    # canastas to go out
    stock_end: int               # 0 continue, 1 end
    minima: list
    max_wild: int
    decks: int = 2
    hands: list = field(default_factory=list)
    stock: Counter = field(default_factory=Counter)
    order: list | None = None    # the stacked deck's cards still to come, top first
    pile: list = field(default_factory=list)
    frozen: bool = False         # the pile holds a wild card or a red three
    melds: list = field(default_factory=lambda: [{}, {}])    # side -> {rank: [cards]}
    melded: list = field(default_factory=lambda: [False, False])
    red3: list = field(default_factory=list)                 # faced, per seat
    black3: list = field(default_factory=list)               # faced black threes (Cuban)
    faced: Counter = field(default_factory=Counter)          # the faced red threes
    laid: list = field(default_factory=list)                 # seat laid a card in the hand
    turns: int = 0
    takes: list = field(default_factory=list)
    out: int = -1                # seat that went out
    concealed: bool = False
    reason: int = -1             # EV_END's reason
    seen: Counter = field(default_factory=Counter)
    sides: list | None = None    # three hands: seat -> side (its own until the merge)
    lone: int = -1               # three hands: the lone hand (-1: none yet)
    merged: bool = False         # three hands: the partners' melds merged
    no_init_take: bool = False   # head[13] bit 2: no pile take for the initial meld (Bicycle)
    ask_always: bool = False     # head[13] bit 4: always ask partner before going out (Bicycle)
    esc_ends: bool = False       # head[13] bit 8: an escalera's ends open when going out (Bicycle)
    esc_turn: bool = False       # a card laid beyond seven on a sequence this turn

    # ------------------------------------------------------------------ Samba (003:71-81)
    @property
    def samba(self) -> bool:
        """Samba and its kin (rules ``sequences``): sequences besides the groups; the log's
        meld id gives the meld's kind (:func:`samba_kind`)."""
        return bool(getattr(self.rules, "sequences", False))

    # ------------------------------------------------------------------ Cuban (003:84)
    def faced_three(self, c: int) -> bool:
        """Is ``c`` faced when drawn (a red three; any three with ``black_threes=faced``)?"""
        return c in RED3 or (c in BLACK3 and getattr(self.rules, "black_threes", "stop") == "faced")

    @property
    def biggest(self) -> int:
        """The most cards a meld may hold (``canasta_max``; 0: no limit)."""
        return getattr(self.rules, "canasta_max", 0) or 10 ** 6

    def three_score(self, n: int) -> int:
        """``n`` faced threes of one colour: classic 100 each, all four 800 (3.1); Cuban 100
        for the first, 200 each for the second and third, 500 for the fourth (003:84)."""
        table = getattr(self.rules, "red3_table", "classic")
        if table == "cuban":
            return sum((100, 200, 200, 500)[:n])
        if table == "samba":                       # 003:81: all six 1000 (instead of 600)
            return 1000 if n == 6 else 100 * n
        if table == "brazilian":                   # READINGS 3.6 (Bicycle): five 1000, six 1200
            return {5: 1000, 6: 1200}.get(n, 100 * n)
        return 800 if n == 4 else 100 * n

    def wild_canasta(self, m: list) -> int:
        """003:84: a wild-card canasta 2000, with all four jokers 3000, of seven deuces 4000."""
        if m.count(JOKER) == 4:
            return getattr(self.rules, "wild_canasta_jokers", 3000)
        if m.count(JOKER) == 0 and len(m) == 7:
            return getattr(self.rules, "wild_canasta_deuces", 4000)
        return getattr(self.rules, "wild_canasta", 2000)

    # ------------------------------------------------------------------ cards moving
    def from_stock(self, j: int, c: int) -> None:
        if self.stock[c] <= 0:
            raise Illegal(j, f"{name(c)} is not in the stock")
        if self.order is not None:
            if not self.order:
                raise Illegal(j, "the stacked deck is spent")
            want = self.order.pop(0)
            if want != c:
                raise Illegal(j, f"{name(c)} taken from the stock where the deck has {name(want)}")
        self.stock[c] -= 1

    @property
    def stock_n(self) -> int:
        return sum(self.stock.values())

    def take_from_hand(self, j: int, p: int, c: int) -> None:
        if self.hands[p][c] <= 0:
            raise Illegal(j, f"seat {p} does not hold {name(c)}")
        self.hands[p][c] -= 1

    def side(self, p: int) -> int:
        return p % 2 if self.sides is None else self.sides[p]

    @property
    def cut(self) -> bool:
        """Three hands with the lone hand (READINGS 3.3, 003:57-59; rules ``lone_hand``)."""
        return self.K == 3 and bool(getattr(self.rules, "lone_hand", True))

    def group(self, q: int) -> list:
        """The seats whose hand scores seat ``q`` is credited with: its side (partners); three
        hands (003:58-59): the lone hand alone, the other two together, each alone without one."""
        if self.K != 3:
            return [g for g in range(self.K) if self.side(g) == self.side(q)]
        if self.lone < 0 or q == self.lone:
            return [q]
        return [g for g in range(3) if g != self.lone]

    def make_lone(self, j: int, p: int, why: int) -> None:
        """Seat ``p`` becomes the lone hand (``why`` 0: the deal's first take, the other two's
        melds merged rank by rank onto the lower seat's side; 1: going out before any take)."""
        if not self.cut or self.lone >= 0 or sum(self.takes) or why not in (0, 1):
            raise Illegal(j, f"a lone hand (seat {p}, aux {why}) out of place")
        self.lone = p
        self.seen["lone_take" if why == 0 else "lone_out"] += 1
        if why == 1:
            return
        a, b = sorted(q for q in range(3) if q != p)
        for rk, m in self.melds[b].items():
            self.melds[a].setdefault(rk, []).extend(m)
        self.melds[b] = {}
        self.melded[a] = self.melded[a] or self.melded[b]
        self.melded[b] = False
        self.sides[b] = a
        self.merged = True

    # ------------------------------------------------------------------ melds
    def meld_error(self, cards, rk: int) -> str | None:
        if self.samba:
            return samba_meld_error(self, cards, rk)
        nat = sum(1 for c in cards if not is_wild(c))
        wild = len(cards) - nat
        if len(cards) > self.biggest:
            return f"a meld of rank {rk} with {len(cards)} cards, at most {self.biggest}"
        if rk == 2:
            if not getattr(self.rules, "wild_melds", False) or nat or len(cards) < 3:
                return f"a wild-card meld of {[name(c) for c in cards]}"
            return None
        if rk == 3:
            if wild or not 3 <= len(cards) <= 4 or any(c not in BLACK3 for c in cards):
                return f"a black-three meld of {[name(c) for c in cards]}"
            return None
        if len(cards) < 3:
            return f"a meld of {len(cards)} cards of rank {rk}"
        if nat < 2:
            return f"a meld of rank {rk} with {nat} natural card(s)"
        if wild > self.max_wild and not self.merged:    # a merged meld may hold more
            return f"a meld of rank {rk} with {wild} wild cards"
        if getattr(self.rules, "wild_le_natural", False) and wild > nat:
            return f"a meld of rank {rk} with more wild than natural cards"
        return None

    def canastas(self, s: int) -> int:
        if self.samba:
            return sum(1 for mid, m in self.melds[s].items() if samba_kind(mid) != "black3"
                       and len(m) >= 7)
        return sum(1 for rk, m in self.melds[s].items() if rk != 3 and len(m) >= 7)

    def check_melds(self, j: int, s: int) -> None:
        for rk, m in self.melds[s].items():
            err = self.meld_error(m, rk)
            if err:
                raise Illegal(j, err)

    def can_add_top(self, p: int) -> bool:
        """The top card could be added to the side's meld with the pile not frozen for him, and
        the turn then ended legally (the obligatory take at the stock's end): the taker keeps a
        card after his discard, or the side then has the canastas to go out (trap (b): a take
        that leaves one card is not refused for that alone)."""
        if not self.pile:
            return False
        if self.samba:
            return samba_can_add_top(self, p)
        top = self.pile[-1]
        s = self.side(p)
        if is_wild(top) or top in BLACK3 or self.frozen or not self.melded[s] \
                or getattr(self.rules, "pile_always_frozen", False):
            return False
        rk = rank(top)
        if rk not in self.melds[s]:
            return False
        if sum(self.hands[p].values()) + len(self.pile) - 1 >= 2:
            return True
        # one card left after the take: he goes out, discarding it or laying it on a meld
        sizes = {r: len(m) + (r == rk) for r, m in self.melds[s].items() if r != 3}
        base = sum(1 for n in sizes.values() if n >= 7)
        if base >= self.need:
            return True
        last = next(iter(+self.hands[p])) if sum(self.hands[p].values()) else top
        for r, m in self.melds[s].items():
            fits = (r == rank(last)) if not is_wild(last) else (
                r != 3 and sum(map(is_wild, m)) < self.max_wild)
            if fits and sizes.get(r) == 6 and base + 1 >= self.need:
                return True
        return False

    # ------------------------------------------------------------------ scores
    def seat_score(self, q: int) -> dict:
        """Seat ``q``'s score parts: its group's (:meth:`group`; each side counted once) melds,
        canastas, going out and cards in hand; the red threes of the group (three hands: the
        seat's own, 003:58), minus when the group made no meld (or no canasta)."""
        g = self.group(q)
        sides = sorted({self.side(x) for x in g})
        melds = [m for s in sides for m in self.melds[s].items()]
        laid = sum(value(c) for _, m in melds for c in m)
        bonus = n_canastas = 0
        short = {"text": 7, "bicycle_seq_lt5": 5}.get(getattr(self.rules, "incomplete_penalty",
                                                              "none"), 0)
        for rk, m in melds:
            if self.samba:                     # Samba's meld ids: the kind by the id
                rk = {"seq": -1, "black3": 3, "wild": 2}.get(samba_kind(rk), 4)
                if self.out >= 0 and ((rk == -1 and len(m) < short) or
                                      (rk == 2 and short == 7 and len(m) < 7)):
                    bonus -= 1000              # Brazilian (003:83): an incomplete meld
            n_canastas += rk != 3 and len(m) >= 7
            if rk == -1 and len(m) >= 7:
                bonus += getattr(self.rules, "sequence_canasta", 1500)  # 003:81
            elif rk == 2 and len(m) >= 7:
                bonus += self.wild_canasta(m)
            elif rk != 3 and len(m) >= 7:
                bonus += (getattr(self.rules, "mixed_canasta", 300) if any(is_wild(c) for c in m)
                          else getattr(self.rules, "natural_canasta", 500))
        mine = [q] if self.K == 3 else g
        n3 = sum(self.red3[x] for x in mine)
        red = self.three_score(n3) + self.three_score(sum(self.black3[x] for x in mine))
        minus = getattr(self.rules, "red_threes_minus", "no_meld")
        if (minus == "no_meld" and not melds) or (minus == "no_canasta" and not n_canastas):
            red = -red
        out = 0
        if self.out >= 0 and self.out in g:
            out = (getattr(self.rules, "concealed", 200) if self.concealed
                   else getattr(self.rules, "going_out", 100))
        hand = sum(value(c) * k for x in g for c, k in self.hands[x].items())
        if self.out >= 0:                 # Bolivia (003:82): a black three left in hand
            hand += getattr(self.rules, "black_three_penalty", 0) * sum(
                self.hands[x][b] for x in g for b in BLACK3)
        return dict(laid=laid, canasta_bonus=bonus, red3=red, red3_count=n3, out=out,
                    hand=hand, canastas=sum(self.canastas(s) for s in sides),
                    points=laid + bonus + red + out - hand)

    def side_score(self, s: int) -> dict:
        """Side ``s``'s score parts (two and four hands: its first seat's)."""
        return self.seat_score(next(p for p in range(self.K) if self.side(p) == s))

    def conserved(self) -> bool:
        """Hands + melds + pile + faced red threes + stock = the pack."""
        c = Counter()
        for h in self.hands:
            c.update(+h)
        for ms in self.melds:
            for m in ms.values():
                c.update(m)
        c.update(self.pile)
        c.update(self.faced)
        c.update(+self.stock)
        return c == pack(self.decks) and \
            sum(self.red3) + sum(self.black3) == sum(self.faced.values())


# --------------------------------------------------------------------------- the replay

class Events:
    """The hand's events with a cursor."""

    def __init__(self, evs):
        self.evs = evs
        self.j = 0

    def peek(self):
        return self.evs[self.j] if self.j < len(self.evs) else (0, 0, 0, 0)

    def next(self, kind=None, seat=None, aux=None):
        if self.j >= len(self.evs):
            raise Truncated(f"no event {self.j}")
        k, s, a, c = self.evs[self.j]
        j = self.j
        if kind is not None and k != kind:
            raise Illegal(j, f"{KIND_NAMES.get(k, k)} where a {KIND_NAMES[kind]} was due")
        if seat is not None and s != seat:
            raise Illegal(j, f"seat {s} moves where seat {seat} was due")
        if aux is not None and a != aux:
            raise Illegal(j, f"{KIND_NAMES[k]} aux {a}, {aux} due")
        self.j += 1
        return j, k, s, a, c


def start(row, rules, deck=None, stop=None) -> tuple[Hand, Events]:
    decks = getattr(rules, "decks", 2)
    nhead = NHEAD if decks == 2 else NHEAD + 4      # Samba's head (CANASTA.md 12:35 note)
    head = [int(x) for x in row[:nhead]]
    n = head[1]
    if n < 0 or nhead + n > len(row):
        raise Truncated(f"{n} events in a row of {len(row)}")
    evs = [decode(e) for e in row[nhead:nhead + n]]
    if stop is not None:
        evs = evs[:stop]
    elif not evs or evs[-1][0] != END:
        raise Truncated("the hand has no end event")
    K = head[2]
    want = [rules.players, rules.hand_size, rules.draw, rules.canastas_to_out,
            {"continue": 0, "end": 1}[rules.stock_end], rules.max_wild]
    have = [K, head[3], head[4], head[5], head[6], head[9]]
    if decks != 2:                  # decks, sequences, variant (1 samba), wild-card melds
        variant = {"bolivia": 2, "brazilian": 3}.get(getattr(rules, "initial_table", ""), 1)
        flags = int(getattr(rules, "wild_melds", False)) | (
            0 if getattr(rules, "initial_pile_take", True) else 2) | (
            4 if getattr(rules, "ask_partner", "may") == "always" else 0) | (
            8 if getattr(rules, "escalera_out_ends", False) else 0)
        want += [decks, int(rules.sequences), variant, flags]
        have += head[10:14]
    if have != want:
        raise Illegal(-1, f"head {have} against the rules {want}")
    H = Hand(rules=rules, K=K, dealer=head[0], hand_size=head[3], draw=head[4], need=head[5],
             stock_end=head[6], minima=[head[7], head[8]], max_wild=head[9], decks=decks,
             hands=[Counter() for _ in range(K)], stock=pack(decks),
             order=None if deck is None else [int(c) for c in deck],
             red3=[0] * K, black3=[0] * K, laid=[False] * K, takes=[0] * K)
    if decks != 2:                  # Bicycle's readings, bits of head[13] (READINGS 3.6)
        H.no_init_take, H.ask_always = bool(head[13] & 2), bool(head[13] & 4)
        H.esc_ends = bool(head[13] & 8)
    if K == 3:      # three sides until the lone hand is known; seat 2's minimum equals seat 0's
        H.sides, H.melds, H.melded = [0, 1, 2], [{}, {}, {}], [False] * 3   # (first hands only)
        H.minima = [head[7], head[8], head[7]]
    table = getattr(rules, "initial_table", "classic")
    allowed, first = {"classic": ((15, 50, 90, 120), 50), "cuban": ((95, 125, 155), 95),
                      "samba": ((15, 50, 90, 120, 150), 50),
                      "samba160": ((15, 50, 90, 120, 160), 50),
                      "bolivia": ((15, 50, 90, 120, 150), 50),      # never above 150 (003:82)
                      "brazilian": ((15, 50, 90, 120, -1, -2, -3), 50),   # 003:83
                      "cuban_rg": ((95, 125, 150), 95)}[table]
    for m in H.minima:
        if m not in allowed:
            raise Illegal(-1, f"an initial minimum of {m}")
    if getattr(rules, "unit", "hand") == "hand" and set(H.minima) != {first}:
        raise Illegal(-1, f"minima {H.minima} in a single hand (both sides at 0: {first})")
    return H, Events(evs)


def replay(row, rules, deck=None, stop=None) -> Hand:
    """Replay one logged hand (``row`` a log row, ``rules`` the rules it was played by, ``deck``
    the stacked deck if known); raises :class:`Illegal` at the first fault.  With ``stop``, only
    the first ``stop`` events, the state reached returned."""
    H, E = start(row, rules, deck, stop)
    try:
        return play(H, E)
    except Truncated:
        if stop is None:
            raise
        return H


def play(H: Hand, E: Events) -> Hand:
    K = H.K
    for i in range(K * H.hand_size):                       # the deal, from the dealer's left
        p = (H.dealer + 1 + i) % K
        j, _, _, _, c = E.next(DEAL, p, i // K)
        H.from_stock(j, c)
        H.hands[p][c] += 1
    while True:                                            # the upcard, covered
        j, _, _, _, c = E.next(UP, 0, 0)
        H.from_stock(j, c)
        H.pile.append(c)
        if is_wild(c) or H.faced_three(c):
            H.frozen = True
            continue
        break
    for i in range(K):                                     # dealt red threes
        p = (H.dealer + 1 + i) % K
        while any(k and H.faced_three(c) for c, k in H.hands[p].items()):
            j, _, _, _, c = E.next(RED3_EV, p, 0)
            face(H, E, j, p, c)
            H.seen["red3_dealt"] += 1
    p = (H.dealer + 1) % K
    while not turn(H, E, p):
        p = (p + 1) % K
    if E.j != len(E.evs):
        raise Illegal(E.j, "events after the hand's end")
    if not H.conserved():
        raise Illegal(E.j, "cards not conserved")
    for ms in H.melds if not H.samba else ():              # what a Cuban hand exercised
        for rk, m in ms.items():
            H.seen["wild_meld"] += rk == 2
            H.seen["wild_canasta"] += rk == 2 and len(m) >= 7
            H.seen["full_meld"] += len(m) == H.biggest
    for ms in H.melds if H.samba else ():                  # what a Samba hand exercised
        kinds = [(samba_kind(mid), len(m)) for mid, m in ms.items()]
        H.seen["sequence"] += sum(k == "seq" for k, _ in kinds)
        H.seen["samba"] += sum(k == "seq" and n == 7 for k, n in kinds)
        H.seen["group_canasta"] += sum(k == "group" and n >= 7 for k, n in kinds)
        H.seen["wild_on_group"] += sum(k == "group" and any(map(is_wild, m))
                                       for (k, _), m in zip(kinds, ms.values()))
        H.seen["wild_meld"] += sum(k == "wild" for k, _ in kinds)
        H.seen["bolivia"] += sum(k == "wild" and n == 7 for k, n in kinds)
    H.seen["black3_faced"] += sum(H.black3)
    return H


def face(H: Hand, E: Events, j: int, p: int, c: int) -> bool:
    """A red three faced from seat ``p``'s hand and replaced while the stock lasts; False when
    it was the stock's last card (no replacement)."""
    if not H.faced_three(c):
        raise Illegal(j, f"{name(c)} faced as a red three")
    H.take_from_hand(j, p, c)
    if c in RED3:
        H.red3[p] += 1
    else:
        H.black3[p] += 1
    H.faced[c] += 1
    if H.stock_n == 0:
        return False
    j, _, _, _, d = E.next(DRAW, p, 1)
    H.from_stock(j, d)
    H.hands[p][d] += 1
    if H.faced_three(d):
        j, _, _, _, c = E.next(RED3_EV, p, 0)
        if c != d:
            raise Illegal(j, f"{name(c)} faced after {name(d)} was drawn")
        return face(H, E, j, p, c)
    return True


def turn(H: Hand, E: Events, p: int) -> bool:
    """Seat ``p``'s turn; True when the hand ends with it."""
    k, s, a, _ = E.peek()
    if k == END:
        return end_at_start(H, E, p)
    H.turns += 1
    side = H.side(p)
    was_melded = H.melded[side]
    laid_before = H.laid[p]
    turn_lays = []                                         # cards laid this turn (for the minimum)
    if k == LONE:                                          # the deal's first take
        j, _, _, a, _ = E.next(LONE, p, 0)
        H.make_lone(j, p, a)
        k = E.peek()[0]
        if k != TAKE:
            raise Illegal(E.j, f"{KIND_NAMES.get(k, k)} after seat {p} became the lone hand")
    elif k == TAKE and H.cut and not sum(H.takes):
        raise Illegal(E.j, f"seat {p} takes the pile first without becoming the lone hand")
    if k == TAKE:
        if H.stock_n == 0 and H.stock_end == 1:
            raise Illegal(E.j, "a take with the stock empty under stock_end=end")
        take(H, E, p, turn_lays)
    else:
        if H.stock_n == 0:
            raise Illegal(E.j, f"seat {p} moves with an empty stock without taking")
        ends = draw(H, E, p)
        if ends:                                           # the stock's last card a red three
            return last_red_three(H, E, p, turn_lays, was_melded, laid_before)
    asked = lays(H, E, p, turn_lays)
    j, k, s, a, c = E.next()
    if s != p and k in (DISCARD, OUT):
        raise Illegal(j, f"seat {s} ends seat {p}'s turn")
    if k == DISCARD:
        last = sum(H.hands[p].values()) == 1               # discarding the last card: out
        finish_lays(H, j, p, turn_lays, was_melded, going_out=last)
        H.take_from_hand(j, p, c)
        H.pile.append(c)
        H.seen["discard"] += 1
        if is_wild(c):
            H.frozen = True
            H.seen["wild_discard"] += 1
        if sum(H.hands[p].values()):
            if asked == 1:
                raise Illegal(j, f"seat {p} does not go out after partner's yes")
            return False
        j, k, s, a, c = next_out(H, E, p)
    elif k in (OUT, LONE):
        E.j -= 1
        j, k, s, a, c = next_out(H, E, p)
        finish_lays(H, j, p, turn_lays, was_melded, going_out=True)
    else:
        raise Illegal(j, f"{KIND_NAMES.get(k, k)} where seat {p}'s discard was due")
    going_out(H, j, p, a, asked, laid_before)
    j, k, _, a, _ = E.next(END, 0)
    if a != 0:
        raise Illegal(j, f"end reason {a} after going out")
    H.reason = 0
    return True


def next_out(H: Hand, E: Events, p: int):
    """Seat ``p``'s EV_OUT; three hands with nobody the lone hand yet, after its EV_LONE aux 1
    (the player going out before any take is the lone hand, 003:59)."""
    if H.cut and H.lone < 0:
        j, _, _, a, _ = E.next(LONE, p, 1)
        H.make_lone(j, p, a)
    elif E.peek()[0] == LONE:
        H.make_lone(E.j, p, E.peek()[2])
    return E.next(OUT, p)


def last_red_three(H: Hand, E: Events, p: int, turn_lays: list, was_melded: bool,
                   laid_before: bool) -> bool:
    """The stock's last card was a red three: the player may lay cards but not discard (3.1);
    the hand ends, by going out if he has laid his whole hand."""
    asked = lays(H, E, p, turn_lays)
    if E.peek()[0] == DISCARD:
        raise Illegal(E.j, f"seat {p} discards after drawing the stock's last card, a red three")
    out = not sum(H.hands[p].values())
    finish_lays(H, E.j, p, turn_lays, was_melded, going_out=out)
    if out:
        j, _, _, a, _ = next_out(H, E, p)
        going_out(H, j, p, a, asked, laid_before)
    elif asked == 1:
        raise Illegal(E.j, f"seat {p} does not go out after partner's yes")
    j, _, _, a, _ = E.next(END, 0)
    if a != (0 if out else 1):
        raise Illegal(j, f"end reason {a} after the stock's last red three")
    H.reason = a
    H.seen["last_red3"] += 1
    return True


def end_at_start(H: Hand, E: Events, p: int) -> bool:
    j, _, _, a, _ = E.next(END, 0)
    H.reason = a
    if a == 2:
        if H.turns < getattr(H.rules, "max_turns", 0):
            raise Illegal(j, f"the turn cap after {H.turns} turns")
        H.seen["turn_cap"] += 1
        return True
    if a != 1:
        raise Illegal(j, f"end reason {a} at the start of a turn")
    if H.stock_n:
        raise Illegal(j, f"the hand ends with {H.stock_n} cards in the stock")
    if H.stock_end == 0 and H.can_add_top(p):
        raise Illegal(j, f"seat {p} must take the pile (its top {name(H.pile[-1])} goes on "
                         f"his side's meld) when the stock is empty")
    H.turns += 1             # the turn that finds the stock empty counts (the engine's count)
    H.seen["stock_end"] += 1
    return True


def draw(H: Hand, E: Events, p: int) -> bool:
    """The turn's draws; True when the stock's last card was a red three."""
    n = min(H.draw, H.stock_n)
    for _ in range(n):
        if H.stock_n == 0:
            break
        j, _, _, _, c = E.next(DRAW, p, 0)
        H.from_stock(j, c)
        H.hands[p][c] += 1
        H.seen["draw"] += 1
        if H.faced_three(c):
            j, _, _, _, c2 = E.next(RED3_EV, p, 0)
            if c2 != c:
                raise Illegal(j, f"{name(c2)} faced after {name(c)} was drawn")
            H.seen["red3_drawn"] += 1
            if not face(H, E, j, p, c):
                return True
    return False


def lay(H: Hand, j: int, p: int, rk: int, c: int, from_hand: bool = True) -> None:
    if from_hand:
        H.take_from_hand(j, p, c)
    if H.samba:
        return samba_lay(H, j, p, rk, c)
    if H.faced_three(c):
        raise Illegal(j, f"{name(c)} laid (a three that is faced)")
    wild_meld = rk == 2 and getattr(H.rules, "wild_melds", False)      # Cuban, 003:84
    if not (3 <= rk <= 14 or wild_meld):
        raise Illegal(j, f"a meld of rank {rk}")
    if is_wild(c):
        if rk == 3:
            raise Illegal(j, "a wild card on black threes")
    elif rank(c) != rk:
        raise Illegal(j, f"{name(c)} laid on the meld of rank {rk}")
    m = H.melds[H.side(p)].setdefault(rk, [])
    m.append(c)
    if len(m) > H.biggest:
        raise Illegal(j, f"a card beyond {H.biggest} on the meld of rank {rk} (003:84)")
    if is_wild(c) and not wild_meld and sum(1 for x in m if is_wild(x)) > H.max_wild:
        raise Illegal(j, f"a wild card beyond {H.max_wild} on the meld of rank {rk} (line 48)")
    H.laid[p] = True
    H.seen["lay"] += 1


def lays(H: Hand, E: Events, p: int, turn_lays: list) -> int:
    """Lays and an ask; returns partner's answer (-1 when not asked)."""
    asked = -1
    while True:
        k, s, a, c = E.peek()
        if k == LAY:
            j, _, _, rk, c = E.next(LAY, p)
            lay(H, j, p, rk, c)
            turn_lays.append((rk, c))
        elif k == ASK:
            j, _, _, a, _ = E.next(ASK, p)
            if H.K != 4 or asked >= 0 or a not in (0, 1):
                raise Illegal(j, "an ask out of place")
            asked = a
            H.seen["ask_yes" if a else "ask_no"] += 1
        else:
            return asked


def finish_lays(H: Hand, j: int, p: int, turn_lays: list, was_melded: bool,
                going_out: bool) -> None:
    """The melds after the turn's lays: legal, the minimum of a side's first laying turn, black
    threes only when going out."""
    side = H.side(p)
    if H.esc_turn and not going_out:
        raise Illegal(j, f"seat {p} adds to an escalera without going out (Bicycle, "
                         f"READINGS 3.6)")
    H.esc_turn = False
    if turn_lays and not was_melded and not H.melded[side]:
        initial_meld(H, j, side, turn_lays, "")
    if turn_lays:
        H.melded[side] = True
    if any(c in BLACK3 for _, c in turn_lays):
        if not going_out:
            raise Illegal(j, "black threes laid without going out")
        H.seen["black3_meld"] += 1
    H.check_melds(j, side)


def initial_meld(H: Hand, j: int, side: int, turn_lays: list, where: str) -> None:
    """A side's initial meld (``turn_lays``; the side had no meld before them, so its melds are
    theirs) against the head's minimum: a count of the cards' values, or Brazilian's canasta
    requirement from 7000 (003:83; head codes -1 a canasta, -2 a canasta and the meld counting
    200 or more, -3 a natural canasta: a group of seven or more with no wild card)."""
    m = H.minima[side]
    v = sum(value(c) for _, c in turn_lays)
    if v < (200 if m == -2 else m):
        raise Illegal(j, f"an initial meld of {v}{where}, the minimum {200 if m == -2 else m}")
    if m >= 0:
        return
    groups = [(mid, cards) for mid, cards in H.melds[side].items() if mid != 3 and len(cards) >= 7]
    if m == -3:
        groups = [(mid, cards) for mid, cards in groups
                  if 4 <= mid <= 14 and not any(map(is_wild, cards))]
    if not groups:
        raise Illegal(j, f"an initial meld{where} without the {'natural ' if m == -3 else ''}"
                         f"canasta required from {7000 - 1000 * (m + 1)} (003:83)")
    H.seen["initial_canasta"] += 1


def take(H: Hand, E: Events, p: int, turn_lays: list) -> None:
    if H.samba:
        return samba_take(H, E, p, turn_lays)
    top, side, frozen = take_start(H, E, p)
    rk = rank(top)
    had_meld = rk in H.melds[side]
    top_laid = False
    nat = wild = 0
    while True:
        jj, k, s, a, c = E.next()
        if k == PILE:
            break
        if k != LAY or s != p:
            raise Illegal(jj, f"{KIND_NAMES.get(k, k)} of seat {s} before the pile goes to hand")
        if not top_laid and c == top:
            if a != rk:
                raise Illegal(jj, f"the top card {name(top)} laid on rank {a}")
            lay(H, jj, p, a, c, from_hand=False)
            top_laid = True
        else:
            lay(H, jj, p, a, c)
            if a == rk:
                nat += not is_wild(c)
                wild += is_wild(c)
        turn_lays.append((a, c))
    if s != p or not top_laid:
        raise Illegal(jj, f"the pile's top card {name(top)} not laid at once")
    if frozen and nat < 2:
        raise Illegal(jj, f"a frozen pile taken without a natural pair of {name(top)}")
    if not frozen and not (had_meld or nat >= 2 or (nat >= 1 and wild >= 1)):
        raise Illegal(jj, f"the pile taken with {nat} natural and {wild} wild cards")
    pile_to_hand(H, E, p, jj, a, frozen, turn_lays)


def take_start(H: Hand, E: Events, p: int) -> tuple[int, int, bool]:
    """EV_TAKE: ``(top card, side, frozen for the side)``; the pile is the logged one and its
    top neither wild nor a black three (3.1)."""
    j, _, _, a, top = E.next(TAKE, p)
    side = H.side(p)
    if not H.pile or a != len(H.pile) or top != H.pile[-1]:
        raise Illegal(j, f"a take of a pile of {a} topped by {name(top)}; the pile is "
                         f"{len(H.pile)} topped by {name(H.pile[-1]) if H.pile else '-'}")
    if is_wild(top) or top in BLACK3:
        raise Illegal(j, f"the pile taken with {name(top)} on top")
    if H.no_init_take and not H.melded[side]:
        raise Illegal(j, f"seat {p} takes the pile for its side's initial meld (Bicycle, "
                         f"READINGS 3.6)")
    return top, side, H.frozen or not H.melded[side] or \
        getattr(H.rules, "pile_always_frozen", False)


def pile_to_hand(H: Hand, E: Events, p: int, jj: int, a: int, frozen: bool,
                 turn_lays: list) -> None:
    """EV_PILE (event ``jj``, ``a`` cards) after the take's lays: the side's initial minimum
    (the take's lays, top card included), its melds legal; the rest of the pile to the taker's
    hand, its faced threes faced (not replaced)."""
    side = H.side(p)
    if not H.melded[side]:
        initial_meld(H, jj, side, turn_lays, " on a take")
        H.melded[side] = True
    H.check_melds(jj, side)
    if a != len(H.pile) - 1:
        raise Illegal(jj, f"{a} pile cards to hand, {len(H.pile) - 1} in the pile")
    rest = H.pile[:-1]
    H.pile = []
    H.frozen = False
    H.hands[p].update(rest)
    H.takes[p] += 1
    H.seen["take"] += 1
    H.seen["take_frozen" if frozen else "take_open"] += 1
    for _ in range(sum(1 for c in rest if H.faced_three(c))):
        jj, _, _, a, c = E.next(RED3_EV, p, 1)
        if not H.faced_three(c):
            raise Illegal(jj, f"{name(c)} faced as a red three")
        H.take_from_hand(jj, p, c)
        if c in RED3:
            H.red3[p] += 1
        else:
            H.black3[p] += 1
        H.faced[c] += 1
        H.seen["red3_pile"] += 1
    if H.ask_always and sum(H.hands[p].values()) < 2:
        raise Illegal(jj, f"seat {p} keeps {sum(H.hands[p].values())} card(s) after a take "
                          f"when partner must be asked before going out (READINGS 3.6)")


def going_out(H: Hand, j: int, p: int, concealed: int, asked: int, laid_before: bool) -> None:
    side = H.side(p)
    if bool(concealed) != (not laid_before):
        raise Illegal(j, f"going out logged {'concealed' if concealed else 'open'}; seat {p} "
                         f"{'had' if laid_before else 'had not'} laid before this turn")
    if sum(H.hands[p].values()):
        raise Illegal(j, f"seat {p} goes out holding {sum(H.hands[p].values())} cards")
    if asked == 0:
        raise Illegal(j, f"seat {p} goes out after partner's no (trap (a))")
    if H.ask_always and H.K == 4 and asked != 1:
        raise Illegal(j, f"seat {p} goes out without asking partner (Bicycle, READINGS 3.6)")
    if H.canastas(side) < H.need:
        raise Illegal(j, f"seat {p} goes out with {H.canastas(side)} canastas, {H.need} needed")
    if getattr(H.rules, "escalera_required", False) and not any(
            samba_kind(mid) == "seq" and len(m) >= 7 for mid, m in H.melds[side].items()):
        raise Illegal(j, f"seat {p} goes out without an escalera (003:82)")
    H.out = p
    H.concealed = bool(concealed)
    H.seen["out"] += 1
    H.seen["concealed"] += H.concealed


# --------------------------------------------------------------------------- Samba (003:71-81)

def samba_kind(mid: int) -> str:
    """A Samba meld's kind by its log id (CANASTA.md 2026-12-04 12:35): 3 black threes, 4..14
    the side's group of that rank, 16 + k its k-th sequence, 2 the wild-card meld (Bolivia)."""
    return ("seq" if mid >= 16 else "black3" if mid == 3 else "group" if 4 <= mid <= 14
            else "wild" if mid == 2 else "?")


def samba_meld_error(H: Hand, cards, mid: int) -> str | None:
    """003:74-76 (READINGS 3.4): a sequence is three to seven naturals of one suit in unbroken
    order from the four up to the ace, no wild card (seven = a samba, closed); a group is three
    or more cards of one rank 4..A, at least two natural, at most ``max_wild`` (2) wild cards;
    black threes (as Canasta, 3.1) only when going out, three or more, no wild card."""
    kind = samba_kind(mid)
    shown = [name(c) for c in cards]
    wild = sum(1 for c in cards if is_wild(c))
    if kind == "seq":
        ranks = sorted(rank(c) for c in cards if not is_wild(c))
        if wild:
            return f"a sequence with a wild card (003:74): {shown}"
        if len({c >> 4 for c in cards}) != 1:
            return f"a sequence of two suits: {shown}"
        if not 3 <= len(cards) <= (11 if H.esc_ends else 7):
            return f"a sequence of {len(cards)} cards (three to seven, 003:74): {shown}"
        if ranks[0] < 4 or ranks != list(range(ranks[0], ranks[0] + len(ranks))):
            return f"a broken sequence (4..A in order, 003:74): {shown}"
        return None
    if kind == "black3":
        return f"a black-three meld of {shown}" if wild or len(cards) < 3 else None
    if kind == "wild":                   # Bolivia (003:82): three to seven wild cards
        return None if wild == len(cards) and 3 <= len(cards) <= 7 else \
            f"a wild-card meld of {shown}"
    nat = len(cards) - wild
    if len(cards) < 3 or nat < 2:
        return f"a group of {len(cards)} cards, {nat} natural: {shown}"
    if wild > H.max_wild:
        return f"a group with {wild} wild cards, at most {H.max_wild} (003:75): {shown}"
    return None


def samba_lay(H: Hand, j: int, p: int, mid: int, c: int) -> None:
    """A card laid on the side's meld ``mid``: on a group a card of its rank or a wild card (a
    canasta, seven or more, only a natural, 003:76); on a sequence a natural (a new one numbered
    next, 16 + the side's sequences so far), none on a samba (closed, 003:74).  The meld's
    legality (its size, a sequence's order) is judged when the turn's lays are done."""
    if H.faced_three(c):
        raise Illegal(j, f"{name(c)} laid (a three that is faced)")
    kind = samba_kind(mid)
    ms = H.melds[H.side(p)]
    if kind == "?" or (kind == "black3" and c not in BLACK3) or (kind == "wild" and (
            not is_wild(c) or not getattr(H.rules, "wild_melds", False))):
        raise Illegal(j, f"{name(c)} laid on meld id {mid}")
    if kind == "group" and not is_wild(c) and rank(c) != mid:
        raise Illegal(j, f"{name(c)} laid on the group of rank {mid}")
    if kind == "seq":
        if mid not in ms and mid != 16 + sum(1 for x in ms if x >= 16):
            raise Illegal(j, f"a new sequence numbered {mid - 16}, "
                             f"{sum(1 for x in ms if x >= 16)} started before")
        if len(ms.get(mid, ())) >= 7 and not H.esc_ends:
            raise Illegal(j, f"{name(c)} laid on a samba (closed, 003:74)")
        if len(ms.get(mid, ())) >= 7:                 # Bicycle: only in going out (checked
            H.esc_turn = True                         # when the turn's lays are done)
            H.seen["esc_end"] += 1
        if is_wild(c):
            raise Illegal(j, "a wild card laid on a sequence (003:74)")
    m = ms.setdefault(mid, [])
    if kind == "wild" and len(m) >= 7:
        raise Illegal(j, f"{name(c)} laid on a bolivia (closed, 003:82)")
    if kind == "group" and is_wild(c) and len(m) >= 7:
        raise Illegal(j, "a wild card laid on a canasta (only naturals, 003:76)")
    m.append(c)
    H.laid[p] = True
    H.seen["lay"] += 1


def samba_take(H: Hand, E: Events, p: int, turn_lays: list) -> None:
    """003:78 (READINGS 3.4): the pile is taken only with a natural pair of its top card, or,
    when it is not frozen, by adding the top card to the side's group or sequence of fewer than
    seven cards; the top card never goes to a canasta (003:76), never starts a sequence nor
    joins hand cards to extend one, and wild cards do not help take it."""
    top, side, frozen = take_start(H, E, p)
    before = {mid: len(m) for mid, m in H.melds[side].items()}
    top_mid, from_hand = None, []
    while True:
        jj, k, s, a, c = E.next()
        if k == PILE:
            break
        if k != LAY or s != p:
            raise Illegal(jj, f"{KIND_NAMES.get(k, k)} of seat {s} before the pile goes to hand")
        if top_mid is None and c == top:
            lay(H, jj, p, a, c, from_hand=False)
            top_mid = a
        else:
            lay(H, jj, p, a, c)
            from_hand.append((a, c))
        turn_lays.append((a, c))
    if s != p or top_mid is None:
        raise Illegal(jj, f"the pile's top card {name(top)} not laid at once")
    n0 = before.get(top_mid, 0)
    with_top = [c for mid, c in from_hand if mid == top_mid]
    nat = sum(1 for c in with_top if not is_wild(c))
    if n0 >= 7:
        raise Illegal(jj, f"the top card {name(top)} added to a canasta of {n0} (003:76)")
    if samba_kind(top_mid) == "seq":
        if n0 == 0:
            raise Illegal(jj, f"the top card {name(top)} starts a sequence (003:78)")
        if with_top:
            raise Illegal(jj, f"the top card {name(top)} joins hand cards to extend a "
                              f"sequence (003:78)")
        if frozen:
            raise Illegal(jj, f"a frozen pile taken without a natural pair of {name(top)}")
        H.seen["take_seq"] += 1
    elif frozen and nat < 2:
        raise Illegal(jj, f"a frozen pile taken without a natural pair of {name(top)}")
    elif nat < 2 and n0 == 0:
        raise Illegal(jj, f"the pile taken with {nat} natural card(s) of {name(top)} and no "
                          f"group to add it to (wild cards do not help, 003:78)")
    H.seen["take_pair" if nat >= 2 else "take_add"] += 1
    pile_to_hand(H, E, p, jj, a, frozen, turn_lays)


def samba_fits(mid: int, m: list, c: int) -> bool:
    """Card ``c`` may join the side's Samba meld ``mid`` holding ``m`` (a sequence: at an end,
    fewer than seven; a group: its rank, or a wild card while it holds fewer than two and
    fewer than seven cards)."""
    kind = samba_kind(mid)
    if kind == "seq":
        ranks = [rank(x) for x in m]
        return (not is_wild(c) and len(m) < 7 and c >> 4 == m[0] >> 4
                and rank(c) in (min(ranks) - 1, max(ranks) + 1) and 4 <= rank(c) <= 14)
    if kind != "group":
        return False
    if is_wild(c):
        return sum(map(is_wild, m)) < 2 and len(m) < 7
    return rank(c) == mid


def samba_can_add_top(H: Hand, p: int) -> bool:
    """The stock's end (READINGS 3.1, 3.4): the top card can be added to the side's group or
    sequence of fewer than seven with the pile not frozen for him, and the turn then ended
    legally (he keeps a card after discarding, or goes out with the canastas)."""
    top = H.pile[-1]
    s = H.side(p)
    if is_wild(top) or top in BLACK3 or H.frozen or not H.melded[s] \
            or getattr(H.rules, "pile_always_frozen", False):
        return False
    targets = [mid for mid, m in H.melds[s].items() if len(m) < 7 and samba_fits(mid, m, top)]
    if not targets:
        return False
    if H.ask_always:                # a take must leave two cards (READINGS 3.6, reading)
        return sum(H.hands[p].values()) + sum(not H.faced_three(c) for c in H.pile[:-1]) >= 2
    if sum(H.hands[p].values()) + len(H.pile) - 1 >= 2:
        return True
    last = next(iter(+H.hands[p]), None)
    for t in targets:
        ms = {mid: m + [top] if mid == t else m for mid, m in H.melds[s].items()}
        if samba_out_ok(H, ms):                           # discarding the last card
            return True
        for mid, m in ms.items():                         # laying it
            if last is not None and samba_fits(mid, m, last) and \
                    samba_out_ok(H, {**ms, mid: m + [last]}):
                return True
    return False


def samba_out_ok(H: Hand, ms: dict) -> bool:
    """A side with melds ``ms`` may go out: ``need`` canastas (a samba counts, 003:79), one of
    them an escalera with ``escalera_required`` (Bolivia, 003:82)."""
    n = sum(1 for mid, m in ms.items() if len(m) >= 7 and samba_kind(mid) != "black3")
    esc = any(samba_kind(mid) == "seq" and len(m) >= 7 for mid, m in ms.items())
    return n >= H.need and (esc or not getattr(H.rules, "escalera_required", False))


# --------------------------------------------------------------------------- metrics, many rows

def metrics(H: Hand) -> dict:
    """The engine's metric names (unit=hand): per seat its group's score parts (two and four
    hands: its side's), its going out and pile takes, its net (its points minus the most any
    seat not scoring with it scored), three hands its being the lone hand; the turns and whether
    nobody went out."""
    out = {}
    sc = [H.seat_score(k) for k in range(H.K)]
    for k in range(H.K):
        s = sc[k]
        g = H.group(k)
        best = max(sc[r]["points"] for r in range(H.K) if r not in g)
        out.update({f"p{k + 1}_points": s["points"], f"p{k + 1}_canasta_bonus": s["canasta_bonus"],
                    f"p{k + 1}_red3": s["red3"], f"p{k + 1}_out_bonus": s["out"],
                    f"p{k + 1}_melded": s["laid"], f"p{k + 1}_in_hand": s["hand"],
                    f"p{k + 1}_went_out": int(H.out == k), f"p{k + 1}_takes": H.takes[k],
                    f"p{k + 1}_net": s["points"] - best})
        if H.K == 3:
            out[f"p{k + 1}_lone"] = int(H.lone == k)
    out["turns"] = H.turns
    out["stock_out"] = int(H.out < 0)
    return out


def check_rows(rows, log, rules, limit: int = 10, decks=None) -> dict:
    """Replay every row of ``log`` and compare with the engine's metrics ``rows`` (a DataFrame of
    the same deals; ``decks`` the stacked decks when known).  Returns counts (hands, illegal,
    mismatch, truncated; ``seen``: what the legal hands held) and the first ``limit`` problems."""
    engine = {k: [float(x) for x in rows[k]] for k in rows.columns}
    res = dict(hands=0, illegal=0, mismatch=0, truncated=0, problems=[], seen=Counter(),
               missing=set())
    for i in range(len(log)):
        res["hands"] += 1
        try:
            H = replay(log[i], rules, None if decks is None else decks[i])
        except Illegal as e:
            res["illegal"] += 1
            if len(res["problems"]) < limit:
                res["problems"].append(f"deal {i}: illegal: {e}")
            continue
        except Truncated as e:
            res["truncated"] += 1
            if len(res["problems"]) < limit:
                res["problems"].append(f"deal {i}: truncated: {e}")
            continue
        res["seen"] += H.seen
        res["seen"]["reason_%d" % H.reason] += 1
        mine = metrics(H)
        res["missing"] |= set(mine) - set(engine)
        bad = {k: (v, engine[k][i]) for k, v in mine.items()
               if k in engine and float(v) != engine[k][i]}
        if bad:
            res["mismatch"] += 1
            if len(res["problems"]) < limit:
                res["problems"].append(f"deal {i}: (reference, engine) {bad}")
    return res
