"""Claims about a graph found in a step's prose: what is claimed, about which nodes.

Each pattern below reads one way of saying a checkable fact ("the distance from A to D is 7",
"path A-B-D has length 5", "edge (B,C) has weight 3", "D is reachable from A", "the graph has
a cycle B->C->D->B", "order so far: A, B, C", "matching size is 3", "A and E are connected",
"The DFS traversal start from node 10 is [10, 6, 17]", ...). A claim is kept only when every
node it names is a node of the graph, and never in a question or a hypothesis ("if", "suppose",
"whether", a sentence ending in "?"): saying nothing beats a wrong −1. Patterns are tried in
order and a later match that overlaps an earlier one is dropped, so the specific forms win.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Claim:
    kind: str
    text: str  # as found in the (normalized) step
    args: dict[str, Any] = field(default_factory=dict)
    span: tuple[int, int] = (0, 0)


def _n(name: str) -> str:
    return rf"(?:nodes?\s+)?(?P<{name}>\w+)"


NUM = r"(?P<num>\d+(?:\.\d+)?(?:/\d+)?)"
PATH = r"(?P<path>\w+(?:\s*(?:->|-)\s*\w+)+)"
# A bracketed list, or a bare one that runs to the end of its sentence. The bare list's
# repetition is possessive (*+): where the sentence goes on, it fails at once instead of
# retrying every shorter list (exponential in the list's length).
LIST = (
    r"(?:\[(?P<blist>[^\]]*)\]"
    r"|(?P<list>\w+(?:(?:\s*,\s*(?:and\s+)?|\s+and\s+|\s*->\s*)\w+)*+)(?=\s*(?:[.;]|$)))"
)
EDGE = (
    r"(?P<edge>\(\s*\w+\s*,\s*\w+\s*\)|\w+\s*(?:->|-)\s*\w+|from\s+(?:node\s+)?\w+\s+to\s+"
    r"(?:node\s+)?\w+|between\s+(?:node\s+)?\w+\s+and\s+(?:node\s+)?\w+)"
)
LENGTH = r"(?:length|weight|cost|distance|total)"
NEG = r"(?P<neg>not\s+|no\s+|un|dis)"
_HYPOTHETICAL = re.compile(
    r"\b(?:if|suppose|supposing|assume|assuming|whether|check|verify|would|could|might|"
    r"let's see|need to|not yet|tentative|tentatively|update|updated|candidate|current|"
    r"currently|so\s+far|partial|try|trying|unvisited|unexplored|undiscovered|remaining)\b",
    re.I,
)
_QUALIFIERS_OK = {"topo_prefix"}  # "order so far" is itself the claim
# "= 6 + 1 = 7" after a claimed value: the chain's last value is the claim's.
_CHAIN = re.compile(
    r"\s*(?:[-+*/×·]\s*\d+(?:\.\d+)?\s*)+=\s*(\d+(?:\.\d+)?(?:/\d+)?)(?![\d.]*\s*[-+*/×·]\s*\d)"
)
_OPERATOR = re.compile(r"\s*[-+*/×·]\s*\d")


def _words(text: str) -> list[str]:
    drop = {"from", "to", "between", "and", "node", "nodes"}
    return [w for w in re.findall(r"\w+", text) if w.lower() not in drop]


def _items(m: re.Match[str]) -> list[str]:
    raw = m.group("blist") if m.group("blist") is not None else m.group("list")
    parts = re.split(r"\s*(?:,\s*(?:and\s+)?|\s+and\s+|->)\s*", raw.strip())
    return [re.sub(r"^(?:nodes?\s+)", "", p, flags=re.I) for p in parts if p.strip()]


def _path(m: re.Match[str]) -> list[str]:
    return re.split(r"\s*(?:->|-)\s*", m.group("path").strip())


def _neg(m: re.Match[str]) -> bool:
    return bool(m.groupdict().get("neg"))


Builder = Callable[[re.Match[str]], dict[str, Any] | None]


def _pair(m: re.Match[str]) -> dict[str, Any]:
    return {"a": m.group("a"), "b": m.group("b")}


def _edge(m: re.Match[str]) -> dict[str, Any] | None:
    names = _words(m.group("edge"))
    return {"a": names[0], "b": names[1]} if len(names) == 2 else None


PATTERNS: list[tuple[str, str, Builder]] = [
    (
        "shortest_path",
        rf"shortest\s+path\s+(?:from|between)\s+{_n('a')}\s+(?:to|and)\s+{_n('b')}\s+is\s+{PATH}"
        rf"(?:\s*,?\s*(?:with|of|has)?\s*(?:a\s+)?(?:total\s+)?{LENGTH}\s*(?:of|=|is|:)?\s*{NUM})?",
        lambda m: {**_pair(m), "path": _path(m), "num": m.group("num")},
    ),
    (
        "distance",
        rf"(?:shortest\s+)?(?:path\s+)?distance\s+(?:from|between)\s+{_n('a')}\s+(?:to|and)\s+"
        rf"{_n('b')}\s*(?:is|=|equals|:|of)\s*(?:equal\s+to\s+)?(?:{NUM}|(?P<inf>infinite|infinity|∞))",
        lambda m: {**_pair(m), "num": m.group("num")},
    ),
    (
        "distance",
        rf"shortest\s+path\s+(?:from|between)\s+{_n('a')}\s+(?:to|and)\s+{_n('b')}\s+(?:has\s+(?:a\s+)?"
        rf"(?:total\s+)?{LENGTH}|is\s+of\s+length|costs|has\s+length)\s*(?:of\s+|=\s*|is\s+)?{NUM}",
        lambda m: {**_pair(m), "num": m.group("num")},
    ),
    (
        "distance",
        rf"\b(?:d|dist)\s*\(\s*{_n('a')}\s*,\s*{_n('b')}\s*\)\s*=\s*{NUM}",
        lambda m: {**_pair(m), "num": m.group("num")},
    ),
    (
        "distance_from_source",
        rf"shortest\s+(?:distance|path\s+length)\s+to\s+{_n('b')}\s+is\s+{NUM}",
        lambda m: {"b": m.group("b"), "num": m.group("num")},
    ),
    (
        "edge_weight",
        rf"edge\s+{EDGE}\s*(?:has\s+(?:a\s+)?(?:weight|cost|length)(?:\s+of)?|weighs|costs|"
        rf"(?:with|of|is\s+of)\s+weight|\(?\s*(?:weight|w)\s*[:=]?)\s*{NUM}",
        lambda m: (e := _edge(m)) and {**e, "num": m.group("num")},
    ),
    (
        "edge_exists",
        rf"there\s+is\s+(?P<neg>no\s+)?(?:an?\s+)?(?:directed\s+)?edge\s+{EDGE}",
        lambda m: (e := _edge(m)) and {**e, "neg": _neg(m)},
    ),
    (
        "cycle_path",
        rf"cycle\s*(?::|is|of)?\s*{PATH}",
        lambda m: {"path": _path(m)},
    ),
    (
        "topo_kahn",
        rf"result\s+of\s+(?:the\s+)?topological\s+sort(?:ing)?\s*(?:is)?\s*:?\s*{LIST}",
        lambda m: {"order": _items(m)},
    ),
    (
        "topo_prefix",
        rf"(?:topological\s+)?(?:order(?:ing)?|sort(?:ing)?)\s+so\s+far\s*(?:is|:|=)?\s*{LIST}",
        lambda m: {"order": _items(m)},
    ),
    (
        "topo_full",
        rf"topological\s+(?:order(?:ing)?|sort(?:ing)?)\s*(?:is|:|=)\s*{LIST}",
        lambda m: {"order": _items(m)},
    ),
    (
        "traversal",
        rf"(?P<algo>DFS|BFS|depth-first\s+search|breadth-first\s+search)\s+(?:traversal|order)\s*"
        rf"(?:start(?:ing|s)?\s+(?:from|at)|from)\s+{_n('a')}\s*(?:is|:|=)\s*{LIST}",
        lambda m: {
            "algo": "bfs" if m.group("algo").lower().startswith(("b", "breadth")) else "dfs",
            "a": m.group("a"),
            "order": _items(m),
        },
    ),
    (
        "traversal",  # "So the BFS traversal is [4, 2, 0]": from the task's source
        rf"(?P<algo>DFS|BFS|depth-first\s+search|breadth-first\s+search)\s+(?:traversal|order)\s*"
        rf"(?:is|:|=)\s*{LIST}",
        lambda m: {
            "algo": "bfs" if m.group("algo").lower().startswith(("b", "breadth")) else "dfs",
            "a": None,
            "order": _items(m),
        },
    ),
    (
        "path_weight",
        rf"{PATH}\s*,?\s*(?:has|with|of)?\s*(?:a\s+)?(?:total\s+)?{LENGTH}\s*(?:of|=|is|:)?\s*{NUM}",
        lambda m: {"path": _path(m), "num": m.group("num")},
    ),
    (
        "path_weight",
        rf"(?:path|route)\s+{PATH}\s*(?:[:=]|costs?|is)\s*{NUM}",
        lambda m: {"path": _path(m), "num": m.group("num")},
    ),
    (
        "reachable",
        rf"{_n('b')}\s+is\s+{NEG}?reachable\s+from\s+{_n('a')}",
        lambda m: {**_pair(m), "neg": _neg(m)},
    ),
    (
        "reachable",
        rf"there\s+(?:is|exists)\s+(?P<neg>no\s+)?(?:a\s+)?(?:directed\s+)?path\s+(?:from|between)\s+"
        rf"{_n('a')}\s+(?:to|and)\s+{_n('b')}",
        lambda m: {**_pair(m), "neg": _neg(m)},
    ),
    (
        "reachable",
        rf"{_n('a')}\s+can(?P<neg>not|'t|\s+not)?\s+reach\s+{_n('b')}",
        lambda m: {**_pair(m), "neg": _neg(m)},
    ),
    (
        "connected",
        rf"{_n('a')}\s+and\s+{_n('b')}\s+are\s+{NEG}?(?:connected|in\s+the\s+same\s+(?:connected\s+)?component)",
        lambda m: {**_pair(m), "neg": _neg(m)},
    ),
    (
        "has_cycle",
        r"graph\s+(?:has|contains)\s+(?P<neg>no\s+)?(?:a\s+|at\s+least\s+one\s+|any\s+)?cycles?\b",
        lambda m: {"neg": _neg(m)},
    ),
    (
        "has_cycle",
        r"graph\s+(?:does\s+not|doesn't)\s+(?:have|contain)\s+(?:a\s+|any\s+)?cycles?\b",
        lambda m: {"neg": True},
    ),
    (
        "has_cycle",
        r"there\s+(?:is|are)\s+(?P<neg>no\s+)?(?:a\s+)?cycles?\b(?!\s*(?::|is|of)?\s*\w+\s*(?:->|-))",
        lambda m: {"neg": _neg(m)},
    ),
    (
        "has_cycle",
        r"graph\s+is\s+(?P<pos>not\s+)?(?:acyclic|a\s+DAG)\b",
        lambda m: {"neg": not m.group("pos")},
    ),
    (
        "matching",
        r"(?P<max>maximum\s+)?matching\s*(?:is|:|=)?\s*\{?\s*(?P<pairs>\w+\s*-\s*\w+(?:\s*,\s*\w+\s*-\s*\w+)*)\s*\}?",
        lambda m: {
            "pairs": [re.split(r"\s*-\s*", p.strip()) for p in m.group("pairs").split(",")],
            "maximum": bool(m.group("max")),
        },
    ),
    (
        "matching_size",
        rf"(?:(?:maximum|max|largest)(?:\s+cardinality)?\s+matching\s+(?:has\s+(?:size\s+)?|size\s*"
        rf"(?:is|=|:)?\s*|is\s+of\s+size\s+|of\s+size\s+|contains\s+)|size\s+of\s+the\s+(?:maximum\s+)?"
        rf"matching\s+is\s+|matching\s+size\s*(?:is|=|:)\s*){NUM}",
        lambda m: {"num": m.group("num")},
    ),
    (
        "degree",
        rf"(?P<which>in-|out-)?degree\s+of\s+{_n('a')}\s+(?:is|=|:)\s*{NUM}",
        lambda m: {
            "a": m.group("a"),
            "which": (m.group("which") or "")[:-1],
            "num": m.group("num"),
        },
    ),
    (
        "degree",
        rf"{_n('a')}\s+has\s+(?:an?\s+)?(?P<which>in-|out-)?degree\s+(?:of\s+)?{NUM}",
        lambda m: {
            "a": m.group("a"),
            "which": (m.group("which") or "")[:-1],
            "num": m.group("num"),
        },
    ),
    (
        "neighbors",
        rf"(?P<which>in-|out-)?neighbou?rs\s+of\s+{_n('a')}\s*(?:are|is|:|=)\s*{LIST}",
        lambda m: {"a": m.group("a"), "which": (m.group("which") or "")[:-1], "order": _items(m)},
    ),
    (
        "components",
        rf"(?:graph\s+has|there\s+are)\s+{NUM}\s+(?:connected\s+)?components",
        lambda m: {"num": m.group("num")},
    ),
    (
        "graph_connected",
        rf"graph\s+is\s+{NEG}?connected",
        lambda m: {"neg": _neg(m)},
    ),
    (
        "bipartite",
        r"graph\s+is\s+(?P<neg>not\s+)?bipartite",
        lambda m: {"neg": _neg(m)},
    ),
]
COMPILED = [(kind, re.compile(rx, re.I), build) for kind, rx, build in PATTERNS]

_REPLACE = [
    (re.compile(r"\\(?:to|rightarrow|longrightarrow|Rightarrow)\b|→|⟶|⇒|⇢"), "->"),
    (re.compile(r"[–—−]"), "-"),
    (re.compile(r"\\[()\[\]]|\$|\*\*|`|\\text\{|\\mathrm\{"), " "),
    (re.compile(r"\\[{}]"), ""),
    (re.compile(r"\\boxed\{"), ""),
    (re.compile(r"[ \t]+"), " "),
]


def normalize(text: str) -> str:
    for pattern, repl in _REPLACE:
        text = pattern.sub(repl, text)
    return text


def _sentence(text: str, start: int, end: int) -> tuple[int, int]:
    """Where the sentence around text[start:end] begins and ends (its closing mark included)."""
    left = max(text.rfind(c, 0, start) for c in "!?\n") + 1
    dot = [m.end() for m in re.finditer(r"\.(?:\s|$)", text[:start])]
    left = max([left, *dot])
    stops = [i for c in "!?\n" if (i := text.find(c, end)) >= 0]
    if (m := re.search(r"\.(?:\s|$)", text[end:])) is not None:
        stops.append(end + m.start())
    return left, (min(stops) + 1 if stops else len(text))


def _hypothetical(kind: str, text: str, m: re.Match[str]) -> bool:
    """A question, a hypothesis or a working value rather than a claim."""
    left, right = _sentence(text, m.start(), m.end())
    if text[left:right].rstrip().endswith("?"):
        return True
    said = text[left : m.end()]
    if kind in _QUALIFIERS_OK:
        said = re.sub(r"\bso\s+far\b", "", said, flags=re.I)
    return bool(_HYPOTHETICAL.search(said))


def _names(args: dict[str, Any]) -> list[str]:
    names = [args[k] for k in ("a", "b") if args.get(k) is not None]
    names += args.get("path") or []
    names += args.get("order") or []
    names += [n for pair in args.get("pairs") or [] for n in pair]
    return names


def find_claims(step: str, nodes: set[str]) -> list[Claim]:
    """The checkable claims of one step, in the order they appear."""
    text = normalize(step)
    taken: list[tuple[int, int]] = []
    claims: list[Claim] = []
    for kind, regex, build in COMPILED:
        for m in regex.finditer(text):
            if any(m.start() < e and s < m.end() for s, e in taken):
                continue
            args = build(m)
            end = m.end()
            if args and args.get("num"):
                rest = text[end:]
                if chain := _CHAIN.match(rest):  # "dist(P, T) = 6 + 1 = 7": the value is 7
                    args, end = {**args, "num": chain.group(1)}, end + chain.end()
                elif _OPERATOR.match(rest):  # "costs 3 + w": an expression, not a value
                    continue
            if not args or any(name not in nodes for name in _names(args)):
                continue
            if any(len(p) != 2 for p in args.get("pairs") or []):
                continue
            if _hypothetical(kind, text, m):
                continue
            taken.append((m.start(), end))
            claims.append(Claim(kind, text[m.start() : end].strip(), args, (m.start(), end)))
    return sorted(claims, key=lambda c: c.span)
