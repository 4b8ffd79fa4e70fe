"""The game contract over every registered game (simkit.testing): a game joins by registering.

Each (game, check) pair is its own test, so the checks spread over pytest-xdist's workers and a
failure names both.  Golden playthroughs live in tests/golden/<game>.json (scripts/golden.py
writes them); a registered game without one fails.
"""
import os

import pytest

import simkit
from simkit import testing

GAMES = sorted(simkit.games())
GOLDEN = os.path.join(os.path.dirname(__file__), "golden")


@pytest.mark.parametrize("check", testing.CHECKS, ids=lambda c: c.__name__)
@pytest.mark.parametrize("game", GAMES)
def test_contract(game, check):
    check(simkit.get_game(game))


@pytest.mark.parametrize("game", GAMES)
def test_golden_playthrough(game):
    problem = testing.golden_mismatch(GOLDEN, simkit.get_game(game))
    assert problem is None, problem


def test_every_golden_file_is_a_registered_game():
    stored = {f[:-5].split("@")[0] for f in os.listdir(GOLDEN) if f.endswith(".json")}
    assert stored <= set(GAMES), f"golden files for unknown games: {sorted(stored - set(GAMES))}"


def test_every_golden_preset_file_is_a_golden_preset():
    """``<game>@<preset>.json`` files belong to a preset the game lists in golden_presets."""
    for f in os.listdir(GOLDEN):
        if "@" in f and f.endswith(".json"):
            game, preset = f[:-5].split("@")
            assert preset in simkit.get_game(game).golden_presets, f


def test_check_game_runs_every_check_and_names_the_failure():
    """check_game is the one entry point; a broken game fails it with the game's name."""
    import dataclasses
    spec = simkit.get_game("ochko")
    broken = dataclasses.replace(spec, presets={"bad": {"no_such_option": 1}})
    with pytest.raises(Exception) as e:
        testing.check_presets(broken)
    assert "no_such_option" in str(e.value)
    assert testing.check_game.__doc__ and len(testing.CHECKS) >= 9


@pytest.mark.parametrize("run,says", [
    (("gin(unit=match)", ("p1=threshold(5)",)), "is not a ochko game"),
    (("ochko(no_such_option=1)", ()), "no_such_option"),
    (("ochko", ("p1=no_such_kind",)), "no_such_kind"),
    (("ochko", "p1=random"), "tuple"),
])
def test_a_digest_run_that_does_not_parse_fails_the_contract(run, says):
    import dataclasses
    broken = dataclasses.replace(simkit.get_game("ochko"), digest_runs=(run,))
    with pytest.raises(AssertionError, match=says):
        testing.check_digest_runs(broken)


def test_check_sums_variants_catches_a_fault_outside_the_default_rules():
    """A fault that shows only under a preset or another unit passes check_sums (default rules)
    and fails check_sums_variants, which names the rule set: chips that sum to zero per deal
    but were declared without one seat in a session, a count declared binary in a session."""
    import dataclasses
    spec = simkit.get_game("panguingue")
    assert [w for w, _ in testing.variants(spec)] == [
        "default", "preset published", "preset layoff", "preset two", "preset small",
        "preset session"]                      # the text preset is the default; unit=session too
    one_short = dataclasses.replace(spec, zero_sum=lambda r: [
        f"p{k + 1}_chips" for k in range(r.players - (r.unit == "session"))])
    testing.check_sums(one_short, n=200)
    with pytest.raises(AssertionError, match="preset session.*sum to zero"):
        testing.check_sums_variants(one_short)
    bare = dataclasses.replace(one_short, presets={}, preset_docs={}, match=None)
    assert [w for w, _ in testing.variants(bare)] == ["default", "unit=session"]
    with pytest.raises(AssertionError, match="unit=session.*sum to zero"):
        testing.check_sums_variants(bare)

    def metrics(r):
        return [dataclasses.replace(m, binary=True) if r.unit == "session" and m.name == "p1_wins"
                else m for m in spec.metrics(r)]
    counted = dataclasses.replace(spec, metrics=metrics)
    testing.check_sums(counted, n=200)
    with pytest.raises(AssertionError, match="preset session.*binary metric p1_wins"):
        testing.check_sums_variants(counted)
    gin = [w for w, _ in testing.variants(simkit.get_game("gin"))]
    assert gin[-1] == "match unit" and not any(w.startswith("unit=") for w in gin)
