"""The hint accuracy benchmark's own bookkeeping (``benchmarks/hint_accuracy.py``): how it reads the
hint's verdict and the oracle's lead, and that its output adds up."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

from canasta_tutor.hint import CLEAR, CLOSE, ONLY
from helpers_scripts import BENCHMARKS, benchmark_script

SCRIPT = BENCHMARKS / "hint_accuracy.py"


def _script() -> ModuleType:
    return benchmark_script("hint_accuracy")


@pytest.mark.parametrize(("lead", "band"), [(0.0, "under_10"), (9.99, "under_10"), (10.0, "10_to_40"),
                                            (39.9, "10_to_40"), (40.0, "40_up"), (512.0, "40_up")])
def test_the_oracle_lead_falls_in_one_band(lead: float, band: str) -> None:
    assert _script().lead_band(lead) == band


def test_a_miss_is_called_close_only_when_the_hint_said_so_and_showed_the_move() -> None:
    pick = _script().Pick
    draw, take = ("draw",), ("take", (1, 2))
    assert pick(draw, CLOSE, (take,)).called_close(take)
    assert not pick(draw, CLEAR, (take,)).called_close(take)  # the hint said it was sure
    assert not pick(draw, CLOSE, ()).called_close(take)  # the oracle's move was not shown as near equal


@pytest.mark.slow
def test_a_short_run_adds_up(tmp_path: Path) -> None:
    saved = tmp_path / "verdicts.jsonl"
    out = subprocess.run([sys.executable, str(SCRIPT), "--positions", "4", "--oracle-factor", "1", "--json",
                          "--save", str(saved)], capture_output=True, text=True, check=True, timeout=300)
    result = json.loads(out.stdout)
    clear, agree = result["clear_positions"], result["agree"]
    assert result["positions"] == 4 and 0 < clear <= 4
    assert sum(b["clear"] for b in result["by_lead"].values()) == clear
    assert sum(b["agree"] for b in result["by_lead"].values()) == agree
    assert result["hint_sure"]["agree"] <= result["hint_sure"]["clear"] <= clear
    assert 0 <= result["misses_called_close"] <= clear - agree
    lines = [json.loads(x) for x in saved.read_text().splitlines()]
    assert len(lines) == 4
    for line in lines:
        assert line["verdict"] in (CLEAR, CLOSE, ONLY)
        assert line["hint"] not in line["about_as_good"]


@pytest.mark.parametrize(("variant", "phases"), [("classic", ("draw", "meld", "discard", "answer")),
                                                 ("two-handed", ("draw", "meld", "discard")),
                                                 ("three-handed", ("draw", "meld", "discard")),
                                                 ("six-handed", ("draw", "meld", "discard", "answer"))])
def test_a_variant_s_positions_come_in_turn_from_its_own_phases(variant: str, phases: tuple[str, ...]) -> None:
    script = _script()
    assert script.phases_of(variant) == phases  # no answer phase where no seat has a partner to ask
    positions = script.draw_positions(2 * len(phases), 1, variant)
    assert [ph for ph, _ in positions] == list(phases) * 2
    for ph, state in positions:
        assert state.variant.name == variant and script.phase_of(state) == ph and len(state.legal_actions()) > 1


def test_work_comes_back_in_order_and_stops_at_the_deadline() -> None:
    in_order = _script().in_order
    ticks: list[int] = []
    assert in_order(abs, [3, -1, -2], 1, None, lambda: ticks.append(1)) == [3, 1, 2] and len(ticks) == 3
    assert in_order(abs, [3, -1], 1, 0.0, lambda: None) == []  # the deadline has passed: nothing handed out
    assert in_order(abs, list(range(-9, 0)), 2, None, lambda: None) == list(range(9, 0, -1))


@pytest.mark.slow
def test_the_agreement_curve_adds_up_and_its_first_search_is_the_hint() -> None:
    curve = benchmark_script("agreement_curve")
    phase, state = _script().draw_positions(1, 1)[0]
    row = curve.one_position((phase, state, (2,), 1, True))
    from canasta_tutor.hint import hint
    from canasta_tutor.engine.observer import observe
    assert row.picks[1] == hint(observe(state, state.actor), seed=0).best
    assert set(row.picks) == {1, 2} and row.second is not None and row.cpu_s[2] > 0
    out = subprocess.run([sys.executable, str(BENCHMARKS / "agreement_curve.py"), "--positions", "2",
                          "--factors", "2", "--oracle-factor", "1", "--json"],
                         capture_output=True, text=True, check=True, timeout=300)
    result = json.loads(out.stdout)
    clear = result["clear_positions"]
    assert result["positions"] == 2 and set(result["by_factor"]) == {"1", "2"}
    for v in (*result["by_factor"].values(), result["second_oracle"]):
        assert v["clear"] == clear and 0 <= v["agree"] <= clear
        assert sum(b["clear"] for b in v["by_lead"].values()) == clear
        assert sum(b["agree"] for b in v["by_lead"].values()) == v["agree"]
    both = result["second_oracle"]["both_clear"]
    assert both["agree"] <= both["clear"] <= clear
