"""Issue 30: Durak's first-move edge as one number, and results by the trump card's rank, checked
against the per-deal rows they summarise (opener_win, opener_lose, trump_rank, pK_lose)."""
import numpy as np
import pytest

import simkit


@pytest.fixture(scope="module")
def res():
    return simkit.run("durak", n=3000, seed=5, rows=True, progress=False)


def test_edge_is_opener_win_minus_opener_lose_per_game(res):
    rows = res.rows
    assert (rows["opener_edge"] == rows["opener_win"] - rows["opener_lose"]).all()
    e = res.estimates()["opener_edge"]
    x = rows["opener_edge"].to_numpy()
    assert e["mean"] == pytest.approx(x.mean(), abs=1e-12)
    assert e["se"] == pytest.approx(x.std(ddof=1) / np.sqrt(len(x)), rel=1e-6)


def test_by_trump_rank_is_the_groupby_of_the_rows(res):
    rows, est = res.rows, res.estimates()
    assert set(rows["trump_rank"]) == set(range(6, 15))
    g = rows.groupby("trump_rank")
    for r, part in g:
        r = int(r)
        assert est[f"opener_edge_trump{r}"]["mean"] == pytest.approx(part["opener_edge"].mean())
        for k in (1, 2):
            assert est[f"p{k}_lose_trump{r}"]["mean"] == pytest.approx(part[f"p{k}_lose"].mean())
        # the delta-method error of a conditional mean is about its plain standard error
        s = part["opener_edge"].std(ddof=1) / np.sqrt(len(part))
        assert est[f"opener_edge_trump{r}"]["se"] == pytest.approx(s, rel=0.05)
