"""Text-completion backends behind one interface (see base.Completer)."""

from .base import ChatCompleter, Completer, CompletionError, SamplingParams, truncate_at_stop
from .config import clear_completer_cache, completer_from_config, validate_backend
from .hf import TransformersCompleter
from .openai_compat import OpenAICompatibleCompleter
from .scripted import ScriptedCompleter

__all__ = [
    "ChatCompleter",
    "Completer",
    "CompletionError",
    "OpenAICompatibleCompleter",
    "SamplingParams",
    "ScriptedCompleter",
    "TransformersCompleter",
    "clear_completer_cache",
    "completer_from_config",
    "truncate_at_stop",
    "validate_backend",
]
