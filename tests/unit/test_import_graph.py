"""No import circles between the modules of annotate, labeling, autolabel, training_runs and
training. Every import statement counts: module level, inside functions (the usual way a
circle is hidden) and under TYPE_CHECKING. A circle is fixed by moving the shared piece down
(tasks import services, never the reverse)."""

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("annotate", "labeling", "autolabel", "training_runs", "training")


def module_files(root: Path, packages: tuple[str, ...]) -> dict[str, Path]:
    files = {}
    for package in packages:
        for path in sorted((root / package).rglob("*.py")):
            parts = path.relative_to(root).with_suffix("").parts
            if parts[-1] == "__init__":
                parts = parts[:-1]
            files[".".join(parts)] = path
    return files


def import_graph(root: Path, packages: tuple[str, ...] = PACKAGES) -> dict[str, set[str]]:
    """module -> the modules of these packages it imports (`from a import b` goes to the
    module a.b when there is one, else to a)."""
    files = module_files(root, packages)

    def known(name: str) -> str | None:
        while name and name not in files:
            name = name.rpartition(".")[0]
        return name or None

    graph: dict[str, set[str]] = {}
    for module, path in files.items():
        edges: set[str | None] = set()
        package = module if path.name == "__init__.py" else module.rpartition(".")[0]
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                edges.update(known(alias.name) for alias in node.names)
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    anchor = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                    base = ".".join([*anchor, *([node.module] if node.module else [])])
                for alias in node.names:
                    sub = f"{base}.{alias.name}"
                    edges.add(sub if sub in files else known(base))
        graph[module] = {e for e in edges if e and e != module}
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components with more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found = []
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph.get(child, ())))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
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
    return found


def test_no_import_circles():
    graph = import_graph(ROOT)
    # The graph is the real one: known edges, function-level and relative ones included.
    assert "autolabel.recovery" in graph["autolabel.tasks"]
    assert "training.scorers" in graph["autolabel.engines.prm"]
    assert "autolabel.judge.parsing" in graph["autolabel.judge.verdict"]
    assert cycles(graph) == []


def test_a_circle_hidden_in_a_function_is_found(tmp_path):
    package = tmp_path / "pkg"
    (package / "sub").mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "sub" / "__init__.py").write_text("")
    (package / "tasks.py").write_text("from pkg.sub.services import work\n")
    (package / "sub" / "services.py").write_text(
        "def work():\n    from ..tasks import queue  # hidden\n"
    )
    (package / "sub" / "typed.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from pkg import loop\n"
    )
    (package / "loop.py").write_text("from pkg.sub import typed\n")
    graph = import_graph(tmp_path, ("pkg",))
    assert sorted(cycles(graph)) == [
        ["pkg.loop", "pkg.sub.typed"],
        ["pkg.sub.services", "pkg.tasks"],
    ]
