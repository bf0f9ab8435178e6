"""One Router per area, each thin: parse the update, call the service, answer, publish."""

from __future__ import annotations

from aiogram import Router

from . import after, common, group, lobby, membership, play, private, settings, solo, stats
from .middlewares import (
    AdminMiddleware,
    AnswerMiddleware,
    ContextMiddleware,
    OnceMiddleware,
    PersonMiddleware,
)


def routers() -> list[Router]:
    """Every router, in the order the dispatcher tries them (the catch-all last)."""
    return [
        private.router(),
        solo.router(),
        lobby.router(),
        play.router(),
        settings.router(),
        stats.router(),
        after.router(),
        membership.router(),
        group.router(),
        common.router(),
    ]


__all__ = [
    "AdminMiddleware",
    "AnswerMiddleware",
    "ContextMiddleware",
    "OnceMiddleware",
    "PersonMiddleware",
    "routers",
]
