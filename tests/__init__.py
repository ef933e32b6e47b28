"""The test suite and its helpers (``tests.clubkit``, ``tests.discordkit``, …). A package, so that the tests, the
benchmarks (``python -m bench.NAME`` from the repository's root) and the subprocesses the tests start import the
helpers by their full names, with no change to ``sys.path``."""
