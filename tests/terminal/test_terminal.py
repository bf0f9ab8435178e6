"""The terminal game end to end: through its input and output streams, as a process with
piped input, and in a pseudo-terminal for Ctrl-C."""

from __future__ import annotations

import contextlib
import io
import os
import pty
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from bot.i18n import translator
from bot.ui.common import card_label as bot_label
from engine import HouseRules
from engine.cards import CARDS
from terminal.__main__ import parse
from terminal.game import Options, run
from terminal.texts import card_label

ROOT = Path(__file__).resolve().parents[2]


def play_in_memory(text: str, options: Options, lang: str = "ru") -> str:
    out = io.StringIO()
    assert run(options, translator(lang), io.StringIO(text), out) == 0
    return out.getvalue()


@pytest.mark.parametrize("lang", ["ru", "uk"])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_whole_game_always_picking_the_first_move(lang: str, players: int) -> None:
    out = play_in_memory("1\n" * 1000, Options(players=players, level="easy", seed=players), lang)
    tr = translator(lang)
    over = [tr.t("event-game-over-draw"), *(
        tr.t("event-game-over-durak", name=n)
        for n in [tr.t("term-you"), *(tr.t("term-computer", number=k) for k in range(1, 6))]
    )]  # fmt: skip
    assert any(line in out for line in over)
    assert tr.t("term-bye") not in out
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
    assert options == Options(3, "hard", HouseRules(deck=24, transfer=True), 9)
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
        [sys.executable, "-m", "terminal", "--seed", "4", "--level", "normal", "--lang", "uk"],
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
        os.execv(sys.executable, [sys.executable, "-m", "terminal", "--seed", "2"])
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
