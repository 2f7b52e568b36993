"""Random self-play soak: thousands of hands of random legal actions, every state checked."""

from __future__ import annotations

import pytest

from canasta_tutor import RuleOptions
from canasta_tutor.bots.selfplay import SelfplayReport, run_selfplay


@pytest.mark.slow
def test_soak_2000_hands_without_violations() -> None:
    """2,000 hands (several hundred games) of random play: every invariant holds after every action,
    legal_actions() is never empty before the game ends, lists each action once, does not change the
    state, and explain() accepts every action it lists."""
    report = run_selfplay(hands=2000, seed=2024)
    assert report.hands == 2000
    assert report.violations == 0, report.messages
    assert report.actions > 100 * report.hands
    assert report.games > 100


@pytest.mark.slow
def test_soak_under_other_rule_options() -> None:
    """The same checks under the non-default options (R-FRZ-3 'stops', R-MELD-2 'half', R-DEAL-5 chain)."""
    for i, text in enumerate(["black_three=stops", "wild_limit=half", "upcard_chain=wild_only",
                              "upcard_chain=wild_or_red_three black_three=stops"]):
        report = run_selfplay(hands=150, seed=300 + i, options=RuleOptions.parse(text))
        assert report.violations == 0, (text, report.messages)


def test_report_fields_and_determinism() -> None:
    a = run_selfplay(hands=20, seed=7, check=False)
    b = run_selfplay(hands=20, seed=7, check=False)
    assert isinstance(a, SelfplayReport)
    assert (a.hands, a.actions, a.games) == (b.hands, b.actions, b.games)
    d = a.to_dict()
    for key in ("hands", "actions", "seconds", "hands_per_s", "us_per_action", "violations", "messages"):
        assert key in d
    assert a.hands_per_s > 0 and a.us_per_action > 0
    assert "hands per second" in a.format()


def test_zero_hands() -> None:
    report = run_selfplay(hands=0, seed=1)
    assert report.hands == 0 and report.actions == 0 and report.violations == 0


def test_negative_hands_is_an_error() -> None:
    with pytest.raises(ValueError):
        run_selfplay(hands=-1, seed=1)


def test_violations_are_reported(monkeypatch) -> None:
    """A broken invariant is counted and described, and play goes on with a new game."""
    import canasta_tutor.bots.selfplay as sp

    calls = {"n": 0}

    def fake_check(state, start_totals=None):
        calls["n"] += 1
        return ["boom"] if calls["n"] == 5 else []

    monkeypatch.setattr(sp, "check_invariants", fake_check)
    report = sp.run_selfplay(hands=3, seed=1)
    assert report.violations == 1
    assert report.messages and report.messages[0].endswith(": boom")
    assert report.hands == 3


def test_progress_bar_goes_to_stderr(capsys) -> None:
    run_selfplay(hands=2, seed=3, check=False, progress=True)
    out, err = capsys.readouterr()
    assert out == ""



def test_driver_draws_as_random_choice() -> None:
    """The lean loop's written-out choice takes the same draws as random.choice: a replay of the
    driver with random.choice plays the same number of actions and games."""
    import random

    from canasta_tutor.engine.game import Game

    hands, seed = 30, 4
    game = Game()
    rng = random.Random(seed)
    state, game_seed, games, done, actions = game.new_initial_state(seed), seed, 1, 0, 0
    while done < hands:
        state.apply_unchecked(rng.choice(state.legal_actions()))
        actions += 1
        if state.phase in ("hand_over", "game_over"):
            done += 1
            if state.phase == "game_over" and done < hands:
                game_seed += 1
                state = game.new_initial_state(game_seed)
                games += 1
    report = run_selfplay(hands=hands, seed=seed, check=False)
    assert (report.actions, report.games) == (actions, games)
