"""The puzzle widget: a thin shell that syncs the card table's view and the puzzle panel,
checks every message, and ships table.js itself followed by puzzle.js."""

from __future__ import annotations

import re

import pytest

from canasta_tutor.tutor.display import asset_path
from canasta_tutor.ui.puzzle import PuzzleTrainer, front_end
from canasta_tutor.tutor.progress import ProgressStore
from canasta_tutor.tutor.puzzles.library import library_dir, load_file

COMPOSED = load_file(library_dir() / "composed.txt")


def widget(**kw) -> PuzzleTrainer:
    kw.setdefault("store", None)
    kw.setdefault("explain", None)
    return PuzzleTrainer(puzzles=COMPOSED, **kw)


def test_the_front_end_is_the_table_then_the_puzzle_panel():
    esm, css = front_end()
    table = asset_path("table.js").read_text(encoding="utf-8")
    assert esm.count("export default") == 1 and esm.rstrip().endswith("export default { render: renderPuzzle };")
    assert table.replace("\nexport default { render };", "\n") in esm  # the table's code, unchanged
    assert asset_path("table.css").read_text(encoding="utf-8") in css and ".cp-root" in css


def test_the_puzzle_script_holds_no_rule_text_and_escapes_what_it_shows():
    js = asset_path("puzzle.js").read_text(encoding="utf-8")
    assert not re.search(r"R-[A-Z]+", js)
    # every value from Python goes through esc() or withRuleLinks() (which escapes first)
    for expr in re.findall(r"\$\{([^{}]*)\}", js):
        if re.search(r"\b(p|t|r|s|h)\.", expr) and "HTML(" not in expr and "Options(" not in expr:
            assert re.match(r"\s*(esc|withRuleLinks)\(", expr) or "?" in expr, expr


def test_solve_then_fail_by_clicks_with_the_rating_change(tmp_path):
    with ProgressStore(tmp_path / "p.sqlite3") as store:
        w = widget(puzzle="c11-show-then-take", store=store, learner="s01")
        s = w.table.session
        w.handle({"intent": "select", "indices": [s.index_of("9H"), s.index_of("9C")]})
        assert w.handle({"intent": "take", "rev": w.view["rev"]}).startswith("Solved")
        assert w.puzzle["correct"] is True and w.puzzle["change"] > 0
        assert w.handle({"intent": "theme", "theme": "stop-card"})
        assert "stop-card" in w.trainer.run.puzzle.themes and w.puzzle["status"] == "open"
        assert w.handle({"intent": "draw", "rev": w.view["rev"]}).startswith("Not allowed")
        assert w.puzzle["correct"] is False and w.puzzle["status"] == "open" and "[R-" in w.puzzle["explanation"]
        assert w.handle({"intent": "give_up"}).startswith("Given up")
        assert w.puzzle["change"] < 0
        assert [a["level"] for a in store.attempts("s01")] == ["c11-show-then-take", w.puzzle["id"]]
        assert repr(w).startswith(f"PuzzleTrainer(puzzle='{w.puzzle['id']}', theme='stop-card', rating=")
        assert w.status().startswith("s01: rating ")


@pytest.mark.parametrize("msg", [None, 3, "draw", [], {"intent": None}, {"intent": "x" * 500},
                                 {"intent": "theme"}, {"intent": "streak", "on": 1}, {"intent": "play", "text": 7},
                                 {"intent": "select", "indices": "all"}, {"intent": "toggle", "index": -1}])
def test_malformed_messages_are_refused_never_raised(msg):
    w = widget(puzzle="c03-black-three-stops")
    w.handle(msg)
    assert w.puzzle["status"] == "open"


def test_a_browser_write_to_a_synced_trait_is_undone():
    w = widget(puzzle="c03-black-three-stops")
    w.puzzle = {**w.puzzle, "status": "solved"}
    assert w.puzzle["status"] == "open"
    w.view = {}
    assert w.view["players"]


def test_the_streak_and_the_theme_list():
    w = widget()
    w.handle({"intent": "streak", "on": True})
    assert w.puzzle["streak"]["on"] is True
    ids = [t["id"] for t in w.puzzle["theme_list"]]
    assert ids[0] == "forced-move" and "stop-card" in ids


def test_static_html_shows_the_solvers_view_only():
    w = widget(puzzle="c11-show-then-take")
    page = w._repr_html_()
    assert page.startswith("<p><b>Puzzle c11-show-then-take</b>") and "<style" not in page
    assert page.count('data-card="9H"') == 1 and 'class="ct-table' in page
    for seat in "NEW":  # the other hands are card backs only
        block = re.split(r'class="ct-(?:seat |center")', page.split(f'data-seat="{seat}"', 1)[1], maxsplit=1)[0]
        assert "ct-back" in block and "data-card" not in block, seat


def test_timed_mode_by_messages_with_pythons_clock(tmp_path):
    now = [5000.0]
    with ProgressStore(tmp_path / "p.sqlite3") as store:
        w = widget(store=store, learner="s01", clock=lambda: now[0])
        assert w.puzzle["timed"] == {"on": False}
        for bad in ({"intent": "timed", "on": "yes"}, {"intent": "timed", "on": True, "seconds": 5},
                    {"intent": "timed", "on": True, "seconds": True}, {"intent": "timed", "on": True, "seconds": "9"}):
            w.handle(bad)
            assert w.puzzle["timed"] == {"on": False} and w.puzzle["notice"], bad
        assert w.handle({"intent": "timed", "on": True, "seconds": 60}).startswith("A timed run: 60 seconds")
        tm = w.puzzle["timed"]
        assert tm["on"] and not tm["over"] and tm["remaining"] == 60.0 and tm["score"] == 0
        assert w.view["buttons"]["hint"]["ok"] is False
        assert w.handle({"intent": "hint"}).startswith("Not available in timed mode")
        assert w.handle({"intent": "theme", "theme": "stop-card"}).startswith("Not available in timed mode")
        # solve the puzzle on the table by typed moves: the next one is served at once
        first = w.puzzle["id"]
        for step in w.table.run.puzzle.solution:
            text = w.handle({"intent": "play", "text": step, "rev": w.view["rev"]})
        assert text.startswith(("Solved", "Right")) and w.puzzle["timed"]["score"] == 1
        assert w.puzzle["id"] != first and w.puzzle["status"] == "open" and w.puzzle["timed"]["last_correct"] is True
        # skip: a miss, ten seconds off
        now[0] += 5.0
        assert w.handle({"intent": "next"}).endswith("(-10 s)")
        assert w.puzzle["timed"]["misses"] == 1 and w.puzzle["timed"]["remaining"] == 45.0
        # the browser's countdown says zero too early: Python's clock decides
        assert w.handle({"intent": "tick"}) == "45 seconds left." and not w.puzzle["timed"]["over"]
        now[0] += 45.0
        w.handle({"intent": "tick"})
        tm = w.puzzle["timed"]
        assert tm["over"] and tm["ended"] == "time" and tm["remaining"] == 0.0 and w.puzzle["open"] is False
        assert all(not b["ok"] for b in w.view["buttons"].values())
        assert w.handle({"intent": "draw", "rev": w.view["rev"]}).startswith("Time is up: 1 solved, 1 missed")
        assert [(a["mode"], a["status"]) for a in store.attempts("s01")] == [("timed", "passed"), ("timed", "failed")]
        assert "timed run: Time is up" in w.status()
        # back to rated puzzles
        w.handle({"intent": "timed", "on": False})
        assert w.puzzle["timed"] == {"on": False} and w.puzzle["status"] == "open"
        assert w.puzzle["rating"] == 1500  # timed puzzles leave the rating alone


def test_a_timed_widget_from_the_start():
    w = widget(timed=90)
    assert w.puzzle["timed"]["on"] and w.puzzle["timed"]["seconds"] == 90.0
    js = asset_path("puzzle.js").read_text(encoding="utf-8")
    assert 'intent: "tick"' in js and 'intent: "timed", on: true' in js and "cp-clock" in js
    assert repr(w).endswith(", timed=True)") and w._repr_html_().startswith(f"<p><b>Puzzle {w.puzzle['id']}</b>")
