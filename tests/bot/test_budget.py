"""The budget over all chats, on a clock the test steps: a person waiting
is served first, and within a class chats take turns."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from kit import Clock

from bot.delivery import Claim, PriorityGate
from bot.delivery.budget import FLOOR, IDLE, Budget, share
from bot.delivery.plan import ACTING, NOTE, TABLE, WATCHING
from bot.storage import Storage

RATE = 1024  # tokens a second: a step of n / RATE seconds hands out exactly n of them
BURST = 64


class SteppedGate:
    """A gate whose tokens come only when the test moves its clock on; what it served, in
    order, as the labels of the waiters."""

    def __init__(self) -> None:
        self.clock = Clock()
        self.gate = PriorityGate(RATE, BURST, aged_from=TABLE, clock=self.clock)
        self.served: list[str] = []
        self.tasks: list[asyncio.Task[None]] = []

    async def empty(self) -> None:
        """Spend the tokens there are: from now on every waiter waits for the clock."""
        for _ in range(BURST):
            await self.gate.acquire(0, Claim(ACTING))

    async def queue(self, label: str, chat_id: int, claim: Claim) -> None:
        async def wait() -> None:
            await self.gate.acquire(chat_id, claim)
            self.served.append(label)

        self.tasks.append(asyncio.get_running_loop().create_task(wait()))
        waiting = self.gate.waiting + 1
        await until(lambda: self.gate.waiting == waiting)

    async def serve(self, count: int) -> list[str]:
        """Move the clock on by ``count`` tokens; the waiters served with them, in order."""
        before = len(self.served)
        self.clock.now += count / RATE
        await until(lambda: len(self.served) == before + count)
        return self.served[before:]

    async def close(self) -> None:
        for task in self.tasks:
            task.cancel()
        await asyncio.gather(*self.tasks, return_exceptions=True)


async def until(check: Callable[[], bool], timeout: float = 5.0) -> None:
    async with asyncio.timeout(timeout):
        while not check():
            await asyncio.sleep(0.001)


async def test_the_acting_player_goes_before_a_flood_of_other_messages() -> None:
    budget = SteppedGate()
    await budget.empty()
    for chat in range(1, 21):  # twenty solo games whose computers move, and their tables
        await budget.queue(f"watching {chat}", chat, Claim(WATCHING))
        await budget.queue(f"table {chat}", -chat, Claim(TABLE))
    await budget.queue("acting", 99, Claim(ACTING))
    assert await budget.serve(1) == ["acting"]
    rest = await budget.serve(40)
    assert rest[:20] == [f"watching {chat}" for chat in range(1, 21)]
    await budget.close()


async def test_two_chats_flooding_one_class_take_turns() -> None:
    budget = SteppedGate()
    await budget.empty()
    for count in range(4):
        await budget.queue(f"a{count}", 1, Claim(WATCHING))
    for count in range(4):
        await budget.queue(f"b{count}", 2, Claim(WATCHING))
    assert await budget.serve(8) == ["a0", "b0", "a1", "b1", "a2", "b2", "a3", "b3"]
    await budget.close()


async def test_a_chat_back_after_a_pause_joins_the_round_not_its_front() -> None:
    budget = SteppedGate()
    await budget.empty()
    for count in range(3):
        await budget.queue(f"a{count}", 1, Claim(WATCHING))
        await budget.queue(f"b{count}", 2, Claim(WATCHING))
    assert await budget.serve(2) == ["a0", "b0"]
    await budget.queue("c0", 3, Claim(WATCHING))  # never served before: one turn, in this round
    await budget.queue("c1", 3, Claim(WATCHING))
    assert await budget.serve(6) == ["a1", "b1", "c0", "a2", "b2", "c1"]
    await budget.close()


async def test_a_message_whose_person_must_act_now_overtakes_while_waiting() -> None:
    """A solo game's message queued while its computers moved becomes one its person waits
    on when their turn comes: it must not keep waiting behind the flood."""
    budget = SteppedGate()
    await budget.empty()
    solo = Claim(WATCHING)
    for chat in range(2, 12):
        await budget.queue(f"watching {chat}", chat, Claim(WATCHING))
    await budget.queue("solo", 1, solo)  # last: first come would be last
    solo.priority = ACTING
    assert await budget.serve(1) == ["solo"]
    await budget.close()


async def test_a_table_or_a_reply_behind_a_flood_takes_its_turn_once_it_waited() -> None:
    """Strict classes would starve a group's table and the replies to commands for as long
    as players' views (or people's presses) kept coming: one that waited ``age`` seconds
    a class rises a class, up to the front. The players' views, the flood, never rise."""
    budget = SteppedGate()
    await budget.empty()
    await budget.queue("reply", 1, Claim(NOTE))
    await budget.queue("table", -1, Claim(TABLE))
    await budget.queue("watching", 2, Claim(WATCHING))
    for chat in range(3, 8):
        await budget.queue(f"acting {chat}", chat, Claim(ACTING))
    assert await budget.serve(2) == ["acting 3", "acting 4"]
    budget.clock.now += 3 * budget.gate.age  # three classes' worth: the bucket fills up
    await until(lambda: len(budget.served) == 8)
    assert budget.served[2:] == ["reply", "table", "acting 5", "acting 6", "acting 7", "watching"]
    await budget.close()


async def test_buttons_a_whole_table_waits_for_go_before_a_solo_players() -> None:
    """A group's acting player holds up the table (four people wait on the buttons), a solo
    player only themself: among people who must act, the group's buttons take four turns
    to the solo player's one, and the solo player still gets theirs."""
    budget = SteppedGate()
    await budget.empty()
    for _ in range(8):
        await budget.queue("group", 1, Claim(ACTING, weight=4))
        await budget.queue("solo", 2, Claim(ACTING))
    served = await budget.serve(10)
    assert served.count("group") == 8 and served.count("solo") == 2
    assert served[:5].count("solo") == 1
    await budget.close()


async def test_a_view_that_becomes_a_tables_buttons_is_tagged_anew() -> None:
    """A group player's view queued behind a crowd of solo players' buttons becomes the
    buttons the whole table waits for: it goes next, not after the crowd."""
    budget = SteppedGate()
    await budget.empty()
    group = Claim(WATCHING)
    for chat in range(2, 12):
        await budget.queue(f"solo {chat}", chat, Claim(ACTING))
    await budget.queue("group", 1, group)
    group.priority, group.weight = ACTING, 4
    assert await budget.serve(1) == ["group"]
    await budget.close()


# -- the budget shared by workers -----------------------------------------------------------


async def test_a_gate_says_its_most_urgent_waiting_class_and_who_waits_on_it() -> None:
    budget = SteppedGate()
    assert budget.gate.demand() == (IDLE, 0)
    await budget.empty()
    await budget.queue("watching", 1, Claim(WATCHING))
    assert budget.gate.demand() == (WATCHING, 1)
    await budget.queue("a table's buttons", 2, Claim(ACTING, weight=4))
    await budget.queue("a solo player's buttons", 3, Claim(ACTING))
    assert budget.gate.demand() == (ACTING, 5)
    await budget.close()


def test_the_workers_holding_the_most_urgent_messages_take_most_of_the_budget() -> None:
    """A worker whose chats wait on people who must act takes the budget from one whose
    chats only wait to be watched, in proportion to the people waiting; each keeps a floor;
    nobody waiting anywhere: even shares; one worker alone: all of it."""
    flood = {"groups": (ACTING, 3), "solo": (WATCHING, 200)}
    floor = 25 * FLOOR / 2
    assert share(25, "groups", flood) == 25 - floor
    assert share(25, "solo", flood) == floor
    both = {"a": (ACTING, 1), "b": (ACTING, 3), "c": (IDLE, 0)}
    even = 30 / 3
    assert [share(30, w, both) for w in "abc"] == [
        even * FLOOR + (30 - 3 * even * FLOOR) * weight / 4 for weight in (1, 3, 0)
    ]
    assert share(25, "a", {"a": (IDLE, 0), "b": (IDLE, 0)}) == 12.5
    assert share(25, "a", {"a": (TABLE, 2)}) == 25
    assert sum(share(25, w, flood) for w in flood) == 25


async def test_a_retry_after_blocks_only_the_chat_it_names(storage: Storage) -> None:
    budget = Budget(storage.delivery, group_per_minute=19, global_per_second=25)
    await budget.blocked(42, 3.0)
    await budget.blocked(-100, 3.0)
    assert 2.5 < await budget.wait(42) <= 3.0
    assert 2.5 < await budget.wait(-100) <= 3.0  # kept in Redis, for every worker
    assert await budget.wait(43) == 0
    assert await budget.wait(-101) == 0


async def test_a_groups_replies_leave_a_message_of_its_budget_to_its_table(
    storage: Storage,
) -> None:
    budget = Budget(storage.delivery, group_per_minute=19, global_per_second=25)
    replies = [await budget.wait(-100, note=True) for _ in range(4)]
    assert replies[:3] == [0, 0, 0]
    assert replies[3] > 0
    assert await budget.wait(-100) == 0  # the table's
    assert await budget.wait(-100) > 0
