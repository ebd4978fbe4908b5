"""The module-level imports between snakecube's modules form no circle (issue 33): what both
fold plans and pictures need lives below both, in ``snakecube.frame``."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

SRC = Path(__file__).resolve().parent.parent / "src" / "snakecube"


def _module(path: Path) -> str:
    parts = path.relative_to(SRC.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imports(tree: ast.Module, lazy: bool) -> list[ast.Import | ast.ImportFrom]:
    """The module's import statements: at module level, or (``lazy``) anywhere, those inside
    functions too, except in the notebook hooks ``_repr_png_`` and ``_repr_html_``
    (python-chess imports its renderer the same way in ``_repr_svg_``).
    Imports under ``if TYPE_CHECKING:`` never run and are left out."""
    out: list[ast.Import | ast.ImportFrom] = []

    def walk(body: list[ast.stmt]) -> None:
        for node in body:
            if isinstance(node, ast.Import | ast.ImportFrom):
                out.append(node)
            elif isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
                walk(node.orelse)
            elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                if lazy and not (node.name.startswith("_repr_") and node.name.endswith("_")):
                    walk(node.body)
            elif isinstance(node, ast.ClassDef):
                walk(node.body)
            else:
                for field in ("body", "orelse", "finalbody", "handlers"):
                    inner = getattr(node, field, None)
                    if isinstance(inner, list):
                        walk([n for n in inner if isinstance(n, ast.stmt)])
                        for h in inner:
                            if isinstance(h, ast.ExceptHandler):
                                walk(h.body)

    walk(tree.body)
    return out


def module_imports(lazy: bool = False) -> dict[str, set[str]]:
    """Each snakecube module -> the snakecube modules it imports: at module level, or
    (``lazy``) also inside functions."""
    modules = {_module(p): p for p in SRC.rglob("*.py")}
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        found: set[str] = set()
        for node in _imports(tree, lazy):
            if isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            else:
                base = node.module or ""
                if node.level:
                    up = package.split(".")[: len(package.split(".")) - node.level + 1]
                    base = ".".join([*up, *([base] if base else [])])
                # "from pkg import sub" depends on the submodule, "from mod import name" on mod
                targets = [
                    f"{base}.{a.name}" if f"{base}.{a.name}" in modules else base
                    for a in node.names
                ]
            for t in targets:
                while t and t not in modules:
                    t = t.rpartition(".")[0]
                if t and t != name:
                    found.add(t)
        graph[name] = found
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Every strongly connected set of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    out: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in graph.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                out.append(sorted(group))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def test_the_checker_finds_a_circle():
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_no_import_circle():
    graph = module_imports()
    assert "snakecube.frame" in graph["snakecube.fold.plans"]
    assert cycles(graph) == []


def test_no_circle_even_through_lazy_imports():
    """Imports inside functions too (only the notebook hooks are left out): data flows one
    way, text -> Snake + Region -> search -> Solution -> fold plan -> explain / web -> CLI."""
    assert cycles(module_imports(lazy=True)) == []


DESIGN = SRC.parent.parent / "docs" / "design.md"


def code_map() -> tuple[dict[str, set[str]], dict[str, str]]:
    """docs/design.md's map: each layer with the layers it may import, and each module's
    layer (module names in full: ``snakecube.search.plan``)."""
    text = DESIGN.read_text(encoding="utf-8")
    section = text.split("## Map of the code", 1)[1].split("\n## ", 1)[0]
    rows = [
        [cell.strip() for cell in line.strip().strip("|").split("|")]
        for line in section.splitlines()
        if line.startswith("| ")
        and not line.startswith("| layer |")
        and not line.startswith("| module |")
    ]
    layers = {r[0]: r[2] for r in rows if not r[0].startswith("`")}
    allowed = {
        name: set(layers) if may == "every layer" else {x.strip() for x in may.split(",")}
        for name, may in layers.items()
    }
    modules = {}
    for r in rows:
        if r[0].startswith("`"):
            name = r[0].split("`")[1]
            modules["snakecube" if name == "snakecube" else f"snakecube.{name}"] = r[1]
    return allowed, modules


def test_the_map_names_every_module_with_a_layer():
    allowed, modules = code_map()
    assert set(modules) == set(module_imports()), "docs/design.md's map and src/ differ"
    assert set(modules.values()) <= set(allowed)


def test_every_import_follows_the_map():
    """Data flows one way: each module imports only from the layers its layer may import
    (docs/design.md, "Map of the code"), imports inside functions included."""
    allowed, modules = code_map()
    wrong = [
        f"{m} ({modules[m]}) imports {x} ({modules[x]})"
        for m, targets in module_imports(lazy=True).items()
        for x in targets
        if modules[x] not in allowed[modules[m]] | {modules[m]}
    ]
    assert wrong == []


def test_the_map_check_finds_an_upward_import():
    allowed, modules = code_map()
    assert modules["snakecube.search.plan"] == "search" and "explain" not in allowed["search"]


def test_fold_never_reaches_up_into_explain():
    for path in (SRC / "fold").glob("*.py"):
        assert "snakecube.explain" not in path.read_text(encoding="utf-8"), path


if __name__ == "__main__":
    for lazy in (False, True):
        found = cycles(module_imports(lazy))
        kind = "all imports, also inside functions" if lazy else "module-level imports"
        print(f"circles among snakecube's modules ({kind}):", found or "none")


def test_the_package_loads_its_names_when_first_used():
    """``import snakecube`` alone imports no search; every name in ``__all__`` then resolves
    to the object its home module defines (a fresh process: other tests import everything)."""
    code = (
        "import sys, importlib, snakecube\n"
        "assert 'snakecube.search' not in sys.modules, 'search imported with the package'\n"
        "for name in snakecube.__all__:\n"
        "    value = getattr(snakecube, name)\n"
        "    home = getattr(value, '__module__', None)\n"
        "    assert home and getattr(importlib.import_module(home), name) is value, name\n"
        "assert set(snakecube.__all__) <= set(dir(snakecube))\n"
        "print('ok')\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.returncode == 0 and out.stdout.strip() == "ok", out.stderr
