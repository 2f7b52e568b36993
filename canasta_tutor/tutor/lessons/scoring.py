"""Scoring levels: the learner answers a finished hand's score, line by line, and each line is checked.

A level with a ``[level.score]`` table (see ``lessons/FORMAT.md``) sets up a hand that is over
(``turn: S hand_over went-out``).  The learner gives their side's score for it, one number per
line of the score sheet (:data:`ITEMS`); every line is checked against the engine's own score
(:meth:`canasta_tutor.engine.state.State.score_hand`), and each wrong line is named with the right
figure and how it is made up, from the cards on the table and the rule that sets it.

Answers are text, so the command line, a log and the widget share them: ``"800 100 100 385 -15
1370"`` (the numbers in the level's order) or ``"canastas=800 red_threes=100 ..."``.

>>> from canasta_tutor.notation.position import parse_position
>>> state = parse_position('''
... dealer: E
... turn: S hand_over went-out
... pile: 5H
... N: 4C 9D
... E: 7C 8D
... S: -
... W: KS
... melds NS: QH QS QD QC QH QS QD (natural canasta); 7H 7D 7S
... red threes NS: 3H
... ''')
>>> q = ScoreQuestion.of(state, "S")
>>> [(i.id, i.value) for i in q.items]
[('canastas', 500), ('red_threes', 100), ('going_out', 100), ('melded', 85), ('in_hand', -15), ('total', 770)]
>>> right, lines = q.check(parse_answer("500 100 100 85 -15 770", q.ids))
>>> right
True
>>> right, lines = q.check(parse_answer("500 100 100 70 -15 755", q.ids))
>>> right
False
>>> print(lines[3])  # doctest: +NORMALIZE_WHITESPACE
✗ Cards melded: you wrote 70; it is 85. 7♠ 7♥ 7♦ count 15 and Q♠ Q♠ Q♥ Q♥ Q♦ Q♦ Q♣ count 70: 85
(R-SCORE-2, R-CARDS-3).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ...engine.cards import ALL_CARD_CODES, CARD_VALUE, sort_key
from ...engine.errors import NotationError
from ...engine.state import State, seat_index
from ..view import card_text, player_name

#: the lines of a hand's score, in the order of the score sheet
ITEMS = ("canastas", "red_threes", "going_out", "melded", "in_hand", "total")
LABELS = {"canastas": "Canasta bonuses", "red_threes": "Red threes", "going_out": "Going out",
          "melded": "Cards melded", "in_hand": "Cards left in hand", "total": "Hand total"}
#: what an answer may hold at most (a hand's score is a few thousand at most)
LIMIT = 100_000


class AnswerError(NotationError):
    """An answer that is not numbers for the level's lines (it counts no try)."""


@dataclass(frozen=True)
class ScoreItem:
    """One line of the score: its id, label, the engine's value and how that value is made up."""

    id: str
    label: str
    value: int
    why: str

    def accepts(self, answer: int) -> bool:
        # cards in hand count against the side: "15" for a hand worth -15 is the same line
        return answer == self.value or (self.id == "in_hand" and answer == -self.value)


@dataclass(frozen=True)
class ScoreQuestion:
    """The lines the learner must give for one side's score of a finished hand."""

    items: tuple[ScoreItem, ...]

    @property
    def ids(self) -> tuple[str, ...]:
        return tuple(i.id for i in self.items)

    @classmethod
    def of(cls, state: State, seat: str, items: tuple[str, ...] = ITEMS) -> ScoreQuestion:
        """The question for ``seat``'s side of ``state``, a hand that is over."""
        return cls(tuple(i for i in _items(state, seat) if i.id in items))

    def answer_text(self, values: dict[str, int]) -> str:
        """The canonical text of an answer: ``canastas=800 red_threes=100 ...``."""
        return " ".join(f"{i}={values[i]}" for i in self.ids if i in values)

    def right_answer(self) -> str:
        return self.answer_text({i.id: i.value for i in self.items})

    def check(self, values: dict[str, int]) -> tuple[bool, list[str]]:
        """Whether every line is right, and one line of feedback per item: a tick for a right one, and
        for a wrong one what was written, the right figure and how it is made up."""
        lines = []
        right = True
        for item in self.items:
            given = values.get(item.id)
            if given is not None and item.accepts(given):
                lines.append(f"✓ {item.label}: {given}.")
                continue
            right = False
            said = "you left it out" if given is None else f"you wrote {given}"
            lines.append(f"✗ {item.label}: {said}; it is {item.value}. {item.why}")
        return right, lines


def parse_answer(text: str, ids: tuple[str, ...]) -> dict[str, int]:
    """An answer's numbers by line: ``"800 100 ..."`` in the order of ``ids``, or ``"canastas=800 ..."``.

    >>> parse_answer("canastas=500, total=770", ITEMS)
    {'canastas': 500, 'total': 770}
    >>> parse_answer("500 x", ("canastas", "total"))  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    canasta_tutor.tutor.lessons.scoring.AnswerError: 'x' is not a whole number: give one number per line ...
    """
    if not isinstance(text, str) or len(text) > 400:
        raise AnswerError("an answer is a short line of numbers")
    words = [w for w in re.split(r"[\s,;]+", text.strip()) if w]
    example = " ".join(["500", "100", "100", "85", "-15", "770"][:len(ids)])
    if not words:
        raise AnswerError(f"give one number per line ({', '.join(ids)}), like {example!r}")
    named = all("=" in w or ":" in w for w in words)
    out: dict[str, int] = {}
    if named:
        for w in words:
            key, _, num = w.replace(":", "=").partition("=")
            key = key.strip().lower()
            if key not in ids:
                raise AnswerError(f"{key!r} is not a line of this score: the lines are {', '.join(ids)}")
            out[key] = _number(num, ids, example)
        return out
    if len(words) != len(ids):
        raise AnswerError(f"give {len(ids)} numbers, one per line ({', '.join(ids)}), like {example!r}; "
                          f"you gave {len(words)}")
    for key, w in zip(ids, words, strict=True):
        out[key] = _number(w, ids, example)
    return out


def _number(word: str, ids: tuple[str, ...], example: str) -> int:
    w = word.strip().replace("+", "").replace("\u2212", "-")
    if not re.fullmatch(r"-?\d{1,6}", w) or abs(int(w)) > LIMIT:
        raise AnswerError(f"{word[:20]!r} is not a whole number: give one number per line ({', '.join(ids)}), "
                          f"like {example!r}")
    return int(w)


def _cards(cards: list[int]) -> str:
    return " ".join(card_text(ALL_CARD_CODES[c]) for c in sorted(cards, key=sort_key))


def _items(state: State, seat: str) -> list[ScoreItem]:
    """Every line of ``seat``'s side's score of the finished hand, with how it is made up."""
    variant = state.variant
    me = seat_index(seat, variant.seats)
    side = state.sides[me]
    score = state.score_hand().sides[side]
    bonuses = variant.bonuses
    out: list[ScoreItem] = []

    canastas = bonuses.natural_canasta * score.natural_canastas + bonuses.mixed_canasta * score.mixed_canastas
    parts = []
    if score.natural_canastas:
        parts.append(f"{_n(score.natural_canastas, 'natural canasta')} at {bonuses.natural_canasta}")
    if score.mixed_canastas:
        parts.append(f"{_n(score.mixed_canastas, 'mixed canasta')} at {bonuses.mixed_canasta}")
    why = (" and ".join(parts) + f": {canastas}" if parts else "Your side has no canasta: 0") + " (R-SCORE-1, R-CAN-2)."
    out.append(ScoreItem("canastas", LABELS["canastas"], canastas, why))

    reds = len(state.red3[side])
    if not reds:
        why = "Your side has no red three: 0 (R-RED-4)."
    else:
        each = f"all four, {score.red_threes if score.red_threes > 0 else -score.red_threes}" if reds == 4 else \
            f"100 each, {abs(score.red_threes)}"
        why = f"{_n(reds, 'red three')} on the table, {each} (R-RED-4)"
        why += (", and your side melded nothing, so they count against it (R-RED-5)." if score.red_threes < 0
                else ".")
    out.append(ScoreItem("red_threes", LABELS["red_threes"], score.red_threes, why))

    who = state.went_out
    if who is None:
        why = "Nobody went out: the hand ended with the stock: 0."
    elif state.sides[who] != side:
        why = f"{player_name(variant, who)} went out, not your side: 0."
    elif score.concealed:
        why = (f"{player_name(variant, who)} went out concealed: {score.going_out} and "
               f"{score.concealed} more (R-SCORE-1, R-CONC-3).")
    else:
        why = f"{player_name(variant, who)} went out: {score.going_out} (R-SCORE-1)."
    out.append(ScoreItem("going_out", LABELS["going_out"], score.going_out + score.concealed, why))

    melds = sorted(state.melds[side].items())
    counted = [(m[0] + m[1], sum(CARD_VALUE[c] for c in m[0] + m[1])) for _, m in melds]
    if counted:
        terms = [f"{_cards(cards)} count {value}" for cards, value in counted]
        why = (", ".join(terms[:-1]) + " and " + terms[-1] if len(terms) > 1 else terms[0])
        why += f": {score.melded} (R-SCORE-2, R-CARDS-3)." if len(terms) > 1 else " (R-SCORE-2, R-CARDS-3)."
    else:
        why = "Your side melded nothing: 0 (R-SCORE-2)."
    out.append(ScoreItem("melded", LABELS["melded"], score.melded, why))

    held = []
    for s in variant.side_seats[side]:
        cards = [c for kind in state.hands[s] for c in kind]
        name = "you" if s == me else player_name(variant, s)
        held.append(f"{name} {'hold' if s == me else 'holds'} " + (
            f"{_cards(cards)} ({sum(CARD_VALUE[c] for c in cards)})" if cards else "nothing"))
    why = ("; ".join(held) + f": they count against your side, {score.in_hand} (R-SCORE-2).")
    out.append(ScoreItem("in_hand", LABELS["in_hand"], score.in_hand, why[0].upper() + why[1:]))

    lines = [canastas, score.red_threes, score.going_out + score.concealed, score.melded, score.in_hand]
    sums = " ".join(f"{'-' if t < 0 else '+'} {abs(t)}" for t in lines).lstrip("+ ")
    out.append(ScoreItem("total", LABELS["total"], score.total,
                         f"The bonuses and the points together: {sums} = {score.total} (R-SCORE-3)."))
    return out


def _n(n: int, what: str) -> str:
    words = ("no", "one", "two", "three", "four", "five", "six")
    return f"{words[n] if n < len(words) else n} {what}{'' if n == 1 else 's'}"


__all__ = ["ITEMS", "LABELS", "AnswerError", "ScoreItem", "ScoreQuestion", "parse_answer"]
