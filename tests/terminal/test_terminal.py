"""The terminal game end to end: through its input and output streams, as a process with
piped input, and in a pseudo-terminal for Ctrl-C."""

from __future__ import annotations

import contextlib
import io
import os
import pty
import re
import select
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from bot.i18n import translator
from bot.ui.common import card_label as bot_label
from engine import GameOver, HouseRules, new_game, view_for
from engine.ai import who_acts
from engine.cards import CARDS
from terminal.__main__ import parse
from terminal.game import Options
from terminal.seats import seat_names
from terminal.session import Session, run
from terminal.texts import card_label, event_text

ROOT = Path(__file__).resolve().parents[2]
Play = Callable[..., tuple[str, Session]]  # the ``play`` fixture (conftest.py)


def play_in_memory(text: str, options: Options, lang: str = "ru") -> str:
    out = io.StringIO()
    assert run(options, translator(lang), io.StringIO(text), out) == 0
    return out.getvalue()


@pytest.mark.parametrize("lang", ["ru", "uk"])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_whole_game_always_picking_the_first_move(lang: str, players: int, play: Play) -> None:
    out, _ = play(Options(players=players, level="easy", seed=players), lang)
    tr = translator(lang)
    over = [tr.t("event-game-over-draw"), tr.t("term-you-durak"), *(
        tr.t("event-game-over-durak", name=name) for name in seat_names(players, tr)[1:]
    )]  # fmt: skip
    assert any(line in out for line in over)
    assert tr.t("term-bye") not in out
    assert out.rstrip().endswith(tr.t("term-goodbye"))
    assert "<b>" not in out and "&" not in out


def test_bad_input_is_explained_and_asked_again() -> None:
    tr = translator("ru")
    out = play_in_memory("x\n0\n99\n\n1\nq\n", Options(seed=3))
    assert out.count(tr.t("term-error-not-a-number")) == 2  # "x" and the empty line
    assert out.count(tr.t("term-error-out-of-range", count=3)) == 2  # 0 and 99
    assert tr.t("term-action-cover", on="8♥", card="В♥") in out
    assert out.rstrip().endswith(tr.t("term-bye"))


def test_end_of_input_leaves_quietly() -> None:
    out = play_in_memory("", Options(seed=3), lang="uk")
    assert out.rstrip().endswith(translator("uk").t("term-bye"))


def test_cards_have_the_bots_names() -> None:
    for lang in ("ru", "uk"):
        tr = translator(lang)
        assert [card_label(c, tr) for c in CARDS] == [bot_label(c, tr) for c in CARDS]


def test_options_and_their_errors(capsys: pytest.CaptureFixture[str]) -> None:
    options, lang = parse(["--players", "3", "--level", "hard", "--lang", "uk", "--rules",
                           "deck=24", "transfer=on", "--seed", "9"])  # fmt: skip
    assert options == Options(3, "hard", HouseRules(deck=24, transfer=True), 9, pace=1.5)
    assert lang == "uk"
    for argv, message in [
        (["--players", "7"], "--players must be 2..6"),
        (["--rules", "deck=99"], "deck must be one of"),
        (["--rules", "deck"], "expected KEY=VALUE"),
        (["--level", "expert"], "invalid choice"),
    ]:
        with pytest.raises(SystemExit) as exit_info:
            parse(argv)
        assert exit_info.value.code == 2
        assert message in capsys.readouterr().err


def test_the_console_script_plays_with_piped_input() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "terminal", "--seed", "4", "--lang", "uk", "--pace", "0"],
        input="1\n" * 1000,
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "Підкидний дурень" in done.stdout
    assert done.stderr == ""


def read_until(fd: int, wanted: bytes, seconds: float = 60) -> bytes:
    seen = b""
    deadline = time.monotonic() + seconds
    while wanted not in seen:
        assert time.monotonic() < deadline, seen.decode(errors="replace")
        ready, _, _ = select.select([fd], [], [], 1)
        if ready:
            try:
                chunk = os.read(fd, 4096)
            except OSError:  # the child closed the terminal
                break
            if not chunk:
                break
            seen += chunk
    return seen


def test_ctrl_c_in_a_terminal_exits_cleanly() -> None:
    pid, fd = pty.fork()
    if pid == 0:  # the child: the game, in the pseudo-terminal
        os.chdir(ROOT)
        # As a shell starts a job in the foreground: a test run started in the background
        # (``cmd &`` in a script) ignores SIGINT, and the game would inherit that.
        signal.signal(signal.SIGINT, signal.SIG_DFL)
        os.execv(sys.executable, [sys.executable, "-m", "terminal", "--seed", "2", "--pace", "0"])
    try:
        tr = translator("ru")
        read_until(fd, tr.t("term-prompt").encode())
        os.write(fd, b"\x03")  # Ctrl-C: the terminal sends SIGINT to the game
        rest = read_until(fd, tr.t("term-bye").encode())
        assert b"Traceback" not in rest
        _, status = os.waitpid(pid, 0)
        assert os.WIFEXITED(status) and os.WEXITSTATUS(status) == 130
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)
        os.close(fd)


@pytest.mark.parametrize(
    ("lang", "you", "durak", "attack"),
    [
        ("ru", "Ты", "🤡 Ты остаёшься в дураках!", "Ты ходишь: "),
        ("uk", "Ти", "🤡 Ти залишаєшся в дурнях!", "Ти ходиш: "),
    ],
)
def test_the_player_at_the_keyboard_is_told_as_you(
    lang: str, you: str, durak: str, attack: str
) -> None:
    """Not «Игрок остаётся в дураках!»: the person is «Ты» at the table and in the log."""
    tr = translator(lang)
    names = seat_names(2, tr)
    assert event_text(GameOver(durak=0), names, tr, you=0) == durak
    assert event_text(GameOver(durak=1), names, tr, you=0) == tr.t(
        "event-game-over-durak", name=names[1]
    )
    out = play_in_memory("1\n" * 1000, Options(players=2, level="easy", seed=5), lang)
    assert f"👉 {you} · " in out
    assert f"• {attack}" in out
    assert not re.search(r"\b(Игрок|Гравець)\b", out)


@pytest.mark.parametrize(("lang", "thrower"), [("ru", "подкидывает"), ("uk", "підкидає")])
def test_a_player_who_may_throw_in_has_a_role(lang: str, thrower: str) -> None:
    """Three players, throw-in for all: while the defender covers, the others who may add a
    card are marked, as on the bot's table."""
    out = play_in_memory("1\n" * 1000, Options(players=3, level="easy", seed=3), lang)
    assert f"· {thrower}" in out


@pytest.mark.parametrize(
    ("lang", "move"), [("ru", "перевести картой 8♥"), ("uk", "перевести картою 8♥")]
)
def test_a_transfer_move_has_the_logs_verb(lang: str, move: str) -> None:
    """The move «перевести», as the log says «переводит»/«переводить» (not «перекинути»)."""
    tr = translator(lang)
    assert tr.t("term-action-transfer", card="8♥") == move
    assert "перевод" in tr.t("event-transferred", name="A", card="8♥", target="B")


def numbered(text: str) -> list[str]:
    """The numbered lines (moves) of some output."""
    return [line for line in text.splitlines() if re.match(r"  [0-9]+\. ", line)]


FOUR_SIXES = 1072  # 2 players: seat 0 attacks first holding all four sixes (checked below)


@pytest.mark.parametrize(
    ("lang", "several", "how_many", "which", "back"),
    [
        ("ru", "ходить несколькими из 6♠ 6♦ 6♣ 6♥…", "Сколько карт?", "Какие?", "назад"),
        ("uk", "ходити кількома з 6♠ 6♦ 6♣ 6♥…", "Скільки карт?", "Які?", "назад"),
    ],
)
def test_four_of_a_kind_is_chosen_by_rank_then_count(
    lang: str, several: str, how_many: str, which: str, back: str
) -> None:
    """Not 17 numbered moves: the four singles, one line for the sixes (where the first six
    is, in the hand's order), then 2, 3 or 4 of them, then which (for 2 and 3); Back
    returns; the chosen set is played."""
    state = new_game(2, seed=FOUR_SIXES)
    assert who_acts(state) == 0
    assert sum(card.rank_name == "6" for card in view_for(state, 0).hand) == 4
    tr = translator(lang)
    # the sixes, back, the sixes, three of them, the last way to choose three
    out = play_in_memory("2\n4\n2\n2\n4\nq\n", Options(seed=FOUR_SIXES), lang)
    menus = out.split(tr.t("term-prompt"))
    top = numbered(menus[0])
    assert len(top) == 7  # four sixes, the group, two other cards
    assert f"  2. {several}" in top
    count = menus[1].splitlines()
    assert count[0].strip() == how_many
    assert count[1:5] == [
        f"  1. {tr.t('term-choice-count', cards=tr.t('cards-count', count=2))}",
        f"  2. {tr.t('term-choice-count', cards=tr.t('cards-count', count=3))}",
        f"  3. {tr.t('term-action-attack', cards='6♠ 6♦ 6♣ 6♥')}",
        f"  4. {back}",
    ]
    assert menus[2].splitlines()[1].startswith("  1. ")  # back at the top menu
    assert menus[4].splitlines()[0].strip() == which
    assert len(numbered(menus[4])) == 5
    assert f"  4. {tr.t('term-action-attack', cards='6♦ 6♣ 6♥')}" in menus[4]
    assert f"• {tr.t('term-you-attacked', cards='6♦ 6♣ 6♥')}" in out
