"""What the command lines (``engine.arena``, ``engine.bench``, ``durak-play``) say about
house rules: the help of ``--rules``, every key with its values (``--list-rules``), an
unknown key's error with the keys there are, and the rules of a result as JSON."""

from __future__ import annotations

from dataclasses import fields
from typing import Any

from .cards import DECK_SIZES
from .rules import ENUMS, HouseRules, Problem, RulesError

RULE_KEYS = tuple(f.name for f in fields(HouseRules))
RULES_HELP = (
    "house rules as KEY=VALUE (values: numbers, on/off, or a word); --list-rules prints "
    "every key with its values"
)


# --- house rules on a command line ---------------------------------------------------------


def rule_lines() -> list[str]:
    """Every house-rule key with its values, the default first: what ``--rules`` takes."""
    default = HouseRules()
    lines = []
    for key in RULE_KEYS:
        if key == "deck":
            values = [str(default.deck), *(str(d) for d in DECK_SIZES if d != default.deck)]
        elif key == "max_players":
            values = ["deck / 6", "2 .. deck / 6"]
        elif key in ENUMS:
            first = str(getattr(default, key))
            values = [first, *(str(v) for v in ENUMS[key] if v != first)]
        else:
            values = ["on", "off"] if getattr(default, key) else ["off", "on"]
        lines.append(f"{key}={values[0]} (default); also {', '.join(values[1:])}")
    return lines


def explain_rules_error(error: RulesError) -> str:
    """The error, and for an unknown key the keys there are."""
    if error.problem is Problem.UNKNOWN_KEY:
        keys = ", ".join(RULE_KEYS)
        return f"{error}; the house rules are {keys}"
    return str(error)


def rules_json(rules: HouseRules) -> dict[str, Any]:
    """Every house rule with its value, the variants' at their defaults too: a result says
    what was played without the reader knowing the defaults (``to_dict`` leaves those out
    to keep the stored games as they were)."""
    return {
        key: str(value) if key in ENUMS else value
        for key, value in ((k, getattr(rules, k)) for k in RULE_KEYS)
    }
