"""The vocabulary more than one layer speaks, so that none of them imports another for it:
the settings' keys and values (``settings``), statistics records (``stats``), what a press
on a hand keyboard asks for (``presses``). Services decide with these, ``bot.ui`` renders
them, ``bot.storage`` keeps them; this package imports only ``engine``, ``bot.model`` and
``bot.i18n``."""
