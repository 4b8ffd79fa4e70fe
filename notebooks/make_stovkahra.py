"""Writes notebooks/stovkahra.ipynb (run: python notebooks/make_stovkahra.py).

Generated so that its code stays reviewable as plain Python; SIMKIT_NB_N sets the deals per
configuration (games and series are sized from it; CI runs it small).  Every conclusion is printed
from the numbers measured in the run, never typed in."""
import nbformat as nbf

#: what tests/test_notebooks.py checks when it runs the notebook with SIMKIT_NB_N=size: the
#: phrases its output prints and at least this many images
CHECK = {"size": "4e3", "images": 1, "phrases": [
    "seat edge: the eldest side scores", "the seven bonuses are worth", "a game pays two brčka in",
    "unshuffled dealing changes"]}

cells = []
md = lambda s: cells.append(nbf.v4.new_markdown_cell(s.strip()))  # noqa: E731
code = lambda s: cells.append(nbf.v4.new_code_cell(s.strip()))  # noqa: E731

md("""
# Stovkahra (Brčko): the seat edge, the sevens, the brčka, and dealing without shuffling

Rules: `shared/rules/000_e1e7c8054592a022.txt`, lines 180-222, a translation of pagat.com's
Stovkahra page (the card table, garbled in the text, is reconstructed from pagat.com: A 6, K 5,
Over 4, Under 3, the rest 0; the readings are in `simkit.games.stovkahra.rules`). Four players,
p1/p3 against p2/p4; p4 deals a game's first deal and p1 leads; the deal passes to the left.
Side results carry every seat's name (`p1_win` = `p3_win`: p1's side won). Every number has a
95% interval; comparisons on `unit=deal` are paired on the same deals.

1. the partnership seat edge: the eldest's side against the dealer's side;
2. what the seven bonuses (52 / 10 / 26, line 213) are worth to a side that saves its trump seven;
3. the brčka of a game and the length of a series;
4. what dealing from the gathered tricks, only cut (line 215), changes against shuffling.
""")
code("""
import math
import os

import matplotlib.pyplot as plt
plt.rcParams.update({"figure.constrained_layout.use": True, "font.size": 10})  # titles and labels inside the figure
import numpy as np
import pandas as pd

import simkit
from simkit.games import stovkahra as G

N = int(float(os.environ.get("SIMKIT_NB_N", "2e5")))   # deals per configuration
NG = max(500, N // 10)                                 # games per configuration
NS = max(100, N // 100)                                # series per configuration
SEED = 2026
print(f"simkit {simkit.__version__}; n = {N:,} deals, {NG:,} games, {NS:,} series per configuration")


def mean_ci(x):
    x = np.asarray(x, float)
    m, se = x.mean(), x.std(ddof=1) / math.sqrt(len(x))
    return m, se, f"{m:+.3f} [{m - 1.96 * se:+.3f}, {m + 1.96 * se:+.3f}]"


def rate(rows, num, den="deals"):
    \"\"\"sum(num) / sum(den) over units, with a delta-method standard error.\"\"\"
    a, b = rows[num].to_numpy(float), rows[den].to_numpy(float)
    r = a.sum() / b.sum()
    se = math.sqrt(((a - r * b) ** 2).sum()) / b.sum()
    return r, se
""")
md("""
## 1. The partnership seat edge

The eldest (p1, left of the dealer) leads the first trick and gets his first three cards face up
(line 215: meant to offset the eldest side's "advantage of playing first"); the dealer holds the
turned trump card. Per deal: the eldest side's points minus the dealer side's, same strategy on
all seats. Per game and series: the first dealer's opponents' (p1's side) chance to win.
""")
code("""
edge = []
for who, strats in [("baseline", None), ("random", [f"p{k}=random" for k in range(1, 5)])]:
    r = simkit.run("stovkahra", n=N, seed=SEED, strategies=strats, rows=True, progress=False).rows
    m, se, txt = mean_ci(r.p1_points - r.p2_points)
    c = mean_ci(r.p1_cards - r.p2_cards)
    edge.append({"strategies": who, "unit": "deal", "eldest side - dealer side (points)": txt,
                 "card points only": c[2], "mean": m, "se": se})
deal_edge = edge[0]["mean"]
games = {}
for unit, n in [("game", NG), ("series", NS)]:
    for rot in [True, False]:
        est = simkit.run(f"stovkahra(unit={unit},rotate={str(rot).lower()})", n=n, seed=SEED,
                         progress=False).estimates()
        games[(unit, rot)] = est["p1_win"]
        e = est["p1_win"]
        edge.append({"strategies": "baseline", "unit": f"{unit}, rotate={rot}",
                     "eldest side - dealer side (points)": f"p1 side wins {e['mean']:.4f} "
                     f"[{e['ci_low']:.4f}, {e['ci_high']:.4f}]"})
pd.DataFrame(edge).drop(columns=["mean", "se"]).fillna("")
""")
md("""
## 2. The value of the seven bonuses to a side that saves its sevens

`baseline` keeps the trump seven for the last trick (`save_last`) and trumps the first trick with
it when it heads the trick (`save_first`). A side playing that way (p1/p3) against the default
baseline, or a side that spends the seven like any trump (`save_last=0,save_first=0`); with the
bonuses of line 213 and without them (`seven_bonuses=false`). Paired on the same deals: the
saver's points per deal minus the spender's.
""")
code("""
spend = "baseline(save_last=0,save_first=0)"
res = {}
for bonuses in ["true", "false"]:
    for who, s in [("save", "baseline"), ("spend", spend)]:
        res[(bonuses, who)] = simkit.run(f"stovkahra(seven_bonuses={bonuses})", n=N, seed=SEED,
                                         strategies=[f"p1={s}", f"p3={s}"], rows=True,
                                         progress=False).rows
rows = []
for bonuses in ["true", "false"]:
    a, b = res[(bonuses, "save")], res[(bonuses, "spend")]
    m, se, txt = mean_ci((a.p1_points - a.p2_points) - (b.p1_points - b.p2_points))
    rows.append({"seven_bonuses": bonuses, "save - spend (side margin per deal)": txt,
                 "mean": m, "se": se,
                 "sevens won per deal (save)": (a.p1_seven_first + a.p1_seven_mid + a.p1_seven_last).mean(),
                 "sevens won per deal (spend)": (b.p1_seven_first + b.p1_seven_mid + b.p1_seven_last).mean(),
                 "52s per deal (save)": a.p1_seven_first.mean(), "26s per deal (save)": a.p1_seven_last.mean()})
sevens = pd.DataFrame(rows).set_index("seven_bonuses")
value = sevens.loc["true", "mean"] - sevens.loc["false", "mean"]
value_se = math.hypot(sevens.loc["true", "se"], sevens.loc["false", "se"])
print(f"saving sevens gains {sevens.loc['true', 'mean']:+.3f} points a deal with the bonuses, "
      f"{sevens.loc['false', 'mean']:+.3f} without: the bonuses are worth {value:+.3f} "
      f"(se {value_se:.3f}) points a deal to a side that saves sevens")
sevens.drop(columns=["mean", "se"]).round(4)
""")
code("""
win = {}
for who, s in [("save", "baseline"), ("spend", spend)]:
    win[who] = simkit.run("stovkahra(unit=game)", n=NG, seed=SEED, strategies=[f"p1={s}", f"p3={s}"],
                          progress=False).estimates()["p1_win"]
print("games won by p1's side: " + ", ".join(f"{k} {v['mean']:.4f} [{v['ci_low']:.4f}, {v['ci_high']:.4f}]"
                                            for k, v in win.items()))
""")
md("""
## 3. The brčka of a game, and a series to ten

A game is won by the first side to 100 (one brčko; two when the losers have under 50, or when the
other side said "dost" wrongly). The baseline says dost as soon as its side's points reach 100;
against it, a side that never says it (it wins only if the others do not reach 100 and say it
first, line 222) or says it 10 points early (and is sometimes wrong).
""")
code("""
g = simkit.run("stovkahra(unit=game)", n=NG, seed=SEED, rows=True, progress=False).rows
brk = (g.p1_brcka + g.p2_brcka).value_counts(normalize=True).sort_index()
deals = g.deals.value_counts(normalize=True).sort_index()
print("brčka won in a game: " + ", ".join(f"{int(k)}: {v:.4f}" for k, v in brk.items())
      + f"; games ended by dost {g.dost.mean():.4f}, deals per game {g.deals.mean():.3f}")
s = simkit.run("stovkahra(unit=series)", n=NS, seed=SEED, rows=True, progress=False).rows
print(f"a series to ten brčka takes {s.games.mean():.2f} games (sd {s.games.std():.2f}), "
      f"{s.deals.mean():.1f} deals; p1's side wins {s.p1_win.mean():.4f}")
claims = {}
for what, st in [("says dost at once", "baseline"), ("never says dost", "baseline(claim=0)"),
                 ("says dost 10 points early", "baseline(margin=10)")]:
    claims[what] = simkit.run("stovkahra(unit=game)", n=NG, seed=SEED,
                              strategies=[f"p1={st}", f"p3={st}"], progress=False).estimates()
print("p1's side wins the game when it " + "; ".join(
    f"{k}: {v['p1_win']['mean']:.4f} [{v['p1_win']['ci_low']:.4f}, {v['p1_win']['ci_high']:.4f}]"
    for k, v in claims.items()))
fig, ax = plt.subplots(1, 3, figsize=(13, 3.4))
brk.plot.bar(ax=ax[0], title="brčka won in a game", xlabel="brčka (both sides)", ylabel="share of games", rot=0)
deals.plot.bar(ax=ax[1], title="deals in a game", xlabel="deals", ylabel="share of games", rot=0)
s.games.plot.hist(ax=ax[2], bins=range(4, int(s.games.max()) + 2), title="games in a series")
ax[2].set_xlabel("games"); ax[2].set_ylabel("series")
""")
md("""
## 4. What dealing from the gathered tricks changes

The text's dealing (line 215): after a game's first deal the tricks are gathered and only cut
(`dealing=gathered`, each side's pile, the dealer's on top; the model is in the rules module).
Against a fresh shuffle before every deal (`dealing=shuffle`), in games to 100: per deal rates and
the second deal's hands (from the move log).
""")
code("""
out = {}
for dealing in ["gathered", "shuffle"]:
    r = simkit.run(f"stovkahra(unit=game,dealing={dealing})", n=NG, seed=SEED, rows=True,
                   progress=False).rows
    rec = {"deals per game": (r.deals.mean(), r.deals.std() / math.sqrt(len(r)))}
    for m in ["p1_combos", "p1_seven_first", "p1_seven_mid", "p1_seven_last", "dost"]:
        rec[m + " per deal"] = rate(r, m)
    rec["p1 side wins"] = (r.p1_win.mean(), math.sqrt(r.p1_win.mean() * (1 - r.p1_win.mean()) / len(r)))
    rules = simkit.get_game("stovkahra").rules.build({"unit": "game", "dealing": dealing})
    _, log = G.play_logged(rules, None, n=min(NG, 3000), seed=SEED)
    second = log[log.deal == 1]
    packs = second[[f"pack{j}" for j in range(32)]].to_numpy()
    longest, same_rank = [], []
    for p, d in zip(packs, second.dealer.to_numpy()):
        owner = (d + G.engine.OFFSETS) % 4
        for k in range(4):
            h = p[owner == k]
            longest.append(np.bincount(h >> 4, minlength=4).max())
            same_rank.append(np.bincount(h & 15, minlength=16).max())
    rec["second deal: longest suit"] = (np.mean(longest), np.std(longest) / math.sqrt(len(longest)))
    rec["second deal: most of a rank"] = (np.mean(same_rank), np.std(same_rank) / math.sqrt(len(same_rank)))
    out[dealing] = rec
cmp = pd.DataFrame({d: {k: f"{v[0]:.4f} ± {1.96 * v[1]:.4f}" for k, v in rec.items()} for d, rec in out.items()})
diff_longest = out["gathered"]["second deal: longest suit"][0] - out["shuffle"]["second deal: longest suit"][0]
cmp
""")
md("""
## 5. What the numbers say
""")
code("""
e = edge[0]
print(f"seat edge: the eldest side scores {e['mean']:+.3f} (se {e['se']:.3f}) points a deal against "
      f"the dealer's side (baseline on all seats)")
gr = games[("game", True)]
print(f"in a game to 100 with the deal passing left, p1's side (not the first dealer's) wins "
      f"{gr['mean']:.4f} [{gr['ci_low']:.4f}, {gr['ci_high']:.4f}]")
print(f"the seven bonuses are worth {value:+.3f} points a deal (se {value_se:.3f}) to a side that saves sevens")
print(f"a game pays two brčka in {brk.get(2.0, 0.0):.4f} of games")
print(f"unshuffled dealing changes the second deal's longest suit by {diff_longest:+.3f} cards and the "
      f"deals per game from {out['shuffle']['deals per game'][0]:.3f} to {out['gathered']['deals per game'][0]:.3f}")
""")

nb = nbf.v4.new_notebook()
nb["cells"] = cells
nb["metadata"]["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
nbf.write(nb, __file__.replace("make_stovkahra.py", "stovkahra.ipynb"))
