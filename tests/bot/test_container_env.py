"""The container as the README sets it up: ``cp .env.example .env``, BOT_TOKEN filled in,
then ``docker run --env-file .env`` (compose: ``env_file: .env``) on top of the image's own
``ENV`` lines. A line of ``.env`` replaces the image's value even when it is empty, so the
image's ``METRICS_LISTEN`` (which its HEALTHCHECK asks) must survive the copied example,
and every empty line of it must mean the setting's default.

Docker itself is not run here (``scripts/prove-image`` does, as root): the environment it
would build is built from the ``Dockerfile`` and ``.env.example`` by Docker's rules, and
the bot and ``python -m bot.healthcheck`` run in it as the container would run them."""

from __future__ import annotations

import asyncio
import os
import re
import shlex
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from bot.config import Settings
from tests.e2e.fake_telegram import FakeTelegram

ROOT = Path(__file__).resolve().parents[2]


def image_env() -> dict[str, str]:
    """The ``ENV`` lines of the Dockerfile's last stage (the image that runs)."""
    text = (ROOT / "Dockerfile").read_text().replace("\\\n", " ")
    last_stage = re.split(r"(?m)^FROM ", text)[-1]
    env: dict[str, str] = {}
    for line in last_stage.splitlines():
        if line.startswith("ENV "):
            for pair in shlex.split(line[4:]):
                name, _, value = pair.partition("=")
                env[name] = value
    return env


def env_file(path: Path) -> dict[str, str]:
    """What ``docker run --env-file`` sets from ``path``: every ``NAME=value`` line as it is
    (an empty value included); comments and blank lines set nothing."""
    env: dict[str, str] = {}
    for line in path.read_text().splitlines():
        if line.strip() and not line.lstrip().startswith("#") and "=" in line:
            name, _, value = line.partition("=")
            env[name.strip()] = value
    return env


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    """The working folder after ``cp .env.example .env`` and BOT_TOKEN filled in."""
    example = (ROOT / ".env.example").read_text()
    (tmp_path / ".env").write_text(
        example.replace(
            "\nBOT_TOKEN=\n", "\nBOT_TOKEN=123456789:AAFakeTokenForDurakBotEndToEndTests\n"
        )
    )
    return tmp_path


def container_env(folder: Path, **given: str) -> dict[str, str]:
    """The container's environment: the image's, then ``--env-file .env``, then ``-e``."""
    return {**image_env(), **env_file(folder / ".env"), **given}


def test_the_image_keeps_its_metrics_listen_under_the_copied_example(folder: Path) -> None:
    assert image_env()["METRICS_LISTEN"] == "0.0.0.0:9090"
    assert container_env(folder).get("METRICS_LISTEN") == "0.0.0.0:9090"


def test_every_empty_line_of_the_example_means_the_default(
    folder: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The settings the container reads: the image's values where the example says nothing,
    and for each empty line, that setting's default (None for the optional ones)."""
    monkeypatch.chdir(folder)
    for name in Settings.model_fields:
        monkeypatch.delenv(name.upper(), raising=False)
    env = container_env(folder)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    empty = [name for name, value in env_file(folder / ".env").items() if not value]
    assert empty, "the example leaves no setting empty: this test checks nothing"
    settings = Settings()
    for name in empty:
        field = Settings.model_fields[name.lower()]
        assert getattr(settings, name.lower()) == field.default, name
    assert settings.metrics_listen == "0.0.0.0:9090"
    assert settings.webhook_listen == "0.0.0.0:8080"
    # The bot reads .env itself as well (outside a container): the same from the file alone.
    for name in env:
        monkeypatch.delenv(name, raising=False)
    alone = Settings()
    for name in empty:
        assert getattr(alone, name.lower()) == Settings.model_fields[name.lower()].default, name


@pytest.mark.soak  # starts the bot and its health check as processes: about 8 s
async def test_the_health_check_passes_in_the_container_made_from_the_example(
    folder: Path, redis_url: str, redis_prefix: str
) -> None:
    """The bot and its HEALTHCHECK in that environment (the metrics port moved to a free
    one, since tests share the machine; Redis and the Bot API given with ``-e``, as compose
    gives REDIS_URL)."""
    env = container_env(folder)
    host, _, _ = env["METRICS_LISTEN"].rpartition(":")
    async with FakeTelegram() as fake:
        env = container_env(
            folder,
            BOT_TOKEN=fake.token,
            TELEGRAM_API_URL=fake.base_url,
            REDIS_URL=redis_url,
            REDIS_PREFIX=redis_prefix,
            METRICS_LISTEN=f"{host}:{free_port()}",
        )
        ours = {name.upper() for name in Settings.model_fields}
        process_env = {
            **{k: v for k, v in os.environ.items() if k.upper() not in ours},
            "PYTHONPATH": str(ROOT),
            **env,
        }
        log_path = folder / "bot.log"
        with log_path.open("wb") as log:
            process = subprocess.Popen(
                [sys.executable, "-m", "bot"], cwd=folder, env=process_env, stdout=log, stderr=log
            )
        try:
            deadline = time.monotonic() + 60
            while fake.polls_started == 0:
                assert process.poll() is None, log_path.read_text(errors="replace")
                assert time.monotonic() < deadline, log_path.read_text(errors="replace")
                await asyncio.sleep(0.05)
            health = await asyncio.to_thread(
                subprocess.run,
                [sys.executable, "-m", "bot.healthcheck"],
                cwd=folder,
                env=process_env,
                capture_output=True,
                text=True,
                timeout=60,
                check=False,
            )
            assert health.returncode == 0, health.stderr
            assert health.stdout.startswith("durak-bot healthcheck: 200 ")
            process.send_signal(signal.SIGTERM)
            assert await asyncio.to_thread(process.wait, 30) == 0
        finally:
            if process.poll() is None:
                process.kill()
                process.wait()


COMPOSE_SETUPS = {
    "polling": ["docker-compose.yml"],
    "webhook": ["docker-compose.yml", "docker-compose.webhook.yml"],
}


def compose_bot(files: list[str]) -> tuple[dict[str, str], list[tuple[str, int, int, int]], int]:
    """The bot service of ``files`` merged as compose merges them: its ``environment`` (later
    files win), its published ports (host address, first and last host port, container port;
    the lists are joined) and its replicas. Read from the files' text: the two files keep to
    a plain layout (one service ``bot`` with these keys, ports quoted)."""
    env: dict[str, str] = {}
    ports: list[tuple[str, int, int, int]] = []
    replicas = 1
    for name in files:
        text = (ROOT / name).read_text()
        bot = re.search(r"(?ms)^  bot:\n(.*?)(?=^  \S|\Z)", text)
        assert bot is not None, name
        block = bot.group(1)
        environment = re.search(r"(?ms)^    environment:\n((?:      .*\n)+)", block)
        if environment is not None:
            for line in environment.group(1).splitlines():
                key, _, value = line.strip().partition(": ")
                env[key] = value
        for ip, first, last, target in re.findall(
            r'(?m)^      - "([\d.]+):(\d+)(?:-(\d+))?:(\d+)"$', block
        ):
            ports.append((ip, int(first), int(last or first), int(target)))
        found = re.search(r"(?m)^      replicas: (\d+)$", block)
        if found is not None:
            replicas = int(found.group(1))
    return env, ports, replicas


@pytest.mark.parametrize("setup", COMPOSE_SETUPS)
def test_compose_publishes_the_mini_app_on_the_hosts_loopback_one_port_per_worker(
    setup: str,
) -> None:
    """As the README's operator steps say: each bot serves the Mini App on WEBAPP_LISTEN in its
    container (every address, so that Docker's port reaches it), published on the host's
    127.0.0.1 only, where the HTTPS proxy reaches it, with a host port for every worker; in
    webhook mode the webhook's port likewise."""
    env, ports, replicas = compose_bot(COMPOSE_SETUPS[setup])
    listening = ["WEBAPP_LISTEN"] + (["WEBHOOK_LISTEN"] if env.get("BOT_MODE") == "webhook" else [])
    assert (setup == "webhook") == ("WEBHOOK_LISTEN" in listening)
    for name in listening:
        host, _, port = env[name].rpartition(":")
        assert host == "0.0.0.0", name
        published = [p for p in ports if p[3] == int(port)]
        assert len(published) == 1, (name, ports)
        address, first, last, _target = published[0]
        assert address == "127.0.0.1", name
        assert last - first + 1 >= replicas, (name, published, replicas)
    hosts = [range(first, last + 1) for _ip, first, last, _target in ports]
    assert len({port for span in hosts for port in span}) == sum(map(len, hosts))  # no overlap


def test_the_shipped_unit_and_compose_let_a_worker_hold_tens_of_thousands_of_pages() -> None:
    """Every open Mini App page is a socket, so a file descriptor: the systemd unit and the
    compose file raise the open-files limit from the usual 1,024 to 65,536."""
    unit = (ROOT / "deploy" / "durak-bot@.service").read_text()
    assert re.search(r"(?m)^LimitNOFILE=65536$", unit)
    compose = (ROOT / "docker-compose.yml").read_text()
    bot = re.search(r"(?ms)^  bot:\n(.*?)(?=^  \S|\Z)", compose)
    assert bot is not None
    nofile = re.search(r"(?m)^    ulimits:\n      nofile:\n((?:        .*\n)+)", bot.group(1))
    assert nofile is not None
    assert sorted(nofile.group(1).split()) == ["65536", "65536", "hard:", "soft:"]
