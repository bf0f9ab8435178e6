"""``durak-play``: Durak against computer players in a terminal.

durak-play [--players N] [--level easy|normal|hard] [--lang ru|uk] [--rules K=V ...]
           [--seed S] [--pace SECONDS] [--records DIR] [--list-rules]

The blind games (RULES.md section 14) are house rules like the others: ``--rules
blind=reversed`` (or ``chinese``, ``doubt``); ``--list-rules`` says what each one is.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from bot.i18n import SUPPORTED, Translator, translator
from engine import HouseRules, RulesError
from engine.rule_words import RULES_HELP, explain_rules_error, rule_lines
from engine.rules import parse_rule

from .game import Options
from .session import run
from .texts import blind_lines

LEVELS = ("easy", "normal", "hard")
# The bot's pause before a computer move (AI_PAUSE, ``ai_pause`` in bot/config.py), so that
# a game here moves at the pace of a game in a chat.
DEFAULT_PACE = 1.5


def parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="durak-play",
        description="Durak against computer players in a terminal. Type a move's number and "
        "Enter; q leaves.",
        # An installed copy has no docs/: the help points at what it does have.
        epilog="Every house rule and its values: durak-play --list-rules. The blind games, "
        "where cards are played unseen: --rules blind=reversed, blind=chinese or blind=doubt "
        "(--list-rules explains them in the --lang language). A game saved at its end "
        "replays with: python -m engine.replay FILE.",
    )
    parser.add_argument(
        "--players", type=int, default=2, help="players with you, 2..deck/6 (default 2)"
    )
    parser.add_argument(
        "--level", choices=LEVELS, default="normal", help="the computers' play (default normal)"
    )
    parser.add_argument(
        "--lang", choices=SUPPORTED, default="ru", help="the game's language (default ru)"
    )
    parser.add_argument(
        "--rules", nargs="*", type=parse_rule, default=[], metavar="KEY=VALUE",
        help=f"{RULES_HELP}, e.g. deck=24 transfer=on",
    )  # fmt: skip
    parser.add_argument(
        "--list-rules", action="store_true",
        help="print every house rule with its values and what each blind game is, exit",
    )  # fmt: skip
    parser.add_argument(
        "--seed", type=int, default=None,
        help="deal the first game from this number (default: a new one, shown at the end)",
    )  # fmt: skip
    parser.add_argument(
        "--pace", type=float, default=DEFAULT_PACE, metavar="SECONDS",
        help=f"pause before each computer move, as in the bot (default {DEFAULT_PACE}; 0: none)",
    )  # fmt: skip
    parser.add_argument(
        "--records", type=Path, default=Path(), metavar="DIR",
        help="where «save the record» writes game records (default: this folder)",
    )  # fmt: skip
    return parser


def list_rules(tr: Translator) -> list[str]:
    """``--list-rules``: every house rule with its values, and under ``blind`` each blind
    game in a line of the game's language (few players know these games by name)."""
    lines = []
    for line in rule_lines():
        lines.append(line)
        if line.startswith("blind="):
            lines += blind_lines(tr)
    return lines


def parse(argv: Sequence[str] | None) -> tuple[Options, str]:
    """The options, or exit 2 with the reason (``--list-rules``: the list, exit 0)."""
    command = parser()
    args = command.parse_args(argv)
    if args.list_rules:
        print("\n".join(list_rules(translator(args.lang))))
        raise SystemExit(0)
    try:
        rules = HouseRules.from_dict(dict(args.rules))
    except RulesError as error:
        command.error(explain_rules_error(error))
    if not 2 <= args.players <= rules.max_players:
        command.error(f"--players must be 2..{rules.max_players} with a {rules.deck}-card deck")
    problem = rules.player_problem(args.players)
    if problem is not None:
        command.error(f"--players: {problem}")
    if args.pace < 0:
        command.error("--pace must be 0 or more seconds")
    options = Options(args.players, args.level, rules, args.seed, args.pace, args.records)
    return options, args.lang


def main(argv: Sequence[str] | None = None) -> int:
    options, lang = parse(argv)
    tr = translator(lang)
    try:
        return run(options, tr, sys.stdin, sys.stdout)
    except KeyboardInterrupt:
        sys.stdout.write("\n" + tr.t("term-bye") + "\n")
        return 130


if __name__ == "__main__":
    sys.exit(main())
