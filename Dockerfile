# The durak bot: python:3.11-slim, installed with pip, run as an unprivileged user.

# Build stage: a C compiler, so that mypyc compiles the engine's rules core (setup.py).
# The wheel holds the compiled modules with their sources; the image below needs no compiler.
FROM python:3.11-slim AS build
ENV PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1
RUN apt-get update \
    && apt-get install -y --no-install-recommends gcc libc6-dev \
    && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY pyproject.toml setup.py README.md ./
COPY engine ./engine
COPY bot ./bot
COPY terminal ./terminal
RUN pip wheel --no-deps --wheel-dir /wheels .

FROM python:3.11-slim

# The texts are read from /app/locales next to /app/bot (bot/i18n.py: LOCALES_DIR), so
# the code runs from /app; pip installs the dependencies, the durak-bot command and the
# engine, compiled. The engine is not copied to /app: there it would shadow the compiled
# one in site-packages with the plain Python source.
ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PYTHONPATH=/app \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

RUN useradd --create-home --uid 10001 durak
WORKDIR /app

COPY --from=build /wheels /wheels
RUN pip install /wheels/*.whl && rm -rf /wheels
COPY bot ./bot
COPY locales ./locales
RUN python -c "import bot.app; from bot.i18n import translator; translator('uk').t('help')" \
    && python -c "import sys, engine._build as b; sys.exit(not b.compiled())" \
    || { echo "the engine's rules core is not compiled" >&2; exit 1; }

USER durak
# Settings come from the environment (see .env.example); BOT_TOKEN is required.
CMD ["durak-bot"]
