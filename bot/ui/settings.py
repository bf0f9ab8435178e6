"""The /settings message and the texts of /set: pure functions of the chat's settings and a
``Translator``.

The message shows one row per house rule of RULES.md section 2 with its value in words, and
a button per rule: a rule with two values flips with one press; the others open a sub-menu
of their values (the current one ticked) with a Back button. Done closes the message: it
keeps the final settings and loses its buttons. In a private chat (``private``) the rules
are those of the person's games with computer players: shown as played (no turn timer),
with no button for the timer. Every button says which value to set, not
"the next one", so a press delivered twice, or made on an older copy, sets the same thing.
"""

from __future__ import annotations

import html
from typing import Final

from aiogram.types import InlineKeyboardButton

from bot.i18n import Translator
from bot.model import ChatSettings
from bot.schema.settings import (
    KEYS,
    MIN_PLAYERS,
    TURN_TIMEOUT_RANGE,
    Applies,
    Change,
    ChangeResult,
    SettingError,
    choices,
    keys_of,
    token,
)
from bot.ui.callbacks import SettingsPress
from bot.ui.common import Rendered, fit, keyboard

SHORT_LABEL: Final = 12  # values with labels this short go three to a row
MAX_ECHO: Final = 32  # how much of a mistyped key or value a reply repeats


def _dash(text: str) -> str:
    return text.replace("_", "-")


def setting_name(key: str, tr: Translator) -> str:
    """``throw_in`` -> "Подкидывают"."""
    return tr.t(f"setting-{_dash(key)}")


def value_words(key: str, value: str, tr: Translator) -> str:
    """A valid value of ``key`` (as /set writes it) in words: ``throw_in``, ``all`` -> "все"."""
    if key == "deck":
        return tr.t("setting-deck-value", deck=int(value))
    if key == "max_players":
        return tr.t("setting-max-players-value", count=int(value))
    if key == "turn_timeout":
        if value == "0":
            return tr.t("setting-turn-timeout-off")
        return tr.t("setting-turn-timeout-value", seconds=int(value))
    if key == "series":
        return tr.t("setting-series-value", count=int(value))
    if key == "language":
        return tr.t(f"lang-{value}")
    return tr.t(f"setting-{_dash(key)}-{_dash(value)}")


def button_name(key: str, tr: Translator) -> str:
    """A rule's name on its button: its name, or a shorter form where the name and a value
    would not fit a phone's button together (``btn-setting-<key>``)."""
    short = f"btn-setting-{_dash(key)}"
    return tr.t(short) if tr.has(short) else setting_name(key, tr)


def value_label(key: str, value: str, tr: Translator) -> str:
    """A value on its button: its words, or a shorter form where the words would not fit a
    phone's button (``btn-setting-<key>-<value>``; the deck: ``btn-setting-deck-value``)."""
    if key == "deck":
        return tr.t("btn-setting-deck-value", deck=int(value))
    short = f"btn-setting-{_dash(key)}-{_dash(value)}"
    return tr.t(short) if tr.has(short) else value_words(key, value, tr)


def value_about(key: str, value: str, tr: Translator) -> str | None:
    """What a value of ``key`` means at the table, in a sentence, for the rules whose
    value's words alone do not say it (the regional variants, the blind games):
    ``setting-<key>-<value>-about``; None for the others."""
    about = f"setting-{_dash(key)}-{_dash(value)}-about"
    return tr.t(about) if tr.has(about) else None


def explained(settings: ChatSettings, key: str, tr: Translator) -> bool:
    """Whether ``key``'s values have meanings to show: its button then opens them, even with
    two values, so the meaning is one press away and never a surprise."""
    return any(value_about(key, value, tr) is not None for value in choices(settings, key))


def current_words(settings: ChatSettings, key: str, tr: Translator) -> str:
    return value_words(key, token(settings, key), tr)


def _rows(settings: ChatSettings, tr: Translator, private: bool) -> list[str]:
    played = settings.played(private=private)
    return [
        tr.t("settings-row", name=setting_name(key, tr), value=current_words(played, key, tr))
        for key in KEYS
    ]


def _button(text: str, press: SettingsPress) -> InlineKeyboardButton:
    return InlineKeyboardButton(text=text, callback_data=press.pack())


def settings_view(
    settings: ChatSettings, tr: Translator, *, editable: bool = True, private: bool = False
) -> Rendered:
    """The rules with their values; for an admin, a button per rule and Done."""
    lines = [tr.t("settings-title"), "", *_rows(settings, tr, private), ""]
    if not editable:
        lines.append(tr.t("settings-admins-only"))
        return Rendered(fit(lines))
    lines.append(tr.t("settings-hint"))
    rows = []
    for key in keys_of(private=private):
        value = value_label(key, token(settings, key), tr)
        label = tr.t("btn-settings-row", name=button_name(key, tr), value=value)
        options = choices(settings, key)
        current = token(settings, key)
        if len(options) == 2 and current in options and not explained(settings, key, tr):  # flip
            other = options[1 - options.index(current)]
            press = SettingsPress(op="set", key=key, value=other)
        else:
            press = SettingsPress(op="open", key=key)
        rows.append([_button(label, press)])
    rows.append([_button(tr.t("btn-settings-done"), SettingsPress(op="done"))])
    return Rendered(fit(lines), keyboard(rows))


def settings_menu(
    settings: ChatSettings, key: str, tr: Translator, *, private: bool = False
) -> Rendered:
    """The values of one rule, the current one ticked, and Back."""
    lines = [tr.t("settings-title"), "", *_rows(settings, tr, private), ""]
    lines.append(tr.t("settings-pick", name=setting_name(key, tr)))
    current = token(settings, key)
    for value in choices(settings, key):
        about = value_about(key, value, tr)
        if about is not None:
            lines.append(tr.t("settings-about", value=value_words(key, value, tr), about=about))
    buttons = []
    for value in choices(settings, key):
        words = value_label(key, value, tr)
        label = tr.t("btn-settings-chosen", value=words) if value == current else words
        buttons.append(_button(label, SettingsPress(op="set", key=key, value=value)))
    per_row = 3 if all(len(b.text) <= SHORT_LABEL for b in buttons) else 1
    rows = [buttons[i : i + per_row] for i in range(0, len(buttons), per_row)]
    rows.append([_button(tr.t("btn-settings-back"), SettingsPress(op="back"))])
    return Rendered(fit(lines), keyboard(rows))


def settings_done(settings: ChatSettings, tr: Translator, *, private: bool = False) -> Rendered:
    """The closed message: the final settings, no buttons."""
    return Rendered(fit([tr.t("settings-title-done"), "", *_rows(settings, tr, private)]))


def allowed_values(settings: ChatSettings, key: str, tr: Translator) -> str:
    """What /set takes for ``key``: "24, 36, 52", "от 2 до 6"."""
    if key == "max_players":
        return tr.t("set-values-range", min=MIN_PLAYERS, max=settings.rules.deck // 6)
    if key == "turn_timeout":
        low, high = TURN_TIMEOUT_RANGE
        return tr.t("set-values-turn-timeout", min=low, max=high)
    return ", ".join(choices(settings, key))


def set_list(settings: ChatSettings, tr: Translator, *, private: bool = False) -> str:
    """/set alone: every key the chat may set, its value, in words, and what else it may be."""
    lines = [tr.t("set-list-title"), ""]
    for key in keys_of(private=private):
        lines.append(
            tr.t(
                "set-list-row",
                key=key,
                value=token(settings, key),
                words=current_words(settings, key, tr),
                values=allowed_values(settings, key, tr),
            )
        )
    return "\n".join(lines)


def _echo(text: str) -> str:
    """A user's mistyped word, safe to repeat in Telegram HTML."""
    cut = text if len(text) <= MAX_ECHO else text[: MAX_ECHO - 1] + "…"
    return html.escape(cut, quote=False)


def error_text(error: SettingError, settings: ChatSettings, tr: Translator) -> str:
    """An unknown key or value, with the valid ones."""
    if error.code == "unknown_key":
        return tr.t("settings-unknown-key", key=_echo(error.key), keys=", ".join(KEYS))
    if error.code == "not_in_private":
        return tr.t("settings-private-no-timer")
    if error.code == "impossible":
        name = setting_name(error.key, tr)
        return tr.t(f"settings-impossible-{_dash(str(error.problem))}", name=name)
    return tr.t(
        "settings-bad-value",
        key=error.key,
        value=_echo(error.value),
        values=allowed_values(settings, error.key, tr),
    )


CHANGED: Final = {
    Applies.NEXT_GAME: "settings-changed",
    Applies.NOW: "settings-changed-now",
    Applies.AFTER_THIS_GAME: "settings-changed-after-this-game",
}


def change_text(change: Change, tr: Translator, *, explain: bool = False) -> str:
    """What a change did, for a reply or a pop-up (plain text). ``explain``: the value with
    what it means at the table where /settings tells it (``value_about``): the reply to
    /set, which is all its sender reads of it. A button's pop-up has room for 200
    characters only, and the menu it was pressed in shows the meanings already."""
    if change.result is ChangeResult.TOO_MANY_SEATED:
        return tr.t("settings-too-many-seated", seated=change.seated, limit=change.limit)
    name = setting_name(change.key, tr)
    value = current_words(change.settings, change.key, tr)
    about = value_about(change.key, token(change.settings, change.key), tr) if explain else None
    if about is not None:
        value = tr.t("settings-about", value=value, about=about)
    if change.result is ChangeResult.SAME:
        return tr.t("settings-same", name=name, value=value)
    return tr.t(CHANGED[change.applies], name=name, value=value)
