"""What measures the bot: load drivers, profilers and the printers of their figures.

None of it runs in production and none of it is a test: the package is a developer's tool,
run from the source tree (it is not installed with the bot, and pytest does not collect
it). It drives the real bot against the fake Bot API and the harness of ``tests/e2e``,
which stay among the tests. Each command starts what it needs (its own ``redis-server``,
the fake Bot API, the bot) unless said otherwise, and prints a summary; ``--json`` ends it
with one JSON object. Run from the project's root:

    PYTHONPATH=. .venv/bin/python -m bench.load --groups 10 --seconds 20 [--json]
    PYTHONPATH=. .venv/bin/python -m bench.load --webapp --groups 200 --players 4 \\
        --seconds 60 --think 3 [--task-cpu OUT] [--json]
    PYTHONPATH=. .venv/bin/python -m bench.pages_held --pages 5000 [--json]
    PYTHONPATH=. .venv/bin/python -m bench.move_cpu [--games 20] [--rounds 200]
    PYTHONPATH=. .venv/bin/python -m bench.measure [--players 4] [--seed 7]
    PYTHONPATH=. .venv/bin/python -m bench.hands_first [--games 10] [--players 4 6]
    .venv/bin/python -m bench.cpu_profile profile.txt
    PYTHONPATH=. .venv/bin/python -m bench.thinking --solo 200 --seconds 60
    PYTHONPATH=. .venv/bin/python -m bench.memory [--lobbies 200] [--games 50] [--json]
    PYTHONPATH=. .venv/bin/python -m bench.review [--games 5] [--iterations 300]
    PYTHONPATH=. .venv/bin/python -m bench.webapp_timing [--runs 10] [--moves 30] [--players 2]

* ``load``: many groups (and people alone against computers) playing at once against the
  real bot, in the chat or in the Mini App (``--webapp``), and what it costs.
* ``pages_held``: how many Mini App pages one worker holds open, and what each costs it.
* ``move_cpu``: the CPU of a Mini App move's own path alone, on a real Redis
  (``DURAK_TEST_REDIS_URL``, or a throwaway ``redis-server``).
* ``measure``: one game with the real bot, and the Bot API calls and answer times it cost.
* ``hands_first``: how soon every player has their hand after «Начать».
* ``cpu_profile``: where a process's CPU went, from py-spy's raw output (``load --py-spy``).
* ``thinking``: the computers' budget of thinking under load, through the real services
  and pool of processes, without Telegram.
* ``memory``: what Redis keeps per lobby, per game (of 2 and of 6), per person and per
  update, made by the real services on a ``redis-server`` of its own.
* ``review``: the CPU of a finished game's review («Разбор», ``engine.ai.review``), at 2
  and 4 players.
* ``webapp_timing``: the Mini App page's first paint and its long tasks during moves, in
  Debian's chromium with its CPU slowed down four times (the Performance API).
* ``task_cpu``: the bot's CPU per step of its event loop; it runs in place of
  ``python -m bot`` (``load --webapp --task-cpu OUT`` starts the bot under it).

The rest are ``load``'s parts: ``load_tables`` (seating and playing the tables),
``load_webapp`` (the Mini App mode), ``processes`` (the bot's processes and their CPU),
``scrape`` (the bot's ``/metrics``), ``turns_seen`` (what the people were shown, and when)
``game_writes`` (the game writes per move, from Redis's ``MONITOR``) and ``review_games``
(finished games kept and their reviews asked for, ``load --reviews``).

The engine's own benchmark and the computer players' arena are the engine's
(``python -m engine.bench``, ``python -m engine.arena``); the players and tools that
measure the computer players are in ``engine.ai.lab``.
"""
