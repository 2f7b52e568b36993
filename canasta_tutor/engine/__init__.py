"""The engine: the rules of Canasta and its variants, with the standard library only.

Cards, rule options, variants, the state and each variant's rules (:mod:`.state`, :mod:`.samba`,
:mod:`.italian`), scoring, what a seat may see (:mod:`.observer`), the hidden cards consistent with it
(:mod:`.hidden`, :mod:`.feasibility`), invariants and the numbered rule book's text (:mod:`.rulebook`).
It imports no other layer of the package: how a state is shown (its text, its HTML) is registered from
above (:mod:`.render`).  See ``docs/architecture.md``.
"""
