"""Durak for two against the PyPI package ``durakgame`` (1.0.4): its games with its own random
bots (``MrRandom`` on both seats), and simkit's under the same rules (``durak(preset=durakgame)``:
p1 always opens, at most five attacking cards until the first discard) and the same policy
(``random(subsets=1)``: uniform among the legal moves, a uniformly random subset of throw-ins
onto a take).

The peer lists every subset of throw-ins onto a take as one option, so a random game whose
attacker holds many matching cards builds tens of thousands of options per move (one game of 200
took 5.9 s; 300 games with a 1 s cap abandoned 74).  :class:`LazyGame` is the peer's own game with
that one list indexed lazily: the same options in the same order (``itertools.combinations`` by
size, then lexicographically), so ``MrRandom`` draws the same index from the same ``random`` state
and plays the same game, move for move; only the list is never built.

One bug of the peer is mended in :class:`LazyGame`: on a take, the cards the attacker throws in
go to the defender but stay in the attacker's hand as well (``Game.process``, ``FinishingMove``:
``currentOpponent.hand += cards`` and nothing removed), so every game with a throw-in onto a take
goes on with duplicated cards.  ``LazyGame`` removes them from the attacker's hand.
``tests/test_durak_peer.py`` shows the bug in the unmodified peer, and checks that ``LazyGame``
builds the peer's list and plays the peer's games wherever the bug does not arise.  The
benchmark times the unmodified peer.
"""
from __future__ import annotations

import math
import random
import signal
import time
from collections.abc import Sequence

STRATS = ["p1=random(subsets=1)", "p2=random(subsets=1)"]
OUTCOMES = (("win", "p1_win", 1), ("draw", "draw", 0), ("loss", "p1_lose", -1))


class _Tosses(Sequence):
    """The peer's throw-in options onto a take, ``FinishingMove(list(c))`` for ``c`` in
    ``combinations(cards, k)``, ``k = 0..most``, built only when indexed."""

    def __init__(self, cards, most, move):
        self.cards, self.move = list(cards), move
        self.sizes = [math.comb(len(self.cards), k) for k in range(most + 1)]

    def __len__(self):
        return sum(self.sizes)

    def __getitem__(self, i):
        if i < 0:
            i += len(self)
        if not 0 <= i < len(self):
            raise IndexError(i)
        k = 0
        while i >= self.sizes[k]:
            i -= self.sizes[k]
            k += 1
        n, pick, c = len(self.cards), [], 0
        for slot in range(k):             # the i-th k-combination in lexicographic order
            while True:
                below = math.comb(n - c - 1, k - slot - 1)
                if i < below:
                    break
                i -= below
                c += 1
            pick.append(self.cards[c])
            c += 1
        return self.move(pick)


def lazy_game_class():
    import durakgame as dg
    from durakgame.game import Game

    class LazyGame(Game):
        """The peer's game; a take's throw-in options are a :class:`_Tosses` sequence."""

        def generateAttackOptions(self):
            t, opp = self.table, self.currentOpponent
            cap = self.config.MaxTossAD if self.discardPile else self.config.MaxTossBD
            if not t.isForfeited or len(t.defense) == cap or not opp.hand:
                return super().generateAttackOptions()
            values = t.getTossableValues()
            cards = [c for c in self.currentPlayer.hand if c.value in values]
            room = min(len(t.defense) + len(opp.hand), self.config.HandCC) - len(t.attack)
            return _Tosses(cards, min(len(cards), room), dg.FinishingMove)

        def process(self, move):
            if isinstance(move, dg.FinishingMove):      # the peer leaves them in his hand too
                for c in move.cards:
                    self.currentPlayer.hand.remove(c)
            super().process(move)

    return LazyGame


def peer_games(n: int, seed: int, lazy: bool = True, limit: float | None = None):
    """``n`` peer games, ``MrRandom`` on both seats, from ``random.seed(seed)``: ``(counts of
    p1's results {1: win, 0: draw, -1: loss}, games abandoned, seconds)``.  ``lazy=False`` plays
    the unmodified peer; ``limit`` seconds (unmodified peer only) abandons a game that runs longer
    (counted apart)."""
    import durakgame as dg
    from durakgame.game import Game
    game = lazy_game_class() if lazy else Game
    random.seed(seed)
    out = {1: 0, 0: 0, -1: 0}
    slow = 0
    old = signal.signal(signal.SIGALRM, _alarm) if limit else None
    t = time.perf_counter()
    try:
        for _ in range(n):
            deck = dg.standardDeck()
            random.shuffle(deck)
            if limit:
                signal.setitimer(signal.ITIMER_REAL, limit)
            try:
                g = game(deck, dg.MrRandom(), dg.MrRandom())
                g.kickoff()
                out[g.result.value] += 1
            except _Slow:
                slow += 1
            finally:
                if limit:
                    signal.setitimer(signal.ITIMER_REAL, 0)
    finally:
        if limit:
            signal.signal(signal.SIGALRM, old)
    return out, slow, time.perf_counter() - t


class _Slow(Exception):
    pass


def _alarm(signum, frame):
    raise _Slow


def simkit_rates(n: int, seed: int) -> dict[str, float]:
    """p1's win / draw / loss rates over ``n`` simkit games under the peer's rules and policy."""
    import simkit
    res = simkit.run("durak(preset=durakgame)", n=n, seed=seed, strategies=STRATS,
                     progress=False)
    t = res.table().set_index("metric")
    return {k: float(t.loc[k, "mean"]) for _, k, _ in OUTCOMES}


def compare(peer_n: int, simkit_n: int, seed: int = 1) -> list[dict]:
    """One row per outcome: both rates, the difference's standard error and ``z``."""
    counts, _, _ = peer_games(peer_n, seed)
    mine = simkit_rates(simkit_n, seed)
    rows = []
    for name, key, value in OUTCOMES:
        p, q = counts[value] / peer_n, mine[key]
        se = math.sqrt(p * (1 - p) / peer_n + q * (1 - q) / simkit_n)
        rows.append({"outcome": name, "durakgame": p, "simkit": q, "se": se,
                     "z": (q - p) / se if se > 0 else 0.0})
    return rows


def _card(code: int):
    from durakgame.primitives import Card, CardValue, Suit
    return Card(CardValue(code % 16 - 5), Suit(code // 16))


def replay(entries) -> str | None:
    """Replay one simkit game (its move log as ``(kind, seat, aux, card)`` events, one game of
    ``durak(preset=durakgame)``) through the peer's own game: every simkit move must be among the
    peer's options at that point, the hands after each drawing the peer's sizes, and the result
    the peer's.  Returns ``None`` or what disagreed first."""
    from durakgame import (AttackingMove, DefensiveMove, EndingMove, ForfeitingMove,
                           GameResult, MrFirst, OpeningMove)
    deck = [c for k, _, _, c in entries if k == "DECK"]
    if len(deck) != 36 or entries[0][:2] != ("GAME", 0):
        return "not one game of 36 cards opened by p1"
    order = [deck[j] for pair in zip(range(6), range(6, 12)) for j in pair]   # p1 3, p2 3, ...
    seat1 = deck[0:3] + deck[6:9]
    seat2 = deck[3:6] + deck[9:12]
    order = [c for pair in zip(seat1, seat2) for c in pair] + deck[12:]
    g = lazy_game_class()([_card(c) for c in order], MrFirst(), MrFirst())
    throws, taken = [], False
    for j, (kind, seat, aux, x) in enumerate(entries):
        if kind in ("GAME", "DECK"):
            continue
        if kind == "END":
            want = {0: GameResult.Win, 1: GameResult.Loss, 2: GameResult.Draw}.get(aux)
            return None if g.isFinished and g.result == want else \
                f"entry {j}: simkit ends {aux}, the peer {g.result} (finished: {g.isFinished})"
        if kind == "DRAW":          # one a seat, aux its hand's size after the drawing
            size = len((g.player1, g.player2)[seat].hand)
            if size != aux:
                return f"entry {j}: p{seat + 1} holds {size} in the peer, {aux} in simkit"
            continue
        if kind == "THROW" and taken:
            throws.append(_card(x))
            continue
        options = g.generateOptions()
        if kind == "STOP" and taken:
            legal = (isinstance(options, _Tosses) and set(throws) <= set(options.cards)
                     and len(throws) <= len(options.sizes) - 1) or \
                    (not throws and any(getattr(o, "cards", None) == [] for o in options))
            move = options.move(throws) if isinstance(options, _Tosses) else None
            if move is None:
                move = next((o for o in options if getattr(o, "cards", None) == []), None)
            throws, taken = [], False
        else:
            move = {"ATTACK": (OpeningMove if g.table.isEmpty else AttackingMove),
                    "THROW": AttackingMove, "BEAT": DefensiveMove}.get(kind)
            move = move(_card(x)) if move else {"TAKE": ForfeitingMove,
                                                 "STOP": EndingMove}[kind]()
            legal = move in options
            taken = kind == "TAKE"
        if not legal:
            return f"entry {j}: simkit's {kind} {x} is not among the peer's {len(options)} options"
        g.process(move)
    return "the log has no END"
