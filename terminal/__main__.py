"""``durak-play``: Durak against computer players in a terminal.

durak-play [--players N] [--level easy|normal|hard] [--lang ru|uk] [--rules K=V ...]
           [--seed S]
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from bot.i18n import SUPPORTED, translator
from engine import HouseRules, RulesError
from engine.arena import parse_rule

from .game import Options, run

LEVELS = ("easy", "normal", "hard")


def parse(argv: Sequence[str] | None) -> tuple[Options, str]:
    parser = argparse.ArgumentParser(
        prog="durak-play", description="Durak against computer players in a terminal."
    )
    parser.add_argument("--players", type=int, default=2, help="2..6 with 36 cards (default 2)")
    parser.add_argument("--level", choices=LEVELS, default="normal")
    parser.add_argument("--lang", choices=SUPPORTED, default="ru")
    parser.add_argument(
        "--rules", nargs="*", type=parse_rule, default=[], metavar="KEY=VALUE",
        help="house rules of docs/RULES.md section 2, e.g. deck=24 transfer=on",
    )  # fmt: skip
    parser.add_argument("--seed", type=int, default=None, help="the same deal and play again")
    args = parser.parse_args(argv)
    try:
        rules = HouseRules.from_dict(dict(args.rules))
    except RulesError as error:
        parser.error(str(error))
    if not 2 <= args.players <= rules.max_players:
        parser.error(f"--players must be 2..{rules.max_players} with a {rules.deck}-card deck")
    problem = rules.player_problem(args.players)
    if problem is not None:
        parser.error(f"--players: {problem}")
    return Options(args.players, args.level, rules, args.seed), args.lang


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
