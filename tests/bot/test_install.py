"""A plain ``pip install .`` (a wheel, not editable) works away from the repository: the texts
travel as package data (``bot/locales``), the bot starts with them and serves ``/healthz``.

The wheel is built from a copy of exactly what the Dockerfile copies into its build stage,
as plain Python (``DURAK_PURE=1``: compiling is the image's business and takes a minute)
and without build isolation, so without network: this environment's setuptools builds it.
It goes with ``--no-deps`` into a fresh venv that sees this environment's site-packages
for the dependencies through a ``.pth`` line; such a line adds the folder but runs none of
the ``.pth`` files in it, so the editable install of the project there stays out of sight.
Everything then runs from a folder outside the repository, without ``PYTHONPATH``.
"""

from __future__ import annotations

import asyncio
import importlib.metadata
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import sysconfig
import time
import venv
from pathlib import Path

import pytest

from tests.e2e.fake_telegram import FakeTelegram

# soak: builds the wheel and installs it into a fresh venv, then starts the bot (tests/soak.py)
pytestmark = pytest.mark.soak

ROOT = Path(__file__).resolve().parents[2]
# What the Dockerfile's build stage copies: the wheel must need nothing else.
SOURCES = ("pyproject.toml", "setup.py", "README.md", "engine", "bot", "terminal", "locales")
# setuptools builds wheels by itself (no "wheel" package) from 70.1 on.
SETUPTOOLS_FOR_WHEELS = (70, 1)

RENDER = """
import json, bot, engine
from bot.i18n import LOCALES_DIR, translator
from bot.webapp.server import STATIC
print(json.dumps({
    "bot": bot.__file__,
    "webapp": sorted(path.name for path in STATIC.iterdir()),
    "engine": engine.__file__,
    "locales": str(LOCALES_DIR),
    "uk": [translator("uk").t("cards-count", count=n) for n in (1, 2, 5, 21)],
    "ru": [translator("ru").t("cards-count", count=n) for n in (1, 3, 11, 22)],
}))
"""


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def setuptools_version() -> tuple[int, ...] | None:
    try:
        found = importlib.metadata.version("setuptools")
    except importlib.metadata.PackageNotFoundError:
        return None
    return tuple(int(part) for part in found.split(".")[:2] if part.isdigit())


def clean_env(**extra: str) -> dict[str, str]:
    """This environment without anything that points Python or the bot at the repository."""
    dropped = ("PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV", "DURAK_PURE")
    env = {k: v for k, v in os.environ.items() if k not in dropped and not k.startswith("BOT_")}
    return {**env, **extra}


def run(
    args: list[str | Path], cwd: Path | None = None, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(a) for a in args],
        cwd=cwd,
        env=env,
        check=False,
        capture_output=True,
        text=True,
        timeout=120,
    )


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The ``bin`` folder of a fresh venv with the project's wheel installed."""
    version = setuptools_version()
    if version is None or version < SETUPTOOLS_FOR_WHEELS:
        pytest.skip(
            f"cannot build a wheel offline: setuptools {version or 'missing'} here, "
            f"{'.'.join(map(str, SETUPTOOLS_FOR_WHEELS))}+ needed (the dev extra has it)"
        )
    work = tmp_path_factory.mktemp("install")
    source = work / "src"
    for name in SOURCES:
        path = ROOT / name
        if path.is_dir():
            ignore = shutil.ignore_patterns("__pycache__", "*.so", "compiled-sources.json")
            shutil.copytree(path, source / name, ignore=ignore)
        else:
            source.mkdir(exist_ok=True)
            shutil.copy2(path, source / name)

    wheels = work / "wheels"
    build = run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "--no-index",
         "--wheel-dir", wheels, source],
        env={**clean_env(), "DURAK_PURE": "1"},
    )  # fmt: skip
    assert build.returncode == 0, build.stdout + build.stderr
    [wheel] = wheels.glob("durak_bot-*.whl")

    target = work / "venv"
    venv.EnvBuilder(with_pip=False).create(target)
    python = target / "bin" / "python"
    install = run(
        [sys.executable, "-m", "pip", "--python", python, "install", "--no-deps", "--no-index",
         wheel],
        env=clean_env(),
    )  # fmt: skip
    assert install.returncode == 0, install.stdout + install.stderr
    purelib = run([python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"])
    site_packages = Path(purelib.stdout.strip())
    deps = sysconfig.get_paths()["purelib"]
    (site_packages / "durak-test-dependencies.pth").write_text(deps + "\n")
    return target / "bin"


@pytest.fixture
def outside(tmp_path: Path) -> Path:
    """A working folder with no repository around it (and no ``.env``)."""
    folder = tmp_path / "elsewhere"
    folder.mkdir()
    return folder


def test_the_installed_package_renders_plural_forms(installed: Path, outside: Path) -> None:
    result = run([installed / "python", "-c", RENDER], cwd=outside, env=clean_env())
    assert result.returncode == 0, result.stderr
    found = json.loads(result.stdout)
    venv_root = installed.parent
    for module in ("bot", "engine", "locales"):
        assert Path(found[module]).is_relative_to(venv_root), (module, found[module])
    assert Path(found["locales"]).parts[-2:] == ("bot", "locales")
    assert found["uk"] == ["1 карта", "2 карти", "5 карт", "21 карта"]
    assert found["ru"] == ["1 карта", "3 карты", "11 карт", "22 карты"]
    # The Mini App's page travels as package data too.
    assert found["webapp"] == [
        "app.js",
        "base.css",
        "cards.js",
        "frame.js",
        "index.html",
        "motion.js",
        "page.js",
        "play.js",
        "prefs.js",
        "replay.css",
        "replay.html",
        "replay.js",
        "table.css",
        "table.js",
    ]


def test_the_installed_bot_without_a_token_is_a_configuration_error(
    installed: Path, outside: Path
) -> None:
    result = run([installed / "python", "-m", "bot"], cwd=outside, env=clean_env())
    assert result.returncode == 2, result.stderr
    assert result.stderr.strip() == (
        "durak-bot: configuration error: BOT_TOKEN is not set: put it in the environment or in .env"
    )


async def test_the_installed_bot_starts_with_its_texts_and_is_healthy(
    installed: Path, outside: Path, redis_url: str, redis_prefix: str
) -> None:
    listen = f"127.0.0.1:{free_port()}"
    async with FakeTelegram() as fake:
        env = clean_env(
            BOT_TOKEN=fake.token,
            TELEGRAM_API_URL=fake.base_url,
            REDIS_URL=redis_url,
            REDIS_PREFIX=redis_prefix,
            METRICS_LISTEN=listen,
        )
        log_path = outside / "bot.log"
        with log_path.open("wb") as log:
            process = subprocess.Popen(
                [installed / "durak-bot"], cwd=outside, env=env, stdout=log, stderr=log
            )
        try:
            deadline = time.monotonic() + 60
            while fake.polls_started == 0:
                assert process.poll() is None, log_path.read_text(errors="replace")
                assert time.monotonic() < deadline, log_path.read_text(errors="replace")
                await asyncio.sleep(0.05)
            # The command menu is the first thing the bot says, in both languages.
            groups = {"type": "all_group_chats"}
            assert ("newgame", "Зібрати стіл для гри") in fake.commands(
                scope=groups, language_code="uk"
            )
            assert ("newgame", "Собрать стол для игры") in fake.commands(
                scope=groups, language_code="ru"
            )
            health = await asyncio.to_thread(
                run, [installed / "python", "-m", "bot.healthcheck"], cwd=outside, env=env
            )
            assert health.returncode == 0, health.stderr
            assert health.stdout.startswith("durak-bot healthcheck: 200 ")
            process.send_signal(signal.SIGTERM)
            assert await asyncio.to_thread(process.wait, 30) == 0
        finally:
            if process.poll() is None:
                process.kill()
                process.wait()
