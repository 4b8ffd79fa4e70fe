"""Durak against the PyPI peer ``durakgame`` (``simkit.peers.durakgame_peer``): the glue is the
peer's own game (its option lists, its games), the peer's one bug is shown, every simkit move of
many games under ``durak(preset=durakgame)`` is among the peer's options with the same draws and
result, and the opener's outcomes agree with the peer's random bots within intervals."""
import itertools
import random

import pytest

dg = pytest.importorskip("durakgame")
from durakgame.game import Game  # noqa: E402

from simkit.core.registry import rules_from_options  # noqa: E402
from simkit.games.durak import SPEC, decode, play_logged  # noqa: E402
from simkit.peers import durakgame_peer as P  # noqa: E402


def test_lazy_throw_ins_are_the_peers_list():
    cards = dg.standardDeck()
    for n in range(8):
        for most in range(n + 1):
            want = [dg.FinishingMove(list(c)) for k in range(most + 1)
                    for c in itertools.combinations(cards[:n], k)]
            got = P._Tosses(cards[:n], most, dg.FinishingMove)
            assert len(got) == len(want) and list(got) == want
            assert got[-1] == want[-1]


def _sorted_game(cls):
    deck = sorted(dg.standardDeck(), key=lambda c: (c.value, c.suit))
    return cls(deck, dg.MrFirst(), dg.MrFirst())   # p1: 6H 6S 7H 7S 8H 8S, trump 9H


def test_the_peer_keeps_thrown_in_cards_and_the_glue_does_not():
    six_h, six_s = dg.Card(dg.CardValue.Six, dg.Suit.Heart), dg.Card(dg.CardValue.Six, dg.Suit.Spade)
    for cls, keeps in ((Game, True), (P.lazy_game_class(), False)):
        g = _sorted_game(cls)
        for move in (dg.OpeningMove(six_h), dg.ForfeitingMove(), dg.FinishingMove([six_s])):
            assert move in g.generateOptions()
            g.process(move)
        assert six_s in g.player2.hand
        assert (six_s in g.player1.hand) is keeps
        total = len(g.player1.hand) + len(g.player2.hand) + len(g.deck)
        assert total == (37 if keeps else 36)


class _Stop(Exception):
    pass


def _recording(cls, stop_at_bug):
    class Recording(cls):
        def updateHistory(self, move):
            self.seq.append(move)
            if stop_at_bug and isinstance(move, dg.FinishingMove) and move.cards:
                raise _Stop
    return Recording


def test_lazy_game_plays_the_peers_games_up_to_the_bug():
    """From the same ``random`` state, the unmodified peer and the glue make the same moves, up
    to and including the first throw-in onto a take (after it the peer's hands are wrong)."""
    peer, lazy = _recording(Game, True), _recording(P.lazy_game_class(), False)
    cut = 0
    for seed in range(40):
        seqs = []
        for cls in (peer, lazy):
            random.seed(seed)
            deck = dg.standardDeck()
            random.shuffle(deck)
            g = cls(deck, dg.MrRandom(), dg.MrRandom())
            g.seq = []
            try:
                g.kickoff()
            except _Stop:
                pass
            seqs.append(g.seq)
        a, b = seqs
        cut += len(a) < len(b)
        assert a == b[:len(a)] and len(a) > 0
    assert cut > 0          # the bug's case arose and the prefix was compared


@pytest.mark.parametrize("strats", [["p1=random(subsets=1)", "p2=random(subsets=1)"], None,
                                    ["p1=random", "p2=baseline"]])
def test_every_simkit_move_is_the_peers(strats):
    rules = rules_from_options(SPEC, {"preset": "durakgame"})
    _, log = play_logged(rules, strats, n=300, seed=5)
    for i in range(len(log)):
        bad = P.replay([decode(int(x)) for x in log[i] if x >= 0])
        assert bad is None, f"game {i}: {bad}"


def test_replay_catches_a_move_the_peer_does_not_allow():
    rules = rules_from_options(SPEC, {"preset": "durakgame"})
    _, log = play_logged(rules, None, n=20, seed=5)
    e = [decode(int(x)) for x in log[0] if x >= 0]
    j = next(j for j, x in enumerate(e) if x[0] == "BEAT")
    att = e[j - 1][3]
    e[j] = ("BEAT", e[j][1], 0, att - 1 if att % 16 > 6 else att + 1)   # a lower card, or one
    # not held
    assert P.replay(e) is not None
    e2 = [decode(int(x)) for x in log[0] if x >= 0]      # the other seat named the winner
    k = next(j for j, x in enumerate(e2) if x[0] == "END")
    e2[k] = ("END", 0, 1 - e2[k][2] if e2[k][2] in (0, 1) else 0, 0)
    assert P.replay(e2) is not None


@pytest.mark.slow
def test_opener_outcomes_agree_with_the_peer():
    """1,500 peer games (its MrRandom bots) against 150,000 simkit games (random(subsets=1)),
    seed 1: each of win / draw / loss within 4 standard errors of the difference."""
    for row in P.compare(1500, 150_000, seed=1):
        assert abs(row["z"]) < 4, row
