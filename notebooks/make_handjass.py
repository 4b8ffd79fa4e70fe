"""Writes notebooks/handjass.ipynb (run: python notebooks/make_handjass.py).

Generated so that its code stays reviewable as plain Python; SIMKIT_NB_N sets the deals per
configuration (CI runs it small; whole games are N / 20)."""
import nbformat as nbf

#: what tests/test_notebooks.py checks when it runs the notebook with SIMKIT_NB_N=size: the
#: phrases its output prints and at least this many images
CHECK = {"size": "4e3", "images": 4, "phrases": [
    "the loser's seat with 4 players", "best play threshold for p1", "the Forehand's potato rate",
    "a game lasts", "playing blind is worth"]}

cells = []
md = lambda s: cells.append(nbf.v4.new_markdown_cell(s.strip()))  # noqa: E731
code = lambda s: cells.append(nbf.v4.new_code_cell(s.strip()))  # noqa: E731

md("""
# Handjass (Swiss Potato Jass): who loses, when to play, the potato line and the blind

Rules: `shared/rules/000_e1e7c8054592a022.txt`, lines 48-179 (pagat.com's Handjass page,
translated; the readings are in `simkit.games.handjass.rules`). Each deal the two players with
the most card points score a stroke and anyone under 26 a potato (minus a stroke); seven strokes
and you are safe; the last player left loses. Seats are numbered in the direction of play: p1 is
the first Forehand (the dealer's right, first to decide and to lead), the last seat the first
dealer. Every number has a 95% interval; comparisons inside a sweep are paired on the same deals.
""")
code("""
import os
import numpy as np
import pandas as pd
import matplotlib.pyplot as plt
plt.rcParams.update({"figure.constrained_layout.use": True, "font.size": 10})  # titles and labels inside the figure
import simkit

N = int(float(os.environ.get("SIMKIT_NB_N", "2e5")))   # deals per configuration
NG = max(200, N // 20)                                 # whole games per configuration
SEED = 2026
print(f"simkit {simkit.__version__}; n = {N:,} deals, {NG:,} games per configuration")
""")
md("""
## 1. The loser's seat, for four, three and two players

The baseline in every seat; whole games (`unit=game`). p1 is the Forehand of the first deal;
the Forehand then moves one seat on every deal.
""")
code("""
rows = []
for P in (4, 3, 2):
    est = simkit.run(f"handjass(unit=game,players={P})", n=NG, seed=SEED, progress=False).estimates()
    for k in range(1, P + 1):
        e = est[f"p{k}_lose"]
        rows.append({"players": P, "seat": f"p{k}", "lose": e["mean"], "ci_low": e["ci_low"],
                     "ci_high": e["ci_high"], "fair": 1 / P})
    print(f"{P} players: mean deals per game {est['deals']['mean']:.1f}")
loser = pd.DataFrame(rows)
fig, ax = plt.subplots(figsize=(8, 3.4))
ticks, names = [], []
for i, (P, g) in enumerate(loser.groupby("players")):
    x = np.arange(len(g)) + 5 * i
    ax.bar(x, g["lose"], yerr=[g["lose"] - g["ci_low"], g["ci_high"] - g["lose"]], label=f"{P} players")
    ax.hlines(1 / P, x[0] - 0.4, x[-1] + 0.4, colors="k", linestyles=":")
    ticks += list(x); names += list(g["seat"])
ax.set_xticks(ticks, names); ax.set_xlabel("the loser's seat (p1: the first Forehand)")
ax.set_ylabel("P(lose)"); ax.legend(); ax.set_title("loser's seat, 95% bars (dotted: fair share)")
plt.show()
for P, g in loser.groupby("players"):
    worst = g.loc[g["lose"].idxmax()]
    print(f"the loser's seat with {P} players: most often {worst.seat} ({worst['lose']:.4f}, fair {1 / P:.4f})")
loser.round(4)
""")
md("""
## 2. The play-or-drop threshold, swept by seat (paired)

The baseline plays when its hand's strength (card points, trumps at trump value, +10 per trump,
its Weis, +20 for Stöck) reaches `play`. One seat at a time sweeps its threshold, the others keep
the default (55); every grid point sees the same deals, so the differences from the default are
paired. The Forehand decides first, the dealer last and holding the turned trump.
""")
code("""
grid = [25, 35, 45, 55, 65, 75, 85]
rows = []
for seat in ("p1", "p4"):
    res = simkit.sweep("handjass", {f"{seat}.play": grid}, n=N, seed=SEED, progress=False)
    for v in grid:
        d = res.paired(f"{seat}_strokes", {f"{seat}.play": v}, {f"{seat}.play": 55})
        e = res.estimates(res.config_index({f"{seat}.play": v}))[f"{seat}_strokes"]
        rows.append({"seat": seat, "play": v, "strokes": e["mean"], "minus_default": d["mean"],
                     "ci_low": d["ci_low"], "ci_high": d["ci_high"]})
sweep = pd.DataFrame(rows)
fig, ax = plt.subplots(figsize=(6, 3))
for seat, g in sweep.groupby("seat"):
    ax.errorbar(g["play"], g["minus_default"], yerr=[g["minus_default"] - g["ci_low"],
                g["ci_high"] - g["minus_default"]], marker="o", capsize=3, label=seat)
ax.axhline(0, color="k", lw=0.5); ax.set_xlabel("play threshold"); ax.set_ylabel("strokes/deal minus play=55")
ax.legend(); plt.show()
for seat, g in sweep.groupby("seat"):
    b = g.loc[g["strokes"].idxmax()]
    print(f"best play threshold for {seat}: {int(b.play)} ({b.strokes:.4f} strokes a deal, "
          f"{b.minus_default:+.4f} against 55)")
sweep.round(4)
""")
md("""
## 3. The potato line: 21 (the original) against 26

A rules grid (`potato`) is paired on the same deals too. Per deal: potatoes, strokes, how many
players play; per game: its length and the loser's seat.
""")
code("""
res = simkit.sweep("handjass", {"potato": [21, 26]}, n=N, seed=SEED, progress=False)
wide = res.wide()
cols = ["potato", "p1_potato", "p4_potato", "p1_play", "p4_play", "active", "all_potato", "unplayed"]
print(wide[cols].round(4).to_string(index=False))
d = res.paired("p1_potato", {"potato": 21}, {"potato": 26})
print(f"the Forehand's potato rate: 21 minus 26 = {d['mean']:+.4f} (95% CI {d['ci_low']:+.4f}..{d['ci_high']:+.4f})")
games = simkit.sweep("handjass(unit=game)", {"potato": [21, 26]}, n=NG, seed=SEED, progress=False).wide()
print(games[["potato", "deals", "p1_lose", "p2_lose", "p3_lose", "p4_lose"]].round(4).to_string(index=False))
fig, ax = plt.subplots(figsize=(5, 3))
ax.bar(["21", "26"], games["deals"]); ax.set_xlabel("potato threshold"); ax.set_ylabel("deals per game")
plt.show()
print(f"a game lasts {games.deals.iloc[0]:.1f} deals with the potato at 21 and {games.deals.iloc[1]:.1f} at 26")
""")
md("""
## 4. The value of playing blind (three players)

With three players a weak hand may be exchanged for the blind (the fourth hand, whose top card
shows trumps). p1's baseline takes the blind when its hand is below `blind` (and below its play
threshold 55); `blind=0` never takes it. Then the rule itself: `blind=false` for everyone.
""")
code("""
grid = [0, 25, 40, 55]
res = simkit.sweep("handjass(players=3)", {"p1.blind": grid}, n=N, seed=SEED, progress=False)
rows = []
for v in grid:
    d = res.paired("p1_strokes", {"p1.blind": v}, {"p1.blind": 0})
    e = res.estimates(res.config_index({"p1.blind": v}))
    rows.append({"blind": v, "p1_strokes": e["p1_strokes"]["mean"], "p1_blind": e["p1_blind"]["mean"],
                 "gain_vs_never": d["mean"], "ci_low": d["ci_low"], "ci_high": d["ci_high"]})
blind = pd.DataFrame(rows)
fig, ax = plt.subplots(figsize=(5, 3))
ax.errorbar(blind["blind"], blind["gain_vs_never"], yerr=[blind["gain_vs_never"] - blind["ci_low"],
            blind["ci_high"] - blind["gain_vs_never"]], marker="o", capsize=3)
ax.axhline(0, color="k", lw=0.5); ax.set_xlabel("p1 blind threshold"); ax.set_ylabel("strokes/deal vs never blind")
plt.show()
top = blind.loc[blind["gain_vs_never"].idxmax()]
print(f"playing blind is worth {top.gain_vs_never:+.4f} strokes a deal to p1 at blind={int(top.blind)} "
      f"(95% CI {top.ci_low:+.4f}..{top.ci_high:+.4f}), taking it in {top.p1_blind:.3f} of deals")
rule = simkit.sweep("handjass(players=3,unit=game)", {"blind": ["true", "false"]}, n=NG, seed=SEED,
                    progress=False).wide()
print(rule[["blind", "deals", "p1_lose", "p2_lose", "p3_lose"]].round(4).to_string(index=False))
blind.round(4)
""")

nb = nbf.v4.new_notebook()
nb["cells"] = cells
nb["metadata"]["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
nbf.write(nb, __file__.replace("make_handjass.py", "handjass.ipynb"))
