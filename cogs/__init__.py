"""The Discord layer: thin discord.py adapters over the use-cases of :mod:`club` (DESIGN "cogs").

Extensions (loaded by ``bot.py`` in ``setup_hook``):

- :mod:`cogs.bg` — the ``/bg`` command group: challenge, roll, move (autocomplete of the legal plays), double, take,
  drop, beaver, raccoon, resign, accept, decline, board, games, rules, verify, export, notify, config (admins).
- :mod:`cogs.chouette` — ``/bg chouette``: chouettes in a channel over days, each member's own buttons, their
  deadlines and proxies (RULES C1–C11); messages by :mod:`cogs.chouette_present`.
- :mod:`cogs.records` — the ``/club`` group: the club's books (sheet, ledger, settle, leaderboard, rating, stats,
  export; correct for admins), RULES A3, A4.
- :mod:`cogs.player` — the ``/player`` group: away, back, ping, nudge, autoroll; the claim buttons.
- :mod:`cogs.reminders` — the one reminder loop: sends what :func:`club.scheduler.run_due` says is due on every
  table, matches and chouettes (RULES A2, C9).
- :mod:`cogs.study` — the ``/study`` group: the engine's review of a finished match (also posted when a match
  ends) and hints where they are allowed (the engine is an optional install).
- :mod:`cogs.event` — the ``/event`` group: club events (knock-outs, Swiss, round robins, ladders, leagues), each
  pairing an ordinary challenge posted with both players mentioned, the bracket and standings pictures.

Shared helpers, one place each: :mod:`cogs.present` (an outcome → message content, embed, PNG and buttons),
:mod:`cogs.buttons` (the one button scheme of every table: a ``DynamicItem`` family keyed by kind, id, staleness
stamp and action, the old ``custom_id`` templates still registered), :mod:`cogs.components` (the 1-on-1's buttons
and play menu in it), :mod:`cogs.publish` (where a game's board messages go: its thread, edits with the bot's own
token, direct messages), :mod:`cogs.flow` (parse → one club call → publish, for commands and buttons alike) and
:mod:`cogs.errors` (refusals as ephemeral messages, everything else logged with an apology).
"""

EXTENSIONS = ("cogs.bg", "cogs.chouette", "cogs.records", "cogs.player", "cogs.reminders", "cogs.study", "cogs.event")
"""The extensions ``bot.py`` loads, in order."""
