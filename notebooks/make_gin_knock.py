"""Writes notebooks/gin_knock.ipynb (run: python notebooks/make_gin_knock.py).

Generated so that its code stays reviewable as plain Python; SIMKIT_NB_N sets the deals per
configuration (CI runs it small)."""
import nbformat as nbf

#: what tests/test_notebooks.py checks when it runs the notebook with SIMKIT_NB_N=size: the
#: phrases its output prints and at least this many images
CHECK = {"size": "4e3", "images": 4, "phrases": [
    "the best threshold is knock <=", "best replies in the matrix"]}

cells = []
md = lambda s: cells.append(nbf.v4.new_markdown_cell(s.strip()))  # noqa: E731
code = lambda s: cells.append(nbf.v4.new_code_cell(s.strip()))  # noqa: E731

md("""
# Gin rummy: at what deadwood should you knock?

The rule text (`shared/rules/003_25b072003b534ab4.txt`, line 10) lets a player knock with 10 or
less deadwood; its strategy section (lines 43-48) advises knocking "at the first opportunity,
except in the rare cases when an undercut is feared", and holding out for gin only in special
situations. We test that advice with simulation: every number has a 95% interval, every
comparison is on the same deals with the seats swapped (each strategy plays each hand once as
dealer and once as non-dealer).

Two rule sets: `ru1992` (the text: equal deadwood is an undercut) and `gra` (the rules open-spiel's
gin_rummy plays: equal deadwood scores nothing, and the card just taken may be thrown back).
`threshold(knock=t)` takes from the pile only a card that joins a meld or lets it knock at once
(the text's advice, line 44), throws the highest unmatched card, and knocks only at deadwood
`<= t`; `t = 0` waits for gin. `threshold(10)` is the game's default player. `simple` is
`threshold(10, greedy=1)`: it also takes a low card to replace a higher unmatched one, and loses
about 0.9 points per hand to `threshold(10)` for it.
""")
code("""
import os
import pandas as pd
import simkit
from simkit import plots
from simkit.analysis.studies import gin_knock as study

N = int(float(os.environ.get("SIMKIT_NB_N", "2e5")))   # deals (pairs of hands) per configuration
NM = max(2_000, N // 4)                                # deals of the 11 x 11 matrix
SEED = 2026
print(f"simkit {simkit.__version__}; n = {N:,} deals per configuration, matrix {NM:,}")
""")
md("""
## 1. Knock thresholds against a player who knocks at once

`threshold(t)` in seat p1 against `threshold(10)` in p2 (the same player, knocking at once), for
t = 0..10, under both rule sets. `p1_points` is p1's points minus p2's per hand (0 at t = 10).
""")
code("""
vs_once = pd.concat([study.against("threshold(10)", rules, n=N, seed=SEED, progress=False).table()
                       for rules in ("gin(preset=ru1992)", "gin(preset=gra)")])
cols = ["rules", "p1.knock", "metric", "mean", "ci_low", "ci_high"]
wide = vs_once.pivot_table(index=["rules", "p1.knock"], columns="metric", values="mean")
wide[["p1_points", "p1_win", "p1_gin", "p1_knock", "p1_undercut", "p2_undercut", "turns"]].round(3)
""")
code("""
plots.metric_lines(vs_once, "p1_points", x="p1.knock", hue="rules")
""")
code("""
plots.metric_lines(vs_once, "p2_undercut", x="p1.knock", hue="rules")
""")
md("""
## 2. Whole games to 100 (boxes, game bonus, shutouts)

The same thresholds over whole games of the text's scoring (`unit=match`): the probability that
p1 wins the game and p1's net result per game.
""")
code("""
games = study.against("threshold(10)", "gin(unit=match)", n=max(500, N // 20), seed=SEED, progress=False)
gt = games.table()
gw = gt.pivot_table(index="p1.knock", columns="metric", values="mean")
gw[["p1_match_win", "p1_match_net", "p1_points", "hands"]].round(3)
""")
code("""
plots.metric_lines(gt, "p1_match_win", x="p1.knock")
""")
md("""
## 3. Every threshold against every threshold, and the best reply

The matrix of `p1_points` for p1's threshold (across) against p2's (up), and for each p2
threshold the p1 threshold that scores most, with the runner-up and the margin between them.
""")
code("""
mat = study.matrix("gin", n=NM, seed=SEED, progress=False)
plots.heatmap(mat.table(), "p1_points", x="p1.knock", y="p2.knock", annotate=NM >= 20_000)
""")
code("""
br = study.best_replies(mat)
br.round(3)
""")
md("""
## 4. The text's advice, strategy by strategy

Knock at once (`threshold(10)`, and `simple`, which also takes low cards from the pile), wait for
gin (`threshold(0)`), a threshold that falls as the stock runs down (`schedule(10,0)`),
undercut-aware knocking (`careful`: once the opponent has taken two cards from the pile, knock
only at 3 or less), the discard tracker (`tracker`: throws the "dead" cards the text
recommends), and a knocker who lays down the arrangement that blocks layoffs when that scores
more (`threshold(10,0,1)`: `block=1`). Each against four opponents.
""")
code("""
players = ["threshold(10)", "simple", "threshold(10,0,1)", "threshold(0)", "threshold(5)",
           "schedule(10,0)", "careful(10,2,3)", "tracker(10,2)"]
opponents = ["threshold(10)", "simple", "threshold(0)", "careful(10,2,3)"]
rows = []
for opp in opponents:
    for p in players:
        e = simkit.run("gin", n=N // 2, seed=SEED, strategies=[f"p1={p}", f"p2={opp}"],
                       progress=False).estimates()["p1_points"]
        rows.append({"p1": p, "p2": opp, "mean": e["mean"], "ci_low": e["ci_low"],
                     "ci_high": e["ci_high"]})
rr = pd.DataFrame(rows)
rr.pivot_table(index="p1", columns="p2", values="mean").round(3)
""")
md("""
## 5. What the numbers say
""")
code("""
best_vs_once = {r: int(wide.loc[r]["p1_points"].idxmax()) for r in wide.index.get_level_values(0).unique()}
for r, t in best_vs_once.items():
    print(f"{r}: against `threshold(10)`, the best threshold is knock <= {t} "
          f"({wide.loc[r]['p1_points'][t]:+.3f} points per hand)")
print("best replies in the matrix:", dict(zip(br["p2.knock"], br["best_p1.knock"])))
ms = gw["p1_match_win"]
print(f"games to 100 against threshold(10): best threshold {int(ms.idxmax())} wins {ms.max():.3f}, "
      f"knock at once wins {ms[10]:.3f}")
""")

nb = nbf.v4.new_notebook()
nb["cells"] = cells
nb["metadata"]["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
nbf.write(nb, __file__.replace("make_gin_knock.py", "gin_knock.ipynb"))
