"""The strategy catalogue: named principles of classic Canasta play.

Each principle has an ID, one sentence, and when it applies.  The
rules-of-thumb bot is built from them and the hint cites them.  The same
catalogue is printed in ``seeds/strategy.md`` (kept in step by a test).

>>> PRINCIPLES["P-FREEZE"].sentence.startswith("Freeze the pack")
True
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Principle:
    id: str
    title: str
    sentence: str
    applies: str


_CATALOGUE = [
    Principle("P-OPEN-EARLY", "Open early",
              "Make your side's initial meld as soon as you can reach the minimum, because until then "
              "the pack is frozen against you.",
              "Your side has not melded and your hand (or the pack's top card with a pair) reaches the minimum."),
    Principle("P-TAKE-PACK", "Take the pack",
              "Take the pack whenever it is cheap to do so, and above all when it is big: every card in it "
              "is material for melds and canastas, and the opponents cannot have it.",
              "A pair, a natural and a wild card, or one of your melds matches the top card."),
    Principle("P-HOLD-PAIRS", "Hold pairs",
              "Keep natural pairs in your hand instead of melding them with wild cards, so that you can take "
              "a frozen pack.",
              "You could meld a pair with a wild card, or break a pair with your discard."),
    Principle("P-FREEZE", "Freeze the pack",
              "Freeze the pack with a wild card when the opponents have melded and your side has not, and "
              "the pack is worth more to them than to you.",
              "The opponents have made their initial meld, your side has not, and the pack is growing."),
    Principle("P-SAFE-DISCARD", "Discard safely",
              "Discard cards the next opponent cannot use: never a card that matches their melds while the "
              "pack is open to them, preferably one they have thrown themselves or that is already dead.",
              "Every discard, especially when the pack is big or not frozen."),
    Principle("P-STOP-THREE", "Stop with a black three",
              "A black three cannot be picked up on top of the pack, so it is the safest discard; save it for "
              "when the pack is big or the next player is dangerous.",
              "You hold a black three and the pack is worth protecting."),
    Principle("P-ASK-PARTNER", "Ask before going out",
              "Ask \"Partner, may I go out?\" rather than going out blindly, so that a partner holding many "
              "points can say no and meld them first.",
              "You can go out this turn and your partner may still hold a lot of points."),
    Principle("P-PARTNER-ANSWER", "Answer for the side",
              "Answer no when you hold many points you could meld next turn, yes when your hand is light or "
              "the opponents are about to catch up.",
              "Your partner has asked whether they may go out."),
    Principle("P-COUNT-CARDS", "Count the cards",
              "Watch the opponents' card counts: when one is nearly out, unload high cards and do not pick up "
              "a big pack you cannot meld.",
              "An opponent holds very few cards, or the stock is running out."),
    Principle("P-GO-OUT", "Go out in time",
              "Go out when the opponents are catching up, are about to go out themselves, or the stock is low: "
              "the 100 bonus and their stranded cards swing the hand.",
              "Your side has a canasta and you can meld your whole hand."),
    Principle("P-KEEP-BUILDING", "Keep building",
              "Do not go out the moment you can when your side is gaining faster: more canastas are worth more "
              "than the going-out bonus.",
              "You could go out, your side leads in canastas, and the opponents are not close."),
    Principle("P-CONCEALED", "Go out concealed",
              "If your whole hand can go down at once with a canasta and you have not melded before, going out "
              "concealed earns a further 100, and from the stock it needs no minimum.",
              "You have not melded yet and your hand holds a canasta's worth of cards."),
    Principle("P-BUILD-CANASTA", "Build canastas",
              "Put cards where they make canastas: add naturals to your melds and use wild cards to finish a "
              "canasta rather than spreading them thin.",
              "You have melds that are close to seven cards."),
    Principle("P-NATURAL-CANASTA", "Keep canastas natural",
              "Keep wild cards off a meld that can still become a natural canasta: it is worth 500, a mixed "
              "one 300.",
              "A meld has four or more naturals and no wild card."),
]

#: The principles by ID, in catalogue order.
PRINCIPLES: dict[str, Principle] = {p.id: p for p in _CATALOGUE}


def catalogue_markdown() -> str:
    """The catalogue as Markdown (the contents of ``seeds/strategy.md``)."""
    lines = [
        "# Strategy catalogue",
        "",
        "The principles the rules-of-thumb bot plays by and the hint cites, in our own words.",
        "Each has an ID, one sentence, and when it applies. Generated from",
        "`canasta_tutor/bots/principles.py`; a test keeps this file in step.",
        "",
    ]
    for p in _CATALOGUE:
        lines += [f"## {p.id}: {p.title}", "", p.sentence, "", f"*Applies when:* {p.applies}", ""]
    return "\n".join(lines)


__all__ = ["Principle", "PRINCIPLES", "catalogue_markdown"]
