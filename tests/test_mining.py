"""Mining: a short seeded run finds puzzles that parse, state only what the solver sees
and pass their own verification (small sample counts here; the command insists on 2000);
the sequential search, run to its end, is exactly the verification search; records are
appended whole; near-duplicates already in the file are skipped."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from canasta_tutor.notation.actions import format_action
from canasta_tutor.cli.main import main
from canasta_tutor.engine.game import Game
from canasta_tutor.tutor.puzzles import library as puzzles
from canasta_tutor.tutor.puzzles.mining import (
    _draft,
    append_records,
    existing_keys,
    finish,
    hopeless,
    may_show,
    mine_game,
    puzzle_key,
    refresh_themes,
    sequential_search,
)
from helpers_scripts import benchmark_script

COMPOSED = Path(__file__).resolve().parent.parent / "puzzles" / "composed.txt"


def _searched_puzzle() -> puzzles.Puzzle:
    text = COMPOSED.read_text(encoding="utf-8")
    return next(p for p in puzzles.parse_puzzles(text, "composed.txt") if not p.verification.forced)


def test_the_sequential_search_run_to_its_end_is_the_verification_search(monkeypatch: pytest.MonkeyPatch) -> None:
    p = _searched_puzzle()
    est, deals, k = sequential_search(p, samples=40, seed=1, checkpoints=())
    assert deals == 40 and k == len(est) >= 2
    block = puzzles.estimates_block(est, [est[0].action], 40, 1)
    assert block == puzzles.compute_verification(p.state(), [est[0].action], 40, 1)


def test_hopeless_compares_the_lead_and_its_spread_with_the_margin() -> None:
    clear = [[100.0 + (i % 3) for i in range(20)], [0.0 + (i % 5) for i in range(20)]]
    close = [[10.0 + (i % 3) for i in range(20)], [0.0 + (i % 5) for i in range(20)]]
    assert not hopeless(clear, 2000, 0.0)
    assert hopeless(close, 2000, 0.0)
    noisy = [[30.0 + 300 * (i % 2) for i in range(20)], [0.0] * 20]  # lead 180, but the spread is wide
    assert not hopeless(noisy, 2000, 2.0)
    assert hopeless([[39.0] * 20, [0.0] * 20], 2000, 5.0)  # no spread: the lead is what it is


def test_a_search_stopped_early_gives_nothing_and_counts_its_deals() -> None:
    p = _searched_puzzle()
    est, deals, _ = sequential_search(p, samples=2000, seed=1, checkpoints=(4,), z=-1e9)
    assert est == [] and deals == 4


def test_records_are_appended_whole_and_their_keys_read_back(tmp_path: Path) -> None:
    state = Game().new_initial_state(5)
    seat = state.actor
    assert seat is not None
    draft = _draft(state, seat, 5, 0, format_action(state.legal_actions()[0]))
    assert draft is not None
    record = puzzles.format_puzzle(draft)
    out = tmp_path / "mined.txt"
    append_records(out, [record])
    append_records(out, [])
    keys, ids = existing_keys(out)
    assert ids == {"m5-0"} and keys == {puzzle_key(draft.state(), seat)}
    assert keys == {puzzle_key(state, seat)}  # the key of the game's state and of the record agree
    before = out.read_bytes()
    append_records(out, [record.replace("m5-0", "m5-1")])
    assert out.read_bytes().startswith(before)
    assert [p.id for p in puzzles.load_file(out)] == ["m5-0", "m5-1"]
    assert oct(os.stat(out).st_mode & 0o777) == "0o644"


@pytest.mark.slow
def test_a_short_mining_run_gives_verified_records(monkeypatch: pytest.MonkeyPatch) -> None:
    r = mine_game(3, samples=60, screen=12, iterations=4, rating_seeds=1)
    assert r.decisions > r.screened >= r.verified == len(r.records) >= 1
    monkeypatch.setattr(puzzles, "MIN_SAMPLES", 24)
    for text in r.records:
        p = puzzles.parse_puzzles(text, "mined.txt")[0]
        assert p.source.startswith("mined seed=3 deal=0 ply=")
        assert not p.verification.forced and p.verification.only_move()
        assert p.rd < 350 and p.themes == puzzles.complete(p, 60).themes
        assert puzzles.verify(p) == []
    again = mine_game(3, samples=60, screen=12, iterations=4, rating_seeds=1)
    assert again.records == r.records  # seeded: the same run gives the same puzzles
    skipped = mine_game(3, samples=60, screen=12, iterations=4, rating_seeds=1, skip=r.keys)
    assert skipped.records == []  # near-duplicates of kept records are not searched again


def test_finish_refuses_a_block_that_fails_the_rule() -> None:
    p = _searched_puzzle()
    est, _, _ = sequential_search(p, samples=30, seed=1, checkpoints=())
    est[1].mean = est[0].mean - 1.0  # a runner-up within the margin
    assert finish(p, est, 30) is None


def test_mine_refuses_a_small_verification(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["puzzles", "mine", "--games", "1", "--samples", "100"]) == 2
    assert "--samples must be at least 2000" in capsys.readouterr().err


def test_pruning_changes_no_figure_of_a_full_search() -> None:
    p = _searched_puzzle()
    pruned, _, _ = sequential_search(p, samples=48, seed=1, checkpoints=(8, 16), z=1e9, prune=-1e9)
    plain, _, _ = sequential_search(p, samples=48, seed=1, checkpoints=(), prune=None)
    assert [(e.action, e.mean, e.stderr, e.diff_stderr) for e in pruned] == [
        (e.action, e.mean, e.stderr, e.diff_stderr) for e in plain]


def test_refresh_themes_sets_what_the_detectors_find_on_mined_records_only() -> None:
    state = Game().new_initial_state(5)
    seat = state.actor
    assert seat is not None
    draft = _draft(state, seat, 5, 0, format_action(state.legal_actions()[0]))
    assert draft is not None
    text = "# a comment stays\n" + puzzles.format_puzzle(draft).replace("themes:", "themes: go-out")
    new, changed = refresh_themes(text, "mined.txt")
    assert changed == 1 and new.startswith("# a comment stays\n")
    p = puzzles.parse_puzzles(new, "mined.txt")[0]
    assert "go-out" not in p.themes and p.themes == puzzles.complete(p, 24).themes
    composed = COMPOSED.read_text(encoding="utf-8")
    assert refresh_themes(composed, "composed.txt") == (composed, 0)


def test_the_theme_refresh_script_writes_nothing_when_the_file_grows_meanwhile(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    script = benchmark_script("rate_puzzles")
    state = Game().new_initial_state(5)
    seat = state.actor
    assert seat is not None
    draft = _draft(state, seat, 5, 0, format_action(state.legal_actions()[0]))
    assert draft is not None
    mined = tmp_path / "mined.txt"
    text = puzzles.format_puzzle(draft).replace("rating: 1500 350", "rating: 1200 100").replace(
        "themes:", "themes: go-out")
    mined.write_text(text, encoding="utf-8")

    def appending(text: str, path: str) -> tuple[str, int]:  # a miner appends while the themes are refreshed
        append_records(mined, ["# appended\n"])
        return refresh_themes(text, path)

    monkeypatch.setattr(script, "refresh_themes", appending)
    monkeypatch.setattr(sys, "argv", ["rate_puzzles.py", str(mined), "--themes"])
    with pytest.raises(SystemExit, match="changed while it was being rewritten"):
        script.main()
    assert mined.read_text(encoding="utf-8") == text + "\n# appended\n" and list(tmp_path.glob("*.tmp")) == []
    monkeypatch.setattr(script, "refresh_themes", refresh_themes)
    script.main()  # nothing writes now: the themes are refreshed in place
    assert "go-out" not in puzzles.load_file(mined)[0].themes


def test_may_show_asks_whether_a_candidate_move_has_a_focus_theme() -> None:
    text = COMPOSED.read_text(encoding="utf-8")
    opening = next(p for p in puzzles.parse_puzzles(text, "composed.txt") if "take-to-open" in p.themes)
    assert may_show(opening.state(), {"take-to-open"})
    assert not may_show(opening.state(), {"ask-partner"})  # nobody has melded: no one may ask
    first = Game().new_initial_state(5)  # the first draw of a hand: no pack to take, nothing to go out with
    assert not may_show(first, {"go-out", "take-to-open", "safe-discard"})


@pytest.mark.slow
def test_a_focused_run_searches_fewer_decisions_and_keeps_a_subset() -> None:
    settings = {"samples": 60, "screen": 12, "iterations": 4, "rating_seeds": 1}
    plain = mine_game(3, **settings)  # type: ignore[arg-type]
    focused = mine_game(3, focus={"safe-discard", "go-out"}, **settings)  # type: ignore[arg-type]
    assert focused.decisions == plain.decisions  # the same game is played
    assert len(focused.searched) < len(plain.searched)
    assert set(focused.records) <= set(plain.records)  # a search does not depend on the others


def test_mine_refuses_an_unknown_focus_theme(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["puzzles", "mine", "--games", "1", "--focus", "go-out,go-fish"]) == 2
    err = capsys.readouterr().err
    assert "'go-fish' is not a puzzle theme" in err and "safe-discard" in err


def test_puzzles_add_appends_new_positions_and_leaves_out_the_rest(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import json

    mined = puzzles.load_file(Path(__file__).resolve().parent.parent / "puzzles" / "mined.txt")[:3]
    library = tmp_path / "lib"
    library.mkdir()
    (library / "mined.txt").write_text(puzzles.format_puzzle(mined[0]), encoding="utf-8")
    twin = puzzles.format_puzzle(mined[0]).replace(f"puzzle: {mined[0].id}", "puzzle: m999-1", 1)
    weak = puzzles.format_puzzle(mined[2]).replace(f"puzzle: {mined[2].id}", "puzzle: m999-2", 1)
    v = mined[2].verification
    weak = weak.replace(f"  difference: {v.difference:.1f} [{v.low:.1f}, {v.high:.1f}]",
                        "  difference: 12.0 [5.0, 19.0]")
    assert "difference: 12.0" in weak
    new = tmp_path / "run.txt"
    new.write_text("\n".join([puzzles.format_puzzle(mined[1]), puzzles.format_puzzle(mined[0]), twin, weak]),
                   encoding="utf-8")
    assert main(["puzzles", "add", str(new), "--folder", str(library), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["added"] == 1 and data["known_ids"] == [mined[0].id]
    assert data["near_duplicates"] == ["m999-1"] and data["refused"] == ["m999-2"]
    assert [p.id for p in puzzles.load_library(library)] == [mined[0].id, mined[1].id]
    assert main(["puzzles", "add", str(new), "--folder", str(library)]) == 0  # again: nothing new
    assert capsys.readouterr().out.startswith(
        f"0 puzzles added to {library / 'mined.txt'}; left out: near-duplicates of a library position 1, IDs the "
        "library has 2, failing the only-move rule as stated 1.")
    assert main(["puzzles", "add", str(tmp_path / "none.txt"), "--folder", str(library)]) == 2
    assert "no puzzle file" in capsys.readouterr().err
