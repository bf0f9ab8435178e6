"""Durak in a terminal: one person against computer players, no token and no server.

``durak-play`` (or ``python -m terminal``) deals a game, shows the table and the player's
hand, lists the legal moves by number, and tells what each computer player did, in Russian
or Ukrainian with the bot's own words (``locales/``); at the end of a game it sums up, and
offers another game or a saved record of this one. The engine does the rules and
``engine.ai`` the computer players; this package only reads, prints and saves.
"""
