"""Fuzzing the content files and the store, as ``test_fuzz`` fuzzes positions and records.

Every generated input gets a clean answer:

- a lesson file (mutated text or bytes of a course lesson): a list of problems naming the file,
  or a lesson that loads;
- an assignment file (mutated from the example): problems naming the file, or an assignment
  whose points and penalties are finite;
- a student log (a real log, mutated as JSON or as bytes): a grade between 0 and the item's
  points, with the reason when it is not graded, and never an exception;
- a progress store (a real store, its bytes or its tables damaged): it opens and reads, or gives
  one :class:`ProgressStoreError`, never a raw ``sqlite3`` error;
- a record file (mutated, with headers moved among the actions): the file reader and the string
  parser agree, and it replays or gives a clean :class:`NotationError`.

The default run is sized to seconds; ``CANASTA_FUZZ=long`` tries many more (see ``EXAMPLES`` in
``test_fuzz``).
"""

from __future__ import annotations

import json
import math
import shutil
import sqlite3
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from canasta_tutor import NotationError
from canasta_tutor.notation.record import format_record, load_record, parse_record, replay
from canasta_tutor.tutor.assignments.grading import grade_item, grade_log, log_path
from canasta_tutor.tutor.assignments.spec import Item, check_text as check_assignment, parse_assignment
from canasta_tutor.tutor.assignments.student import play_item, solution_line
from canasta_tutor.tutor.lessons.loader import LessonFormatError, check_text as check_lesson, load_lesson
from canasta_tutor.tutor.progress import Attempt, ProgressStore, ProgressStoreError, read_foreign
from test_fuzz import SETTINGS, _played, examples, mutated

ROOT = Path(__file__).resolve().parent.parent
LESSONS = sorted((ROOT / "lessons").glob("*.toml"))
EXAMPLE = ROOT / "examples" / "assignment-week-1.toml"
FUZZ = dict(SETTINGS, suppress_health_check=[*SETTINGS["suppress_health_check"],
                                             *settings.default.suppress_health_check])

TOML_TOKENS = ["nan", "inf", "-inf", "1e999", "9" * 60, "9" * 5000, "[" * 40 + "]" * 40, "{", "}", "[[level]]",
               "[[item]]", "[defaults]", '"', "'''", '"""', "=", "= []", "= {}", "= true", "#", "\\u0000", "é",
               "points = nan", "hint_penalty = inf", "seed = -1", "par = 0", "level = 0", 'lesson = "nope"',
               'position = "turn: S hand_over"', "success = []", "\ufeff"]


@st.composite
def toml_mutations(draw: st.DrawFn, base: st.SearchStrategy[str]) -> str:
    """A TOML text with one to three line edits, some with TOML's own hostile tokens."""
    text = draw(mutated(base))
    lines = text.split("\n")
    if draw(st.booleans()) and lines:
        i = draw(st.integers(0, len(lines) - 1))
        lines.insert(i, draw(st.sampled_from(TOML_TOKENS)))
    return "\n".join(lines)


@st.composite
def byte_mutations(draw: st.DrawFn, text: str) -> bytes:
    """Bytes of ``text`` with a few overwritten, cut or doubled: often no longer UTF-8."""
    data = bytearray(text.encode("utf-8"))
    for _ in range(draw(st.integers(1, 4))):
        i = draw(st.integers(0, max(0, len(data) - 1)))
        op = draw(st.sampled_from(["set", "cut", "dup"]))
        if op == "set" and data:
            data[i] = draw(st.integers(0, 255))
        elif op == "cut":
            del data[i:i + draw(st.integers(1, 50))]
        else:
            data[i:i] = data[i:i + draw(st.integers(1, 50))]
    return bytes(data)


# ------------------------------------------------------------------ lesson files
LESSON_TEXTS = [f.read_text(encoding="utf-8") for f in LESSONS]


@settings(max_examples=examples("lessons"), **FUZZ)
@given(toml_mutations(st.sampled_from(LESSON_TEXTS)))
def test_mutated_lesson_files_give_problems_naming_the_file(text):
    problems = check_lesson(text, "fuzz.toml")
    for p in problems:
        assert p.file == "fuzz.toml" and p.message and len(str(p)) < 1500
        assert p.line is None or 1 <= p.line <= text.count("\n") + 1


@settings(max_examples=examples("lesson bytes"), **FUZZ)
@given(st.sampled_from(range(len(LESSONS))).flatmap(lambda i: byte_mutations(LESSON_TEXTS[i])))
def test_lesson_files_of_mutated_bytes_load_or_give_problems(tmp_path_factory, data):
    path = tmp_path_factory.mktemp("lesson") / "fuzz.toml"
    path.write_bytes(data)
    try:
        lesson = load_lesson(path)
    except LessonFormatError as e:
        assert e.problems and all(p.file == str(path) for p in e.problems)
        return
    assert lesson.levels


# ------------------------------------------------------------------ assignment files
ASSIGNMENT = EXAMPLE.read_text(encoding="utf-8")


@settings(max_examples=examples("assignments"), **FUZZ)
@given(toml_mutations(st.just(ASSIGNMENT)))
def test_mutated_assignment_files_give_problems_or_finite_points(text):
    problems = check_assignment(text, "fuzz.toml")
    for p in problems:
        assert p.file == "fuzz.toml" and p.message and len(str(p)) < 1500
    if not problems:
        a = parse_assignment(text, "fuzz.toml")
        assert all(math.isfinite(i.points) and math.isfinite(i.hint_penalty) for i in a.items)
        assert all(0 < i.points <= 1000 and 0 <= i.hint_penalty <= 1000 for i in a.items)
        assert math.isfinite(a.points)


# ------------------------------------------------------------------ student logs
LEVEL = Item(id="lv", kind="level", lesson="melds", level="meld-practice", seed=7, points=10, hint_penalty=2)
PUZZLE = Item(id="pz", kind="puzzle", puzzle="c22-take-the-pack", points=5, hint_penalty=1)
_LOGS: dict[str, str] = {}


def _real_log(item: Item, root: Path) -> str:
    """A log a student's widget wrote: a wrong try, then a hint and the solution."""
    if item.id not in _LOGS:
        play_item(item, [["discard 4"], ["?hint", *solution_line(item)]], root)
        _LOGS[item.id] = log_path(item, root).read_text(encoding="utf-8")
    return _LOGS[item.id]


JSON_VALUE = st.recursive(st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=20),
                          lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner,
                                                                                      max_size=3),
                          max_leaves=8)


@st.composite
def log_mutations(draw: st.DrawFn, text: str) -> bytes:
    """A real log changed as JSON (a value replaced, a key dropped, an entry's text or kind changed, deep
    nesting or a huge number spliced in), or as bytes."""
    how = draw(st.sampled_from(["json", "json", "json", "bytes", "splice"]))
    if how == "bytes":
        return draw(byte_mutations(text))
    if how == "splice":
        junk = draw(st.sampled_from(["[" * 100_000, "9" * 5000, "NaN", "1e999", "-Infinity", '"\\ud800"', "{}"]))
        i = draw(st.integers(0, len(text)))
        return (text[:i] + junk + text[i:]).encode("utf-8")
    data = json.loads(text)
    for _ in range(draw(st.integers(1, 3))):
        target = draw(st.sampled_from(["top", "attempt", "entry"]))
        if target == "top":
            key = draw(st.sampled_from(["format", "item", "attempts", "seed", "totals", "extra"]))
            if draw(st.booleans()):
                data.pop(key, None)
            else:
                data[key] = draw(JSON_VALUE)
        elif isinstance(data.get("attempts"), list) and data["attempts"]:
            att = data["attempts"][draw(st.integers(0, len(data["attempts"]) - 1))]
            entries = att.get("entries") if isinstance(att, dict) else None
            if target == "attempt" or not isinstance(entries, list) or not entries:
                if isinstance(att, dict):
                    att[draw(st.sampled_from(["entries", "status", "hints", "started"]))] = draw(JSON_VALUE)
            else:
                entry = entries[draw(st.integers(0, len(entries) - 1))]
                if isinstance(entry, dict):
                    entry[draw(st.sampled_from(["kind", "text"]))] = draw(
                        st.sampled_from(["action", "refused", "hint", "wrong", "reply"]) | st.text(max_size=30)
                        | JSON_VALUE)
    return json.dumps(data, allow_nan=True).encode("utf-8")


@settings(max_examples=examples("logs"), **FUZZ)
@given(item=st.sampled_from([LEVEL, PUZZLE]), data=st.data())
def test_mutated_student_logs_get_a_grade_and_never_an_exception(tmp_path_factory, item, data):
    root = tmp_path_factory.mktemp("logs")
    text = _real_log(item, tmp_path_factory.mktemp("real"))
    raw = data.draw(log_mutations(text))
    log_path(item, root).write_bytes(raw)
    g = grade_log(item, root)
    assert 0 <= g.score <= item.points and math.isfinite(g.score)
    assert g.message == "" or g.message.startswith((f"{item.id}.json: ", "played on the deal of student "))
    assert grade_item(item.to_dict(), root) == g.score


# ------------------------------------------------------------------ the progress store
_STORE: list[Path] = []


def _real_store(root: Path) -> Path:
    if not _STORE:
        path = root / "progress.sqlite3"
        with ProgressStore(path) as store:
            store.add_to_class("monday", "s01", "s02")
            store.record_many(Attempt(n, "melds", f"l{i}", "passed" if i % 2 else "failed", stars=i % 4,
                                      actions=[{"kind": "refused", "text": "take 9 9", "rule": "R-PACK-3",
                                                "reason": "frozen"}] * 5) for i in range(60) for n in ("s01", "s02"))
            store.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        _STORE.append(path)
    return _STORE[0]


SQL_DAMAGE = ["DROP TABLE best_stars", "DROP TABLE classes", "ALTER TABLE attempts DROP COLUMN mode",
              "ALTER TABLE attempts RENAME TO gone", "DROP INDEX attempts_by_uid", "PRAGMA user_version = 99",
              "PRAGMA user_version = 0", "PRAGMA application_id = 7", "DELETE FROM learners",
              "UPDATE attempts SET started = 'not a time'", "UPDATE attempts SET themes = NULL",
              "PRAGMA ignore_check_constraints = ON; UPDATE attempts SET status = 'weird', stars = 99",
              "UPDATE attempt_actions SET attempt_id = 999999", "CREATE TABLE extra (x)"]


@st.composite
def store_damage(draw: st.DrawFn) -> tuple[str, object]:
    if draw(st.booleans()):
        return "sql", draw(st.lists(st.sampled_from(SQL_DAMAGE), min_size=1, max_size=3))
    edits = draw(st.lists(st.tuples(st.integers(0, 200_000), st.binary(min_size=1, max_size=64)), min_size=1,
                          max_size=6))
    cut = draw(st.none() | st.integers(0, 200_000))
    return "bytes", (edits, cut)


def _damage(path: Path, how: str, what: object) -> None:
    if how == "sql":
        conn = sqlite3.connect(path)
        for statement in what:  # type: ignore[union-attr]
            try:
                conn.executescript(statement)
            except sqlite3.Error:
                pass  # a statement the damage before it made impossible
        conn.commit()
        conn.close()
        return
    edits, cut = what  # type: ignore[misc]
    data = bytearray(path.read_bytes())
    for offset, junk in edits:
        offset %= max(1, len(data))
        data[offset:offset + len(junk)] = junk
    if cut is not None:
        del data[cut % max(1, len(data)):]
    path.write_bytes(bytes(data))


@settings(max_examples=examples("stores"), **FUZZ)
@given(store_damage())
def test_a_damaged_store_opens_and_reads_or_gives_one_store_error(tmp_path_factory, damage):
    root = tmp_path_factory.mktemp("store")
    path = root / "progress.sqlite3"
    shutil.copyfile(_real_store(tmp_path_factory.mktemp("real")), path)
    _damage(path, *damage)
    try:
        rows, actions = read_foreign(path)
        assert all(r["uid"] for r in rows)
    except ProgressStoreError as e:
        assert str(e) and e.cause
    try:
        with ProgressStore(path) as store:
            store.learners()
            store.classes()
            store.attempts()
            store.stars_for("s01")
            store.record(Attempt("s03", "melds", "x", "passed", stars=1))
    except ProgressStoreError as e:
        assert str(e) and e.cause and "Traceback" not in str(e)


# ------------------------------------------------------------------ record files, through the file reader
@st.composite
def record_files(draw: st.DrawFn) -> str:
    text = format_record(_played(draw(st.integers(0, 10**6)), draw(st.integers(0, 120))))
    return draw(mutated(st.just(text)))


@settings(max_examples=examples("record files"), **FUZZ)
@given(record_files())
def test_record_files_are_read_as_their_text_is(tmp_path_factory, text):
    path = tmp_path_factory.mktemp("record") / "game.txt"
    path.write_text(text, encoding="utf-8")
    try:
        from_text = parse_record(text)
    except NotationError as e:
        with pytest.raises(NotationError) as again:
            load_record(str(path))
        assert again.value.message == e.message and again.value.line == e.line
        return
    from_file = load_record(str(path))
    assert from_file.actions == from_text.actions and from_file.totals == from_text.totals
    try:
        replay(from_file)
    except NotationError as e:
        assert str(e)
