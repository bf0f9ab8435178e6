"""The quick default and the soak. ``scripts/test`` on a developer's machine runs a sample
that answers in minutes; CI (``CI=true``, set by ``.ci/run``'s environment) or
``DURAK_SOAK=1`` runs everything: the tests marked ``soak`` (each costs tens of seconds of
real time to prove one thing: a worker killed under 20 games, a 40 s Telegram outage, a
series of three whole games, a package installed into a fresh venv...) and the full sizes
of the sampled ones (``sized``)."""

from __future__ import annotations

import os
from typing import Final

SOAK: Final = os.environ.get("CI") == "true" or os.environ.get("DURAK_SOAK") == "1"


def sized(quick: int, soak: int) -> int:
    """How many (games, seeds...) a sampled test plays: ``soak`` in CI, ``quick`` else."""
    return soak if SOAK else quick
