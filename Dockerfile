# The durak bot: the official Python image, the project and its dependencies installed from
# wheels at the versions of constraints.txt, run as an unprivileged user.
#
# The base is pinned to a release of Python and of Debian (bookworm). Where a registry is
# reachable, pin its digest too (docker buildx imagetools inspect <tag>, then
# python:3.11.13-slim-bookworm@sha256:...): the machine this file was written and proved on
# could reach no registry, so no digest is given here. PYTHON_IMAGE is an argument only so
# that scripts/prove-image can put a locally made base in its place; leave its default.
ARG PYTHON_IMAGE=python:3.11.13-slim-bookworm

# Build stage: a C compiler, so that mypyc compiles the engine's rules core (setup.py), and
# a wheel of every dependency, so that the image below installs without an index.
FROM ${PYTHON_IMAGE} AS build
# PIP_CONSTRAINT, unlike -c, also reaches the isolated environment pip builds the project in:
# the build's setuptools and mypy come at constraints.txt's versions as well.
ENV PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    PIP_CONSTRAINT=/src/constraints.txt
RUN apt-get update \
    && apt-get install -y --no-install-recommends gcc libc6-dev \
    && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY constraints.txt pyproject.toml setup.py README.md ./
COPY engine ./engine
COPY bot ./bot
COPY terminal ./terminal
COPY locales ./locales
RUN pip wheel --wheel-dir /wheels .

FROM ${PYTHON_IMAGE}

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1
# /metrics and /healthz, for the HEALTHCHECK below (off by default outside the image).
ENV METRICS_LISTEN=0.0.0.0:9090

RUN useradd --create-home --no-log-init --uid 10001 --user-group durak

# The wheels only pass through: mounted for this one step, they are no layer of the image.
# The texts are package data of the wheel (bot/locales), so nothing is copied from the
# source tree and nothing runs from it.
RUN --mount=type=bind,from=build,source=/wheels,target=/wheels \
    pip install --no-index --find-links /wheels durak-bot
RUN python -c "import bot.app; from bot.i18n import translator; translator('uk').t('help')" \
    && python -c "import sys, engine._build as b; sys.exit(not b.compiled())" \
    || { echo "the engine's rules core is not compiled, or the texts are missing" >&2; exit 1; }

WORKDIR /home/durak
# A number, not a name, so that an orchestrator can tell it is not root (runAsNonRoot).
USER 10001:10001
EXPOSE 9090
# /healthz answers 200 while Redis answers and the Bot API was reached in the last five
# minutes (bot/web.py). The start period covers importing aiogram and resuming the games.
HEALTHCHECK --interval=30s --timeout=10s --start-period=60s --retries=3 \
    CMD ["python", "-m", "bot.healthcheck"]
# SIGTERM is a graceful stop: webhook updates being handled get up to ten seconds, then
# pending messages up to five. Give it 20 s before SIGKILL (docker stop -t 20; compose:
# stop_grace_period), more than Docker's default of 10.
STOPSIGNAL SIGTERM
# Settings come from the environment (see .env.example); BOT_TOKEN is required. Exit codes:
# 2 a configuration error (restarting will not help), 1 Redis or the Bot API unreachable
# at start, 0 after SIGTERM.
CMD ["durak-bot"]
