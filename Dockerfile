# The durak bot: python:3.11-slim, installed with pip, run as an unprivileged user.
FROM python:3.11-slim

# The texts are read from /app/locales next to /app/bot (bot/i18n.py: LOCALES_DIR), so
# the code runs from /app; pip installs the dependencies and the durak-bot command.
ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PYTHONPATH=/app \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

RUN useradd --create-home --uid 10001 durak
WORKDIR /app

COPY pyproject.toml README.md ./
COPY engine ./engine
COPY bot ./bot
COPY locales ./locales
RUN pip install . \
    && python -c "import bot.app; from bot.i18n import translator; translator('uk').t('help')"

USER durak
# Settings come from the environment (see .env.example); BOT_TOKEN is required.
CMD ["durak-bot"]
