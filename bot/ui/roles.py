"""A seat's part in the bout, as the id of its word (``role-*``): the bot's tables and the
terminal game name the same parts the same way. Pure, and free of Telegram, so the terminal
can import it."""

from __future__ import annotations

from engine import TableView


def role(view: TableView, seat: int) -> str | None:
    """The seat's part in the bout: the message id of its role, or None."""
    if view.attacker is None:
        return None
    if seat == view.defender:
        return "role-taking" if view.taking else "role-defender"
    if seat == view.attacker:
        return "role-attacker"
    if seat in view.to_act:
        return "role-thrower"
    return None
