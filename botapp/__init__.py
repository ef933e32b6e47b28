"""The parts of the program ``bot.py`` starts (DESIGN "bot.py": it reads the config, opens storage, loads the cogs,
starts the client): :mod:`botapp.settings` (the configuration), :mod:`botapp.discord_bot` (the Discord client,
:class:`~botapp.discord_bot.BgBot`), :mod:`botapp.console` (the same use-cases in a terminal, reproducible dice for
scripts, RULES A1), :mod:`botapp.replays` (match files played through the club, RULES A4) and
:mod:`botapp.startup` (the checks and upgrades before starting). ``bot.py`` keeps the command line and re-exports
their public names."""
