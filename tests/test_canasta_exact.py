"""Canasta's exact deal odds (simkit/games/canasta/exact.py) against things it did not write:

* a brute force over every hand of a reduced pack (17 cards: three aces, three kings, three
  fives, two each of black threes, red threes, deuces and jokers; hands of 5): the dealt counts
  by listing every subset of physical cards, the best lay by a search over every way to lay the
  hand, and the first pile by following the rules' procedure card by card (deal, cover the upcard
  while it is wild or a red three, then replace eldest's red threes from the stock) as an exact
  probability tree -- the exact module instead uses the claim that the hand held is uniform over
  the red-three-free cards and the upcard uniform over the plain cards not in it; equality of the
  fractions checks that claim;
* the greedy best lay against the same search on every hand of the Monte Carlo below;
* a plain Monte Carlo dealing from numpy (four hands of 11 and two of 15, one card at a time from
  the dealer's left, the upcard covered, red threes replaced seat by seat from eldest), n = 12,000
  deals a preset, seed fixed: every share and mean within 4 standard errors of the exact value
  (a false alarm about once in 16,000 checks).
"""
from __future__ import annotations

import itertools
import math
from collections import Counter
from fractions import Fraction
from types import SimpleNamespace

import numpy as np
import pytest

from simkit.errors import SimkitError
from simkit.games.canasta import exact as X

Z = 4.0

# ------------------------------------------------------------------------- an independent lay search

# classes of card: ("nat", value) per natural rank, "b3", "r3", "deuce", "joker"
WILD_VALUE = {"joker": 50, "deuce": 20}


def search_lay(naturals, jokers, deuces, max_wild=3, le_natural=False, cap=99, wild_melds=False):
    """Most points layable: ``naturals`` a list of (count, value) per rank; every meld of k >= 2
    naturals of a rank plus a jokers and b deuces, a + b <= max_wild, 3 <= k + a + b <= ``cap``,
    tried; with ``wild_melds`` (Cuban, 003:84) also every meld of 3..cap wild cards alone."""
    best = 0

    def go(i, j, d, pts):
        nonlocal best
        best = max(best, pts)
        if i == len(naturals):
            if wild_melds:
                for a in range(j + 1):
                    for b in range(d + 1):
                        if 3 <= a + b <= cap:
                            best = max(best, pts + 50 * a + 20 * b)
            return
        go(i + 1, j, d, pts)
        n, v = naturals[i]
        for k in range(2, min(n, cap) + 1):
            for a in range(min(j, max_wild) + 1):
                for b in range(min(d, max_wild - a) + 1):
                    if not 3 <= k + a + b <= cap or (le_natural and a + b > k):
                        continue
                    go(i + 1, j - a, d - b, pts + k * v + 50 * a + 20 * b)
    go(0, jokers, deuces, 0)
    return best


# ------------------------------------------------------------------------- the reduced pack

SMALL = [("A", 20, 3), ("K", 10, 3), ("5", 5, 3)]
SMALL_PACK = X.Pack(tuple((v, n) for _, v, n in SMALL), black3=2, red3=2, deuces=2, jokers=2)
SMALL_HAND = 5


def _physical():
    cards = [(name, i) for name, _, n in SMALL for i in range(n)]
    for cls, n in (("b3", 2), ("r3", 2), ("deuce", 2), ("joker", 2)):
        cards += [(cls, i) for i in range(n)]
    return cards


VALUE = {name: v for name, v, _ in SMALL}


def _lay(counter):
    nat = [(counter[name], VALUE[name]) for name, _, _ in SMALL if counter[name] >= 2]
    return search_lay(nat, counter["joker"], counter["deuce"])


def test_reduced_pack_dealt_and_held_hands_by_brute_force():
    cards = _physical()
    assert len(cards) == SMALL_PACK.size == 17
    dealt = Counter()
    total = 0
    for hand in itertools.combinations(cards, SMALL_HAND):
        c = Counter(name for name, _ in hand)
        dealt[("red3", c["r3"])] += 1
        dealt[("wilds", c["deuce"] + c["joker"])] += 1
        total += 1
    ex = X.dealt_odds(SMALL_PACK, SMALL_HAND)
    for (name, k), n in dealt.items():
        assert ex[f"{name}_{k:02d}"] == Fraction(n, total)
    # the hand held: every hand of the 15 red-three-free cards
    _check_held_by_brute_force([c for c in cards if c[0] != "r3"], _lay, SMALL_PACK)


def _check_held_by_brute_force(held, lay_of, pack):
    """Every ``SMALL_HAND``-subset of the cards ``held``: how many lay 50 / 90 / 120 by
    ``lay_of`` and how many natural pairs each holds, against ``held_odds`` of ``pack``."""
    melds, pairs, total = Counter(), Counter(), 0
    for hand in itertools.combinations(held, SMALL_HAND):
        c = Counter(name for name, _ in hand)
        lay = lay_of(c)
        for m in (50, 90, 120):
            melds[m] += lay >= m
        pairs[sum(1 for name, _, _ in SMALL if c[name] >= 2)] += 1
        total += 1
    ex = X.held_odds(pack, SMALL_HAND)
    assert all(0 < melds[m] < total for m in (50, 90, 120))      # the thresholds all bite
    for m in (50, 90, 120):
        assert ex[f"meld{m}"] == Fraction(melds[m], total), m
    for k, n in pairs.items():
        assert ex[f"pairs_{k:02d}"] == Fraction(n, total)


def _procedure_take(minimum=50, faced=("r3",), lay=None):
    """P(eldest holds a pair of the upcard's rank; and reaches ``minimum``) by following the
    deal: eldest's dealt hand (every multiset of classes, hypergeometric weights), then the
    stock card by card: covering while wild or a faced three (red; ``faced`` the classes faced,
    Cuban both), then eldest's faced threes replaced (one drawn as a replacement is faced and
    replaced again); ``lay`` the best lay of a hand (:func:`_lay`)."""
    lay = lay or _lay
    classes = [name for name, _, _ in SMALL] + ["b3", "r3", "deuce", "joker"]
    size = dict({name: n for name, _, n in SMALL}, b3=2, r3=2, deuce=2, joker=2)
    N = sum(size.values())
    pair = take = Fraction(0)

    def stock(rest, hand, need, top, p):
        nonlocal pair, take
        if top is None or need:
            left = sum(rest.values())
            for cls in classes:
                if not rest[cls]:
                    continue
                q = p * Fraction(rest[cls], left)
                r2 = rest.copy()
                r2[cls] -= 1
                if top is None:                      # still turning the upcard
                    stock(r2, hand, need, None if cls in faced + ("deuce", "joker") else cls, q)
                elif cls in faced:                   # faced, replaced again
                    stock(r2, hand, need, top, q)
                else:
                    h2 = hand.copy()
                    h2[cls] += 1
                    stock(r2, h2, need - 1, top, q)
            return
        if top in VALUE and hand[top] >= 2:
            pair += p
            h2 = hand.copy()
            h2[top] += 1
            if lay(h2) >= minimum:
                take += p

    for combo in itertools.combinations_with_replacement(classes, SMALL_HAND):
        c = Counter(combo)
        if any(c[k] > size[k] for k in c):
            continue
        w = Fraction(math.prod(math.comb(size[k], c[k]) for k in c), math.comb(N, SMALL_HAND))
        rest = Counter({k: size[k] - c[k] for k in classes})
        hand = Counter({k: v for k, v in c.items() if k not in faced})
        stock(rest, hand, sum(c[k] for k in faced), None, w)
    return pair, take


def test_reduced_pack_first_pile_by_the_procedure():
    pair, take = _procedure_take()
    ex = X.take_odds(SMALL_PACK, SMALL_HAND)
    assert 0 < take < pair
    assert (ex["take_pair"], ex["take_first_pile"]) == (pair, take)


def test_values_and_the_classic_pack():
    pack, hand = X.pack_of(None)
    assert (pack.size, hand, pack.plain) == (108, 11, 92)
    assert X.pack_of(SimpleNamespace(players=2))[1] == 15
    pr = X.probabilities(SimpleNamespace(players=2, hand_size=15))
    assert pr["wilds_mean"] == Fraction(15 * 12, 108) and pr["red3_mean"] == Fraction(15 * 4, 108)
    assert pr["red3_00"] == Fraction(math.comb(104, 15), math.comb(108, 15))
    for p in (X.probabilities(None), pr):
        for name in ("red3", "wilds", "pairs"):
            assert sum(v for k, v in p.items() if k.startswith(name + "_")
                       and k[-1].isdigit()) == 1
        assert p["meld120"] < p["meld90"] < p["meld50"] < 1
        assert p["take_first_pile"] < p["take_pair"]
    # A A 2 is 60 (text 003:50, "three cards for 50"), a lone pair with no wild lays nothing
    pk = X.classic_pack()
    assert X.lay_of_counts(pk, [2] + [0] * 10, 0, 1) == 60
    assert X.lay_of_counts(pk, [2] + [0] * 10, 0, 0) == 0
    with pytest.raises(SimkitError):
        X.pack_of(SimpleNamespace(players=4, hand_size=30))


# ------------------------------------------------------------------------- Monte Carlo

def _deck(decks=2, jokers=4):
    d = [s * 16 + r for _ in range(decks) for s in range(4) for r in range(2, 15)]
    return np.array(d + [64] * jokers, np.int64)


def _is_wild(c):
    return c == 64 or c & 15 == 2


def _is_red3(c):
    return c in (19, 35)


def _deal(order, players, hand):
    """Dealt hands (dealer's left first, one card at a time), the upcard covered while wild or
    a red three, then each seat's red threes replaced from eldest round; ``(dealt, held, top)``."""
    dealt = [list(order[s:players * hand:players]) for s in range(players)]
    i = players * hand
    while _is_wild(order[i]) or _is_red3(order[i]):
        i += 1
    top = int(order[i])
    i += 1
    held = []
    for s in range(players):
        h = [c for c in dealt[s] if not _is_red3(c)]
        while len(h) < hand:
            c = int(order[i])
            i += 1
            if not _is_red3(c):
                h.append(c)
        held.append(h)
    return dealt, held, top


def _lay_of_cards(cards):
    c = Counter(int(x) & 15 if x != 64 else 64 for x in cards)
    nat = [(c[r], X.RANK_VALUES[r]) for r in range(4, 15) if c[r] >= 2]
    return search_lay(nat, c[64], c[2])


@pytest.mark.parametrize("players,hand", [(4, 11), (2, 15)], ids=["classic", "two_hand"])
def test_monte_carlo_deals_within_4_se(players, hand):
    n = 12_000
    rng = np.random.default_rng(20261204 + players)
    deck = _deck()
    pk = X.classic_pack()
    obs: dict[str, list] = {k: [] for k in ("red3_mean", "wilds_mean", "red3_00", "pairs_mean",
                                            "meld50", "meld90", "meld120", "take_pair",
                                            "take_first_pile", "upcard_black3")}
    for _ in range(n):
        order = rng.permutation(deck)
        dealt, held, top = _deal(order, players, hand)
        d = dealt[0]                                   # eldest's; every seat has the same law
        obs["red3_mean"].append(sum(_is_red3(c) for c in d))
        obs["red3_00"].append(obs["red3_mean"][-1] == 0)
        obs["wilds_mean"].append(sum(bool(_is_wild(c)) for c in d))
        h = held[0]
        cnt = Counter(c & 15 for c in h if c != 64)
        obs["pairs_mean"].append(sum(1 for r in range(4, 15) if cnt[r] >= 2))
        lay = _lay_of_cards(h)
        # the greedy lay of the exact module agrees with the search on every hand
        nat = [cnt[r] for r in sorted(X.RANK_VALUES, reverse=True)]
        assert X.lay_of_counts(pk, nat, sum(c == 64 for c in h), cnt[2]) == lay, sorted(h)
        for m in (50, 90, 120):
            obs[f"meld{m}"].append(lay >= m)
        r = top & 15
        pair = 4 <= r and cnt[r] >= 2
        obs["take_pair"].append(pair)
        obs["take_first_pile"].append(pair and _lay_of_cards(h + [top]) >= 50)
        obs["upcard_black3"].append(r == 3)
    ex = X.probabilities(SimpleNamespace(players=players, hand_size=hand))
    for k, xs in obs.items():
        x = np.asarray(xs, float)
        se = x.std(ddof=1) / math.sqrt(n)
        assert abs(x.mean() - float(ex[k])) < Z * se, (k, x.mean(), float(ex[k]), se)


def test_exact_table_shape():
    obj, table = X.exact(SimpleNamespace(players=2, hand_size=15))
    assert obj["exact"]["wilds_mean"] == "5/3"
    assert {"metric", "mean", "exact"} <= set(table.columns)
    assert set(table.metric) >= {"red3_mean", "wilds_mean", "pairs_mean", "meld50", "meld90",
                                 "meld120", "take_pair", "take_first_pile"}
    with pytest.raises(SimkitError):
        X.exact(None, None, [("decks", [2, 3])])


# ------------------------------------------------------------------------- the engine's deals

def _engine_deals(opts, n, seed):
    """From the engine's move logs: per deal the seats' dealt cards, eldest's hand held (dealt
    cards less red threes plus their replacements) and the pile's final upcard."""
    import simkit
    from simkit.core import play
    spec = simkit.get_game("canasta")
    rules = spec.rules.build(opts)
    K, h = rules.players, rules.hand_size
    _, log = play.play_logged(spec, rules, None, n=n, seed=seed)
    out = []
    nhead = 10 if rules.decks == 2 else 14             # Samba's head (CANASTA.md 12:35)
    for row in log:
        dealer = int(row[0])
        ev = [(int(e) >> 20, (int(e) >> 16) & 15, (int(e) >> 8) & 255, int(e) & 255)
              for e in row[nhead:nhead + int(row[1])]]
        dealt = [[c for k, s, _, c in ev[:K * h] if s == p] for p in range(K)]
        j = K * h
        top = None
        while ev[j][0] == 2:                            # EV_UP
            top = ev[j][3]
            j += 1
        eldest = (dealer + 1) % K
        held = [c for c in dealt[eldest] if not _is_red3(c)]
        while j < len(ev) and ev[j][0] in (3, 4) and ev[j][2] == 1 - (ev[j][0] == 3):
            k, s, _, c = ev[j]                          # red threes faced and replaced
            if k == 4 and s == eldest and not _is_red3(c):
                held.append(c)
            j += 1
        assert len(held) == h
        out.append((dealt, dealt[eldest], held, top))
    return rules, out


@pytest.mark.parametrize("opts", [{}, {"players": 2, "hand_size": 15, "draw": 2,
                                       "canastas_to_out": 2}], ids=["classic", "two_hand"])
def test_the_engines_deals_follow_the_exact_law(opts):
    """3,000 logged deals: the seats' dealt red threes and wild cards (per-deal means over the
    seats), eldest's hand held and the first pile, within 4 SE of the exact values."""
    n = 3000
    rules, deals = _engine_deals(opts, n, seed=2712)
    ex = X.probabilities(rules)
    obs = {k: [] for k in ("red3_mean", "wilds_mean", "pairs_mean", "meld50", "take_pair",
                           "take_first_pile")}
    for dealt, _, held, top in deals:
        obs["red3_mean"].append(np.mean([sum(_is_red3(c) for c in d) for d in dealt]))
        obs["wilds_mean"].append(np.mean([sum(bool(_is_wild(c)) for c in d) for d in dealt]))
        cnt = Counter(c & 15 for c in held if c != 64)
        obs["pairs_mean"].append(sum(1 for r in range(4, 15) if cnt[r] >= 2))
        obs["meld50"].append(_lay_of_cards(held) >= 50)
        pair = top & 15 >= 4 and top != 64 and cnt[top & 15] >= 2
        obs["take_pair"].append(pair)
        obs["take_first_pile"].append(pair and _lay_of_cards(held + [top]) >= 50)
    for k, xs in obs.items():
        x = np.asarray(xs, float)
        se = x.std(ddof=1) / math.sqrt(n)
        assert abs(x.mean() - float(ex[k])) < Z * se, (k, x.mean(), float(ex[k]), se)


def test_simkit_exact_on_the_engines_rules():
    import simkit
    spec = simkit.get_game("canasta")
    obj, table = X.exact(spec.rules.build({"players": 2, "hand_size": 15, "draw": 2,
                                           "canastas_to_out": 2}))
    assert obj["rules"].startswith("canasta(") and obj["exact"]["wilds_mean"] == "5/3"
    assert set(table.columns) >= {"game", "rules", "metric", "mean", "exact", "se", "n"}
    assert (table.se == 0).all() and (table.game == "canasta").all()


@pytest.mark.parametrize("max_wild,le", [(3, True), (2, False), (2, True)])
def test_the_best_lay_under_the_meld_options(max_wild, le):
    """``wild_le_natural`` and Samba's two wilds a meld: the greedy lay against the search on
    3,000 random 15-card hands of the 108 cards (no sampling tolerance: every hand equal)."""
    rng = np.random.default_rng(max_wild * 2 + le)
    pk = X.classic_pack(max_wild=max_wild, wild_le_natural=le)
    deck = _deck()
    for _ in range(3000):
        h = [int(c) for c in rng.choice(deck, 15, replace=False) if not _is_red3(c)]
        cnt = Counter(c & 15 for c in h if c != 64)
        nat = [(cnt[r], X.RANK_VALUES[r]) for r in range(4, 15) if cnt[r] >= 2]
        want = search_lay(nat, h.count(64), cnt[2], max_wild, le)
        counts = [cnt[r] for r in sorted(X.RANK_VALUES, reverse=True)]
        assert X.lay_of_counts(pk, counts, h.count(64), cnt[2]) == want, sorted(h)


# ------------------------------------------------------------------------- Cuban (003:84)

SMALL_CUBAN = X.Pack(SMALL_PACK.ranks, black3=2, red3=2, deuces=2, jokers=2, black3_faced=True,
                     cap=4, wild_melds=True)


def _lay_cuban(counter, cap=4):
    nat = [(counter[name], VALUE[name]) for name, _, _ in SMALL if counter[name] >= 2]
    return search_lay(nat, counter["joker"], counter["deuce"], cap=cap, wild_melds=True)


def test_reduced_pack_cuban_held_hands_by_brute_force():
    """Every threes faced (both colours), melds of four at most (so the limit bites on this
    pack), wild-card melds: the hand held is every 5-subset of the 13 cards that are not
    threes; its best lay by the search."""
    _check_held_by_brute_force([c for c in _physical() if c[0] not in ("r3", "b3")], _lay_cuban,
                               SMALL_CUBAN)
    # the cap and the wild-card meld both matter here: A A A Jo Jo lays 140 with melds of four
    # as A A Jo Jo (an ace left in hand: a joker is worth more), Jo Jo 2 alone lays 120
    assert _lay_cuban(Counter(A=3, joker=2)) == 140 and _lay_cuban(Counter(joker=2, deuce=1)) == 120
    assert X.lay_of_counts(SMALL_CUBAN, [3, 0, 0], 2, 0) == 140
    assert X.lay_of_counts(SMALL_CUBAN, [0, 0, 0], 2, 1) == 120


def test_reduced_pack_cuban_first_pile_by_the_procedure():
    """The first pile when black threes are faced too (they cover the upcard and are replaced):
    the procedure card by card against the uniform-hand claim."""
    pair, take = _procedure_take(50, ("r3", "b3"), _lay_cuban)
    ex = X.take_odds(SMALL_CUBAN, SMALL_HAND, minimum=50)
    assert 0 < take < pair
    assert (ex["take_pair"], ex["take_first_pile"]) == (pair, take)


def test_cuban_pack_and_the_greedy_lay_against_the_search():
    import simkit
    rules = simkit.get_game("canasta").rules.build(dict(
        hand_size=13, canastas_to_out=2, pile_always_frozen=True, wild_melds=True,
        canasta_max=7, black_threes="faced", red3_table="cuban", initial_table="cuban"))
    pack, hand = X.pack_of(rules)
    assert (pack.size, hand, pack.plain, pack.faced, pack.minima) == (108, 13, 88, 8,
                                                                        (95, 125, 155))
    pr = X.probabilities(rules)
    assert pr["upcard_black3"] == 0 and pr["upcard_covered"] == Fraction(20, 108)
    assert pr["black3_mean"] == Fraction(13 * 4, 108)
    assert pr["meld155"] < pr["meld125"] < pr["meld95"] < 1
    rng = np.random.default_rng(84)
    deck = _deck()
    for _ in range(3000):                 # every hand equal (no sampling tolerance)
        h = [int(c) for c in rng.choice(deck, 13, replace=False) if c & 15 != 3]
        cnt = Counter(c & 15 for c in h if c != 64)
        nat = [(cnt[r], X.RANK_VALUES[r]) for r in range(4, 15) if cnt[r] >= 2]
        want = search_lay(nat, h.count(64), cnt[2], cap=7, wild_melds=True)
        counts = [cnt[r] for r in sorted(X.RANK_VALUES, reverse=True)]
        assert X.lay_of_counts(pack, counts, h.count(64), cnt[2]) == want, sorted(h)


def test_the_engines_cuban_deals_follow_the_exact_law():
    """3,000 logged Cuban deals (preset cuban): every three faced and replaced, so eldest's hand
    held holds no three; its pairs, its lay of 95 and the first pile within 4 SE of the exact
    values."""
    import simkit
    from simkit.core import play
    spec = simkit.get_game("canasta")
    rules = simkit.core.registry.parse_rules(spec, "canasta(preset=cuban)")
    n = 3000
    _, log = play.play_logged(spec, rules, None, n=n, seed=8484)
    ex = X.probabilities(rules)
    obs = {k: [] for k in ("black3_mean", "pairs_mean", "meld95", "take_pair", "take_first_pile")}
    K, hs = 4, 13
    for row in log:
        ev = [(int(e) >> 20, (int(e) >> 16) & 15, (int(e) >> 8) & 255, int(e) & 255)
              for e in row[10:10 + int(row[1])]]
        dealt = [[c for k, s, _, c in ev[:K * hs] if s == p] for p in range(K)]
        j = K * hs
        while ev[j][0] == 2:                            # EV_UP
            top = ev[j][3]
            j += 1
        eldest = (int(row[0]) + 1) % K
        held = [c for c in dealt[eldest] if c & 15 != 3]
        while j < len(ev) and ev[j][0] in (3, 4) and ev[j][2] == 1 - (ev[j][0] == 3):
            k, s, _, c = ev[j]
            if k == 4 and s == eldest and c & 15 != 3:
                held.append(c)
            j += 1
        assert len(held) == hs and top & 15 not in (2, 3) and top != 64
        obs["black3_mean"].append(np.mean([sum(c in (3, 51) for c in d) for d in dealt]))
        cnt = Counter(c & 15 for c in held if c != 64)
        lay = lambda cards: search_lay(                      # noqa: E731
            [(m, X.RANK_VALUES[r]) for r, m in Counter(c & 15 for c in cards if c != 64).items()
             if m >= 2 and r >= 4], cards.count(64), sum(c & 15 == 2 for c in cards if c != 64),
            cap=7, wild_melds=True)
        obs["pairs_mean"].append(sum(1 for r in range(4, 15) if cnt[r] >= 2))
        obs["meld95"].append(lay(held) >= 95)
        pair = cnt[top & 15] >= 2
        obs["take_pair"].append(pair)
        obs["take_first_pile"].append(pair and lay(held + [top]) >= 95)
    for k, xs in obs.items():
        x = np.asarray(xs, float)
        se = x.std(ddof=1) / math.sqrt(n)
        assert abs(x.mean() - float(ex[k])) < Z * se, (k, x.mean(), float(ex[k]), se)


# ------------------------------------------------------------------------- Samba (003:71-81)

SAMBA = SimpleNamespace(players=4, hand_size=15, decks=3, jokers=6, max_wild=2, sequences=True,
                        initial_table="samba")     # duck-typed: the pack and the hand only


def test_samba_pack_and_what_is_not_enumerated():
    """162 cards (003:71: three decks and six jokers), 15 each (003:72): the pack's classes; with
    sequences the best lay depends on suits, which the rank-count enumeration does not see:
    meldM and take_first_pile come from exact_seq's table (its threshold DP, checked in
    tests/test_canasta_exact_seq.py), only for the thresholds it holds; Bolivia's lay (a
    wild-card meld) from its own table (BOLIVIA15), never Samba's numbers."""
    pack, hand = X.pack_of(SAMBA)
    assert (pack.size, hand, pack.plain, pack.faced) == (162, 15, 138, 6)
    assert (pack.red3, pack.black3, pack.deuces, pack.jokers) == (6, 6, 12, 6)
    assert all(n == 12 for _, n in pack.ranks) and len(pack.ranks) == 11
    pr = X.probabilities(SAMBA)
    assert pr["red3_mean"] == Fraction(15 * 6, 162) and pr["wilds_mean"] == Fraction(15 * 18, 162)
    assert pr["red3_06"] == Fraction(math.comb(156, 9), math.comb(162, 15))
    assert pr["upcard_covered"] == Fraction(24, 162) and pr["upcard_black3"] == Fraction(6, 138)
    for name in ("red3", "wilds", "pairs"):
        assert sum(v for k, v in pr.items() if k.startswith(name + "_") and k[-1].isdigit()) == 1
    from simkit.games.canasta.exact_seq import SAMBA15
    assert {k: v for k, v in pr.items() if k.startswith("meld") or k == "take_first_pile"} == \
        {("take_first_pile" if take else f"meld{T}"): Fraction(v)
         for (T, take), v in SAMBA15.items() if take or T in pack.minima}
    assert 0 < pr["meld50"] < 1 and 0 < pr["take_first_pile"] < pr["take_pair"]
    if len([k for k in pr if k.startswith("meld")]) < len(pack.minima):
        assert "not enumerated at this hand size" in X.exact(SAMBA)[0]["summary"][0]
    bolivia = SimpleNamespace(**{**vars(SAMBA), "wild_melds": True, "initial_table": "bolivia"})
    pb = X.probabilities(bolivia)
    from simkit.games.canasta.exact_seq import BOLIVIA15
    assert {k: v for k, v in pb.items() if k.startswith("meld") or k == "take_first_pile"} == \
        {("take_first_pile" if take else f"meld{T}"): Fraction(v)
         for (T, take), v in BOLIVIA15.items() if take or T in pack.minima}
    # the take at 50 cannot differ (pair + upcard + two wild cards >= 55 without the wild meld)
    assert pb["meld50"] > pr["meld50"] and pb["take_first_pile"] == pr["take_first_pile"]
    obj, _ = X.exact(bolivia)
    assert "sequences not enumerated" in obj["summary"][0]


def test_reduced_pack_samba_pairs_and_first_pile_by_brute_force():
    """The reduced pack with sequences on: the natural pairs of every hand held and the first
    pile's pair by the card-by-card procedure (the same claims as classic, the lay not used)."""
    pack = X.Pack(SMALL_PACK.ranks, black3=2, red3=2, deuces=2, jokers=2, max_wild=2,
                  sequences=True)
    held = [c for c in _physical() if c[0] != "r3"]
    pairs, total = Counter(), 0
    for hand in itertools.combinations(held, SMALL_HAND):
        c = Counter(name for name, _ in hand)
        pairs[sum(1 for name, _, _ in SMALL if c[name] >= 2)] += 1
        total += 1
    ex = X.held_odds(pack, SMALL_HAND)
    assert {k: v for k, v in ex.items() if k[-1].isdigit()} == \
        {f"pairs_{k:02d}": Fraction(n, total) for k, n in pairs.items()}
    pair, _ = _procedure_take()
    assert X.take_odds(pack, SMALL_HAND) == {"take_pair": pair}


def test_samba_monte_carlo_deals_within_4_se():
    """n = 12,000 numpy deals of the 162-card pack (four hands of 15 from the dealer's left, the
    upcard covered, red threes replaced seat by seat): every reported share and mean within 4
    standard errors of the exact value (seed fixed)."""
    n = 12_000
    rng = np.random.default_rng(20261271)
    deck = _deck(decks=3, jokers=6)
    assert len(deck) == 162
    obs: dict[str, list] = {k: [] for k in ("red3_mean", "red3_00", "wilds_mean", "wilds_02",
                                            "pairs_mean", "pairs_04", "take_pair",
                                            "upcard_black3")}
    for _ in range(n):
        dealt, held, top = _deal(rng.permutation(deck), 4, 15)
        d = dealt[0]
        obs["red3_mean"].append(sum(_is_red3(c) for c in d))
        obs["red3_00"].append(obs["red3_mean"][-1] == 0)
        obs["wilds_mean"].append(sum(bool(_is_wild(c)) for c in d))
        obs["wilds_02"].append(obs["wilds_mean"][-1] == 2)
        cnt = Counter(c & 15 for c in held[0] if c != 64)
        obs["pairs_mean"].append(sum(1 for r in range(4, 15) if cnt[r] >= 2))
        obs["pairs_04"].append(obs["pairs_mean"][-1] == 4)
        obs["take_pair"].append(top & 15 >= 4 and cnt[top & 15] >= 2)
        obs["upcard_black3"].append(top & 15 == 3)
    ex = X.probabilities(SAMBA)
    for k, xs in obs.items():
        x = np.asarray(xs, float)
        se = x.std(ddof=1) / math.sqrt(n)
        assert abs(x.mean() - float(ex[k])) < Z * se, (k, x.mean(), float(ex[k]), se)


def test_the_engines_samba_deals_follow_the_exact_law():
    """3,000 logged Samba deals (preset samba, whose pack and hand are SAMBA's): the seats' dealt
    red threes and wild cards, eldest's natural pairs and the first pile's pair within 4 SE."""
    import simkit
    spec = simkit.get_game("canasta")
    rules = simkit.core.registry.parse_rules(spec, "canasta(preset=samba)")
    assert X.pack_of(rules) == X.pack_of(SAMBA)
    n = 3000
    _, deals = _engine_deals(dict(spec.presets["samba"]), n, seed=7181)
    ex = X.probabilities(rules)
    assert ex == X.probabilities(SAMBA)
    # Bolivia and Brazilian (003:82-83) deal the same pack and hand: the same fractions but the
    # meld and the take (their wild-card meld), which are the same for both (the same lay and
    # minimum 50 at score 0) and are exact_seq's Bolivia table
    from simkit.games.canasta.exact_seq import BOLIVIA15
    lay = {"meld50": Fraction(BOLIVIA15[(50, False)]),
           "take_first_pile": Fraction(BOLIVIA15[(50, True)])}
    for preset in ("bolivia", "brazilian"):
        assert X.probabilities(simkit.core.registry.parse_rules(
            spec, f"canasta(preset={preset})")) == \
            {k: v for k, v in ex.items() if not (k.startswith("meld") or k == "take_first_pile")} \
            | lay
    obs = {k: [] for k in ("red3_mean", "wilds_mean", "pairs_mean", "take_pair")}
    for dealt, _, held, top in deals:
        obs["red3_mean"].append(np.mean([sum(_is_red3(c) for c in d) for d in dealt]))
        obs["wilds_mean"].append(np.mean([sum(bool(_is_wild(c)) for c in d) for d in dealt]))
        cnt = Counter(c & 15 for c in held if c != 64)
        obs["pairs_mean"].append(sum(1 for r in range(4, 15) if cnt[r] >= 2))
        obs["take_pair"].append(top & 15 >= 4 and top != 64 and cnt[top & 15] >= 2)
    for k, xs in obs.items():
        x = np.asarray(xs, float)
        se = x.std(ddof=1) / math.sqrt(n)
        assert abs(x.mean() - float(ex[k])) < Z * se, (k, x.mean(), float(ex[k]), se)


def test_simkit_exact_canasta_reads_a_preset_either_way(capsys):
    """``simkit exact canasta -r preset=samba`` and ``-r "canasta(preset=samba)"`` give the same
    fractions (the second did not parse before); another game's name: exit 2 and one line."""
    import json

    from simkit.cli import main
    out = []
    for r in ("preset=samba", "canasta(preset=samba)"):
        assert main(["exact", "canasta", "-r", r, "--format", "json"]) == 0
        out.append(json.loads(capsys.readouterr().out))
    assert out[0]["exact"] == out[1]["exact"] and "decks=3" in out[0]["rules"]
    assert out[0]["exact"]["red3_mean"] == "5/9"
    assert main(["exact", "canasta", "-r", "gin(preset=samba)"]) == 2
    err = capsys.readouterr().err
    assert "-r takes key=value" in err and len(err.strip().splitlines()) == 1


def test_every_preset_has_its_exact_table():
    """``simkit exact canasta -r preset=P`` for every preset of the engine (a preset whose
    minimum table exact.py does not know would raise here)."""
    import simkit
    spec = simkit.get_game("canasta")
    for preset in spec.presets:
        rules = simkit.core.registry.parse_rules(spec, f"canasta(preset={preset})")
        obj, table = X.exact(rules)
        pr = {k: Fraction(v) for k, v in obj["exact"].items()}
        assert 0 < pr["take_pair"] < 1 and pr["red3_mean"] > 0, preset
        assert len(table) == len(pr) and obj["summary"], preset
