"""Benchmarks: scripts that print figures and ratios against targets. Run each from the repository's root as a module
(``python -m bench.turns``), so that it imports the project and the test helpers (``tests.clubkit``, …) by name."""
