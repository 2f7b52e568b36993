"""Read and check lesson files: TOML, then the JSON Schema, then the checks the schema cannot make.

Nothing in a lesson file is evaluated: it is read within limits (a regular file of at most
:data:`MAX_CONTENT_BYTES`, UTF-8) and parsed by ``tomllib`` within limits on nesting and numbers
(:func:`canasta_tutor.notation.textinput.load_toml`), checked
against ``lesson.schema.json`` with ``jsonschema``, and its predicates,
actions, positions and rule numbers are checked here.  Every problem names
the file, the line and the field (:class:`~canasta_tutor.tutor.lessons.model.Problem`).

>>> text = 'id = "demo"\\ntitle = "Demo"\\norder = 1\\nsummary = "x"\\n[[level]]\\nid = "a"\\n'
>>> for p in check_text(text, "demo.toml"): print(p)
demo.toml:5: level[0].title: required, but missing
demo.toml:5: level[0].goal: required, but missing
demo.toml:5: level[0].par: required, but missing
demo.toml:5: level[0]: give exactly one setup: 'position' or 'generate'
demo.toml:5: level[0].success: required, but missing
demo.toml:5: level[0].solutions: required, but missing
"""

from __future__ import annotations

import json
import re
import sys
import tomllib
from functools import lru_cache
from pathlib import Path
from typing import Any, Iterable

from ...notation.actions import format_action, parse_action
from ...engine.errors import CanastaError, NotationError
from ...notation.position import parse_position
from ...notation.textinput import load_toml, read_file_text
from .course import known_rules
from .generate import PLACEHOLDER, placeholders
from .locate import format_field, locate, value_start_line
from .model import Lesson, Problem, build_lesson, verb_allowed
from .predicates import RULE_RE, check_expression, mentions, rules_in

SCHEMA_PATH = Path(__file__).with_name("lesson.schema.json")
#: The largest lesson or assignment file read (the course's largest lesson has about 16,000 bytes).
MAX_CONTENT_BYTES = 1_000_000
_TEXT_FIELDS = ("goal", "intro", "conclusion", "title")


class LessonFormatError(CanastaError, ValueError):
    """A lesson file with errors; ``problems`` lists them all."""

    def __init__(self, problems: list[Problem]) -> None:
        self.problems = problems
        first = str(problems[0]) if problems else "invalid lesson"
        more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
        super().__init__(first + more)


@lru_cache(maxsize=1)
def schema() -> dict[str, Any]:
    """The lesson JSON Schema shipped with the package."""
    with SCHEMA_PATH.open(encoding="utf-8") as f:
        data: dict[str, Any] = json.load(f)
    return data


def cut_text(text: str, n: int = 160) -> str:
    """``text`` on one line, cut to ``n`` characters (with an ellipsis) for a problem's message."""
    text = " ".join(str(text).split())
    return text if len(text) <= n else text[: n - 1] + "…"


class ProblemList:
    """The problems found in one file (``text``, named ``file``), each placed at its line."""

    def __init__(self, text: str, file: str) -> None:
        self.text = text
        self.file = file
        self.problems: list[Problem] = []

    def add(self, path: list[str | int], message: str, line: int | None = None) -> None:
        if line is None:
            line = locate(self.text, path) or 1
        self.problems.append(Problem(self.file, line, format_field(path), cut_text(message, 300)))


def import_jsonschema() -> Any:
    """Import ``jsonschema`` without its optional IRI format checker.

    That checker's dependency compiles a grammar at import, which takes seconds;
    lesson schemas use no formats.  The module is hidden only during the import.
    """
    if "jsonschema" not in sys.modules and "rfc3987_syntax" not in sys.modules:
        sys.modules["rfc3987_syntax"] = None  # type: ignore[assignment]
        try:
            import jsonschema  # type: ignore[import-untyped]  # noqa: F401 - imported for its side effect
        finally:
            del sys.modules["rfc3987_syntax"]
    import jsonschema

    return jsonschema


def _schema_problems(data: Any, chk: ProblemList) -> frozenset[int] | None:
    """Add the schema's errors; return the indices of the levels with one, or None when the file's own
    fields (outside its levels) have one, so that nothing more can be checked."""
    validator = import_jsonschema().Draft202012Validator(schema())
    bad: set[int] = set()
    whole = False
    for err in sorted(validator.iter_errors(data), key=lambda e: [str(p) for p in e.absolute_path]):
        path = list(err.absolute_path)
        if len(path) >= 2 and path[0] == "level" and isinstance(path[1], int):
            bad.add(path[1])
        else:
            whole = True
        if err.validator == "oneOf" and path and path[-1] != "success" and isinstance(err.instance, dict) \
                and "goal" in err.schema.get("properties", {}):
            has = [k for k in ("position", "generate") if k in err.instance]
            msg = "give exactly one setup: 'position' or 'generate'" + (" (both given)" if len(has) == 2 else "")
            chk.add(path, msg)
        elif err.validator == "required":
            m = re.match(r"'([^']+)' is a required property", err.message)
            missing = m.group(1) if m else ""
            chk.add(path + [missing] if missing else path, "required, but missing", line=locate(chk.text, path) or 1)
        elif err.validator == "oneOf":
            chk.add(path, f"not a predicate expression: {cut_text(repr(err.instance), 80)} (a name, a table with "
                          "one key, or all/any/not)")
        elif err.validator == "additionalProperties":
            msg = cut_text(err.message.replace("Additional properties are not allowed", "unknown field"))
            level_keys = set(schema()["$defs"]["level"]["properties"])
            extra = set(err.instance) - set(err.schema.get("properties", {}))
            if len(path) > 2 and path[0] == "level" and extra & level_keys:
                msg += (f"; a key below [[level.{path[2]}]] belongs to that table: move "
                        f"{', '.join(sorted(extra & level_keys))} above the level's first sub-table")
            chk.add(path, msg)
        else:
            chk.add(path, cut_text(err.message))
    return None if whole else frozenset(bad)


def toml_problem(err: tomllib.TOMLDecodeError, text: str, file: str) -> Problem:
    """A TOML syntax error as one problem, at its line (shared by every TOML content file)."""
    m = re.search(r"\(at line (\d+), column \d+\)", str(err))
    line = getattr(err, "lineno", None) or (int(m.group(1)) if m else max(1, len(text.splitlines())))
    msg = str(err).split(" (at line")[0].split(" (at end of document)")[0]
    return Problem(file, line, "", f"not valid TOML: {msg}")


def parse_toml(text: str, file: str) -> tuple[dict[str, Any] | None, Problem | None]:
    """A content file's TOML within limits (:func:`~canasta_tutor.notation.textinput.load_toml`): the data, or
    the one problem that stops it being read (shared by every TOML content file)."""
    try:
        return load_toml(text, file), None
    except tomllib.TOMLDecodeError as e:
        return None, toml_problem(e, text, file)
    except NotationError as e:
        return None, Problem(file, e.line, "", e.message)


def read_content(path: str | Path) -> tuple[str, Problem | None]:
    """The text of a content file (a lesson or an assignment) read within limits: a regular file of at
    most :data:`MAX_CONTENT_BYTES`, UTF-8.  Returns the text, or ``""`` and the problem that stops it
    being read (naming the file and, for text that is not UTF-8, the line)."""
    name = str(path)
    try:
        return read_file_text(path, MAX_CONTENT_BYTES, name), None
    except NotationError as e:
        return "", Problem(name, e.line, "", e.message)
    except OSError as e:
        return "", Problem(name, None, "", f"cannot read it: {e.strerror or e}")


def check_text(text: str, file: str = "<lesson>", rules: frozenset[str] | None = None) -> list[Problem]:
    """Every problem of a lesson file's text that can be found without playing it."""
    chk = ProblemList(text, file)
    data, problem = parse_toml(text, file)
    if problem is not None or data is None:
        chk.problems.append(problem or Problem(file, None, "", "not a lesson"))
        return chk.problems
    bad_levels = _schema_problems(data, chk)
    if bad_levels is None:
        return chk.problems
    # the levels the schema passed are checked further, so one bad level hides no error in the others
    _semantic_problems(data, chk, rules if rules is not None else known_rules(), skip=bad_levels)
    return chk.problems


def _semantic_problems(data: dict[str, Any], chk: ProblemList, rules: frozenset[str],
                       skip: frozenset[int] = frozenset()) -> None:
    seen: set[str] = set()
    for field in ("title", "summary", "intro"):
        if field in data:
            _check_rule_refs(data[field], [field], chk, rules)
    for i, lv in enumerate(data["level"]):
        if i in skip:
            continue
        here: list[str | int] = ["level", i]
        if lv["id"] in seen:
            chk.add(here + ["id"], f"level id {lv['id']!r} is used twice in this lesson")
        seen.add(lv["id"])
        _check_level(lv, here, chk, rules)


#: the fields of a level played with actions, which a scoring level (``[level.score]``) does not have
_PLAY_ONLY = ("success", "solutions", "generate", "allow", "turns", "try_illegal", "replies", "failure",
              "step_by_step")


def _check_texts(lv: dict[str, Any], here: list[str | int], chk: ProblemList, rules: frozenset[str]) -> None:
    """A level's texts, rules and hints: every rule number is one of the rule book's."""
    for field in _TEXT_FIELDS:
        if field in lv:
            _check_rule_refs(lv[field], here + [field], chk, rules)
    for j, r in enumerate(lv.get("rules", ())):
        if r not in rules:
            chk.add(here + ["rules", j], f"{r} is not a rule of the rule book")
    for j, h in enumerate(lv.get("hints", ())):
        _check_rule_refs(h, here + ["hints", j], chk, rules)


def _check_score_level(lv: dict[str, Any], here: list[str | int], chk: ProblemList, rules: frozenset[str]) -> None:
    """A scoring level: a finished hand to score, its texts, hints, notes and declared wrong answers."""
    for field in _PLAY_ONLY:
        if field in lv:
            chk.add(here + [field], f"a scoring level has no {field!r}: the learner answers the hand's score, "
                                    "which the engine computes from the position")
    _check_texts(lv, here, chk, rules)
    for j, w in enumerate(lv.get("wrong", ())):
        for k, act in enumerate(w["line"]):
            if not act.strip().lower().startswith("answer"):
                chk.add(here + ["wrong", j, "line", k], f"{act!r}: a scoring level's wrong line holds answers, "
                                                        "like 'answer 500 100 100 85 -15 770'")
        _check_rule_refs(w["feedback"], here + ["wrong", j, "feedback"], chk, rules)
    if "position" in lv:
        _check_position(lv["position"], here + ["position"], chk)
        try:
            state = parse_position(lv["position"])
        except NotationError:
            return
        if state.phase != "hand_over":
            chk.add(here + ["position"], "a scoring level scores a finished hand: write the turn as "
                                         "'turn: S hand_over went-out' (or the seat that ended it)")


def _check_level(lv: dict[str, Any], here: list[str | int], chk: ProblemList, rules: frozenset[str]) -> None:
    if "score" in lv:
        _check_score_level(lv, here, chk, rules)
        return
    seat = lv.get("seat", "S")
    allow = set(lv.get("allow", ())) or None
    gen = lv.get("generate")
    names = set(gen.get("vars", {})) if gen else set()
    _check_texts(lv, here, chk, rules)
    if gen:
        _check_text_vars(lv, here, chk, names)
    # predicates
    for err in check_expression(lv["success"], where=""):
        chk.add(here + ["success"], err)
    for r in rules_in(lv["success"]):
        if r not in rules:
            chk.add(here + ["success"], f"{r} is not a rule of the rule book")
    for j, f in enumerate(lv.get("failure", ())):
        for err in check_expression(f["when"]):
            chk.add(here + ["failure", j, "when"], err)
        for r in rules_in(f["when"]):
            if r not in rules:
                chk.add(here + ["failure", j, "when"], f"{r} is not a rule of the rule book")
        _check_rule_refs(f["feedback"], here + ["failure", j, "feedback"], chk, rules)
    for j, n in enumerate(lv.get("note", ())):
        if "rule" in n and n["rule"] not in rules:
            chk.add(here + ["note", j, "rule"], f"{n['rule']} is not a rule of the rule book")
        if "verb" in n and allow is not None and n["verb"] in allow:
            chk.add(here + ["note", j, "verb"], f"{n['verb']!r} is allowed in this level, so its note is never shown")
        _check_rule_refs(n["text"], here + ["note", j, "text"], chk, rules)
    if lv.get("try_illegal") and not mentions(lv["success"], "refused"):
        chk.add(here + ["success"], "a try_illegal level succeeds on a refusal: use { refused = \"R-...\" }")
    # the setup
    if "position" in lv:
        _check_position(lv["position"], here + ["position"], chk)
    if gen:
        _check_generator(gen, here + ["generate"], chk)
    # actions
    for j, line in enumerate(lv["solutions"]):
        for k, act in enumerate(line):
            _check_action(act, here + ["solutions", j, k], chk, names, allow, lv.get("try_illegal", False))
    shortest = min(len(s) for s in lv["solutions"])
    if shortest > lv["par"]:
        chk.add(here + ["par"], f"par is {lv['par']} but the shortest solution line has {shortest} actions")
    for j, w in enumerate(lv.get("wrong", ())):
        for k, act in enumerate(w["line"]):
            _check_action(act, here + ["wrong", j, "line", k], chk, names, None, True, press=True)
        if "rule" in w and w["rule"] not in rules:
            chk.add(here + ["wrong", j, "rule"], f"{w['rule']} is not a rule of the rule book")
        _check_rule_refs(w["feedback"], here + ["wrong", j, "feedback"], chk, rules)
    for s, acts in lv.get("replies", {}).items():
        if s == seat:
            chk.add(here + ["replies", s], f"{s} is the learner's seat; replies are for the other seats")
        for k, act in enumerate(acts):
            _check_action(act, here + ["replies", s, k], chk, names, None, True)
    for j, f in enumerate(lv.get("failure", ())):
        _check_played_vars(f["when"], here + ["failure", j, "when"], chk, names)
    _check_played_vars(lv["success"], here + ["success"], chk, names)


def _check_text_vars(lv: dict[str, Any], here: list[str | int], chk: ProblemList, names: set[str]) -> None:
    """In a generated level, ``{name}`` in a text must be a variable of the generator."""
    texts: list[tuple[list[str | int], str]] = [(here + [f], lv[f]) for f in ("goal", "intro", "conclusion") if f in lv]
    texts += [(here + ["hints", j], h) for j, h in enumerate(lv.get("hints", ()))]
    texts += [(here + ["failure", j, "feedback"], f["feedback"]) for j, f in enumerate(lv.get("failure", ()))]
    texts += [(here + ["note", j, "text"], n["text"]) for j, n in enumerate(lv.get("note", ()))]
    texts += [(here + ["wrong", j, "feedback"], w["feedback"]) for j, w in enumerate(lv.get("wrong", ()))]
    for path, text in texts:
        for fresh, name in placeholders(text):
            if fresh or name not in names:
                chk.add(path, f"{{{'~' if fresh else ''}{name}}} is not a named variable of this level's generator")


def _check_rule_refs(text: str, path: list[str | int], chk: ProblemList, rules: frozenset[str]) -> None:
    for r in RULE_RE.findall(text):
        if r not in rules:
            chk.add(path, f"{r} is not a rule of the rule book")


def _check_action(act: str, path: list[str | int], chk: ProblemList, names: set[str], allow: set[str] | None,
                  may_be_illegal: bool, press: bool = False) -> None:
    for fresh, name in placeholders(act):
        if fresh:
            chk.add(path, f"{{~{name}}} draws a fresh value; an action may use only named variables like {{{name}}}")
            return
        if name not in names:
            chk.add(path, f"{{{name}}} is not a variable of this level's generator")
            return
    sample = PLACEHOLDER.sub(lambda m: "K", act)
    if press and sample.split()[:1] == ["press"]:  # a click, as the widget logs it (see .clicks)
        from .clicks import parse_press

        try:
            parse_press(sample)
        except NotationError as e:
            chk.add(path, e.message)
        return
    try:
        action = parse_action(sample)
        format_action(action)
    except NotationError as e:
        chk.add(path, f"{e.message}" if "{" not in act else f"{act!r}: {e.message}")
        return
    if allow is not None and not verb_allowed(action[0], allow) and not may_be_illegal:
        chk.add(path, f"{action[0]!r} is not among the verbs this level allows ({', '.join(sorted(allow))})")


def _check_played_vars(expr: Any, path: list[str | int], chk: ProblemList, names: set[str]) -> None:
    if isinstance(expr, dict):
        for key, arg in expr.items():
            if key in ("all", "any") and isinstance(arg, list):
                for e in arg:
                    _check_played_vars(e, path, chk, names)
            elif key == "not":
                _check_played_vars(arg, path, chk, names)
            elif isinstance(arg, str):
                for fresh, name in placeholders(arg):
                    if fresh or name not in names:
                        chk.add(path, f"{{{'~' if fresh else ''}{name}}} is not a named variable of this level")


def _check_position(text: str, path: list[str | int], chk: ProblemList) -> None:
    try:
        parse_position(text)
    except NotationError as e:
        key_line = locate(chk.text, path)
        line = None
        if key_line is not None and e.line is not None:
            line = value_start_line(chk.text, key_line) + e.line - 1
        field = format_field(path) + (f" ({e.field})" if e.field else "")
        chk.problems.append(Problem(chk.file, line or key_line, field, cut_text(e.message, 300)))


def _check_generator(gen: dict[str, Any], path: list[str | int], chk: ProblemList) -> None:
    names = set(gen.get("vars", {}))
    for fresh, name in placeholders(gen["template"]):
        if name not in names:
            chk.add(path + ["template"], f"{{{'~' if fresh else ''}{name}}} has no values in [generate.vars]")
    for j, c in enumerate(gen.get("constraints", ())):
        for err in check_expression(c, position_only=True):
            chk.add(path + ["constraints", j], err)


def _level_lines(text: str, count: int) -> list[int | None]:
    return [locate(text, ["level", i]) for i in range(count)]


def parse_lesson(text: str, file: str = "<lesson>", rules: frozenset[str] | None = None) -> Lesson:
    """A lesson from its text; raises :class:`LessonFormatError` listing every problem."""
    problems = check_text(text, file, rules)
    if problems:
        raise LessonFormatError(problems)
    data = load_toml(text, file)
    return build_lesson(data, file, _level_lines(text, len(data["level"])))


def load_lesson(path: str | Path, rules: frozenset[str] | None = None) -> Lesson:
    """Read and check one lesson file (read within limits: see :func:`read_content`)."""
    text, problem = read_content(path)
    if problem is not None:
        raise LessonFormatError([problem])
    return parse_lesson(text, str(path), rules)


def check_course(lessons: Iterable[Lesson]) -> list[Problem]:
    """Problems across lessons: a lesson id or order used twice."""
    problems: list[Problem] = []
    ids: dict[str, str] = {}
    for lesson in lessons:
        if lesson.id in ids:
            problems.append(Problem(lesson.file, locate_id(lesson), "id",
                                    f"lesson id {lesson.id!r} is also used by {ids[lesson.id]}"))
        ids.setdefault(lesson.id, lesson.file)
    return problems


def locate_id(lesson: Lesson) -> int | None:
    text, problem = read_content(lesson.file)
    return None if problem is not None else locate(text, ["id"])


__all__ = ["LessonFormatError", "schema", "check_text", "parse_lesson", "load_lesson", "check_course",
           "SCHEMA_PATH", "MAX_CONTENT_BYTES", "parse_toml", "read_content"]
