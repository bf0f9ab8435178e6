"""The lobby message and the chat's house rules in words (RULES.md section 2)."""

from __future__ import annotations

from aiogram.types import InlineKeyboardButton

from bot.i18n import SUPPORTED, Translator
from bot.model import ChatGame, ChatSettings
from bot.schema.settings import VARIANT_KEYS, token
from bot.schema.teams import teams_of
from bot.ui.board import TEAM_MARKS, title_line
from bot.ui.callbacks import ADD_LEVELS, TRUMP_SUITS, LobbyOp, LobbyPress
from bot.ui.common import SUIT_SYMBOLS, Rendered, fit, keyboard, name
from bot.ui.settings import setting_name, value_about, value_words
from engine import FirstBoutLimit


def _key(value: str) -> str:
    """A setting's value as part of a message id: ``neighbors_first_rank`` ->
    ``neighbors-first-rank``."""
    return value.replace("_", "-")


def rules_line(settings: ChatSettings, tr: Translator) -> str:
    """The house rules in one short line for the lobby: deck, seats, who throws in, the
    first-bout limit (when there is one), transfer, the turn timer and the series."""
    rules = settings.rules
    parts = [
        tr.t("rules-line-deck", deck=rules.deck),
        tr.t("rules-line-players", count=rules.max_players),
        tr.t(f"rules-line-throw-in-{_key(rules.throw_in.value)}"),
    ]
    if rules.first_bout_limit is not FirstBoutLimit.NONE:
        parts.append(tr.t(f"rules-line-first-bout-limit-{_key(rules.first_bout_limit.value)}"))
    parts.append(tr.t("rules-line-transfer-on" if rules.transfer else "rules-line-transfer-off"))
    if settings.turn_timeout > 0:
        parts.append(tr.t("rules-line-timeout", seconds=settings.turn_timeout))
    else:
        parts.append(tr.t("rules-line-timeout-off"))
    if settings.series > 1:
        parts.append(tr.t("rules-line-series", count=settings.series))
    parts += [_variant_words(settings, key, tr) for key in _variants_on(settings)]
    return " · ".join(parts)


def _variants_on(settings: ChatSettings) -> list[str]:
    """The regional variants (RULES.md section 13) not at their default."""
    default = ChatSettings().rules
    return [key for key in VARIANT_KEYS if getattr(settings.rules, key) != getattr(default, key)]


def _variant_words(settings: ChatSettings, key: str, tr: Translator) -> str:
    return tr.t(
        "rules-line-variant",
        name=setting_name(key, tr),
        value=value_words(key, token(settings, key), tr),
    )


def rules_text(
    settings: ChatSettings, tr: Translator, *, game: bool = False, private: bool = False
) -> str:
    """Every house rule explained, one plain line each, in the order of RULES.md §2.
    ``game``: the rules of the table the reader sits at, told in private (not "this chat");
    ``private``: those of the reader's own games with computer players in this private chat
    (what /play uses: no turn timer)."""
    settings = settings.played(private=private)
    rules = settings.rules
    language = settings.language if settings.language in SUPPORTED else "ru"
    title = "rules-title-private" if private else "rules-title-game" if game else "rules-title"
    lines = [
        tr.t(title),
        tr.t("rules-deck", deck=rules.deck),
        tr.t("rules-max-players", count=rules.max_players),
        tr.t(f"rules-throw-in-{_key(rules.throw_in.value)}"),
        tr.t(f"rules-first-bout-limit-{_key(rules.first_bout_limit.value)}"),
        tr.t(f"rules-no-trump-start-{_key(rules.no_trump_start.value)}"),
        tr.t(f"rules-next-game-start-{_key(rules.next_game_start.value)}"),
        tr.t("rules-transfer-on" if rules.transfer else "rules-transfer-off"),
        *(_variant_line(settings, key, tr) for key in VARIANT_KEYS),
        (
            tr.t("rules-turn-timeout", seconds=tr.t("seconds-count", count=settings.turn_timeout))
            if settings.turn_timeout > 0
            else tr.t("rules-turn-timeout-off")
        ),
        tr.t("rules-series", count=settings.series),
        tr.t(
            "rules-language-game" if game else "rules-language", language=tr.t(f"lang-{language}")
        ),
        tr.t("rules-ai-level", level=tr.t(f"ai-level-{settings.ai_level}")),
    ]
    return "\n".join(lines)


def _variant_line(settings: ChatSettings, key: str, tr: Translator) -> str:
    value = token(settings, key)
    about = value_about(key, value, tr)
    words = _variant_words(settings, key, tr)
    return words if about is None else tr.t("rules-variant", words=words, about=about)


def lobby_view(game: ChatGame, tr: Translator) -> Rendered:
    """Title, the rules in one line, the seated players in join order; Join, Leave, Start."""
    settings = game.settings
    lines = [
        title_line(settings.rules, tr),
        tr.t("lobby-solo" if game.private else "lobby-gathering"),
        "",
        tr.t("lobby-rules", rules=rules_line(_played(game), tr)),
        "",
    ]
    if game.players:
        lines.append(tr.t("lobby-players", count=len(game.players), max=settings.rules.max_players))
        lines += [_lobby_line(game, seat, tr) for seat in range(len(game.players))]
        lines += _teams_lines(game, tr)
    else:
        lines.append(tr.t("lobby-nobody"))
    lines.append("")

    def button(op: LobbyOp, label: str) -> InlineKeyboardButton:
        data = LobbyPress(game=game.game_id, op=op).pack()
        return InlineKeyboardButton(text=tr.t(label), callback_data=data)

    if game.naming is not None:  # the dealer names the trump before the deal (R-TRUMP-1)
        seat = game.seat_of(game.naming)
        dealer = name(game, seat) if seat is not None else ""
        lines.append(tr.t("lobby-naming", name=dealer))
        suits = [
            InlineKeyboardButton(
                text=tr.t("btn-trump", symbol=SUIT_SYMBOLS[suit], suit=tr.t(f"suit-{suit.letter}")),
                callback_data=LobbyPress(game=game.game_id, op=op).pack(),
            )
            for op, suit in TRUMP_SUITS.items()
        ]
        return Rendered(fit(lines), keyboard([suits[:2], suits[2:]]))
    full = len(game.players) >= settings.rules.max_players
    if game.private:
        lines.append(tr.t("lobby-solo-hint"))
    else:
        lines.append(tr.t("lobby-full") if full else tr.t("lobby-hint"))

    remove = [button(LobbyOp.REMOVE_COMPUTER, "btn-remove-computer")] if game.computers() else []
    team = [button(LobbyOp.TEAM, "btn-team")] if _teams_lines(game, tr) else []
    if game.private:  # alone with computers: choose how many, and how strong
        rows = [
            [button(op, f"btn-add-{level}") for op, level in ADD_LEVELS.items()],
            team,
            [*remove, button(LobbyOp.START, "btn-start")],
        ]
    else:
        rows = [
            [button(LobbyOp.JOIN, "btn-join"), button(LobbyOp.LEAVE, "btn-leave")],
            [button(LobbyOp.ADD_COMPUTER, "btn-add-computer"), *remove],
            team,
            [button(LobbyOp.START, "btn-start")],
        ]
    return Rendered(fit(lines), keyboard(rows))


def _played(game: ChatGame) -> ChatSettings:
    """The settings the game is played with (``ChatSettings.played``)."""
    return game.settings.played(private=game.private)


def _teams_lines(game: ChatGame, tr: Translator) -> list[str]:
    """With teams, the teams the seated players will make (``bot.schema.teams``, as the
    deal seats them), one line each; nothing without teams."""
    teams = teams_of(game.players, game.settings.rules)
    if not teams:
        return []
    lines = ["", tr.t("lobby-teams")]
    for number, team in enumerate(teams):
        names = ", ".join(name(game, game.players.index(p)) for p in team) or "—"
        lines.append(tr.t("table-team", mark=TEAM_MARKS[number % len(TEAM_MARKS)], names=names))
    return lines


def _lobby_line(game: ChatGame, seat: int, tr: Translator) -> str:
    level = game.players[seat].level
    if level is None:
        return tr.t("lobby-player", place=seat + 1, name=name(game, seat))
    return tr.t(
        "lobby-computer", place=seat + 1, name=name(game, seat), level=tr.t(f"ai-level-{level}")
    )
