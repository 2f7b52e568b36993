"""Records and positions that used to slip through: each is refused cleanly, or read one way.

- records: the command line and :func:`load_record` share one reader; the header comes before
  the actions and nothing follows the result line; every variant's sides are named in ``replay``;
- positions: every position :func:`parse_position` accepts passes :func:`check_invariants`
  (the three impossible positions that were accepted are refused, with the rule).
"""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest

from canasta_tutor import Game, NotationError
from canasta_tutor.cli.main import main
from canasta_tutor.engine.errors import ImpossiblePositionError
from canasta_tutor.engine.invariants import check_invariants
from canasta_tutor.notation.position import format_position, parse_position
from canasta_tutor.notation.record import format_record, load_record, replay, replay_file
from canasta_tutor.engine.variants import get_variant

ROOT = Path(__file__).resolve().parent.parent
GAME_1 = ROOT / "tests" / "golden" / "game_1.txt"


def _won_by_last_side(name: str) -> str:
    """The record of a one-hand game of ``name`` that its last side wins (random play, the last side
    starting 10 short of the target)."""
    v = get_variant(name)
    for seed in range(200):
        totals = [0] * v.n_sides
        totals[-1] = v.target - 10
        s = Game(variant=v).new_initial_state(seed=seed, totals=tuple(totals))
        rng = random.Random(seed)
        while s.phase not in ("hand_over", "game_over"):
            s.apply(rng.choice(s.legal_actions()))
        if s.phase == "game_over" and s.winner == v.n_sides - 1:
            return format_record(s)
    raise AssertionError(f"no {name} game won by the last side in 200 seeds")


# ------------------------------------------------------------------ records
@pytest.mark.parametrize("name", ["two-handed", "three-handed", "six-handed"])
def test_replay_names_every_side_of_the_variant_and_its_winner(tmp_path, capsys, name):
    v = get_variant(name)
    path = tmp_path / "game.txt"
    path.write_text(_won_by_last_side(name), encoding="utf-8")
    assert main(["replay", str(path)]) == 0
    out = capsys.readouterr().out
    lines = out.splitlines()
    scores = " ".join(rf"{n} [+-]\d+" for n in v.side_names)
    totals = " ".join(rf"{n} -?\d+" for n in v.side_names)
    how = r"(?:\w+ went out(?: concealed)?|no one out)"
    assert re.fullmatch(rf"hand 1: {scores}  \({how}; totals {totals}\)", lines[0]), lines[0]
    assert re.fullmatch(rf"totals: {totals}", lines[-3]), lines[-3]
    assert lines[-2] == f"winner: {v.side_names[-1]}" and lines[-1] == "result line: matches"
    assert "EW" not in out or "EW" in v.side_names
    assert main(["replay", str(path), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert list(data["totals"]) == list(v.side_names) and data["winner"] == v.side_names[-1]
    assert list(data["hands"][0]["scores"]) == list(v.side_names)


def test_a_header_after_the_actions_is_refused_by_the_command_line_and_load_record(tmp_path, capsys):
    bad = tmp_path / "x.txt"
    bad.write_text(GAME_1.read_text(encoding="utf-8") + "totals: 1000 1000\n", encoding="utf-8")
    assert main(["replay", str(bad)]) == 2
    err = capsys.readouterr().err
    assert "nothing may follow it" in err and "line 1542" in err and err.count("\n") == 1
    with pytest.raises(NotationError, match="nothing may follow it"):
        load_record(str(bad))
    lines = GAME_1.read_text(encoding="utf-8").splitlines()
    lines.insert(10, "totals: 1000 1000")  # among the actions
    bad.write_text("\n".join(lines) + "\n", encoding="utf-8")
    for read in (lambda: load_record(str(bad)), lambda: replay_file(str(bad))):
        with pytest.raises(NotationError, match=r"the header \(totals\) comes before the actions") as e:
            read()
        assert e.value.line == 11 and e.value.source == str(bad)
    assert main(["replay", str(bad)]) == 2


def test_the_command_line_and_load_record_read_a_record_alike(tmp_path):
    record = load_record(str(GAME_1))
    streamed, state = replay_file(str(GAME_1))
    assert streamed.actions == record.actions and streamed.totals == record.totals
    assert replay(record).totals == state.totals
    with_comments = tmp_path / "c.txt"
    with_comments.write_text(GAME_1.read_text(encoding="utf-8") + "# a comment after the result\n\n",
                             encoding="utf-8")
    assert load_record(str(with_comments)).result == record.result


# ------------------------------------------------------------------ positions
def _fresh_deal_text(seed: int) -> tuple[str, list[str], list[str]]:
    """A fresh classic deal with no red three in a hand and three black threes in the stock: its position
    text without the stock, pile and first-turn lines, the stock and pile's cards, and three black threes."""
    from canasta_tutor.engine.cards import ALL_CARD_CODES, RED_THREE

    for s in range(seed, seed + 100):
        state = Game().new_initial_state(seed=s)
        stock = [ALL_CARD_CODES[c] for c in state.stock + state.pile]
        b3 = [c for c in stock if c in ("3S", "3C")]
        if len(b3) >= 3 and not any(state.hands[i][RED_THREE] for i in range(4)):
            lines = [x for x in format_position(state).splitlines()
                     if not x.startswith(("first-turn", "stock", "pile"))]
            return "\n".join(lines), stock, b3[:3]
    raise AssertionError("no such deal")


def _impossible() -> dict[str, tuple[str, str]]:
    """The three impossible positions the parser accepted, each with the words of its refusal."""
    head, rest, b3 = _fresh_deal_text(0)
    head = head.replace("turn: S draw", "turn: S hand_over")
    reds = [c for c in rest if c in ("3H", "3D")]
    pile = [c for c in rest if c not in reds]
    over = f"{head}\nstock: 0\nred threes EW: {' '.join(reds)}\n"
    for c in b3:
        pile.remove(c)
    black = over + f"pile: {' '.join(pile)}\nmelds NS: {' '.join(b3)}\n"
    dealt = Game().new_initial_state(seed=0)
    nobody_out = format_position(dealt).replace("turn: S draw", "turn: S hand_over").replace("first-turn: N E W\n", "")
    state = Game().new_initial_state(seed=0)
    rng = random.Random(0)
    while not (state.current_seat == "E" and state.phase == "draw" and state.initial[1]):
        legal = state.legal_actions()
        keen = [a for a in legal if a[0] in ("meld", "take")]
        state.apply(rng.choice(keen if keen and rng.random() < 0.7 else legal))
    pending = format_position(state).replace("turn: E draw", "turn: E draw pending=40")
    return {"draw pending": (pending, "pending=40 in the draw phase"),
            "hand over, nobody out": (nobody_out, "nobody went out and the stock holds 62 cards"),
            "black threes, not out": (black, r"black threes are melded only when going out \(R-MELD-4\)")}


IMPOSSIBLE = _impossible()


@pytest.mark.parametrize("name", sorted(IMPOSSIBLE))
def test_the_impossible_positions_that_were_accepted_are_refused(name):
    text, words = IMPOSSIBLE[name]
    with pytest.raises(ImpossiblePositionError, match=words):
        parse_position(text)


def test_a_hand_ended_by_the_stock_is_still_a_position():
    head, rest, _ = _fresh_deal_text(0)
    reds = [c for c in rest if c in ("3H", "3D")]
    pile = [c for c in rest if c not in reds]
    text = head.replace("turn: S draw", "turn: S hand_over") + (
        f"\nstock: 0\nred threes EW: {' '.join(reds)}\npile: {' '.join(pile)}\n")
    state = parse_position(text)
    assert state.phase == "hand_over" and state.went_out is None
    assert check_invariants(state, history=False) == []


def test_every_position_the_parser_accepts_passes_the_invariants():
    """The property on the files the project ships: examples and the test positions."""
    files = sorted((ROOT / "tests" / "positions").glob("*.txt")) + sorted((ROOT / "examples").glob("*.txt"))
    assert files
    for f in files:
        state = parse_position(f.read_text(encoding="utf-8"))
        assert check_invariants(state, history=False) == [], f
        assert format_position(parse_position(format_position(state))) == format_position(state), f
