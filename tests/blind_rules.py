"""The house rules a blind game may be played with (RULES.md section 14, R-BLIND-1: every
key but the four it excludes, at any value), as a hypothesis strategy for the property
tests of the engine and of the Mini App's pages."""

from __future__ import annotations

from hypothesis import strategies as st

from engine import (
    Blind,
    FirstBoutLimit,
    HouseRules,
    NoTrumpStart,
    ThrowIn,
    TopCard,
    TrumpChoice,
)

BLIND_RULES = st.builds(
    HouseRules,
    blind=st.sampled_from([b for b in Blind if b is not Blind.OFF]),
    deck=st.sampled_from([24, 36, 52]),
    throw_in=st.sampled_from(list(ThrowIn)),
    first_bout_limit=st.sampled_from(list(FirstBoutLimit)),
    no_trump_start=st.sampled_from(list(NoTrumpStart)),
    trump=st.sampled_from(list(TrumpChoice)),
    top_card=st.sampled_from(list(TopCard)),
)
