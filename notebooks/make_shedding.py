"""Writes notebooks/shedding.ipynb (run: python notebooks/make_shedding.py).

Generated so that its code stays reviewable as plain Python; SIMKIT_NB_N sets the deals per
configuration (CI runs it small)."""
import nbformat as nbf

#: what tests/test_notebooks.py checks when it runs the notebook with SIMKIT_NB_N=size: the
#: phrases its output prints and at least this many images
CHECK = {"size": "2e3", "images": 1, "phrases": [
    "first player's edge in crazy eights", "best baseline parameters",
    "two players, exact loser shares", "the best hint against random is",
    "mean draws per game by players"]}

cells = []
md = lambda s: cells.append(nbf.v4.new_markdown_cell(s.strip()))  # noqa: E731
code = lambda s: cells.append(nbf.v4.new_code_cell(s.strip()))  # noqa: E731

md("""
# Shedding games: Crazy Eights, Fan-Tan and Old Maid

Three games of "get rid of your cards in turn", on one shedding engine
(`simkit/engines/shedding.py`): Crazy Eights (`003_25b072003b534ab4.txt` lines 105-120), Fan-Tan
(lines 121-134) and Old Maid, «Ведьма» (`002_17c4cc3dde05b547.txt` lines 111-114). Every number
has a 95% interval; comparisons of strategies are paired on the same deals with the seats
rotated (`simkit compare`).
""")
code("""
import os
import numpy as np
import pandas as pd
import simkit
from simkit import plots
from simkit.analysis.headtohead import compare

N = int(float(os.environ.get("SIMKIT_NB_N", "1e5")))   # deals per configuration
SEED = 2026
print(f"simkit {simkit.__version__}; n = {N:,} deals per configuration")


def seat_table(game, stem, players, **kw):
    rows = []
    for k in players:
        est = simkit.run(f"{game}(players={k})", n=N, seed=SEED, progress=False, **kw).estimates()
        for s in range(1, k + 1):
            e = est[f"p{s}_{stem}"]
            rows.append({"players": k, "seat": s, "mean": e["mean"], "ci_low": e["ci_low"],
                         "ci_high": e["ci_high"], "edge": e["mean"] - 1 / k})
    return pd.DataFrame(rows)
""")
md("""
## 1. Seat edge for every player count

The share of games each seat wins (Crazy Eights: goes out or holds the lowest hand of a blocked
deal; Fan-Tan: first out) or loses (Old Maid), minus the fair share `1 / players`, with the
default strategies (Crazy Eights `baseline`, Fan-Tan `extend`).
""")
code("""
c8 = seat_table("crazy_eights", "win", range(2, 8))
ft = seat_table("fan_tan", "win", range(3, 9))
om = seat_table("old_maid", "lose", range(2, 9))
for name, t in (("crazy_eights win", c8), ("fan_tan win", ft), ("old_maid lose", om)):
    print(name)
    print(t.pivot_table(index="players", columns="seat", values="edge").round(3).to_string())
""")
code("""
ci = c8.assign(half=(c8.ci_high - c8.ci_low) / 2)
print("largest 95% half-width of a seat share, crazy eights:", round(ci.half.max(), 4))
print("first player's edge in crazy eights by player count:",
      dict(zip(c8[c8.seat == 1].players, c8[c8.seat == 1].edge.round(3))))
""")
md("""
## 2. Crazy Eights: the baseline's parameters

Two players: `baseline(eight_at, call)` in p1 against the default `baseline` in p2, over the
eight-holding threshold (play an eight rather than draw at or below that many cards) and the
suit-calling rule (0 longest suit, 1 a suit the opponent lacks, 2 the eight's own suit).
`p1_points` is p1's points per deal (its mean minus p2's is the edge).
""")
code("""
sw = simkit.sweep("crazy_eights", ["p1.eight_at=0,1,2,3,5,8", "p1.call=0,1,2"], n=N, seed=SEED,
                  progress=False).table()
sw["p1.call"] = sw["p1.call"].astype(str)
plots.metric_lines(sw, "p1_win", x="p1.eight_at", hue="p1.call")
""")
code("""
w = sw[sw.metric == "p1_win"].pivot_table(index="p1.eight_at", columns="p1.call", values="mean")
best = w.stack().idxmax()
print(f"best baseline parameters against baseline: eight_at={best[0]}, call={best[1]} "
      f"(p1 wins {w.stack().max():.3f})")
w.round(3)
""")
md("""
## 3. Crazy Eights: what each optional rule does

Four players, baseline everywhere: cards played and drawn per deal, blocked deals, and the
first player's edge, under each optional rule of lines 113-116 alone and all of 113-115.
""")
code("""
variants = {"text": "", "queen_spades": "queen_spades=true", "twos=stack": "twos=stack",
            "twos=literal": "twos=literal", "jacks": "jacks=true", "draw_one": "draw_one=true",
            "113-115": "queen_spades=true,twos=stack,jacks=true"}
rows = []
for name, opt in variants.items():
    game = "crazy_eights(players=4" + ("," + opt if opt else "") + ")"
    est = simkit.run(game, n=N, seed=SEED, progress=False).estimates()
    rows.append({"rules": name, "plays": est["plays"]["mean"], "draws": est["draws"]["mean"],
                 "blocked": est["blocked"]["mean"], "p1_edge": est["p1_win"]["mean"] - 0.25,
                 "p1_edge_half": (est["p1_win"]["ci_high"] - est["p1_win"]["ci_low"]) / 2})
opt_table = pd.DataFrame(rows).set_index("rules")
opt_table.round(3)
""")
md("""
## 4. Crazy Eights: the two-player game to 100

The baseline against random, paired with seats swapped: per deal (points) and per game to 100
(`unit=game`, the win rate).
""")
code("""
per_deal = compare("crazy_eights", "baseline", "random", n=N, seed=SEED, progress=False).table()
per_game = compare("crazy_eights(unit=game)", "baseline", "random", n=max(2000, N // 10),
                   seed=SEED, progress=False).table()
pd.concat([per_deal[per_deal.kind == "seat"].assign(unit="deal"),
           per_game[per_game.kind == "seat"].assign(unit="game")])[
    ["unit", "metric", "a_mean", "b_mean", "mean", "ci_low", "ci_high"]].round(3)
""")
md("""
## 5. Fan-Tan: chips by strategy and seat, and each hint's value

Four players. Each strategy in one seat, the others playing the default `extend`: its net chips per
game (antes, passes, cards left paid, the pool taken). Then each hint against random, paired on the
same deals over every seat.
""")
code("""
kinds = ["random", "sequence", "extend", "ends", "block"]
rows = []
for k in kinds:
    for seat in range(1, 5):
        e = simkit.run("fan_tan", n=N, seed=SEED, strategies=[f"p{seat}={k}"],
                       progress=False).estimates()[f"p{seat}_chips"]
        rows.append({"strategy": k, "seat": seat, "mean": e["mean"], "ci_low": e["ci_low"],
                     "ci_high": e["ci_high"]})
chips = pd.DataFrame(rows)
chips.pivot_table(index="strategy", columns="seat", values="mean").round(2)
""")
code("""
hints = []
for k in ["sequence", "extend", "ends", "block"]:
    t = compare("fan_tan", k, "random", n=N, seed=SEED, progress=False).table()
    r = t[(t.kind == "seat") & (t.metric == "chips")].iloc[0]
    hints.append({"strategy": k, "chips_vs_random": r["mean"], "ci_low": r["ci_low"],
                  "ci_high": r["ci_high"]})
hint_table = pd.DataFrame(hints).set_index("strategy")
hint_table.round(3)
""")
md("""
## 6. Old Maid: who is left with the queen, and how long it takes

The loser's seat for 2 to 8 players under each convention: the default (the dealer's left draws
first, from his right-hand neighbour, the extra cards to the first seats), the dealer first, draws
from the left-hand neighbour, the extra cards to the last seats.
""")
code("""
conventions = {"default": "", "starter=dealer": "starter=dealer", "draw_from=left": "draw_from=left",
               "extra=last": "extra=last"}
rows = []
for name, opt in conventions.items():
    for k in range(2, 9):
        est = simkit.run(f"old_maid(players={k}" + ("," + opt if opt else "") + ")", n=N,
                         seed=SEED, progress=False).estimates()
        for s in range(1, k + 1):
            rows.append({"convention": name, "players": k, "seat": s,
                         "lose": est[f"p{s}_lose"]["mean"]})
loser = pd.DataFrame(rows)
loser.pivot_table(index=["convention", "players"], columns="seat", values="lose").round(3)
""")
code("""
from simkit.games.old_maid import exact
lose2, _ = exact.two_player(26, 0)
sim2 = loser[(loser.convention == "default") & (loser.players == 2)].lose.tolist()
print(f"two players, exact loser shares {lose2.round(4).tolist()}, simulated {np.round(sim2, 4).tolist()}")
dr = []
for k in range(2, 9):
    d = simkit.run(f"old_maid(players={k})", n=min(N, 100_000), seed=SEED, rows=True,
                   progress=False).rows["draws"]
    dr.append({"players": k, "mean": d.mean(), "p10": d.quantile(.1), "median": d.median(),
               "p90": d.quantile(.9), "max": d.max()})
draws = pd.DataFrame(dr).set_index("players")
draws.round(2)
""")
md("""
## 7. What the numbers say
""")
code("""
print("crazy eights, two players: p1 (first to play) wins", round(c8[(c8.players == 2) & (c8.seat == 1)]["mean"].iloc[0], 3))
print("fan-tan: the best hint against random is", hint_table.chips_vs_random.idxmax(),
      f"({hint_table.chips_vs_random.max():+.2f} chips per game)")
worst = loser[loser.convention == "default"].sort_values("lose").groupby("players").tail(1)
print("old maid: the seat most often left with the queen:",
      dict(zip(worst.players, worst.seat)))
print("old maid: mean draws per game by players:", draws["mean"].round(1).to_dict())
""")

nb = nbf.v4.new_notebook()
nb["cells"] = cells
nb["metadata"]["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
nbf.write(nb, __file__.replace("make_shedding.py", "shedding.ipynb"))
