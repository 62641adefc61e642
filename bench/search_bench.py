r"""PRM-guided beam search vs best-of-N vs majority vote at equal generated tokens, simulated.

    .venv/bin/python bench/search_bench.py [--problems 400] [--seed 0]

A simulated policy and a noisy PRM stand in for models, and the real code runs on them
(autolabel.search.compare: beam_search, then whole solutions drawn to the same token budget).

* Policy: each problem has a length L (3-8 reasoning steps, then an answer step) and a per-step
  error probability p (0.02-0.30). A step goes wrong with probability p; every step after a
  wrong one is wrong too, and a solution with a wrong step ends in a wrong answer: the
  problem's one tempting wrong answer with probability 0.4, else one of 20 others, so on hard
  problems the tempting one can outvote the gold answer. Steps are 8-24 words; tokens are
  counted as words.
* PRM: sees a wrong step with probability ``recall`` (score uniform in 0.05-0.5, else 0.5-0.95)
  and flags a right step with probability ``false_alarm``; a step's score is fixed by its text.

Prints accuracy per method and the ratios, for a few PRM qualities and beam shapes.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from autolabel.completers.base import derive_seed  # noqa: E402
from autolabel.prompts import rollout_prompt  # noqa: E402
from autolabel.search import SearchConfig, SearchProblem, compare  # noqa: E402

_TEXT = "we compute the value then substitute it into both sides and simplify carefully"
WORDS = _TEXT.split()


@dataclass(frozen=True)
class Setting:
    length: int
    p_error: float
    gold: str
    distractors: tuple[str, ...]


class SimulatedPolicy:
    tokenizer = None
    id = "simulated"

    def __init__(self, settings: dict[str, Setting]) -> None:
        self.settings = settings
        self.heads = {p: rollout_prompt(p, []).text for p in settings}

    def _step(self, setting: Setting, done: list[str], rng: random.Random) -> str:
        wrong = any(s.endswith("]") and "[err" in s for s in done) or rng.random() < setting.p_error
        filler = " ".join(rng.choice(WORDS) for _ in range(rng.randint(8, 24)))
        tag = f"[{'err' if wrong else 'ok'}:{rng.getrandbits(32):08x}]"
        if len(done) < setting.length:
            return f"Step {len(done) + 1}: {filler} {tag}"
        if not wrong:
            answer = setting.gold
        elif rng.random() < 0.4:
            answer = setting.distractors[0]
        else:
            answer = rng.choice(setting.distractors[1:])
        return f"{filler}, so the answer is $\\boxed{{{answer}}}$ {tag}"

    def complete(self, prompts, *, n, temperature, top_p, max_tokens, stop, seed):
        out = []
        for prompt in prompts:
            problem = next(p for p, head in self.heads.items() if prompt.startswith(head))
            setting = self.settings[problem]
            done = [s for s in prompt[len(self.heads[problem]) :].split("\n") if s]
            texts = []
            for j in range(n):
                rng = random.Random(derive_seed(seed or 0, prompt, str(j)))
                if stop and "\n" in stop:  # one step
                    texts.append(self._step(setting, done, rng))
                    continue
                steps = list(done)
                while len(steps) <= setting.length:
                    steps.append(self._step(setting, steps, rng))
                texts.append("\n".join(steps[len(done) :]))
            out.append(texts)
        return out


def noisy_prm(recall: float, false_alarm: float, seed: int):
    def score_many(items):
        out = []
        for _, steps in items:
            scores = []
            for step in steps:
                rng = random.Random(derive_seed(seed, "prm", step))
                flagged = rng.random() < (recall if "[err:" in step else false_alarm)
                scores.append(rng.uniform(0.05, 0.5) if flagged else rng.uniform(0.5, 0.95))
            out.append(scores)
        return out

    return score_many


def make_problems(count: int, seed: int) -> tuple[list[SearchProblem], dict[str, Setting]]:
    rng = random.Random(seed)
    problems, settings = [], {}
    for i in range(count):
        gold = rng.randint(10, 999)
        text = f"Problem {i}: find the value of x."
        settings[text] = Setting(
            length=rng.randint(3, 8),
            p_error=rng.uniform(0.02, 0.30),
            gold=str(gold),
            distractors=tuple(str(gold + d) for d in range(1, 22)),
        )
        problems.append(SearchProblem(str(i), text, str(gold)))
    return problems, settings


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--problems", type=int, default=400)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    problems, settings = make_problems(args.problems, args.seed)
    policy = SimulatedPolicy(settings)
    print(f"{args.problems} simulated problems; tokens = words; baselines get >= the beam's tokens")
    header = (
        f"{'PRM recall/false alarm':>22} {'b x k':>6} {'agg':>7} | {'beam':>6} {'BoN':>6} "
        f"{'maj':>6} {'pass@N':>6} | {'mean N':>6} {'tok beam':>9} {'tok base':>9} | "
        f"{'beam/BoN':>8} {'beam/maj':>8}"
    )
    print(header)
    print("-" * len(header))
    for recall, false_alarm in ((0.9, 0.05), (0.75, 0.15), (0.6, 0.3)):
        for beam_width, expansions in ((2, 4), (4, 4)):
            for aggregate in ("last", "min"):
                config = SearchConfig(
                    beam_width=beam_width,
                    expansions=expansions,
                    max_depth=10,
                    aggregate=aggregate,
                    seed=args.seed,
                )
                started = time.perf_counter()
                report = compare(
                    problems,
                    policy,
                    noisy_prm(recall, false_alarm, args.seed),
                    config,
                    count_tokens=lambda text: len(text.split()),
                    grade=lambda answer, gold: answer == gold,
                    token_counter="words",
                )
                acc, tokens, ratio = report["accuracy"], report["tokens"], report["ratio"]
                print(
                    f"{f'{recall:.2f} / {false_alarm:.2f}':>22} {f'{beam_width}x{expansions}':>6} "
                    f"{aggregate:>7} | {acc['beam']:6.3f} {acc['best_of_n']:6.3f} "
                    f"{acc['majority']:6.3f} {acc['pass@n']:6.3f} | {report['mean_n']:6.1f} "
                    f"{tokens['beam']:9d} {tokens['baseline']:9d} | "
                    f"{ratio['beam/best_of_n'] or float('nan'):8.2f} "
                    f"{ratio['beam/majority'] or float('nan'):8.2f}"
                    f"   ({time.perf_counter() - started:.1f} s)"
                )
    return 0


if __name__ == "__main__":
    sys.exit(main())
