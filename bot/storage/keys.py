"""Every Redis key the bot uses, in one place. All live under ``{prefix}:``.

{p}:game:{chat}        string  one group's lobby or game (GameRecord JSON), with a TTL
{p}:settings:{chat}    string  the group's house rules (ChatSettings JSON)
{p}:user:{user}        hash    chat id -> game id of the lobbies and games a user sits in
{p}:started            set     users who have started the bot in private
{p}:deadlines          zset    chat id scored by the time its turn runs out
{p}:sent:{chat}        hash    message slot -> "message id:hash" of what was last sent
{p}:stats:chat:{chat}  hash    "<user>:<metric>" -> count of finished games (bot.storage.stats)
{p}:stats:user:{user}  hash    "<metric>" -> count over every chat (bot.storage.stats)
{p}:admin:{chat}:{user} string "1"/"0": is the user a group admin (getChatMember), for a minute
{p}:broken:{chat}      string  a game record this version could not read, kept for an operator
{p}:moved:{chat}       string  the new id of a group that became a supergroup (bot.storage.moves)
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Keys:
    prefix: str

    def game(self, chat_id: int) -> str:
        return f"{self.prefix}:game:{chat_id}"

    def game_pattern(self) -> str:
        return f"{self.prefix}:game:*"

    def chat_of_game_key(self, key: str) -> int:
        return int(key.rsplit(":", 1)[1])

    def settings(self, chat_id: int) -> str:
        return f"{self.prefix}:settings:{chat_id}"

    def user_games(self, user_id: int) -> str:
        return f"{self.prefix}:user:{user_id}"

    def started(self) -> str:
        return f"{self.prefix}:started"

    def deadlines(self) -> str:
        return f"{self.prefix}:deadlines"

    def sent(self, chat_id: int) -> str:
        return f"{self.prefix}:sent:{chat_id}"

    def admin(self, chat_id: int, user_id: int) -> str:
        return f"{self.prefix}:admin:{chat_id}:{user_id}"

    def admin_pattern(self, chat_id: int) -> str:
        return f"{self.prefix}:admin:{chat_id}:*"

    def broken(self, chat_id: int) -> str:
        return f"{self.prefix}:broken:{chat_id}"

    def moved(self, chat_id: int) -> str:
        return f"{self.prefix}:moved:{chat_id}"

    def chat_stats(self, chat_id: int) -> str:
        return f"{self.prefix}:stats:chat:{chat_id}"

    def user_stats(self, user_id: int) -> str:
        return f"{self.prefix}:stats:user:{user_id}"
