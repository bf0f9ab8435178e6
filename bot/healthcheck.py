"""``python -m bot.healthcheck``: exit 0 if the running bot's ``/healthz`` says it is healthy.

The container's HEALTHCHECK. It asks ``/healthz`` on ``METRICS_LISTEN`` (from the
environment, as the bot reads it; a wildcard host is asked on the loopback address) and
exits 0 on 200, 1 otherwise (503: Redis or the Bot API is not reachable; no answer: the
bot is not serving), with one line on stdout or stderr that ``docker inspect`` shows.
Standard library only, and nothing of the bot is imported: it runs every half minute in a
fresh interpreter, where importing aiogram would take seconds.
"""

from __future__ import annotations

import os
import sys
import urllib.error
import urllib.request
from typing import Final

TIMEOUT: Final = 5.0
# The addresses a listening socket takes for "every interface", and who answers there.
_WILDCARDS: Final = {"0.0.0.0": "127.0.0.1", "": "127.0.0.1", "::": "::1", "[::]": "::1"}


def healthz_url(listen: str) -> str:
    """The ``/healthz`` address of a bot listening on ``listen`` (host:port)."""
    host, sep, port = listen.strip().rpartition(":")
    if not sep or not port.isdigit():
        raise ValueError(f"METRICS_LISTEN={listen!r} is not host:port")
    host = _WILDCARDS.get(host, host)
    if ":" in host and not host.startswith("["):
        host = f"[{host}]"
    return f"http://{host}:{port}/healthz"


def check(listen: str | None, timeout: float = TIMEOUT) -> tuple[bool, str]:
    """Healthy or not, and what ``/healthz`` said (or why it could not be asked)."""
    if not listen or not listen.strip():
        return False, "METRICS_LISTEN is not set: the bot serves no /healthz"
    try:
        url = healthz_url(listen)
    except ValueError as error:
        return False, str(error)
    try:
        with urllib.request.urlopen(url, timeout=timeout) as response:
            return True, f"{response.status} {response.read().decode(errors='replace')}"
    except urllib.error.HTTPError as error:  # 503 and its reasons: Redis or the Bot API
        return False, f"{error.code} {error.read().decode(errors='replace')}"
    except (urllib.error.URLError, OSError) as error:
        return False, f"no answer from {url}: {getattr(error, 'reason', error)}"


def main() -> None:
    healthy, said = check(os.environ.get("METRICS_LISTEN"))
    print(f"durak-bot healthcheck: {said}", file=sys.stdout if healthy else sys.stderr)
    sys.exit(0 if healthy else 1)


if __name__ == "__main__":
    main()
