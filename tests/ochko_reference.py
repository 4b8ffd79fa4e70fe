"""A slow, plain-Python reference of one round of Очко (21), written from the rules alone.

It is deliberately independent of ``simkit/games/ochko/engine.py``: it shares nothing with the
engine but the card encoding (``code = suit * 16 + rank``, ranks 2..14, ace 14) and reads the
rules options by name from any object (an ``OchkoRules`` or a plain namespace / dict).

Semantics implemented (the contract the tests hold the engine to):

* Values: ``standard`` 2..10 face value, J=2, Q=3, K=4, A=11; ``text1`` J=8, Q=9, K=10, A=11.
* Deal: one card to each player p1..pK in turn, then the banker's first card.  Then each player in
  seat order draws, checking in this order before every card:
  (1) golden point: exactly two cards, both aces -> GOLDEN (wins at once);
  (2) five pictures: exactly five cards, all J/Q/K -> FIVE (wins at once);
  (3) total > 21 -> BUST;  (4) total == 21 -> "21" (wins at once) if ``player_21_wins`` else STAND;
  (5) cards >= ``max_cards``, deck exhausted, or the strategy declines -> STAND; else draw.
* A stacked deck that runs out makes the next one to draw stand (a deck shorter than the deal
  leaves the last hands empty).
* The banker plays only if some player stands (else ``banker_idle`` = 1 and no other banker
  metric is set).  Banker: golden point (two aces) stops at once; else stop when total >=
  ``banker_stop``, the deck is exhausted, or ``banker_max_cards`` > 0 is reached; else draw.
* Settlement, payoffs, bonus hands (6-7-8 / 7-7-7 in exactly three cards, on any win) and
  ``bank_result = -sum(payoffs)`` as in the module-level :func:`play_round`.
"""
from __future__ import annotations

import random as _random
import re
from dataclasses import dataclass

JACK, QUEEN, KING, ACE = 11, 12, 13, 14
PICTURES = (JACK, QUEEN, KING)
VALUES = {
    "standard": {JACK: 2, QUEEN: 3, KING: 4, ACE: 11},
    "text1": {JACK: 8, QUEEN: 9, KING: 10, ACE: 11},
}

DEFAULTS = dict(players=1, deck=36, values="standard", banker_stop=17, max_cards=5,
                banker_max_cards=0, player_21_wins=True, golden_point=True, golden_pays=1.0,
                five_pictures=True, five_pictures_pays=1.0, bonus_hands=False, bonus_pays=2.0,
                ties="bank", bust_penalty=0.0, banker_five_pictures=False)

# player statuses
GOLDEN, FIVE, BUST, TWENTY_ONE, STAND = "golden", "five", "bust", "21", "stand"


def rank(code: int) -> int:
    return int(code) & 15


def value(code: int, values: str) -> int:
    r = rank(code)
    if 2 <= r <= 10:
        return r
    return VALUES[values][r]


def total(hand, values: str) -> int:
    return sum(value(c, values) for c in hand)


def _opt(rules, name):
    if isinstance(rules, dict):
        return rules.get(name, DEFAULTS[name])
    return getattr(rules, name, DEFAULTS[name])


# --------------------------------------------------------------------------- strategies

@dataclass(frozen=True)
class StandAt:
    """Draw while the total is below ``t``."""
    t: int

    def hit(self, total: int, ncards: int, up: int = 0) -> bool:
        return total < self.t


@dataclass(frozen=True)
class UpcardStand:
    """Draw while below ``t_strong`` when the banker's face-up card is worth ``strong`` points or
    more, else while below ``t``."""
    t: int
    t_strong: int
    strong: int

    def hit(self, total: int, ncards: int, up: int = 0) -> bool:
        return total < (self.t_strong if up >= self.strong else self.t)


@dataclass(frozen=True)
class Table:
    """A pure (0/1) hit table: ``hits`` is the frozenset of (total, cards) pairs that draw."""
    hits: frozenset

    def hit(self, total: int, ncards: int, up: int = 0) -> bool:
        return (total, ncards) in self.hits

    @classmethod
    def read_csv(cls, path: str) -> "Table":
        hits = set()
        with open(path) as f:
            header = [h.strip() for h in f.readline().strip().split(",")]
            it, ic, ih = header.index("total"), header.index("cards"), header.index("hit")
            for line in f:
                if not line.strip():
                    continue
                row = line.strip().split(",")
                h = float(row[ih])
                if h not in (0.0, 1.0):
                    raise ValueError("the reference only plays pure (0/1) tables")
                if h == 1.0:
                    hits.add((int(row[it]), int(row[ic])))
        return cls(frozenset(hits))


class RandomHit:
    """Draw with probability ``p`` whenever a card may be taken (own Python RNG stream)."""

    def __init__(self, p: float, rng: _random.Random | None = None):
        self.p = float(p)
        self.rng = rng or _random.Random(0)

    def hit(self, total: int, ncards: int, up: int = 0) -> bool:
        return self.rng.random() < self.p


_STRAT = re.compile(r"^\s*(\w+)\s*\((.*)\)\s*$")


def parse_strategy(text: str, rng: _random.Random | None = None):
    """``stand_at(16)``, ``stand_at(t=16)``, ``table(path=F.csv)``, ``random(0.3)``."""
    m = _STRAT.match(text)
    if not m:
        raise ValueError(f"cannot read strategy {text!r}")
    kind, arg = m.group(1), m.group(2).strip()
    if "=" in arg:
        arg = arg.split("=", 1)[1].strip()
    if kind == "stand_at":
        return StandAt(int(float(arg)))
    if kind == "upcard_stand":
        vals = [int(float(a.split("=")[-1])) for a in m.group(2).split(",")]
        return UpcardStand(*vals)
    if kind == "table":
        return Table.read_csv(arg)
    if kind == "random":
        return RandomHit(float(arg), rng)
    raise ValueError(f"unknown strategy {kind!r}")


def strategies_for(rules, items, rng: _random.Random | None = None):
    """``["p1=stand_at(16)", ...]`` (or strategy objects) -> one strategy per seat.

    Seats not named play ``stand_at(17)`` (the engine's default strategy).
    """
    K = _opt(rules, "players")
    out = [StandAt(17)] * K
    for i, it in enumerate(items or []):
        if not isinstance(it, str):
            out[i] = it
            continue
        if "=" in it.split("(")[0]:
            seat, text = it.split("=", 1)
            idx = int(seat.strip()[1:]) - 1
        else:
            idx, text = i, it
        out[idx] = parse_strategy(text, rng)
    return out


# --------------------------------------------------------------------------- metrics

def metric_names(players: int, banker_five: bool = False) -> list[str]:
    names = ["banker_idle", "banker_le16"] + [f"banker_{t}" for t in range(17, 22)] + \
        ["banker_bust", "banker_golden", "bank_result"]
    for k in range(1, players + 1):
        names += [f"p{k}_{m}" for m in ("win", "push", "loss", "bust", "golden", "five", "bonus",
                                        "result")]
    return names + (["banker_five"] if banker_five else [])


# --------------------------------------------------------------------------- one round

def _is_golden(hand) -> bool:
    return len(hand) == 2 and rank(hand[0]) == ACE and rank(hand[1]) == ACE


def _is_five(hand) -> bool:
    return len(hand) == 5 and all(rank(c) in PICTURES for c in hand)


def _is_bonus(hand) -> bool:
    return len(hand) == 3 and sorted(rank(c) for c in hand) in ([6, 7, 8], [7, 7, 7])


def play_round(rules, strategies, cards, trace: bool = False):
    """Play one round with ``cards`` (codes) in the order given; returns ``{metric: float}``.

    ``strategies``: one object per seat with ``hit(total, ncards) -> bool`` (see
    :func:`strategies_for`).  With ``trace=True`` returns ``(metrics, hands, banker_hand)``.
    """
    cards = [int(c) for c in cards]
    K = _opt(rules, "players")
    vals = _opt(rules, "values")
    golden_point = _opt(rules, "golden_point")
    five_pictures = _opt(rules, "five_pictures")
    max_cards = _opt(rules, "max_cards")
    if len(strategies) != K:
        raise ValueError(f"need {K} strategies, got {len(strategies)}")
    pos = 0

    def exhausted() -> bool:
        return pos >= len(cards)

    # the deal: one card to each player, then the banker's first.  A stacked list shorter than
    # K + 1 cards leaves the last hands empty (the rules' "whoever would draw must stand",
    # extended to the deal; an extrapolation, the rules text does not cover it).
    hands = [[cards[k]] if k < len(cards) else [] for k in range(K)]
    banker = [cards[K]] if K < len(cards) else []
    pos = min(K + 1, len(cards))

    # the players, in seat order
    status = []
    for k in range(K):
        hand = hands[k]
        while True:
            t = total(hand, vals)
            if golden_point and _is_golden(hand):
                st = GOLDEN
                break
            if five_pictures and _is_five(hand):
                st = FIVE
                break
            if t > 21:
                st = BUST
                break
            if t == 21:
                st = TWENTY_ONE if _opt(rules, "player_21_wins") else STAND
                break
            up = value(banker[0], vals) if banker else 0   # the banker's face-up card (line 40)
            if len(hand) >= max_cards or exhausted() or not strategies[k].hit(t, len(hand), up):
                st = STAND
                break
            hand.append(cards[pos])
            pos += 1
        status.append(st)

    banker_five = _opt(rules, "banker_five_pictures")
    m = dict.fromkeys(metric_names(K, banker_five), 0.0)

    # the banker
    banker_golden = False
    banker_unlosable = False
    bt = total(banker, vals)
    if STAND in status:
        stop = _opt(rules, "banker_stop")
        bcap = _opt(rules, "banker_max_cards")
        while True:
            bt = total(banker, vals)
            if golden_point and _is_golden(banker):
                banker_golden = True
                break
            if banker_five and _is_five(banker):    # line 31 read for the banker too
                banker_unlosable = True
                break
            if bt >= stop or exhausted() or (bcap > 0 and len(banker) >= bcap):
                break
            banker.append(cards[pos])
            pos += 1
        if banker_golden:
            m["banker_golden"] = 1.0
        elif banker_unlosable:
            m["banker_five"] = 1.0
        elif bt > 21:
            m["banker_bust"] = 1.0
        elif bt < 17:
            m["banker_le16"] = 1.0
        else:
            m[f"banker_{bt}"] = 1.0
    else:
        m["banker_idle"] = 1.0

    # settlement
    bank = 0.0
    for k in range(K):
        p = f"p{k + 1}_"
        st, hand = status[k], hands[k]
        pt = total(hand, vals)
        if st == GOLDEN:
            res, pay = "win", float(_opt(rules, "golden_pays"))
            m[p + "golden"] = 1.0
        elif st == FIVE:
            res, pay = "win", float(_opt(rules, "five_pictures_pays"))
            m[p + "five"] = 1.0
        elif st == BUST:
            res, pay = "loss", -1.0 - float(_opt(rules, "bust_penalty"))
            m[p + "bust"] = 1.0
        elif st == TWENTY_ONE:
            res, pay = "win", 1.0
        elif banker_golden or banker_unlosable:
            res, pay = "loss", -1.0
        elif bt > 21 or pt > bt:
            res, pay = "win", 1.0
        elif pt == bt and _opt(rules, "ties") == "push":
            res, pay = "push", 0.0
        else:
            res, pay = "loss", -1.0
        if res == "win" and _opt(rules, "bonus_hands") and _is_bonus(hand):
            pay = float(_opt(rules, "bonus_pays"))
            m[p + "bonus"] = 1.0
        m[p + res] = 1.0
        m[p + "result"] = pay
        bank -= pay
    m["bank_result"] = bank
    if trace:
        return m, hands, banker
    return m
