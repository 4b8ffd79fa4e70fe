"""Writes notebooks/strategy_analysis.ipynb (run: python notebooks/make_strategy_analysis.py).

Generated so that its code stays reviewable as plain Python; SIMKIT_NB_N sets the deals per
configuration (CI runs it small)."""
import nbformat as nbf

#: what tests/test_notebooks.py checks when it runs the notebook with SIMKIT_NB_N=size: the
#: phrases its output prints and at least this many images
CHECK = {"size": "2e4", "images": 9, "phrases": [
    "the bank's minimax stop: simulation", "the best knock threshold against simple is knock <=",
    "match odds to 100 by knock threshold:", "tournament ratings:", "mixed equilibrium"]}

cells = []
md = lambda s: cells.append(nbf.v4.new_markdown_cell(s.strip()))  # noqa: E731
code = lambda s: cells.append(nbf.v4.new_code_cell(s.strip()))  # noqa: E731

md("""
# Strategy analysis with simkit: solve, best, odds, compare, tournament

The analysis layer answers strategy questions for every game with no game-specific code. Every
configuration plays the same deals, so differences are paired; every number has an interval.

1. **Очко**: the bank's best stop against a player who answers it with his best threshold, as a
   matrix game (simulation and exact analysis side by side).
2. **Gin**: the best knock threshold against `simple`, found by racing, and what it is worth in
   games to 100 (match odds).
3. **Hearts**: a tournament of its strategies, with a cross table and ratings.
""")
code("""
import os
import simkit
from simkit.plots import analysis as aplots

N = int(float(os.environ.get("SIMKIT_NB_N", "1e6")))   # deals per configuration
SEED = 2026
print(f"simkit {simkit.__version__}; n = {N:,} deals per configuration")
""")
md("""
## 1. Очко: the bank's stop against a best-responding player

Rows: the banker's threshold `banker_stop` (he draws below it); columns: the player's
`stand_at(t)`. The row payoff is the bank's edge (minus the player's `p1_result`). The bank's *pure
minimax* is the stop whose edge is largest when the player answers it with his best threshold;
the *mixed equilibrium* lets both sides randomise.
""")
code("""
sim = simkit.solve("ochko", "banker_stop=14..20", "p1.t=12..20", n=N, seed=SEED, workers=2,
                   progress=False)
for line in sim.summary:
    print(line)
""")
code("""
aplots.matrix(sim)
""")
code("""
aplots.best_replies(sim)
""")
md("""
The same matrix from the exact analysis (recursion over the deck, no sampling). The simulated
equilibrium value should agree with the exact one within its bootstrap error.
""")
code("""
ex = simkit.solve("ochko", "banker_stop=14..20", "p1.t=12..20", exact=True)
for line in ex.summary:
    print(line)
gap = sim.info["value"] - ex.info["value"]
print(f"the bank's minimax stop: simulation {sim.info['minimax_row']}, exact {ex.info['minimax_row']}; "
      f"equilibrium value gap {gap:+.5f} = {gap / sim.info['value_se']:+.1f} bootstrap SE")
""")
md("""
The player's side alone: his best `stand_at` against the default banker (17), by racing (the
points clearly worse are dropped early; the deals go to the rest).
""")
code("""
race = simkit.best("ochko", ["p1.t=12..20"], n=4 * N, seed=SEED, workers=2, progress=False)
for line in race.summary:
    print(line)
aplots.racing(race)
""")
md("""
## 2. Gin: the knock threshold, and what it is worth in a game to 100

`threshold(knock=t)` in seat p1 against `simple` in p2, seats swapped on every deal (`swap`), the
metric p1's points per hand net of p2's.
""")
code("""
NG = max(2_000, N // 50)
knock = simkit.best("gin", ["p1.knock=0..10"], strategies=["p2=simple"], n=NG, seed=SEED,
                    workers=2, progress=False)
for line in knock.summary:
    print(line)
print(f"the best knock threshold against simple is knock <= {knock.info['best']['p1.knock']}")
aplots.racing(knock)
""")
code("""
match = simkit.odds("gin", ["p1.knock=0..10:2"], strategies=["p2=simple"], n=max(500, N // 500),
                    seed=SEED, workers=2, progress=False)
for line in match.summary:
    print(line)
print("match odds to 100 by knock threshold:",
      ", ".join(f"{r['p1.knock']}: {r['mean']:.3f}" for _, r in match.table().iterrows()))
aplots.odds(match)
""")
md("""
Head to head: is `threshold(10)` (take the upcard only to meld) better than `simple`? `compare`
keeps adding deals until the sign of the points difference is settled at 95% over all its looks.
""")
code("""
h2h = simkit.compare("gin", "threshold(10)", "simple", n=max(20_000, N // 10), seed=SEED,
                     until_resolved=True, workers=2, progress=False)
for line in h2h.summary:
    print(line)
aplots.differences(h2h)
""")
md("""
## 3. Hearts: a tournament of its strategies

Every pair plays each strategy alone in every seat against three of the other, both ways round,
on the same deals. The cross table is the row strategy's advantage: the column's points per hand
minus the row's (lower is better in Hearts, so a positive cell favours the row, as a higher
rating does). A rating order that a resolved head-to-head result contradicts is flagged.
""")
code("""
tour = simkit.tournament("hearts", ["random", "heuristic", "moon", "moon(threshold=18)"],
                         n=max(2_000, N // 50), seed=SEED, workers=2, progress=False)
for line in tour.summary:
    print(line)
print("tournament ratings:", ", ".join(f"{s} {m:+.2f}" for s, m in zip(tour.table().strategy,
                                                                       tour.table()["mean"])))
""")
code("""
aplots.cross_table(tour)
""")
code("""
aplots.ratings(tour)
""")
md("""
Games to 100 rate the same strategies by whole-game wins (Bradley-Terry on the Elo scale):
""")
code("""
games = simkit.tournament("hearts(unit=game)", ["random", "heuristic", "moon"],
                          n=max(300, N // 500), seed=SEED, workers=2, progress=False)
for line in games.summary:
    print(line)
aplots.ratings(games)
""")

nb = nbf.v4.new_notebook(cells=cells, metadata={"kernelspec": {"name": "python3",
                                                               "display_name": "Python 3"}})
nbf.write(nb, __file__.replace("make_", "").replace(".py", ".ipynb"))
