"""ALFWorld episode logs: the text game's transcript as ALFWorld and ReAct print it.

    {"transcript": str, "won": bool | null, "id", "problem_id", "generator", "source",
     "metadata", "labels": [-1 | 0 | 1 | null, ...]}        (all but transcript optional)

The transcript is ALFWorld's (TextWorld's) own log: the room description and a line
``Your task is to: ...`` (the problem), then each command on a line starting with ``>``
followed by the game's answer. ``> think: ...`` lines (ReAct's thoughts, answered ``OK.``)
become `plan` steps, every other command an `action` step and the game's answer an
`observation` step. ``Nothing happens.`` is ALFWorld's answer to a command that failed: the
action's `success` is false, else true (null when the game never answered).

Preconditions and effects come from the command, as ALFWorld's PDDL domain (alfred.pddl)
states them for its text commands: ``take o from r`` needs ``at(r)``, ``in(o, r)`` and
``hand_empty``; ``put o in/on r`` (or ``move o to r``) needs ``at(r)`` and ``holding(o)``;
``open``/``close r`` need ``at(r)``; ``heat``/``cool``/``clean o with r`` need ``at(r)`` and
``holding(o)``. An observation's effects are what it reports: ``in(o, r)`` for each object it
lists, ``open(r)`` / ``not open(r)``. The episode starts with ``hand_empty``; `won` becomes
the solution's `answer_correct`. Steps are stored as the embodied importer stores them.
"""

import re
from typing import Any

from .fields import Row
from .ids import problem_id
from .trajectory import trajectory_solution
from .types import ParsedProblem, ParsedRow, ParsedStep

TASK = re.compile(r"^Your task is to:\s*(.+?)\s*$", re.M)
FAILED = "Nothing happens."
_ARTICLE = re.compile(r"^(?:a|an|the)\s+", re.I)
_SEE = re.compile(r"(?:On the (?P<on>[\w ]+?), you see|In it, you see) (?P<items>[^.]*)\.")
_OPEN = re.compile(r"The (?P<r>[\w ]+?) is open\.")
_CLOSED = re.compile(r"The (?P<r>[\w ]+?) is closed\.")
_COMMANDS: list[tuple[re.Pattern[str], Any]] = [
    (
        re.compile(r"^go to (?P<r>.+)$"),
        lambda m, at: ([], [f"at({m['r']})"] + ([f"not at({at})"] if at and at != m["r"] else [])),
    ),
    (re.compile(r"^open (?P<r>.+)$"), lambda m, at: ([f"at({m['r']})"], [f"open({m['r']})"])),
    (re.compile(r"^close (?P<r>.+)$"), lambda m, at: ([f"at({m['r']})"], [f"not open({m['r']})"])),
    (
        re.compile(r"^take (?P<o>.+) from (?P<r>.+)$"),
        lambda m, at: (
            [f"at({m['r']})", f"in({m['o']}, {m['r']})", "hand_empty"],
            [f"holding({m['o']})", f"not in({m['o']}, {m['r']})", "not hand_empty"],
        ),
    ),
    (
        re.compile(r"^(?:put (?P<o>.+) in/on|move (?P<o2>.+) to) (?P<r>.+)$"),
        lambda m, at: (
            [f"at({m['r']})", f"holding({m['o'] or m['o2']})"],
            [
                f"in({m['o'] or m['o2']}, {m['r']})",
                "hand_empty",
                f"not holding({m['o'] or m['o2']})",
            ],
        ),
    ),
    *(
        (
            re.compile(rf"^{verb} (?P<o>.+) with (?P<r>.+)$"),
            lambda m, at, state=state: (
                [f"at({m['r']})", f"holding({m['o']})"],
                [f"{state}({m['o']})"],
            ),
        )
        for verb, state in (("heat", "hot"), ("cool", "cool"), ("clean", "clean"))
    ),
    (
        re.compile(r"^slice (?P<o>.+) with (?P<k>.+)$"),
        lambda m, at: ([f"holding({m['k']})"], [f"sliced({m['o']})"]),
    ),
    (re.compile(r"^use (?P<o>.+)$"), lambda m, at: ([], [f"on({m['o']})"])),
]


def _items(text: str) -> list[str]:
    if text.strip() == "nothing":
        return []
    parts = re.split(r",\s*(?:and\s+)?|\s+and\s+", text)
    return [_ARTICLE.sub("", p.strip()) for p in parts if p.strip()]


def observed(text: str) -> list[str]:
    """The state predicates an ALFWorld answer reports."""
    facts = []
    for match in _CLOSED.finditer(text):
        facts.append(f"not open({match['r']})")
    for match in _OPEN.finditer(text):
        facts.append(f"open({match['r']})")
    for match in _SEE.finditer(text):
        where = match["on"]
        if where is None:  # "In it": the receptacle just named ("The fridge 1 is open. In it")
            opened = list(_OPEN.finditer(text[: match.start()]))
            where = opened[-1]["r"] if opened else None
        if where:
            facts += [f"in({item}, {where})" for item in _items(match["items"])]
    return facts


def _command(text: str, at: str | None) -> tuple[list[str], list[str]]:
    for pattern, build in _COMMANDS:
        if match := pattern.match(text):
            return build(match, at)
    return [], []


def _episode(row: Row, transcript: str) -> tuple[str, list[ParsedStep]]:
    lines = transcript.replace("\r\n", "\n").split("\n")
    first = next((i for i, line in enumerate(lines) if line.startswith(">")), len(lines))
    header = "\n".join(lines[:first]).strip()
    if not TASK.search(header):
        raise row.error("transcript", 'no "Your task is to: ..." line before the first command')
    steps: list[ParsedStep] = []
    waiting: ParsedStep | None = None  # the last action, until the game answers it
    at: str | None = None
    i = first
    while i < len(lines):
        command, number = lines[i][1:].strip(), i + 1
        answer: list[str] = []
        i += 1
        while i < len(lines) and not lines[i].startswith(">"):
            answer.append(lines[i])
            i += 1
        reply = "\n".join(answer).strip()
        if not command:
            raise row.error("transcript", f"line {number} of the transcript: a command is empty")
        if command.lower().startswith("think:"):
            steps.append(ParsedStep(command[6:].strip(), metadata={"kind": "plan"}))
            reply = re.sub(r"^OK\.[ \t]*\n?", "", reply).strip()  # the game's "OK." to a thought
            if not reply or waiting is None:
                continue
            action = waiting  # ReAct logs put a thought between a command and its answer
        else:
            preconditions, effects = _command(command, at)
            action = ParsedStep(command, metadata={"kind": "action"})
            if preconditions:
                action.metadata["preconditions"] = preconditions
            if effects:
                action.metadata["effects"] = effects
            steps.append(action)
            if command.startswith("go to "):
                at = command[6:].strip()
            if not reply:
                waiting = action
                continue
        waiting = None
        action.metadata["success"] = reply != FAILED
        observation = ParsedStep(reply, metadata={"kind": "observation"})
        if facts := observed(reply):
            observation.metadata["effects"] = facts
        steps.append(observation)
    if not steps:
        raise row.error("transcript", "no command after the task line")
    return header, steps


def parse(data: dict[str, Any], row: Row) -> ParsedRow:
    transcript = row.string(data, "transcript")
    header, steps = _episode(row, transcript)
    solution, pid, source = trajectory_solution(
        row,
        data,
        fmt="alfworld",
        steps=steps,
        content=lambda _generator: (transcript,),
        correct_key="won",
    )
    problem = ParsedProblem(
        text=header,
        external_id=pid or problem_id(header),
        source=source,
        metadata={"initial_state": ["hand_empty"]},
    )
    return ParsedRow(line=row.line, problem=problem, solutions=[solution])
