from __future__ import annotations

import ast
from pathlib import Path

import rules.game

MODULES = sorted(Path(rules.game.__file__).parent.glob("*.py"))


def test_it_keeps_the_game_engine_free_of_django_and_its_own_randomness() -> None:
    assert len(MODULES) >= 3
    for path in MODULES:
        tree = ast.parse(path.read_text())
        names = {a.name.split(".")[0] for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
        names |= {n.module.split(".")[0] for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.module}
        assert "django" not in names, path.name
        assert "random" not in names, path.name  # dice come in as an argument
