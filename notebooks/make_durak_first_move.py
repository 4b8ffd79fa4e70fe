"""Writes notebooks/durak_first_move.ipynb (run: python notebooks/make_durak_first_move.py).

Generated so that its code stays reviewable as plain Python; SIMKIT_NB_N sets the games per
configuration (CI runs it small)."""
import nbformat as nbf

#: what tests/test_notebooks.py checks when it runs the notebook with SIMKIT_NB_N=size: the
#: phrases its output prints and at least this many images
CHECK = {"size": "4e3", "images": 0, "phrases": [
    "short game: the lowest-trump holder wins", "the habit that matters most:",
    "the exact endgame changes p1's result in"]}

cells = []
md = lambda s: cells.append(nbf.v4.new_markdown_cell(s.strip()))  # noqa: E731
code = lambda s: cells.append(nbf.v4.new_code_cell(s.strip()))  # noqa: E731

md("""
# Durak for two: the first move, the baseline's heuristics, and the exact endgame

Rules: `shared/rules/001_4b506a693298ed3d.txt`, lines 120-197 (the readings are in
`simkit.games.durak.rules`). The holder of the lowest trump attacks first (line 174). How much is
that worth, in each form of the game? Which of a club player's habits (the `baseline` strategy)
matter? Every number has a 95% interval; every comparison is paired on the same deals (and the
same stock), with the seats swapped.
""")
code("""
import os
import numpy as np
import pandas as pd
import simkit

N = int(float(os.environ.get("SIMKIT_NB_N", "1e5")))   # games per configuration
NM = max(200, N // 20)                                 # matches per configuration
NX = max(200, N // 50)                                 # games with the exact endgame (slow)
SEED = 2026
print(f"simkit {simkit.__version__}; n = {N:,} games, {NM:,} matches, {NX:,} exact games")
""")
md("""
## 1. The first-move edge in each form

The baseline on both seats. `opener_win` / `opener_lose`: the first attacker of the (first) game
wins / is the durak; for the long forms, of the whole match (`unit=match`).
""")
code("""
rows = []
for form in ["short", "super_short", "long3", "long5", "long7"]:
    unit = "match" if form.startswith("long") else "game"
    n = NM if unit == "match" else N
    est = simkit.run(f"durak(form={form},unit={unit})", n=n, seed=SEED, progress=False).estimates()
    for m in ["opener_win", "draw", "opener_lose"]:
        rows.append({"form": form, "n": n, "metric": m, "mean": est[m]["mean"],
                     "ci_low": est[m]["ci_low"], "ci_high": est[m]["ci_high"]})
edge = pd.DataFrame(rows)
edge.pivot_table(index="form", columns="metric", values=["mean", "ci_low", "ci_high"]).round(4)
""")
md("""
## 2. Ablation: each heuristic of the baseline switched off in turn

`simkit.compare` plays the baseline against a copy with one habit switched off, on the same
deals, both seatings. The table is the ablated player's durak rate minus the baseline's
(positive: the habit helps).
""")
code("""
ablations = {
    "attack with a random card": "baseline(attack_low=0)",
    "beat with a random beating card": "baseline(beat_low=0)",
    "spend trumps freely": "baseline(trump_stock=24,max_trump=14)",
    "never take by choice": "baseline(take_cost=17)",
    "throw in nothing above the J while the stock lasts": "baseline(throw_rank=11)",
    "throw in no trump once the stock is empty": "baseline(late_trump=5)",
    "never throw in": "baseline(throw_max=0)",
    "no double attacks": "baseline(double=-1)",
}
rows = []
for what, s in ablations.items():
    t = simkit.compare("durak", s, "baseline", n=N, seed=SEED, progress=False).table()
    r = t[t.metric == "lose"].iloc[0]
    rows.append({"switched off": what, "lose(ablated) - lose(baseline)": r["diff"],
                 "ci_low": r["diff_low"], "ci_high": r["diff_high"]})
ablation = pd.DataFrame(rows).set_index("switched off")
ablation.round(4)
""")
md("""
## 3. Sweeps of each parameter against the baseline

`simkit.best` plays p1 over each grid against the baseline in p2 (same deals for every grid
point) and marks the best value, with the values still in contention.
""")
code("""
grids = {"trump_stock": [0, 4, 8, 12, 16, 24], "max_trump": [9, 11, 12, 13, 14],
         "take_cost": [6, 9, 12, 15, 17], "throw_rank": [8, 10, 11, 12, 14],
         "throw_max": [0, 1, 2, 4, 6], "double": [-1, 0, 3, 6]}
sweeps = {}
for p, values in grids.items():
    b = simkit.best("durak", {f"p1.{p}": values}, strategies=["p2=baseline"], n=N, seed=SEED,
                    progress=False).table()
    sweeps[p] = b[[f"p1.{p}", "mean", "ci_low", "ci_high", "best", "survivor"]]
    print(p, "best:", b.loc[b.best, f"p1.{p}"].tolist(), " p1_lose by value:",
          dict(zip(b[f"p1.{p}"], b["mean"].round(4))))
""")
md("""
## 4. Match-win probability against a parameter, to 3, 5 and 7 wins

Whole matches (`unit=match`) of p1 over a grid of `take_cost` against the baseline.
""")
code("""
rows = []
for form in ["long3", "long5", "long7"]:
    t = simkit.sweep(f"durak(form={form},unit=match)", {"p1.take_cost": [6, 12, 17]}, n=NM,
                     seed=SEED, strategies=["p2=baseline"], progress=False).table()
    t = t[t.metric == "p1_win"]
    for _, r in t.iterrows():
        rows.append({"form": form, "take_cost": r["p1.take_cost"], "p1 wins the match": r["mean"],
                     "ci_low": r["ci_low"], "ci_high": r["ci_high"]})
match_win = pd.DataFrame(rows)
match_win.pivot_table(index="take_cost", columns="form", values="p1 wins the match").round(4)
""")
md("""
## 5. The trump card's rank

Per-game rows: the opener's result by the rank of the turned trump (6..14). A low trump card
under the stock means the high trumps are in play.
""")
code("""
res = simkit.run("durak", n=N, seed=SEED, rows=True, progress=False)
g = res.rows.groupby("trump_rank")
tr = pd.DataFrame({"games": g.size(), "opener_win": g.opener_win.mean(),
                   "opener_lose": g.opener_lose.mean(), "draw": g.draw.mean()})
tr["edge"] = tr.opener_win - tr.opener_lose
tr["edge_se"] = np.sqrt((tr.opener_win + tr.opener_lose - tr.edge ** 2) / tr.games)
tr.round(4)
""")
md("""
## 6. How often the exact endgame changes a baseline player's result

p1 plays `exact` (the baseline until the stock is empty, then minimax over the two known hands
once at most 8 cards are in play) or the baseline, against the baseline, on the same deals: the
share of games whose result for p1 changes, and in which direction.
""")
code("""
a = simkit.run("durak", n=NX, seed=SEED, rows=True, strategies=["p1=exact"], progress=False).rows
b = simkit.run("durak", n=NX, seed=SEED, rows=True, progress=False).rows
score = lambda r: r.p1_win - r.p1_lose   # noqa: E731
changed = (score(a) != score(b))
better = (score(a) > score(b))
worse = (score(a) < score(b))
se = lambda p: np.sqrt(p * (1 - p) / NX)  # noqa: E731
print(f"the exact endgame changes p1's result in {changed.mean():.4f} (se {se(changed.mean()):.4f}) "
      f"of games: better {better.mean():.4f}, worse {worse.mean():.4f}; reached an endgame: "
      f"{b.endgames.mean():.4f}")
""")
md("""
## 7. What the numbers say
""")
code("""
short = edge[edge.form == "short"].set_index("metric")["mean"]
print(f"short game: the lowest-trump holder wins {short['opener_win']:.4f}, draws {short['draw']:.4f}, "
      f"loses {short['opener_lose']:.4f}")
top = ablation["lose(ablated) - lose(baseline)"].idxmax()
print(f"the habit that matters most: {top} "
      f"({ablation.loc[top, 'lose(ablated) - lose(baseline)']:+.4f} durak rate when switched off)")
""")

nb = nbf.v4.new_notebook()
nb["cells"] = cells
nb["metadata"]["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
nbf.write(nb, __file__.replace("make_durak_first_move.py", "durak_first_move.ipynb"))
