"""The project's own import graph, read from the source with ``ast`` (nothing is imported or run)."""

from __future__ import annotations

import ast
from pathlib import Path

import networkx

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("armybuilder", "rules", "armydata")


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _modules() -> dict[str, Path]:
    found = {}
    for package in PACKAGES:
        for path in (ROOT / package).rglob("*.py"):
            if "migrations" not in path.parts:
                found[_module_name(path)] = path
    return found


def _imported(module: str, path: Path, modules: dict[str, Path]) -> set[str]:
    tree = ast.parse(path.read_text(), str(path))
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    targets: set[str] = set()
    for node in ast.walk(tree):
        # Every import counts, those inside functions and under TYPE_CHECKING too: a module that names
        # another's types, or imports it late to dodge a circle, still depends on it.
        if not isinstance(node, ast.Import | ast.ImportFrom):
            continue
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        else:
            base = node.module or ""
            if node.level:
                anchor = package.split(".")
                anchor = anchor[: len(anchor) - (node.level - 1)]
                base = ".".join([*anchor, base] if base else anchor)
            # "from pkg import name": the submodule pkg.name when there is one, else pkg itself.
            names = [f"{base}.{alias.name}" if f"{base}.{alias.name}" in modules else base for alias in node.names]
        for name in names:
            while name and name not in modules:
                name = name.rpartition(".")[0]
            if name and name != module:
                targets.add(name)
    return targets


def import_graph() -> networkx.DiGraph:
    modules = _modules()
    graph = networkx.DiGraph()
    for module, path in modules.items():
        graph.add_node(module)
        for target in _imported(module, path, modules):
            # A package's own __init__ is imported on the way to any of its modules: not an edge of interest.
            if not module.startswith(target + "."):
                graph.add_edge(module, target)
    return graph


def circles(graph: networkx.DiGraph) -> list[list[str]]:
    return sorted(
        sorted(component) for component in networkx.strongly_connected_components(graph) if len(component) > 1
    )
