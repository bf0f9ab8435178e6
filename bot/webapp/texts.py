"""The page's own words in the viewer's language, sent once when its socket opens: the
``webapp-*`` texts and the chat keyboard's button words, so the page and the chat name
take and pass alike. Words that need a number (card counts, places) come with each state
(``bot.webapp.views``), formatted by Fluent with the right plural form."""

from __future__ import annotations

from typing import Final

from bot.i18n import Translator, all_message_ids

BUTTONS: Final = (
    "btn-take",
    "btn-pass",
    "btn-pass-beaten",
    "btn-pass-taking",
    "btn-believe",  # R-DOUBT-3
    "btn-doubt",
    "btn-again",  # under a finished game
)
# Words with a name, a team's mark or a number in them: the server fills them into each state.
FILLED_IN: Final = frozenset(
    {
        "webapp-waiting",
        "webapp-team",
        "webapp-team-yours",
        "webapp-team-partner",
        "webapp-naming",
        "webapp-rating",
        "webapp-slot-back",
    }
)


def page_texts(tr: Translator) -> dict[str, str]:
    ids = sorted(i for i in all_message_ids(tr.lang) if i.startswith("webapp-"))
    texts = {i: tr.t(i) for i in ids if i not in FILLED_IN}
    texts.update({i: tr.t(i) for i in BUTTONS})
    return texts
