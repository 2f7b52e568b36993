"""Variants: what differs between classic partnership Canasta and its adaptations.

A :class:`Variant` is plain data: seats and sides, the deck, the deal, the draw,
what going out needs, the initial-meld minimums, the bonuses and the game target.
The :class:`~canasta_tutor.engine.game.Game` carries one (``state.variant``); the engine
asks it instead of assuming four seats.  The rule book gives each adaptation its
own area of numbered rules (``TWO``, ``THREE``, ``SIX``, ``ITAL``, ``SAMBA``, ``FIVE``, ``BOL``).

>>> CLASSIC.players, CLASSIC.seats, CLASSIC.side_names, CLASSIC.partners(2)
(4, 'NESW', ('NS', 'EW'), (0,))
>>> two = get_variant("two-handed")
>>> two.hand_size, two.draw, two.canastas_to_go_out, two.partners(0), two.side_names
(15, 2, 2, (), ('N', 'S'))
>>> six = get_variant("six-handed")
>>> six.num_cards, six.n_sides, six.side_of(4), six.partners(1), six.next_seat(5)
(162, 3, 1, (4,), 0)
>>> [CLASSIC.minimum_for(t) for t in (-10, 0, 1500, 3000)]
[15, 50, 90, 120]
>>> six.red_three_bonus(5), CLASSIC.red_three_bonus(4)
(1000, 800)
>>> try:
...     get_variant("seven-handed")
... except UnknownVariantError as e:
...     print(str(e).replace("five-handed, ", "five-handed,\\n"))
'seven-handed' is not a variant; known: classic, two-handed, three-handed, six-handed, italian, samba, five-handed,
bolivia, chile, pennies

Choices made where the references disagree (rulings 7 to 9 of the rule book settle them):

- two-handed: draw two, discard one, two canastas to go out (R-TWO-3, R-TWO-5); with one card left in
  the stock the player draws that card alone and plays on (R-TWO-4).
- three-handed: each plays alone, 13 cards, one card drawn, one canasta to go out, game 5,000
  (R-THREE-2, R-THREE-3); "Cutthroat", with its changing partnerships, is not this game.
- six-handed: three sides of two partners sitting opposite (seats 0 and 3, 1 and 4, 2 and 5), not two
  sides of three; three packs with six jokers (162 cards); 13 cards; one card drawn; two canastas to
  go out; game 7,500 with the classic minimum table; five red threes 1,000 and six 1,200 (R-SIX-1..6).
- italian: the book's rules R-ITAL-1..11 as rulings 10 to 14 settle them; where the book leaves a point
  open the engine reads it as :mod:`canasta_tutor.engine.italian` explains (a meld of deuces is made of wild
  cards, so it is never part of the initial meld; the initial meld is the melding up to the minimum).
- bolivia: Samba's rules with melds of wild cards (a bolivia at seven, 2,500), two canastas with an
  escalera among them to go out, black threes left in hand at -100, 150 from 7,000 up and a game of 15,000
  (R-BOL-1..8, ruling 18); chile is the same game under another name (R-BOL-9, ruling 19).
- the draw for seats in a variant (the rule book's software note on the variants): the highest drawer
  sits South and plays first; the others, in the order of their cards, fill South's partners' seats,
  then each other side's seats in turn order (see :func:`canasta_tutor.engine.game.seating_order`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Final

from .errors import CanastaError


class UnknownVariantError(CanastaError, ValueError):
    """A variant name that is not one of :data:`VARIANTS`; quotes the name and lists the known ones."""

    def __init__(self, name: object) -> None:
        self.name = name
        text = repr(name) if len(repr(name)) <= 40 else repr(name)[:40] + "…"
        super().__init__(f"{text} is not a variant; known: {', '.join(VARIANTS)}")


@dataclass(frozen=True)
class Bonuses:
    """The bonus table of a variant (classic R-SCORE-1, R-RED-4, R-CONC-3).

    ``red_threes[n]`` is the bonus for a side holding ``n`` red threes (taken off instead
    when the side melded nothing, R-RED-5).
    """

    natural_canasta: int = 500
    mixed_canasta: int = 300
    going_out: int = 100
    concealed: int = 100
    red_threes: tuple[int, ...] = (0, 100, 200, 300, 800)
    #: Italian Canasta's further bonuses at the end of a hand (R-ITAL-10); 0 where a variant has none.
    #: Five canastas, four of them natural and one mixed (or more), or five natural: the larger one only.
    five_canastas_one_mixed: int = 0
    five_natural_canastas: int = 0
    #: ten canastas of any kind, on top of the five-canasta bonus
    ten_canastas: int = 0
    #: a canasta of deuces, for the side that goes out only (in place of the R-CAN-2 bonus; R-ITAL-10)
    deuce_canasta: int = 0
    #: Pennies from Heaven's canastas of wild cards and of sevens (R-PEN-8); 0 where a variant has none
    wild_canasta: int = 0
    sevens_canasta: int = 0


@dataclass(frozen=True)
class Variant:
    """One way to play: see the module docstring.  Seats are numbered ``0..players-1`` in turn order
    (the turn passes from seat ``i`` to seat ``i + 1``); ``seats[i]`` is seat ``i``'s letter."""

    name: str
    #: the rule book's area for this variant's own rules (``""`` for classic)
    rule_area: str
    players: int
    seats: str
    #: the side of each seat
    sides: tuple[int, ...]
    packs: int
    jokers: int
    hand_size: int
    #: cards drawn from the stock per turn
    draw: int
    canastas_to_go_out: int
    #: ``(lowest total, minimum)`` bands, ascending; a total below 0 needs ``negative_minimum`` (R-MIN-1)
    minimum_bands: tuple[tuple[int, int], ...] = ((0, 50), (1500, 90), (3000, 120))
    negative_minimum: int = 15
    bonuses: Bonuses = field(default_factory=Bonuses)
    target: int = 5000
    #: the rule a refused go-out cites when the side lacks the canastas (R-OUT-1; R-TWO-5, R-SIX-4)
    go_out_rule: str = "R-OUT-1"
    # Italian Canasta (R-ITAL); each default is the classic behaviour
    #: deuces may also be melded as a rank of their own, a canasta at seven, that does not count for
    #: going out; a side with an unfinished meld of deuces uses no deuce as a wild card (R-ITAL-6, R-ITAL-8)
    deuce_melds: bool = False
    #: the pile is frozen for everyone at all times (R-ITAL-4)
    pile_always_frozen: bool = False
    #: a side's initial meld may hold no wild card (R-ITAL-7)
    initial_without_wilds: bool = False
    #: how the pile is started: ``"upcard"`` (R-DEAL-4, R-DEAL-5) or ``"count"``: dealt red threes are laid
    #: out and replaced first, then as many stock cards as the upcard's count go face down under it (R-ITAL-3)
    pile_start: str = "upcard"
    #: the rules the variant's state plays by: the name of a state class registered with
    #: :func:`canasta_tutor.engine.state.register_rules` (``"classic"``: :class:`~canasta_tutor.engine.state.State`,
    #: whose fields above say what differs; ``"samba"``: :class:`~canasta_tutor.engine.samba.SambaState`).  A
    #: variant whose rules the fields cannot say names its own class here, registered by its own module.
    rules: str = "classic"
    #: Samba's melds (R-SAMBA-3..6): sequences of one suit, several sets of one rank, at most
    #: ``set_wild_cap`` wild cards in a set and none on a canasta; the game is played by
    #: :class:`canasta_tutor.engine.samba.SambaState`.  False: classic melds, one set per rank.
    sequences: bool = False
    #: the most wild cards a set may hold when ``sequences`` is on (R-SAMBA-4)
    set_wild_cap: int = 3
    #: a side's melds are a list named by number in the order made (``m1``, ``m2``, ...), not a table keyed
    #: by rank: a rank may have several sets, two sets of one rank may be joined (``join``), the pack may be
    #: taken onto a meld picked by its number (``takeon``), a card is put onto a meld by number (``put``), and
    #: a card's suit matters (it decides which sequence it extends).  The state class keeps them in
    #: :meth:`~canasta_tutor.engine.state.State.listed_melds`; the observation in ``samba_melds``.  The
    #: notation, the bots' candidate lists, the hint's facts and the table's clicks read this field, never the
    #: variant's name.  ``sequences`` needs it (Samba, R-SAMBA-3..6).
    numbered_melds: bool = False
    #: the bonus for a sequence of seven, a samba (R-SAMBA-9; 0 where there are no sequences)
    samba_bonus: int = 0
    #: red threes count for a side only with this many canastas, otherwise they count against it
    #: (R-SAMBA-9); 0: the classic condition, at least one meld (R-RED-5)
    red_threes_need_canastas: int = 0
    #: Bolivia (R-BOL-2..6): three or more wild cards meld on their own, as a meld of wild cards that is a
    #: canasta (a bolivia) at seven and then closed; its bonus; going out needs a sequence of seven (an
    #: escalera) among the canastas; a black three left in a hand counts this much against the side
    #: (R-BOL-6; 5, its count, elsewhere)
    wild_melds: bool = False
    wild_meld_bonus: int = 0
    out_needs_sequence: bool = False
    black_three_in_hand: int = 5
    #: the default hint's search budget in this variant: the playouts of its race of candidates and the
    #: fewest sampled deals a candidate plays in each round, or between two looks of a race by elimination
    #: (None: the hint's defaults, 240 and 8).  A variant
    #: whose playouts cost several classic ones sets a smaller budget, so that its hint answers as fast; one
    #: whose playouts are cut off (``playout_turns``) sets a larger one, since they cost less
    hint_playouts: int | None = None
    hint_min_round: int | None = None
    #: for a variant whose playouts are too slow for the hint's usual number of deals (Samba's, whose turns
    #: are settled by look-ahead): the deals a paired comparison plays (a move against the best, and the
    #: fewest a runner-up is measured on), with the errors of so few deals widened; the whole-turn plan then
    #: follows the rules of thumb after its first move instead of racing lines, and grades a later step at
    #: once, without the quick first look.  None: the hint's usual search
    hint_few_deals: int | None = None
    #: the default hint's and the expert's playouts stop after this many turns (two rounds, in every variant
    #: but Samba) and the rest of the hand is estimated (:mod:`canasta_tutor.bots.evaluation`, fitted on this
    #: variant's self-play); None: every playout runs to the end of the hand.  The puzzles' verification search
    #: always plays to the end.
    playout_turns: int | None = None
    #: five-handed (R-FIVE-1..4): the default name of a player beyond the seats, who sits out the first hand;
    #: the players of side ``reserve_side`` and this one take turns sitting out (:mod:`canasta_tutor.engine.five`).
    #: ``""``: every player has a seat
    reserve: str = ""
    reserve_side: int = 1
    #: Pennies from Heaven (R-PEN-3, R-PEN-4): the cards of each player's face-down packet (0: none)
    packet_size: int = 0
    #: Pennies from Heaven (R-PEN-6..10): canastas of four kinds (natural, mixed, wild, sevens), each of exactly
    #: seven cards; wild cards meld on their own as one meld kept under the rank of deuces that holds jokers
    #: and deuces alike (the notation writes it ``meld 2 2 JK``); a side goes out with one of each kind
    four_kinds: bool = False
    # derived tables, set once in __post_init__ (the engine's hot paths read them)
    n_sides: int = field(init=False, compare=False)
    side_names: tuple[str, ...] = field(init=False, compare=False)
    #: the seats of each side, in turn order
    side_seats: tuple[tuple[int, ...], ...] = field(init=False, compare=False, repr=False)
    partner_seats: tuple[tuple[int, ...], ...] = field(init=False, compare=False, repr=False)
    next_seats: tuple[int, ...] = field(init=False, compare=False, repr=False)
    num_cards: int = field(init=False, compare=False, repr=False)
    #: whether seats play in sides of more than one (so a player may ask "partner, may I go out?")
    partnerships: bool = field(init=False, compare=False, repr=False)
    #: whether the engine lists legal actions through its full check, because its fast listing knows only
    #: the classic melds and freezes (set for the fields of Italian Canasta; a variant may add its own)
    checked_listing: bool = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        if len(self.seats) != self.players or len(self.sides) != self.players or len(set(self.seats)) != self.players:
            raise ValueError(f"variant {self.name!r}: {self.players} players need as many distinct seats and sides")
        n_sides = max(self.sides) + 1
        if sorted(set(self.sides)) != list(range(n_sides)):
            raise ValueError(f"variant {self.name!r}: sides must be numbered 0..{n_sides - 1}")
        side_seats = tuple(tuple(s for s in range(self.players) if self.sides[s] == side) for side in range(n_sides))
        sets = object.__setattr__  # frozen: derived fields are set once, here
        sets(self, "n_sides", n_sides)
        sets(self, "side_seats", side_seats)
        sets(self, "side_names", tuple("".join(self.seats[s] for s in seats) for seats in side_seats))
        sets(self, "partner_seats", tuple(tuple(p for p in side_seats[self.sides[s]] if p != s)
                                          for s in range(self.players)))
        sets(self, "next_seats", tuple((s + 1) % self.players for s in range(self.players)))
        sets(self, "num_cards", 52 * self.packs + self.jokers)
        sets(self, "partnerships", n_sides < self.players)
        sets(self, "checked_listing", self.deuce_melds or self.pile_always_frozen or self.initial_without_wilds)
        if self.reserve and (len(self.reserve) != 1 or self.reserve in self.seats
                             or len(side_seats[self.reserve_side]) != 2):
            raise ValueError(f"variant {self.name!r}: a reserve is one new letter for a side of two seats")
        if self.sequences and not self.numbered_melds:
            raise ValueError(f"variant {self.name!r}: sequences are melds named by number (numbered_melds)")
        if self.pile_start not in ("upcard", "count"):
            raise ValueError(f"variant {self.name!r}: pile_start is 'upcard' or 'count', not {self.pile_start!r}")

    @property
    def roster(self) -> str:
        """The default names of every player, by seat, then the one sitting out (five-handed) if any."""
        return self.seats + self.reserve

    def side_of(self, seat: int) -> int:
        """The side (0..n_sides-1) a seat plays for."""
        return self.sides[seat]

    def partners(self, seat: int) -> tuple[int, ...]:
        """The other seats of the seat's side (empty when each plays alone)."""
        return self.partner_seats[seat]

    def next_seat(self, seat: int) -> int:
        """The seat that plays after this one."""
        return self.next_seats[seat]

    def minimum_for(self, total: int) -> int:
        """The initial-meld minimum for a side's accumulated total (classic R-MIN-1)."""
        if total < 0:
            return self.negative_minimum
        need = self.minimum_bands[0][1]
        for lowest, minimum in self.minimum_bands:
            if total >= lowest:
                need = minimum
        return need

    def red_three_bonus(self, count: int) -> int:
        """The bonus for a side holding ``count`` red threes."""
        return self.bonuses.red_threes[count]


VARIANTS: Final[dict[str, Variant]] = {
    v.name: v
    for v in (
        Variant(name="classic", rule_area="", players=4, seats="NESW", sides=(0, 1, 0, 1), packs=2, jokers=4,
                hand_size=11, draw=1, canastas_to_go_out=1,
                # playouts cut off after two rounds cost about a third of full ones and vary far less
                hint_playouts=1600, playout_turns=8),
        # each variant's cut-off budget keeps its hint's CPU p95 near classic's, under a second on one core with the
        # compiled search (canasta_tutor/bots/native.py; benchmarks/README.md)
        Variant(name="two-handed", rule_area="TWO", players=2, seats="NS", sides=(0, 1), packs=2, jokers=4,
                hand_size=15, draw=2, canastas_to_go_out=2, go_out_rule="R-TWO-5",
                hint_playouts=2000, playout_turns=4),
        # seats E, S, W: the classic table with North empty, so South keeps the learner's place
        Variant(name="three-handed", rule_area="THREE", players=3, seats="ESW", sides=(0, 1, 2), packs=2,
                jokers=4, hand_size=13, draw=1, canastas_to_go_out=1, hint_playouts=1800, playout_turns=6),
        # six seats clockwise N, E, P, S, W, Q; partners sit opposite: NS, EW and PQ
        Variant(name="six-handed", rule_area="SIX", players=6, seats="NEPSWQ", sides=(0, 1, 2, 0, 1, 2), packs=3,
                jokers=6, hand_size=13, draw=1, canastas_to_go_out=2,
                bonuses=Bonuses(red_threes=(0, 100, 200, 300, 400, 1000, 1200)), target=7500, go_out_rule="R-SIX-4",
                hint_playouts=800, playout_turns=12),
        # Italian Canasta: the classic table with three packs, deuce melds and its own bonuses (R-ITAL-1..11)
        Variant(name="italian", rule_area="ITAL", players=4, seats="NESW", sides=(0, 1, 0, 1), packs=3, jokers=6,
                hand_size=15, draw=2, canastas_to_go_out=2,
                minimum_bands=((0, 50), (1500, 90), (3000, 120), (5000, 160), (7500, 180), (10000, 200)),
                bonuses=Bonuses(going_out=300, concealed=0, red_threes=(0, 100, 200, 300, 800, 1000, 1200),
                                five_canastas_one_mixed=1000, five_natural_canastas=2000, ten_canastas=2000,
                                deuce_canasta=3000),
                target=12000, go_out_rule="R-ITAL-8", deuce_melds=True, pile_always_frozen=True,
                initial_without_wilds=True, pile_start="count",
                # its legal actions go through the full check (checked_listing), so a playout costs about two
                # classic ones, and its hands are short, so a cut-off saves less: a smaller hint budget keeps
                # its hint about as fast as the classic one (the plan's budget is classic's from 240 up)
                hint_playouts=400, playout_turns=8),
        # Samba (R-SAMBA-1..10): the classic table with the six-handed deck, sequences and its own bonuses
        Variant(name="samba", rule_area="SAMBA", players=4, seats="NESW", sides=(0, 1, 0, 1), packs=3, jokers=6,
                hand_size=15, draw=2, canastas_to_go_out=2,
                minimum_bands=((0, 50), (1500, 90), (3000, 120), (7000, 160)),
                bonuses=Bonuses(going_out=200, concealed=0, red_threes=(0, 100, 200, 300, 400, 500, 1000)),
                target=10000, go_out_rule="R-SAMBA-7", rules="samba", sequences=True, numbered_melds=True,
                set_wild_cap=2, samba_bonus=1500,
                red_threes_need_canastas=2, hint_playouts=24, hint_min_round=2, hint_few_deals=6),
        # five players (R-FIVE-1..4): a classic hand at the classic table; East-West is a side of three, whose
        # players (E, W and F by default) take turns sitting out, so the learner at South always plays
        Variant(name="five-handed", rule_area="FIVE", players=4, seats="NESW", sides=(0, 1, 0, 1), packs=2, jokers=4,
                hand_size=11, draw=1, canastas_to_go_out=1, rules="five", reserve="F", reserve_side=1,
                hint_playouts=1600, playout_turns=8),
        # Bolivia (R-BOL-1..8): Samba's table with melds of wild cards, a sequence of seven (an escalera) among
        # the two canastas going out needs, black threes in hand at -100, 150 from 7,000 and a game of 15,000
        *(Variant(name=name, rule_area="BOL", players=4, seats="NESW", sides=(0, 1, 0, 1), packs=3, jokers=6,
                  hand_size=15, draw=2, canastas_to_go_out=2,
                  minimum_bands=((0, 50), (1500, 90), (3000, 120), (7000, 150)),
                  bonuses=Bonuses(going_out=200, concealed=0, red_threes=(0, 100, 200, 300, 400, 500, 1000)),
                  target=15000, go_out_rule="R-BOL-5", rules="bolivia", sequences=True, numbered_melds=True,
                  set_wild_cap=2, samba_bonus=1500, red_threes_need_canastas=2, wild_melds=True,
                  wild_meld_bonus=2500, out_needs_sequence=True, black_three_in_hand=100, hint_playouts=24,
                  hint_min_round=2, hint_few_deals=6)
          # Chile is Bolivia under another name (R-BOL-9, ruling 19): the same rules, state and figures
          for name in ("bolivia", "chile")),
        # Pennies from Heaven (R-PEN-1..14): six players in two sides of three sitting alternately (seats N, E, P,
        # S, W, Q; sides NPW and ESQ), four packs and eight jokers, 13 cards and a packet of 11 face down each
        Variant(name="pennies", rule_area="PEN", players=6, seats="NEPSWQ", sides=(0, 1, 0, 1, 0, 1), packs=4,
                jokers=8, hand_size=13, draw=2, canastas_to_go_out=4,
                minimum_bands=((0, 50), (500, 90), (1000, 120), (1500, 150)),
                bonuses=Bonuses(red_threes=(0, 100, 200, 300, 400, 500, 600, 700, 1000), wild_canasta=1000,
                                sevens_canasta=1500),
                target=20000, go_out_rule="R-PEN-10", rules="pennies", packet_size=11, four_kinds=True,
                # its legal actions go through the full check (as Italian Canasta's), a round is six turns and the
                # hands are large: a playout cut off after two rounds costs several classic ones, and at 300 the
                # hint's CPU p95 was 2.4 s (benchmarks/README.md); 120 brings it near a second
                hint_playouts=120, playout_turns=12),
    )
}
CLASSIC: Final = VARIANTS["classic"]


def get_variant(name: str | Variant) -> Variant:
    """The variant of this name (a :class:`Variant` is returned as it is); :class:`UnknownVariantError` if none."""
    if isinstance(name, Variant):
        return name
    try:
        return VARIANTS[name]
    except (KeyError, TypeError):
        raise UnknownVariantError(name) from None


__all__ = ["Variant", "Bonuses", "VARIANTS", "CLASSIC", "get_variant", "UnknownVariantError"]
