"""The layers (CONTRIBUTING.md, docs/architecture.md): rules ← storage, rendering ← club ← cogs, console ← entry.

Every ``import`` of every module of the layered packages is read with :mod:`ast` — at module level, inside
functions and under ``if TYPE_CHECKING:`` alike — and three things fail:

- an import that goes up a layer or sideways into another package of the same layer (a cog importing the console,
  storage importing rendering);
- a front end (``cogs/``, ``console/``) importing ``storage``: front ends call the use-cases of ``club/`` only;
- an import cycle: between packages, between modules of different packages, or through an import written inside a
  function (such an import may delay an optional heavy dependency, never hide a cycle).

``bench/``, ``tools/``, ``examples/`` and ``tests/`` sit outside the layers and may import any of them.
"""

from __future__ import annotations

import ast
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

LAYERS: dict[str, int] = {
    "backgammon": 0,
    "storage": 1,
    "rendering": 1,
    "club": 2,
    "cogs": 3,
    "console": 3,
    "botapp": 4,
    "bot": 5,
}
"""Each top-level package → its layer; a module imports only from lower layers and its own package. The entry layer
is ``botapp`` and the script ``bot.py`` that runs it."""

FRONT_ENDS = ("cogs", "console")
"""The packages that may not import ``storage`` (they reach it through ``club/``)."""

STORAGE_ALLOWED: set[tuple[str, str]] = set()
"""(front-end module, storage module) imports still to be moved behind ``club/``: this list only ever shrinks, and
is empty."""

LAYERS_ALLOWED: set[tuple[str, str]] = set()
"""Imports against the layers still to be removed: this list only ever shrinks, and is empty."""

CYCLES_ALLOWED: set[frozenset[str]] = set()
"""Import cycles through imports inside functions still to be removed: this list only ever shrinks, and is empty."""


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


@cache
def modules() -> dict[str, Path]:
    """Every module of the layered packages: dotted name → file."""
    found = {"bot": ROOT / "bot.py"}
    for package in LAYERS:
        if (ROOT / package).is_dir():
            found.update({_module_name(path): path for path in sorted((ROOT / package).rglob("*.py"))})
    return found


def _resolve(name: str) -> str | None:
    """The longest known module that ``name`` (``club.service.ClubService`` or ``club.service``) names or is in."""
    parts = name.split(".")
    for end in range(len(parts), 0, -1):
        candidate = ".".join(parts[:end])
        if candidate in modules():
            return candidate
    return None


class _Imports(ast.NodeVisitor):
    """The imports of one module: (target module, line, written inside a function, only for type checkers)."""

    def __init__(self, module: str, is_package: bool) -> None:
        self.package = module if is_package else module.rpartition(".")[0]
        self.found: list[tuple[str, int, bool, bool]] = []
        self._function = 0
        self._type_only = 0

    def _add(self, name: str, line: int) -> None:
        target = _resolve(name)
        if target is not None:
            self.found.append((target, line, self._function > 0, self._type_only > 0))

    def visit_Import(self, node: ast.Import) -> None:
        for alias in node.names:
            self._add(alias.name, node.lineno)

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        base = node.module or ""
        if node.level:
            anchor = self.package.split(".")
            anchor = anchor[: len(anchor) - (node.level - 1)]
            base = ".".join([*anchor, base] if base else anchor)
        for alias in node.names:
            self._add(f"{base}.{alias.name}", node.lineno)  # a submodule, or a name resolved to its module

    def _in_function(self, node: ast.AST) -> None:
        self._function += 1
        self.generic_visit(node)
        self._function -= 1

    visit_FunctionDef = visit_AsyncFunctionDef = visit_Lambda = _in_function

    def visit_If(self, node: ast.If) -> None:
        test = node.test
        if (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
            isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
        ):
            self._type_only += 1
            for child in node.body:
                self.visit(child)
            self._type_only -= 1
            for child in node.orelse:
                self.visit(child)
        else:
            self.generic_visit(node)


@cache
def imports() -> dict[str, list[tuple[str, int, bool, bool]]]:
    """Every layered module → its imports of layered modules (target, line, inside a function, type-only)."""
    graph = {}
    for module, path in modules().items():
        visitor = _Imports(module, path.name == "__init__.py")
        visitor.visit(ast.parse(path.read_text(encoding="utf-8"), str(path)))
        graph[module] = [edge for edge in visitor.found if edge[0] != module]
    return graph


def package(module: str) -> str:
    """The top-level package of ``module`` (``bot`` for bot.py)."""
    return module.partition(".")[0]


def _where(module: str, line: int) -> str:
    return f"{modules()[module].relative_to(ROOT)}:{line}"


def test_every_layered_package_is_found():
    """The test reads real code: each layer has modules, and ``club.service`` imports from ``backgammon``."""
    assert {package(module) for module in modules()} == set(LAYERS)
    assert any(package(target) == "backgammon" for target, *_ in imports()["club.service"])


def test_no_import_goes_up_a_layer_or_sideways():
    """A module imports only from its own package and from lower layers (rules ← storage, rendering ← club ←
    cogs, console ← entry)."""
    found = {
        (module, target): line
        for module, edges in imports().items()
        for target, line, _, _ in edges
        if package(target) != package(module) and LAYERS[package(target)] >= LAYERS[package(module)]
    }
    wrong = [f"{_where(module, line)}: {module} imports {target}" for (module, target), line in found.items()]
    assert not set(found) - LAYERS_ALLOWED, "imports against the layers:\n" + "\n".join(
        text for text, key in zip(wrong, found, strict=True) if key not in LAYERS_ALLOWED
    )
    assert not LAYERS_ALLOWED - set(found), f"fixed, drop from LAYERS_ALLOWED: {LAYERS_ALLOWED - set(found)}"


def test_front_ends_do_not_import_storage():
    """``cogs/`` and ``console/`` reach the database only through ``club/`` (no ``service.db``, no SQL)."""
    found = {
        (module, target): line
        for module, edges in imports().items()
        if package(module) in FRONT_ENDS
        for target, line, _, _ in edges
        if package(target) == "storage"
    }
    wrong = [f"{_where(module, line)}: {module} imports {target}" for (module, target), line in found.items()]
    assert not set(found) - STORAGE_ALLOWED, "front ends importing storage:\n" + "\n".join(
        text for text, key in zip(wrong, found, strict=True) if key not in STORAGE_ALLOWED
    )
    assert not STORAGE_ALLOWED - set(found), (
        f"moved behind club/, drop from STORAGE_ALLOWED: {STORAGE_ALLOWED - set(found)}"
    )


def _cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one node (Tarjan), each sorted: the import cycles."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in sorted(edges.get(node, ())):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(edges):
        if node not in index:
            visit(node)
    return found


def _runtime_edges() -> dict[str, set[str]]:
    """The imports that run (type-only ones and :data:`LAYERS_ALLOWED` left out), module → modules."""
    return {
        module: {
            target for target, _, _, type_only in found if not type_only and (module, target) not in LAYERS_ALLOWED
        }
        for module, found in imports().items()
    }


def test_no_cycle_between_packages():
    """The packages' import graph (every import that runs, in a function or not) has no cycle."""
    edges: dict[str, set[str]] = {}
    for module, targets in _runtime_edges().items():
        edges.setdefault(package(module), set()).update(package(t) for t in targets if package(t) != package(module))
    assert not _cycles(edges), f"import cycles between packages: {_cycles(edges)}"


def test_no_cycle_hidden_in_a_function_or_across_packages():
    """No import cycle runs through an import written inside a function (delaying an import to dodge a cycle hides
    it), and none joins modules of different packages; a cycle of module-level imports inside one package (a
    package ``__init__`` and its modules) is Python's ordinary business and is left alone."""
    edges = _runtime_edges()
    wrong = []
    for component in _cycles(edges):
        members = frozenset(component)
        deferred = sorted(
            f"{_where(module, line)}: {module} → {target}"
            for module in component
            for target, line, in_function, type_only in imports()[module]
            if in_function and not type_only and target in members
        )
        if deferred or len({package(module) for module in component}) > 1:
            if members in CYCLES_ALLOWED:
                continue
            wrong.append(f"{' ↔ '.join(component)}" + "".join(f"\n    {edge}" for edge in deferred))
    assert not wrong, f"{len(wrong)} import cycles:\n" + "\n".join(wrong)
    gone = [sorted(cycle) for cycle in CYCLES_ALLOWED if cycle not in map(frozenset, _cycles(edges))]
    assert not gone, f"fixed, drop from CYCLES_ALLOWED: {gone}"
