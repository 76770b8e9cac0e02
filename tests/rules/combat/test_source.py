from __future__ import annotations

import ast
from pathlib import Path

import rules.combat

PACKAGE = Path(rules.combat.__file__).parent
MODULES = sorted(PACKAGE.glob("*.py"))


def _imports(tree: ast.Module) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module.split(".")[0])
    return names


def test_it_keeps_the_engine_free_of_django_and_randomness() -> None:
    assert len(MODULES) >= 14
    for path in MODULES:
        names = _imports(ast.parse(path.read_text()))
        assert "django" not in names, path.name
        assert "random" not in names, path.name


def test_it_starts_every_module_with_future_annotations() -> None:
    for path in MODULES:
        body = ast.parse(path.read_text()).body
        first = body[1] if body and isinstance(body[0], ast.Expr) else body[0]
        assert isinstance(first, ast.ImportFrom) and first.module == "__future__", path.name
