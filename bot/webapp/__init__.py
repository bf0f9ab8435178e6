"""The Mini App: the table drawn in Telegram, live, served by the bot (``server``), for the
user Telegram signed (``auth``), showing what that user may see (``views``), moving through
the chat keyboard's service call (``moves``), refreshed from Redis (``live``)."""
