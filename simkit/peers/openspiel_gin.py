"""Open-spiel's gin rummy as a reference for simkit's gin engine (``simkit/games/gin/``).

    python scripts/openspiel_gin.py [-n 500] [--seed 1] [--check 1000] [--json out.json]
    python -m simkit.peers.openspiel_gin [...]          # the same

Imported by tests (``from simkit.peers import openspiel_gin``) and by ``scripts/``.  Needs
``open-spiel`` (``pyspiel``, tested with 2.0.2), an optional test extra: it is imported lazily, on
the first call that needs it, so importing this module works without it (and raises
``ImportError`` only when open-spiel is used).  Imports nothing else from simkit.

What open-spiel exposes (pyspiel 2.0.2, found by introspection and in the C++ sources shipped in the
wheel under ``site-packages/open_spiel/{games,bots}/gin_rummy/``):

* game ``gin_rummy``; parameters ``oklahoma`` (False), ``knock_card`` (10), ``gin_bonus`` (25),
  ``undercut_bonus`` (25), ``num_ranks`` (13), ``num_suits`` (4), ``hand_size`` (10).
* ``pyspiel.gin_rummy``: action constants (``DRAW_UPCARD_ACTION`` 52, ``DRAW_STOCK_ACTION`` 53,
  ``PASS_ACTION`` 54, ``KNOCK_ACTION`` 55, ``MELD_ACTION_BASE`` 56, 185 meld actions),
  ``WALL_STOCK_SIZE`` 2, ``MAX_NUM_DRAW_UPCARD_ACTIONS`` 50, ``Phase``, ``GinRummyState`` (accessors
  ``hands()``, ``deadwood()``, ``knocked()``, ``upcard()``, ``stock_size()``, ``layed_melds()``, ...)
  and ``GinRummyUtils(num_ranks, num_suits, hand_size)`` (``min_deadwood``, ``best_meld_group``,
  ``all_melds``, ``all_meld_groups``, ``legal_discards``, ``card_string``, ``card_int``, ...).
* ``pyspiel.make_simple_gin_rummy_bot(params, player_id)``: the C++ ``SimpleGinRummyBot``, bound.
  ``params`` must be the full parameter dict (``game.get_parameters()``); the bot decodes the
  observation tensor with hard-coded 52 cards and at most 10 knock-card slots, so it only works on
  the default deck with ``knock_card <= 10``.
* ``pyspiel.evaluate_bots(state, bots, seed)`` plays ``state`` to the end in C++ (mt19937(seed)
  samples the chance nodes) and leaves the Python ``state`` terminal, so its history can be read.

Card numbering.  Open-spiel card ``i`` (0..51) is ``suit = i // 13`` in the order spades, clubs,
diamonds, hearts ("scdh") and ``rank = i % 13`` with 0 = ace, 1 = deuce, ..., 12 = king
(``GinRummyUtils.card_string(i)``: 0 'As', 12 'Ks', 13 'Ac', 26 'Ad', 39 'Ah', 51 'Kh').  Card
values: ace 1, 2..10 face, J Q K 10.  Aces are low only: A-2-3 is a run, Q-K-A is not.

Rules open-spiel plays (gin_rummy.cc; each confirmed by playing, see ``confirm_rules``):

* One hand only.  Player 0 always acts first (player 1 is the "dealer").  Deal: 10 cards to
  player 0, 10 to player 1, then the upcard; the stock then holds 31 cards.
* First upcard: player 0 may take the upcard or pass; if it passes, player 1 may take it or pass;
  if both pass, player 0 must draw from the stock (the upcard goes to the discard pile, out of play).
  Whoever takes the upcard discards and play continues with the opponent.
* Normal turn: take the upcard (last discard) or draw from the stock, then discard or knock.
  Only the top discard is ever available; buried discards are dead.  Discarding the card just
  taken from the upcard is legal; if both players do so in succession the hand ends as a draw.
* Knock: only with 11 cards, when ``GinRummyUtils.min_deadwood(11 cards) <= knock_card`` (the
  11-card rule: best meld group, then the highest deadwood card dropped; see ``min_deadwood``).
  The knocker then discards (any card leaving a 10-card hand with min deadwood <= knock card),
  lays melds until its deadwood <= knock card, passes.  If the knocker's deadwood is 0 (gin) the
  defender may not lay off; otherwise the defender may lay off onto the knocker's melds, then lays
  its own melds.  No "big gin" bonus.
* Wall: when a discard leaves 2 cards in the stock, the next player may only knock by taking the
  upcard (if hand + upcard has min deadwood <= knock card) or pass, and a pass ends the hand as a
  draw (0 to both).  So at most 29 cards are ever drawn from the stock.
* Also a draw: the 50th upcard draw of the draw phase (first-upcard takes not counted) ends the
  hand without taking the card; the repeated-move rule above.
* Score (to the knocker, the defender gets the negative): ``d = defender_deadwood -
  knocker_deadwood`` (after layoffs); ``+ gin_bonus`` if the knocker has 0; if ``d < 0``, ``d -=
  undercut_bonus``.  So EQUAL DEADWOOD IS NOT AN UNDERCUT: it scores 0 to both.  The undercut
  pays ``knocker_dw - defender_dw + 25`` to the defender; gin can never be undercut.
* Oklahoma: the knock card is the first upcard's value (ace: 0, i.e. gin only); no doubling.

The simple bot (bots/gin_rummy/simple_gin_rummy_bot.cc), deterministic:

* Draw (also the first upcard): take the upcard if hand + upcard has ``min_deadwood <=
  knock_card`` or if the upcard is in a meld of ``best_meld_group(hand + upcard)``; else draw from
  the stock (or pass, in the first-upcard phase).  At the wall: knock if legal, else pass.
* With 11 cards: knock as soon as ``min_deadwood(11 cards) <= knock_card`` (never waits for gin);
  otherwise discard the highest-rank card (K high, ace low) not in ``best_meld_group(11 cards)``;
  between equal ranks the highest open-spiel index, i.e. hearts, then diamonds, clubs, spades.
* After its knock: discard that same card, lay the best meld group.  As defender: NEVER lays off,
  lays ``best_meld_group`` of its 10 cards, EXCEPT against gin: its first action (a pass meant
  to end the layoffs) then ends the hand, so none of its melds are laid and all 10 of its cards
  count as deadwood (confirmed: 58 of 58 gin hands in 3000).  ``best_meld_group`` = the first
  meld group (in open-spiel's search order) of maximum melded value.
* Consequences under self-play: ties and undercuts are practically impossible (the defender's
  10 cards were left by its own discard, which would have let it knock if it were <= 10), so a
  self-play cross-check says nothing about the tie/undercut rules; rigged deals do
  (``confirm_rules``).
"""
from __future__ import annotations

import argparse
import json
import math
import random
import sys
import time
from functools import cache
from itertools import combinations

# pyspiel.gin_rummy's action constants (checked against pyspiel on first use, ``_pyspiel``)
DRAW_UPCARD = 52  # GR.DRAW_UPCARD_ACTION
DRAW_STOCK = 53  # GR.DRAW_STOCK_ACTION
PASS = 54  # GR.PASS_ACTION
KNOCK = 55  # GR.KNOCK_ACTION
CHANCE = -1


@cache
def _pyspiel():
    """The ``pyspiel`` module, imported on first use (open-spiel is an optional test extra)."""
    import pyspiel
    gr = pyspiel.gin_rummy
    got = (gr.DRAW_UPCARD_ACTION, gr.DRAW_STOCK_ACTION, gr.PASS_ACTION, gr.KNOCK_ACTION)
    if got != (DRAW_UPCARD, DRAW_STOCK, PASS, KNOCK):
        raise RuntimeError(f"pyspiel.gin_rummy action constants changed: {got}")
    return pyspiel


@cache
def _utils():
    """``pyspiel.gin_rummy.GinRummyUtils(13, 4, 10)``."""
    return _pyspiel().gin_rummy.GinRummyUtils(13, 4, 10)


_OS_SUIT_OF_SIMKIT = (1, 2, 3, 0)  # simkit c d h s -> open-spiel suit index in "scdh"
_SIMKIT_SUIT_OF_OS = (3, 0, 1, 2)

# --------------------------------------------------------------------------- card numbering


def os_card(code: int) -> int:
    """Open-spiel card index (0..51) of simkit card ``code`` (``suit * 16 + rank``, ace = 14)."""
    code = int(code)
    rank, suit = code & 15, code >> 4
    if not (2 <= rank <= 14 and 0 <= suit <= 3):
        raise ValueError(f"{code} is not a simkit card code of a 52-card deck")
    return _OS_SUIT_OF_SIMKIT[suit] * 13 + (0 if rank == 14 else rank - 1)


def simkit_code(os_index: int) -> int:
    """Simkit card code of open-spiel card index ``os_index`` (0..51)."""
    i = int(os_index)
    if not 0 <= i < 52:
        raise ValueError(f"{i} is not an open-spiel card index (0..51)")
    suit, r = divmod(i, 13)
    return _SIMKIT_SUIT_OF_OS[suit] * 16 + (14 if r == 0 else r + 1)


_SIMKIT_RANK_TEXT = {10: "T", 11: "J", 12: "Q", 13: "K", 14: "A"}


def simkit_card_text(code: int) -> str:
    """``Td``-style text of a simkit code (same letters as ``simkit.core.cards.format_card``)."""
    r = code & 15
    return _SIMKIT_RANK_TEXT.get(r, str(r)) + "cdhs"[code >> 4]


def os_hand(codes) -> list[int]:
    return [os_card(c) for c in codes]


# --------------------------------------------------------------------------- deadwood


def min_deadwood(codes) -> int:
    """Open-spiel's ``GinRummyUtils.MinDeadwood`` of a hand of simkit codes, as the game uses it.

    For any hand size other than 11: the minimum deadwood of all the cards held (open-spiel takes
    the meld group of maximum melded value).  For 11 cards (hand_size + 1, i.e. just after a
    draw): open-spiel takes ONE maximum-value meld group of all 11 cards (the first found) and
    drops its highest-rank deadwood card.  This is the number the game compares with the knock
    card to offer the knock (and the simple bot uses to knock and to take the upcard).  It is
    never below ``min_deadwood_after_discard`` and usually equal to it, but not always: when
    another meld group with less melded value leaves a much higher single deadwood card, the
    true best discard is better than open-spiel's number, or several meld groups tie for the
    maximum and open-spiel keeps one whose top deadwood card is lower (``OS_11_*_EXAMPLE``); then
    open-spiel can refuse a knock that the best discard would allow.
    """
    return _utils().min_deadwood(os_hand(codes))


def min_deadwood_raw(codes) -> int:
    """Minimum deadwood of ALL cards held (no discard), any hand size, via open-spiel's
    ``best_meld_group``: card total minus the maximum melded value."""
    h = os_hand(codes)
    return _utils().total_card_value(h) - _utils().total_card_value(_utils().best_meld_group(h))


def min_deadwood_after_discard(codes) -> int:
    """The best deadwood of an 11-card hand after discarding the best card: the minimum over the
    11 discards of open-spiel's 10-card ``min_deadwood`` (the rule open-spiel's
    ``LegalDiscards`` applies to the knocker's discard)."""
    h = os_hand(codes)
    if len(h) != 11:
        raise ValueError(f"min_deadwood_after_discard needs 11 cards, got {len(h)}")
    return min(_utils().min_deadwood(h[:i] + h[i + 1:]) for i in range(11))


# 11-card hands where open-spiel's ``min_deadwood`` is above the true best discard (found by
# ``deadwood_comparisons``-style searches over dense hands; they never showed up in 20,000 uniform
# 11-card hands, and 6 times in 5,000 dense ones):
#   tie between max-value meld groups: 666 + 888 vs 678s + 678d (both 42); open-spiel keeps the
#   first, leaving 7d 7s 5c 4c 3s (drops a 7 -> 19); the other leaves 8h 6h 5c 4c 3s (-> 18).
OS_11_TIE_EXAMPLE = ("8h 6h 6s 6d 7d 7s 8d 5c 3s 4c 8s", 19, 18)
#   the best discard comes from a meld group of lower melded value than the maximum.
OS_11_NONMAX_EXAMPLE = ("9d 8d 7d 8h 7h 8c 6d 7s 8s 6c 5h", 18, 17)
#   one across the knock line: the game does NOT offer the knock (11 > 10), though discarding the
#   right card leaves 9.  Checked in-game by ``confirm_rules`` ("os_refuses_legal_knock").
OS_11_REFUSED_KNOCK_EXAMPLE = ("6d 5s 4d As 5h 4h 6c 5d 3c 3d 6h", 11, 9)


def parse_cards(text: str) -> list[int]:
    """``"As Td 7c"`` (ranks 2-9 T J Q K A, suits c d h s) -> simkit codes."""
    ranks = {**{str(r): r for r in range(2, 10)}, "T": 10, "J": 11, "Q": 12, "K": 13, "A": 14}
    return ["cdhs".index(t[-1].lower()) * 16 + ranks[t[:-1].upper()] for t in text.split()]


def _value(code: int) -> int:
    r = code & 15
    return 1 if r == 14 else min(r, 10)


def brute_melds(codes) -> list[frozenset]:
    """Every meld in ``codes`` (simkit codes): sets of 3 or 4 of a rank, runs of 3 or more
    consecutive cards of a suit, ace low only."""
    codes = list(codes)
    melds = []
    by_rank: dict[int, list[int]] = {}
    by_suit: dict[int, dict[int, int]] = {}
    for c in codes:
        r, s = c & 15, c >> 4
        by_rank.setdefault(r, []).append(c)
        by_suit.setdefault(s, {})[1 if r == 14 else r] = c
    for cs in by_rank.values():
        for k in (3, 4):
            if len(cs) >= k:
                melds += [frozenset(m) for m in combinations(cs, k)]
    for ranks in by_suit.values():
        for lo in range(1, 14):
            hi = lo
            while hi in ranks:
                if hi - lo >= 2:
                    melds.append(frozenset(ranks[x] for x in range(lo, hi + 1)))
                hi += 1
    return melds


def brute_deadwood(codes) -> int:
    """Minimum deadwood of all cards held, by exhaustive search over partitions into melds."""
    codes = tuple(sorted(int(c) for c in codes))
    melds = brute_melds(codes)

    @cache
    def best(rest: frozenset) -> int:  # max melded value within ``rest``
        if not rest:
            return 0
        c = min(rest)
        v = best(rest - {c})  # c left as deadwood
        for m in melds:
            if c in m and m <= rest:
                v = max(v, sum(_value(x) for x in m) + best(rest - m))
        return v

    return sum(_value(c) for c in codes) - best(frozenset(codes))


def brute_deadwood_after_discard(codes) -> int:
    codes = list(codes)
    return min(brute_deadwood(codes[:i] + codes[i + 1:]) for i in range(len(codes)))


# --------------------------------------------------------------------------- playing hands


def load_game(params: dict | None = None):
    return _pyspiel().load_game("gin_rummy", dict(params or {}))


def hand_record(state) -> dict:
    """Everything the statistics need from a terminal open-spiel gin state."""
    hist = [(pa.player, pa.action) for pa in state.full_history()]
    knocked = list(state.knocked())
    dw = list(state.deadwood())
    ret = list(state.returns())
    stock = upcard = first_upcard = wall_take = 0
    first_draw = True  # the first take (52 or 53) ends the first-upcard phase
    for k, (p, a) in enumerate(hist):
        if p == CHANCE:
            continue
        if a == DRAW_STOCK:
            stock += 1
            first_draw = False
        elif a == DRAW_UPCARD:
            upcard += 1
            first_upcard += first_draw
            first_draw = False
        elif a == KNOCK and k > 0 and hist[k - 1][0] == 1 - p:
            # a wall knock follows the opponent's discard directly; a normal knock follows the
            # knocker's own draw (a chance deal or its own DRAW_UPCARD)
            wall_take = 1
    end_a = hist[-1][1]
    upcard_limit = 0
    if not any(knocked) and end_a == DRAW_UPCARD:
        upcard -= 1  # the 50th upcard draw ends the hand without taking the card
        upcard_limit = 1
    if any(knocked):
        kn = knocked.index(True)
        kdw, ddw = dw[kn], dw[1 - kn]
        pts = ret[kn]
        kind = "gin" if kdw == 0 else ("knock_win" if pts > 0 else ("tie" if pts == 0 else "undercut"))
        dead_reason = None
        # the defender's deadwood had it laid its best melds (the simple bot facing gin passes
        # at once, which ends the hand with its melds unlaid: all 10 cards count)
        gp = state.get_game().get_parameters()
        ddw_melded = _utils().min_deadwood(list(state.hands()[1 - kn]))
        sc = ddw_melded - kdw + (gp["gin_bonus"] if kdw == 0 else 0)
        sc = sc - gp["undercut_bonus"] if sc < 0 else sc
        melded_pts = abs(sc)
        unmelded = int(ddw_melded != ddw)
    else:
        kn, kdw, ddw, pts, melded_pts, unmelded = None, None, None, 0.0, 0.0, 0
        kind = "dead"
        dead_reason = "upcard_limit" if upcard_limit else ("wall" if end_a == PASS else "repeat")
    return {"draws": stock + upcard + wall_take, "stock": stock, "upcard": upcard,
            "first_upcard": first_upcard, "wall_take": wall_take, "kind": kind,
            "dead_reason": dead_reason, "knocker": kn, "knocker_dw": kdw, "defender_dw": ddw,
            "returns": ret, "winner_points": max(ret), "winner_points_melded": melded_pts,
            "defender_unmelded": unmelded, "stock_left": state.stock_size(),
            "actions": sum(1 for p, _ in hist if p != CHANCE)}


def _mean_se(xs) -> tuple[float, float]:
    n = len(xs)
    if n == 0:
        return float("nan"), float("nan")
    m = sum(xs) / n
    if n < 2:
        return m, float("nan")
    var = sum((x - m) ** 2 for x in xs) / (n - 1)
    return m, math.sqrt(var / n)


def _rate(k: int, n: int) -> tuple[float, float]:
    p = k / n if n else float("nan")
    return p, (math.sqrt(p * (1 - p) / n) if n else float("nan"))


def summarize(records: list[dict]) -> dict:
    """Statistics of hand records (see ``simple_bot_stats`` for the definitions)."""
    n = len(records)
    out: dict = {"n_hands": n}
    for key in ("draws", "stock", "upcard", "first_upcard", "actions"):
        m, se = _mean_se([r[key] for r in records])
        out[f"{key}_mean"], out[f"{key}_se"] = m, se
    kinds = {k: sum(r["kind"] == k for r in records)
             for k in ("gin", "knock_win", "tie", "undercut", "dead")}
    for k, c in kinds.items():
        out[f"{k}_rate"], out[f"{k}_rate_se"] = _rate(c, n)
    knock = kinds["knock_win"] + kinds["tie"] + kinds["undercut"]
    out["knock_rate"], out["knock_rate_se"] = _rate(knock, n)
    out["wall_knock_rate"], out["wall_knock_rate_se"] = _rate(sum(r["wall_take"] for r in records), n)
    for reason in ("wall", "repeat", "upcard_limit"):
        out[f"dead_{reason}_rate"] = sum(r["dead_reason"] == reason for r in records) / n
    won = [r["winner_points"] for r in records if r["winner_points"] > 0]
    out["winner_points_mean"], out["winner_points_se"] = _mean_se(won)
    out["points_per_hand_mean"], out["points_per_hand_se"] = _mean_se([r["winner_points"] for r in records])
    out["gin_points_mean"], out["gin_points_se"] = _mean_se(
        [r["winner_points"] for r in records if r["kind"] == "gin"])
    out["gin_points_melded_mean"], out["gin_points_melded_se"] = _mean_se(
        [r["winner_points_melded"] for r in records if r["kind"] == "gin"])
    won_m = [r["winner_points_melded"] for r in records if r["winner_points_melded"] > 0]
    out["winner_points_melded_mean"], out["winner_points_melded_se"] = _mean_se(won_m)
    out["defender_unmelded_rate"] = sum(r["defender_unmelded"] for r in records) / n
    out["p0_return_mean"], out["p0_return_se"] = _mean_se([r["returns"][0] for r in records])
    out["p0_knock_share"] = (sum(r["knocker"] == 0 for r in records) / max(1, n - kinds["dead"]))
    nongin = [r["knocker_dw"] for r in records if r["kind"] in ("knock_win", "tie", "undercut")]
    out["knocker_deadwood_mean"], out["knocker_deadwood_se"] = _mean_se(nongin)
    return out


def _hand_seeds(n: int, seed: int) -> list[int]:
    rng = random.Random(seed)
    return [rng.randrange(2 ** 31 - 1) for _ in range(n)]


def play_hand(game, bots, hand_seed: int, loop: str):
    """One hand of ``bots`` to the end: in C++ (``loop="cpp"``, chance from mt19937(hand_seed))
    or driven from Python (chance from ``random.Random(hand_seed)``).  Returns the final state."""
    state = game.new_initial_state()
    if loop == "cpp":
        _pyspiel().evaluate_bots(state, bots, hand_seed)
        return state
    rng = random.Random(hand_seed)
    for b in bots:
        b.restart()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
        else:
            state.apply_action(bots[state.current_player()].step(state))
    return state


def play_bots(n_hands: int, seed: int, make_bots, params: dict | None = None,
              loop: str = "cpp") -> tuple[list[dict], float]:
    """Play ``n_hands`` single hands; returns (records, wall seconds of the playing loop).

    ``loop="cpp"``: ``pyspiel.evaluate_bots`` plays each hand in C++ (chance: mt19937(hand seed)).
    ``loop="python"``: the same bots driven from Python (chance: ``random.Random(hand seed)``).
    Record extraction (``hand_record``) is included in the wall time.
    """
    game = load_game(params)
    bots = make_bots(game)
    seeds = _hand_seeds(n_hands, seed)
    records = []
    t0 = time.perf_counter()
    for hs in seeds:
        state = play_hand(game, bots, hs, loop)
        records.append(hand_record(state))
    return records, time.perf_counter() - t0


def simple_bots(game):
    params = game.get_parameters()
    return [_pyspiel().make_simple_gin_rummy_bot(params, p) for p in range(2)]


def random_bots(seed: int):
    return lambda game: [_pyspiel().make_uniform_random_bot(p, seed * 2 + p) for p in range(2)]


def simple_bot_stats(n_hands: int, seed: int, params: dict | None = None, loop: str = "cpp") -> dict:
    """Play ``n_hands`` single hands, open-spiel's ``SimpleGinRummyBot`` (the C++ bot, exposed as
    ``pyspiel.make_simple_gin_rummy_bot``) in both seats, and measure them.

    Hand seeds come from ``random.Random(seed)``; the bots are deterministic, so ``(n_hands, seed,
    params, loop)`` fixes the result.  ``params`` overrides the game parameters (the bot needs the
    52-card deck and knock_card <= 10).  Definitions (n = n_hands, SE = standard error):

    * ``draws_mean``/``draws_se`` (hand length): cards taken into a hand after the deal, both
      players, per hand = stock draws (``stock``) + upcard takes (``upcard``, first-upcard phase
      included, ``first_upcard`` of them in that phase) + the wall knock's take of the upcard
      (``wall_knock_rate``: share of hands with one; subtract it if a wall knock is not a draw).
      The 50th draw-phase upcard draw, which ends the hand without taking the card, is not counted.
      Passes on the first upcard are not draws.  SE = sample sd / sqrt(n).
    * every hand is exactly one of: ``gin`` (knocker's deadwood 0), ``knock_win`` (knocker's
      deadwood > 0 and below the defender's after layoffs), ``tie`` (equal deadwood: scores 0 in
      open-spiel), ``undercut`` (defender strictly below the knocker), ``dead`` (nobody knocked).
      ``X_rate`` = count / n, SE sqrt(p(1-p)/n).  ``knock_rate`` = knock_win + tie + undercut (all
      non-gin knocks), so gin_rate + knock_rate + dead_rate = 1.  ``dead_{wall,repeat,
      upcard_limit}_rate`` split the dead hands by cause (pass at the wall / both players
      re-discarding the taken upcard / 50 upcard draws).
    * ``winner_points_mean``/``_se``: mean over hands with a nonzero score of the points the
      winner gets (knocker: defender_dw - knocker_dw, + gin bonus; undercutting defender:
      knocker_dw - defender_dw + undercut bonus).  ``points_per_hand_mean``: the same over all n
      hands, counting 0 for dead hands and ties.  CAUTION: facing gin, open-spiel's simple bot
      passes once, which ENDS the hand before it lays its melds, so the gin winner gets 25 + the
      total value of all 10 defender cards.  ``gin_points_mean`` is that (as played);
      ``gin_points_melded_mean`` and ``winner_points_melded_mean`` rescore with the defender's
      minimum deadwood (melds laid, still no layoffs); ``defender_unmelded_rate``: share of
      hands where the two differ.  The bot never lays off in any case.
    * ``p0_return_mean``: mean score of player 0 (who acts first); ``p0_knock_share``: share of
      knocks made by player 0; ``knocker_deadwood_mean``: knocker's final deadwood over non-gin
      knocks; ``actions_mean``: player actions per hand (melds, passes, ... included).
    * ``wall_s``: wall time of the playing loop (hand records included); ``hands_per_second`` =
      n / wall_s.  ``loop``: "cpp" (``pyspiel.evaluate_bots``) or "python".
    """
    records, wall = play_bots(n_hands, seed, simple_bots, params, loop)
    out = summarize(records)
    out.update(wall_s=wall, hands_per_second=n_hands / wall, loop=loop, seed=seed,
               params=load_game(params).get_parameters())
    return out


def random_play_hands_per_second(n_hands: int, seed: int, loop: str = "cpp") -> dict:
    """Speed of open-spiel's gin loop under uniform random play (every legal action, melds,
    layoffs and knocks included, equally likely).  ``loop="cpp"``: ``pyspiel.evaluate_bots`` with
    ``make_uniform_random_bot``; ``"python"``: a Python loop choosing with ``random.Random``.
    Returns ``hands_per_second``, ``wall_s``, ``actions_per_hand`` (player actions) and
    ``actions_per_second``."""
    game = load_game()
    seeds = _hand_seeds(n_hands, seed)
    actions = 0
    t0 = time.perf_counter()
    if loop == "cpp":
        bots = random_bots(seed)(game)
        for hs in seeds:
            state = game.new_initial_state()
            _pyspiel().evaluate_bots(state, bots, hs)
            actions += state.move_number()
    else:
        rng = random.Random(seed)
        for _ in seeds:
            state = game.new_initial_state()
            while not state.is_terminal():
                if state.is_chance_node():
                    outcomes = state.chance_outcomes()
                    state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
                else:
                    legal = state.legal_actions()
                    state.apply_action(legal[rng.randrange(len(legal))])
            actions += state.move_number()
    wall = time.perf_counter() - t0
    return {"n_hands": n_hands, "wall_s": wall, "hands_per_second": n_hands / wall, "loop": loop,
            "moves_per_hand": actions / n_hands, "moves_per_second": actions / wall}


def simple_bot_hands_per_second(n_hands: int, seed: int, loop: str = "cpp") -> dict:
    """Speed of open-spiel's gin loop with the simple bot in both seats (``simple_bot_stats``'s
    loop without the statistics; ``loop`` as there).  Returns ``hands_per_second``, ``wall_s``."""
    game = load_game()
    bots = simple_bots(game)
    seeds = _hand_seeds(n_hands, seed)
    moves = 0
    t0 = time.perf_counter()
    for hs in seeds:
        state = play_hand(game, bots, hs, loop)
        moves += state.move_number()
    wall = time.perf_counter() - t0
    return {"n_hands": n_hands, "wall_s": wall, "hands_per_second": n_hands / wall, "loop": loop,
            "moves_per_hand": moves / n_hands, "moves_per_second": moves / wall}


# --------------------------------------------------------------------------- self-checks


def check_numbering() -> int:
    """Open-spiel's own card strings against simkit's text for all 52 cards; returns mismatches."""
    bad = 0
    for code in [s * 16 + r for s in range(4) for r in range(2, 15)]:
        i = os_card(code)
        if _utils().card_string(i) != simkit_card_text(code) or simkit_code(i) != code:
            bad += 1
    if sorted(os_card(s * 16 + r) for s in range(4) for r in range(2, 15)) != list(range(52)):
        bad += 1
    return bad


def random_hand(rng: random.Random, k: int, dense: bool = False) -> list[int]:
    """``k`` distinct simkit codes; ``dense``: from a 6-rank window of all suits (many melds;
    windows include A-2-3... and ...Q-K-A to exercise ace-low)."""
    if dense:
        lo = rng.randrange(1, 9)  # low ranks lo..lo+5, 1 = ace
        ranks = [14 if r == 1 else r for r in range(lo, lo + 6)]
        if rng.random() < 0.3:
            ranks = [10, 11, 12, 13, 14, 2]  # Q-K-A-2 wrap must not be a run
        pool = [s * 16 + r for s in range(4) for r in ranks]
    else:
        pool = [s * 16 + r for s in range(4) for r in range(2, 15)]
    return rng.sample(pool, k)


def deadwood_comparisons(n: int, seed: int) -> dict:
    """Compare the open-spiel deadwood functions with the brute force on random hands: ``n``
    uniform 10-card hands, ``n`` uniform 11-card hands and ``n`` dense 11-card hands."""
    rng = random.Random(seed)
    res = {"n10": 0, "bad10": 0, "n11": 0, "bad11_raw": 0, "bad11_after_discard": 0,
           "os11_above_true": 0, "os11_below_true": 0, "first_os11_above_true": None}
    for kind in ("u10", "u11", "d11"):
        for _ in range(n):
            if kind == "u10":
                h = random_hand(rng, 10)
                res["n10"] += 1
                bf = brute_deadwood(h)
                res["bad10"] += (min_deadwood(h) != bf) + (min_deadwood_raw(h) != bf)
                continue
            h = random_hand(rng, 11, dense=(kind == "d11"))
            res["n11"] += 1
            raw, after = brute_deadwood(h), brute_deadwood_after_discard(h)
            res["bad11_raw"] += min_deadwood_raw(h) != raw
            res["bad11_after_discard"] += min_deadwood_after_discard(h) != after
            os11 = min_deadwood(h)
            if os11 > after:
                res["os11_above_true"] += 1
                if res["first_os11_above_true"] is None:
                    res["first_os11_above_true"] = {
                        "hand": " ".join(simkit_card_text(c) for c in h), "os": os11, "true": after}
            elif os11 < after:
                res["os11_below_true"] += 1
    return res


def confirm_rules() -> dict:
    """Play rigged deals to confirm the scoring and phase rules from the game itself."""
    game = load_game()
    params = game.get_parameters()
    u = _utils()

    def deal(p0: str, p1: str, up: str):
        s = game.new_initial_state()
        for t in (p0 + " " + p1 + " " + up).split():
            s.apply_action(u.card_int(t))
        return s

    def finish(s):
        bots = [_pyspiel().make_simple_gin_rummy_bot(params, p) for p in range(2)]
        while not s.is_terminal():
            if s.is_chance_node():
                s.apply_action(s.chance_outcomes()[0][0])
            else:
                s.apply_action(bots[s.current_player()].step(s))
        return s

    p0 = "As 2s 3s 4c 4d 4h 7c 8c 9c 5d"  # deadwood 5; takes Kh, knocks, discards Kh
    out = {}
    for name, last, expect in (("tie", "5s", 0.0), ("undercut", "4s", -26.0), ("win", "6s", 1.0)):
        s = finish(deal(p0, "Qc Qd Qh 9d Td Jd 5h 6h 7h " + last, "Kh"))
        out[f"{name}_returns_p0"] = s.returns()[0]
        out[f"{name}_ok"] = s.returns()[0] == expect
    # the defender (simple bot) never lays off: 4s would go on As2s3s
    s = finish(deal(p0, "Qc Qd Qh 9d Td Jd 5h 6h 7h 4s", "Kh"))
    out["bot_never_lays_off"] = list(s.layoffs()) == [] and s.deadwood()[1] == 4
    # first-upcard phase: P0 [take, pass]; P1 [take, pass]; both passed: P0 must draw stock
    s = deal("As 2s 3s 4s 5s 6s 7s 8s 9s Ts", "Ac 2c 3c 4c 5c 6c 7c 8c 9c Tc", "Kd")
    seq = [(s.current_player(), list(s.legal_actions()))]
    s.apply_action(PASS)
    seq.append((s.current_player(), list(s.legal_actions())))
    s.apply_action(PASS)
    seq.append((s.current_player(), list(s.legal_actions())))
    out["first_upcard_ok"] = seq == [(0, [DRAW_UPCARD, PASS]), (1, [DRAW_UPCARD, PASS]), (0, [DRAW_STOCK])]
    out["stock_after_deal"] = s.stock_size()
    # the wall: play stock draws with non-knocking discards until the stock has 2 cards
    s = deal("As 3s 5s 7s 9s Js Ks 2c 4c 6c", "8c Tc Qc Ad 3d 5d 7d 9d Jd Kd", "2h")
    s.apply_action(PASS)
    s.apply_action(PASS)
    s.apply_action(DRAW_STOCK)
    stock_draws = 1
    rng = random.Random(3)
    while s.current_phase() != _pyspiel().gin_rummy.Phase.WALL and not s.is_terminal():
        if s.is_chance_node():
            s.apply_action(s.chance_outcomes()[0][0])
        elif s.current_phase() == _pyspiel().gin_rummy.Phase.DRAW:
            s.apply_action(DRAW_STOCK)
            stock_draws += 1
        else:  # discard the highest card that keeps a no-knock, avoid KNOCK
            legal = [a for a in s.legal_actions() if a < 52]
            s.apply_action(legal[rng.randrange(len(legal))])
    out["wall_stock_size"] = s.stock_size()
    out["stock_draws_before_wall"] = stock_draws
    out["wall_legal"] = list(s.legal_actions())
    s.apply_action(PASS)
    out["wall_pass_ends_hand"] = s.is_terminal() and s.returns() == [0.0, 0.0]
    # the 11-card examples, and the refused knock in the game itself
    out["os11_examples_ok"] = all(
        (min_deadwood(parse_cards(t)), min_deadwood_after_discard(parse_cards(t)),
         brute_deadwood_after_discard(parse_cards(t))) == (o, tr, tr)
        for t, o, tr in (OS_11_TIE_EXAMPLE, OS_11_NONMAX_EXAMPLE, OS_11_REFUSED_KNOCK_EXAMPLE))
    cards = OS_11_REFUSED_KNOCK_EXAMPLE[0].split()
    s = deal(" ".join(cards[:10]), "Kc Kd Kh Ks Qc Qd Qh Qs Jc Jd", cards[10])
    s.apply_action(DRAW_UPCARD)
    out["os_refuses_legal_knock"] = (s.current_phase() == _pyspiel().gin_rummy.Phase.DISCARD
                                     and KNOCK not in s.legal_actions())
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("-n", type=int, default=500, help="hands per measurement")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--check", type=int, default=1000, help="random hands per deadwood comparison")
    ap.add_argument("--python-loop", action="store_true", help="also time the Python-driven loops")
    ap.add_argument("--json", default=None)
    a = ap.parse_args(argv)
    report: dict = {"pyspiel_version": getattr(_pyspiel(), "__version__", "?")}

    report["numbering_mismatches"] = check_numbering()
    print(f"card numbering: {report['numbering_mismatches']} mismatches over 52 cards "
          "(open-spiel i = scdh_suit*13 + rank, ace 0)")
    report["rules"] = confirm_rules()
    print("rules confirmed by rigged deals:", report["rules"])

    t = time.perf_counter()
    dc = deadwood_comparisons(a.check, a.seed)
    report["deadwood"] = dc
    print(f"deadwood vs brute force ({time.perf_counter() - t:.1f}s): {dc}")

    st = simple_bot_stats(a.n, a.seed)
    report["simple_bot_stats"] = st
    print(f"\nsimple bot vs simple bot, {st['n_hands']} hands (seed {a.seed}, {st['loop']} loop):")
    for k in ("draws", "stock", "upcard", "first_upcard"):
        print(f"  {k:26s} {st[k + '_mean']:8.3f} +- {st[k + '_se']:.3f}")
    for k in ("gin", "knock", "knock_win", "tie", "undercut", "dead", "wall_knock"):
        print(f"  {k + '_rate':26s} {st[k + '_rate']:8.4f} +- {st[k + '_rate_se']:.4f}")
    print(f"  dead by cause              wall {st['dead_wall_rate']:.4f}  repeat "
          f"{st['dead_repeat_rate']:.4f}  upcard_limit {st['dead_upcard_limit_rate']:.4f}")
    for k in ("winner_points", "winner_points_melded", "points_per_hand", "gin_points",
              "gin_points_melded", "p0_return", "knocker_deadwood"):
        se = st.get(k + "_se")
        print(f"  {k + '_mean':26s} {st[k + '_mean']:8.3f} +- {se:.3f}")
    print(f"  p0_knock_share             {st['p0_knock_share']:8.4f}")
    print(f"  defender_unmelded_rate     {st['defender_unmelded_rate']:8.4f}")
    print(f"  wall {st['wall_s']:.2f}s  -> {st['hands_per_second']:.0f} hands/s")

    report["speed"] = {
        "random_cpp": random_play_hands_per_second(a.n, a.seed, "cpp"),
        "simple_bot_cpp": simple_bot_hands_per_second(a.n, a.seed, "cpp"),
    }
    if a.python_loop:
        report["speed"]["random_python"] = random_play_hands_per_second(a.n, a.seed, "python")
        report["speed"]["simple_bot_python"] = simple_bot_hands_per_second(a.n, a.seed, "python")
    print("\nopen-spiel loop speed (hands/s):")
    for k, v in report["speed"].items():
        print(f"  {k:18s} {v['hands_per_second']:8.0f}  ({v['moves_per_hand']:.1f} moves/hand "
              f"incl. chance, {v['moves_per_second']:.0f} moves/s, {v['n_hands']} hands "
              f"in {v['wall_s']:.2f}s)")

    ok = (report["numbering_mismatches"] == 0 and dc["bad10"] == 0 and dc["bad11_raw"] == 0
          and dc["bad11_after_discard"] == 0 and dc["os11_below_true"] == 0
          and all(v for v in report["rules"].values() if isinstance(v, bool))
          and (report["rules"]["stock_after_deal"], report["rules"]["stock_draws_before_wall"],
               report["rules"]["wall_stock_size"]) == (31, 29, 2))
    report["ok"] = ok
    print("\nOK" if ok else "\nFAILED")
    if a.json:
        with open(a.json, "w") as f:
            json.dump(report, f, indent=1, default=str)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
