"""Exact odds of a dealt Canasta hand (no sampling): red threes, wild cards, natural pairs, the
initial meld the hand could lay at once, and whether eldest can take the first pile.  Rules:
``003_25b072003b534ab4.txt`` lines 48-55 read as ``READINGS-rummy.md`` 3.1-3.2 say (pack of
``decks`` 52-card decks and ``jokers`` jokers, 108 cards classic; 11 cards four-hand, 15 two-hand).

The pack, by what the odds below need: red threes (``2 * decks``), black threes (``2 * decks``),
deuces (``4 * decks``), jokers, and the eleven natural ranks 4..A (``4 * decks`` each) with
their values (3.1: ace 20, K..8 10, 7..4 5; a deuce 20, a joker 50).

Definitions (each metric's name in brackets):

* The **dealt hand** is the ``hand_size`` cards dealt to one seat.  [``red3_K``] the chance it
  holds K red threes, [``red3_mean``]; [``wilds_K``], [``wilds_mean``] the same for wild cards
  (deuces and jokers).  Both are hypergeometric.
* The **hand held** is the hand after its red threes are faced and replaced (a replacement red
  three is faced and replaced again), before the seat's first draw.  Whatever the order of the
  covering of the upcard and of the replacements (before the upcard, after it, seat by seat), as
  long as each card goes where the rules send it the moment it is turned, the hand held is a
  uniform ``hand_size``-subset of the pack's cards other than red threes (the cards at the
  seat's positions in the red-three-free subsequence of a uniform shuffle), which is what is
  enumerated.  [``pairs_K``], [``pairs_mean``]: ranks 4..A held as two natural cards or more.
* [``meld50``], [``meld90``], [``meld120``]: the hand held alone (no draw, no pile) can lay melds
  worth at least 50 / 90 / 120 by card values (bonuses excluded; 3.1 initial meld): melds of one
  rank 4..A, each with at least two natural cards and at most ``max_wild`` (3) wild cards (no more
  wilds than naturals with ``wild_le_natural``), at least three cards, one meld per rank; black
  and red threes are never melded (black threes only when going out).  The best lay is found
  exactly: every rank held three times or more is melded; pairs are completed with one wild each,
  highest value first, as long as wilds last; the remaining wilds fill the free places, jokers
  first (every card laid adds its value, so this is the maximum; the test checks it against a
  search over every lay).
* The **first pile** is the final upcard: the first card turned after the deal that is neither
  wild nor a red three (each such card covers the one before and freezes the pile).  Eldest
  (dealer's left) plays first with the hand held; his side has not melded, so the pile is frozen
  against him (3.1 frozen pile) and he may take it only with a natural pair of its rank from his
  hand, the top card melded at once.  Jointly, the hand held is uniform as above and the upcard
  is uniform over the non-wild, non-red-three cards not in it (the same argument: the cards
  skipped while covering are wild or red threes, so which card ends the covering is independent
  of what is left for the replacements).  [``take_pair``]: the upcard is of a rank 4..A and
  eldest holds two naturals of that rank or more (a black three on top cannot be taken).
  [``take_first_pile``]: that, and the initial minimum of a side at 0 points (50) is reached by
  the top card with the melds of the hand held (the pile under the top card does not count).
  [``upcard_black3``]: the upcard is a black three.  [``upcard_covered``]: the first card turned
  is wild or a red three, so the first pile is frozen for both sides.

Cuban Canasta (``preset=cuban``, 003:84; READINGS 3.7): every three, black or red, is faced and
replaced, so the hand held is a uniform subset of the cards that are not threes and the upcard
uniform over the naturals not in it (the same argument, with the black threes among the cards
that cover); [``black3_K``], [``black3_mean``] the dealt black threes; [``upcard_black3``] is 0.
The initial minimums reported are the rules' table (``meld95``, ``meld125``, ``meld155``; eldest's
first-pile take against 95).  The best lay then also honours the seven-card limit (a rank held
more than seven times lays seven; a full meld may leave a natural in hand to take one more wild
card) and wild-card melds (three to seven wild cards alone): :func:`best_lay` maximises over
the pairs completed, the naturals left out and the wild-card meld's size (the tests check it
against a search over every lay).

Samba (``sequences``; 003:71-81, READINGS 3.4): 162 cards (three decks, six jokers: 6 red threes,
6 black threes, 18 wild cards, 12 of each natural rank), 15 each.  The dealt counts, the natural
pairs of the hand held, ``take_pair`` (eldest holds two naturals of the first upcard's rank: the
frozen pile's only route, 003:78) and the upcard shares are the same sums on that pack.  A lay
may then hold sequences (three or more of one suit, 4..A), so its value depends on the suits,
which this enumeration by rank counts does not see.  :mod:`simkit.games.canasta.exact_seq` has
the exact DP over ranks on sets of partial lays (groups, sequences, Bolivia's wild-card meld),
equal to a search over every lay on reduced packs, and its one-threshold form (the wild cards
fixed first, a prefix absorbed as soon as one lay reaches the threshold) that reaches fifteen
cards: [``meldM``] and [``take_first_pile``] for Samba's lay come from its table ``SAMBA15``,
for Bolivia's and Brazilian's (a wild-card meld of 3-7; the same lay and minimum at score 0)
from ``BOLIVIA15`` (computed once by ``scripts/samba_exact.py``, minutes each; the thresholds
they hold) at the pack and 15 cards, and are computed on demand for hands of at most six
cards.  They are not reported for a threshold or hand size the tables lack (rather than a
groups-only number under their names).
"""
from __future__ import annotations

import time
from dataclasses import dataclass
from fractions import Fraction
from math import comb

from simkit.errors import SimkitError

JOKER_VALUE, DEUCE_VALUE = 50, 20
# natural ranks 4..A with their values (READINGS 3.1)
RANK_VALUES = {14: 20, **{r: 10 for r in range(8, 14)}, **{r: 5 for r in range(4, 8)}}
MINIMA = (50, 90, 120)         # classic (3.1 initial meld); Pack.minima per rules
FIRST_MINIMUM = 50             # a side at 0 points (3.1 initial meld)


@dataclass(frozen=True)
class Pack:
    """A canasta pack by classes: ``ranks`` the natural ranks 4..A as ``(value, copies)``."""
    ranks: tuple[tuple[int, int], ...]
    black3: int
    red3: int
    deuces: int
    jokers: int
    max_wild: int = 3
    wild_le_natural: bool = False
    black3_faced: bool = False      # Cuban (003:84): black threes faced and replaced too
    cap: int = 0                    # most cards in a meld (Cuban 7; 0: no limit)
    wild_melds: bool = False        # Cuban: melds of 3..cap wild cards alone
    minima: tuple = (50, 90, 120)   # the initial minimums reported (meldM); the first, eldest's
    sequences: bool = False         # Samba (003:74): melds of a suit's run; no lay is enumerated

    @property
    def size(self) -> int:
        return sum(n for _, n in self.ranks) + self.black3 + self.red3 + self.deuces + self.jokers

    @property
    def held_black3(self) -> int:
        """Black threes a hand held can contain (none when they are faced)."""
        return 0 if self.black3_faced else self.black3

    @property
    def faced(self) -> int:
        """Cards faced and replaced: red threes (and black ones in Cuban)."""
        return self.red3 + self.black3 - self.held_black3

    @property
    def biggest(self) -> int:
        return self.cap or 10 ** 6

    @property
    def plain(self) -> int:
        """Cards that end the covering of the upcard: neither wild nor faced threes."""
        return sum(n for _, n in self.ranks) + self.held_black3


def classic_pack(decks: int = 2, jokers: int = 4, max_wild: int = 3,
                 wild_le_natural: bool = False, **cuban) -> Pack:
    """The pack by classes; ``cuban``: :class:`Pack`'s ``black3_faced``, ``cap``,
    ``wild_melds``, ``minima``."""
    return Pack(tuple((RANK_VALUES[r], 4 * decks) for r in sorted(RANK_VALUES, reverse=True)),
                2 * decks, 2 * decks, 4 * decks, jokers, max_wild, wild_le_natural, **cuban)


# the initial-meld tables by rules' initial_table (READINGS 3.1; 003:84; READINGS 3.7)
TABLES = {"classic": (50, 90, 120), "cuban": (95, 125, 155), "cuban_rg": (95, 125, 150),
          "samba": (50, 90, 120, 150), "samba160": (50, 90, 120, 160),
          "bolivia": (50, 90, 120, 150), "brazilian": (50, 90, 120, 150)}


def _players_hand(rules):
    players = int(getattr(rules, "players", 4))
    hand = getattr(rules, "hand_size", None)
    return players, int(hand if hand is not None else {4: 11, 2: 15, 3: 13}.get(players, 11))


def pack_of(rules) -> tuple[Pack, int]:
    """``(pack, hand size)`` read from a duck-typed rules object (``players``, ``hand_size``,
    ``decks``, ``jokers``, ``max_wild``, ``wild_le_natural``), classic defaults for what it
    lacks: two decks with two jokers each, eleven cards for four players, fifteen for two."""
    decks = int(getattr(rules, "decks", 2))
    jokers = int(getattr(rules, "jokers", 2 * decks))
    players, hand = _players_hand(rules)
    pack = classic_pack(decks, jokers, int(getattr(rules, "max_wild", 3)),
                        bool(getattr(rules, "wild_le_natural", False)),
                        black3_faced=getattr(rules, "black_threes", "stop") == "faced",
                        cap=int(getattr(rules, "canasta_max", 0)),
                        wild_melds=bool(getattr(rules, "wild_melds", False)),
                        minima=TABLES[getattr(rules, "initial_table", "classic")],
                        sequences=bool(getattr(rules, "sequences", False)))
    if pack.wild_le_natural and pack.cap:
        raise SimkitError("canasta exact: wild_le_natural with canasta_max is not enumerated "
                          "(no preset combines them)")
    if hand < 1 or players * hand + 1 > pack.size:
        raise SimkitError(f"canasta exact: {players} hands of {hand} cards and an upcard do not "
                          f"fit a pack of {pack.size}")
    return pack, hand


# ------------------------------------------------------------------------- the best lay of a hand

def best_lay(pack: Pack, triple_value: int, room: int, pair_values, jokers: int,
             deuces: int, drops=()) -> int:
    """The most points the melds of a hand can hold: ``triple_value`` the naturals laid of the
    ranks held three times or more (at most ``pack.cap`` each), ``room`` the wild cards their
    melds can still take, ``pair_values`` the value of one natural of each rank held exactly
    twice, ``jokers`` and ``deuces`` the wild cards; ``drops`` (a meld limit, Cuban): the value
    of each natural a full meld may leave in hand to take one more wild card instead.  Every wild
    card laid adds its value wherever it goes, jokers first; so the best lay is the best over:
    ``p`` pairs completed (the highest), ``q`` naturals dropped (the cheapest), a wild-card meld
    of ``m`` (0, or 3..cap with ``wild_melds``), the wild cards laid as far as the room goes."""
    wild = jokers + deuces
    pairs = sorted(pair_values, reverse=True)
    drops = sorted(drops)
    per_pair = min(pack.max_wild, pack.biggest - 2)
    if pack.wild_le_natural:
        per_pair = min(per_pair, 2)
    sizes = [0] + (list(range(3, min(pack.biggest, wild) + 1)) if pack.wild_melds else [])
    best = 0
    for p in range(min(wild, len(pairs)) + 1):
        for m in sizes:
            if p + m > wild:
                break
            for q in range(len(drops) + 1):
                n = min(wild, room + p * per_pair + m + q)
                j = min(jokers, n)
                best = max(best, triple_value - sum(drops[:q]) + 2 * sum(pairs[:p])
                           + JOKER_VALUE * j + DEUCE_VALUE * (n - j))
    return best


def _triple(pack: Pack, k: int, v: int) -> tuple[int, int, tuple]:
    """A rank held ``k`` >= 3 times: (value laid, wild cards its meld can still take, the values
    of the naturals it may leave in hand for one more wild card each, :func:`best_lay`)."""
    laid = min(k, pack.biggest)
    room = min(pack.max_wild, pack.biggest - laid)
    extra = min(pack.max_wild, pack.biggest - 2) - room
    return laid * v, room, (v,) * extra


def lay_of_counts(pack: Pack, naturals, jokers: int, deuces: int) -> int:
    """:func:`best_lay` of a hand given as the natural count of each rank of ``pack.ranks``."""
    tv = room = 0
    drops: tuple = ()
    for (v, _), n in zip(pack.ranks, naturals):
        if n >= 3:
            a, b, d = _triple(pack, n, v)
            tv, room, drops = tv + a, room + b, drops + d
    return best_lay(pack, tv, room, [v for (v, _), n in zip(pack.ranks, naturals) if n == 2],
                    jokers, deuces, drops)


# ------------------------------------------------------------------------- enumeration

def _naturals(pack: Pack, ranks, hand: int) -> dict:
    """Ways to hold natural cards of ``ranks``: ``{(cards, triple value, triples, room, pairs,
    drops): ways}``, ``room`` and ``drops`` the triples' (:func:`_triple`), ``pairs`` the sorted
    tuple of pair values."""
    states = {(0, 0, 0, 0, (), ()): 1}
    for v, copies in ranks:
        nxt: dict = {}
        for (c, tv, t, rm, pv, dr), w in states.items():
            for k in range(min(copies, hand - c) + 1):
                if k >= 3:
                    a, b, d = _triple(pack, k, v)
                    key = (c + k, tv + a, t + 1, rm + b, pv, tuple(sorted(dr + d)))
                elif k == 2:
                    key = (c + k, tv, t, rm, tuple(sorted(pv + (v,), reverse=True)), dr)
                else:
                    key = (c + k, tv, t, rm, pv, dr)
                nxt[key] = nxt.get(key, 0) + w * comb(copies, k)
        states = nxt
    return states


def _others(pack: Pack, hand: int, cards: int):
    """``(jokers, deuces, ways)`` of the hand's wild cards and black threes filling ``hand -
    cards`` places."""
    rest = hand - cards
    for j in range(min(pack.jokers, rest) + 1):
        for d in range(min(pack.deuces, rest - j) + 1):
            b = rest - j - d
            if b <= pack.held_black3:
                yield j, d, (comb(pack.jokers, j) * comb(pack.deuces, d)
                             * comb(pack.held_black3, b))


def held_odds(pack: Pack, hand: int) -> dict[str, Fraction]:
    """Natural pairs and the initial meld of the hand held (faced threes replaced)."""
    total = comb(pack.size - pack.faced, hand)
    out: dict[str, Fraction] = {}
    counts = {m: 0 for m in pack.minima}
    pairs = {}
    for (c, tv, t, rm, pv, dr), w in _naturals(pack, pack.ranks, hand).items():
        for j, d, ways in _others(pack, hand, c):
            lay = 0 if pack.sequences else best_lay(pack, tv, rm, pv, j, d, dr)
            for m in pack.minima:
                if lay >= m:
                    counts[m] += w * ways
            k = t + len(pv)
            pairs[k] = pairs.get(k, 0) + w * ways
    for k in sorted(pairs):
        out[f"pairs_{k:02d}"] = Fraction(pairs[k], total)
    out["pairs_mean"] = sum(k * Fraction(n, total) for k, n in pairs.items())
    for m in pack.minima if not pack.sequences else ():
        out[f"meld{m}"] = Fraction(counts[m], total)
    for m in pack.minima if pack.sequences else ():
        f = seq_figure(pack, hand, m, False)
        if f is not None:
            out[f"meld{m}"] = f
    return out


def seq_figure(pack: Pack, hand: int, T: int, take: bool):
    """With sequences (the Samba family's lay, Bolivia's wild-card meld; no meld limit), the
    exact meldT or take_first_pile of :func:`simkit.games.canasta.exact_seq.samba_figure` (a
    table at the 15 cards, computed on demand for small hands), or None where neither reaches."""
    if pack.cap or pack.wild_le_natural or any(
            n % 4 for _, n in pack.ranks):
        return None
    from simkit.games.canasta.exact_seq import samba_figure
    ranks = pack.ranks[::-1]                       # 4..A, low to high (sequence order)
    if len({n for _, n in ranks}) != 1:
        return None
    return samba_figure([v for v, _ in ranks], 4, ranks[0][1] // 4, pack.jokers, pack.deuces,
                        pack.held_black3, pack.max_wild, hand, T, take,
                        # Bolivia/Brazilian: one wild-card meld a side, of 3..7 with three
                        # decks (the engine's wmcap), else unbounded (no meld limit here)
                        (7 if ranks[0][1] == 12 else 10 ** 6) if pack.wild_melds else 0)


def take_odds(pack: Pack, hand: int, minimum: int | None = None) -> dict[str, Fraction]:
    """Eldest and the first pile: the hand held uniform, the upcard uniform over the plain cards
    (neither wild nor a faced three) not in it; see the module docstring.  ``minimum``: a side
    at 0 points' (``pack.minima[0]``: 50, Cuban 95)."""
    minimum = pack.minima[0] if minimum is None else minimum
    total = comb(pack.size - pack.faced, hand)
    pair = take = Fraction(0)
    done: dict = {}
    for x, (vx, cx) in enumerate(pack.ranks):
        others = pack.ranks[:x] + pack.ranks[x + 1:]
        key = (vx, cx, tuple(sorted(others)))
        if key in done:                       # ranks alike: the same sums
            pair += done[key][0]
            take += done[key][1]
            continue
        p_pair = p_take = Fraction(0)
        states = _naturals(pack, others, hand)
        for nx in range(2, cx + 1):
            a, b, dx = _triple(pack, nx + 1, vx)
            for (c, tv, t, rm, pv, dr), w in states.items():
                if c + nx > hand:
                    continue
                for j, d, ways in _others(pack, hand, c + nx):
                    # the upcard is one of the cx - nx naturals of rank x not held, among the
                    # plain cards not held (the hand held is hand - j - d plain cards)
                    p = Fraction(w * ways * comb(cx, nx) * (cx - nx),
                                 total * (pack.plain - (hand - j - d)))
                    p_pair += p
                    if not pack.sequences and \
                            best_lay(pack, tv + a, rm + b, pv, j, d, dr + dx) >= minimum:
                        p_take += p
        done[key] = (p_pair, p_take)
        pair += p_pair
        take += p_take
    if pack.sequences:
        f = seq_figure(pack, hand, minimum, True)
        return {"take_pair": pair} if f is None else {"take_pair": pair, "take_first_pile": f}
    return {"take_pair": pair, "take_first_pile": take}


def dealt_odds(pack: Pack, hand: int) -> dict[str, Fraction]:
    """Red threes and wild cards among the dealt cards (hypergeometric)."""
    n = pack.size
    total = comb(n, hand)
    out: dict[str, Fraction] = {}
    kinds = [("red3", pack.red3), ("wilds", pack.deuces + pack.jokers)]
    if pack.black3_faced:
        kinds.append(("black3", pack.black3))
    for name, k in kinds:
        for i in range(min(k, hand) + 1):
            out[f"{name}_{i:02d}"] = Fraction(comb(k, i) * comb(n - k, hand - i), total)
        out[f"{name}_mean"] = Fraction(hand * k, n)
    return out


def probabilities(rules=None) -> dict[str, Fraction]:
    """Every exact number of :func:`exact` (see the module docstring for the definitions)."""
    pack, hand = pack_of(rules)
    out = dealt_odds(pack, hand)
    out.update(held_odds(pack, hand))
    out.update(take_odds(pack, hand))
    out["upcard_covered"] = Fraction(pack.faced + pack.deuces + pack.jokers, pack.size)
    out["upcard_black3"] = Fraction(pack.held_black3, pack.plain)
    return out


def _spec():
    try:
        from simkit.games.canasta import SPEC
        return SPEC
    except ImportError:                       # before the engine's package lands
        from types import SimpleNamespace
        return SimpleNamespace(name="canasta", version=0)


def exact(rules=None, strategies=None, grid_axes=None):
    """``simkit exact canasta``: ``(JSON object, tidy table)`` of :func:`probabilities`."""
    if grid_axes:
        raise SimkitError("simkit exact canasta takes no --grid: the dealt hand's odds depend on "
                          "the pack and the hand size only (-r players=2 -r hand_size=15)")
    from simkit.core.exact import tidy
    spec = _spec()
    t0 = time.perf_counter()
    pr = probabilities(rules)
    if rules is not None and hasattr(rules, "canonical"):
        table = tidy(spec, rules, {k: float(v) for k, v in pr.items()}, "-",
                     "exact enumeration (fractions)")
        rules_text = table["rules"].iloc[0]
    else:
        import pandas as pd
        table = pd.DataFrame({"game": "canasta", "metric": list(pr),
                              "mean": [float(v) for v in pr.values()]})
        rules_text = "canasta"
    table["exact"] = table["metric"].map({k: str(v) for k, v in pr.items()})
    pack, hand = pack_of(rules)
    f = {k: float(v) for k, v in pr.items()}
    threes = "threes" if pack.black3_faced else "red threes"
    first = (f"a dealt {hand}-card hand holds {f['red3_mean']:.4f} red threes and "
             f"{f['wilds_mean']:.4f} wild cards on average; after its {threes} are replaced, "
             f"{f['pairs_mean']:.4f} natural pairs")
    pile = (f"eldest holds a natural pair of the first pile's upcard with probability "
            f"{f['take_pair']:.5f}")
    known = [m for m in pack.minima if f"meld{m}" in f]
    if known:
        first += ", and melds of " + " / ".join(map(str, known)) + " with probability " \
            + " / ".join(f"{f[f'meld{m}']:.5f}" for m in known)
    if len(known) < len(pack.minima):
        first += (" (melds of " + " / ".join(str(m) for m in pack.minima if m not in known)
                  + " with sequences not enumerated at this hand size: see exact_seq.py)")
    if "take_first_pile" in f:
        pile += (f", and can take it (the minimum {pack.minima[0]} reached) with "
                 f"{f['take_first_pile']:.5f}")
    obj = dict(game="canasta", rules=rules_text,
               method="exact enumeration of rank counts (fractions)" + (
                   "; with sequences, meldM and take_first_pile by exact_seq's threshold DP "
                   "(a table at 15 cards)" if pack.sequences else ""),
               exact={k: str(v) for k, v in pr.items()},
               seconds=round(time.perf_counter() - t0, 3),
               summary=[first, pile],
               means={k: v for k, v in f.items() if not k[-1].isdigit()})
    return obj, table
