"""SamplingCompleter / SamplingChatCompleter: the one place the backends' signatures live."""

import inspect

from autolabel.completers import (
    ChatCompleter,
    Completer,
    OpenAICompatibleCompleter,
    ScriptedCompleter,
    TransformersCompleter,
)
from autolabel.completers.base import Sampling, SamplingChatCompleter


class Recorder(SamplingChatCompleter):
    id = "recorder"

    def __init__(self) -> None:
        self.seen: list[tuple[str, object, Sampling]] = []

    def _complete(self, prompts: list[str], sampling: Sampling) -> list[list[str]]:
        self.seen.append(("complete", prompts, sampling))
        return [["x"] * sampling.n for _ in prompts]

    def _chat(self, conversations, sampling: Sampling) -> list[list[str]]:
        self.seen.append(("chat", conversations, sampling))
        return [["y"] * sampling.n for _ in conversations]


def test_complete_and_chat_pass_their_defaults_and_keywords_as_one_sampling() -> None:
    r = Recorder()
    assert isinstance(r, Completer) and isinstance(r, ChatCompleter)
    assert r.complete(["p"]) == [["x"]]
    assert r.chat([[{"role": "user", "content": "q"}]], n=2, stop=("END",), seed=3) == [["y", "y"]]
    assert r.seen[0] == ("complete", ["p"], Sampling(1, 0.7, 1.0, 256, None, None))
    # A stop tuple arrives as a list; an empty one as None.
    assert r.seen[1][2] == Sampling(2, 0.0, 1.0, 1024, ["END"], 3)
    r.complete(["p"], stop=[])
    assert r.seen[2][2].stop is None


def test_every_backend_has_the_protocol_signature_from_the_base() -> None:
    complete = inspect.signature(SamplingChatCompleter.complete)
    chat = inspect.signature(SamplingChatCompleter.chat)
    for backend in (ScriptedCompleter, TransformersCompleter, OpenAICompatibleCompleter):
        assert inspect.signature(backend.complete) == complete
    for backend in (TransformersCompleter, OpenAICompatibleCompleter):
        assert inspect.signature(backend.chat) == chat
    # The scripted stand-in has no chat: the judge cannot take it by mistake.
    assert not hasattr(ScriptedCompleter, "chat")
