"""A scripted policy whose next steps are a fixed tree, and a scorer that reads fixed scores."""

from __future__ import annotations

from autolabel.prompts import rollout_prompt


class TreePolicy:
    """Step mode (the separator is a stop string): the children of the prompt's prefix in the
    tree, cycled to fill n. Whole-solution mode: ``solutions`` in turn, one per sample."""

    tokenizer = None
    id = "scripted:tree"

    def __init__(
        self, problem: str, tree: dict[tuple[str, ...], list[str]], solutions: list[str]
    ) -> None:
        self.head = rollout_prompt(problem, []).text
        self.tree = tree
        self.solutions = solutions
        self.expanded: list[tuple[str, ...]] = []
        self.drawn = 0

    def complete(self, prompts, *, n, temperature, top_p, max_tokens, stop, seed):
        out = []
        for prompt in prompts:
            assert prompt.startswith(self.head)
            if stop and "\n" in stop:
                prefix = tuple(s for s in prompt[len(self.head) :].split("\n") if s)
                self.expanded.append(prefix)
                children = self.tree.get(prefix, [])
                out.append(
                    [children[j % len(children)] for j in range(n)] if children else [""] * n
                )
            else:
                texts = []
                for _ in range(n):
                    texts.append(self.solutions[self.drawn % len(self.solutions)])
                    self.drawn += 1
                out.append(texts)
        return out


class TableScorer:
    """Each step's score is looked up by its text; records every call."""

    def __init__(self, scores: dict[str, float], default: float = 0.5) -> None:
        self.scores = scores
        self.default = default
        self.calls: list[list[tuple[str, list[str]]]] = []

    def score_many(self, items):
        self.calls.append([(p, list(s)) for p, s in items])
        return [[self.scores.get(step, self.default) for step in steps] for _, steps in items]
