"""Which format a row is in, from its keys (the `auto` format sniffs the first row)."""

from typing import Any


def detect_format(data: dict[str, Any]) -> str | None:
    keys = set(data)
    label = data.get("label")
    if isinstance(data.get("messages"), list):
        return "messages"
    if {"pre_text", "post_text", "table", "qa"} <= keys:
        return "finqa"
    if "question" in keys and isinstance(label, dict) and "steps" in label:
        return "prm800k"
    if "model_output_step_format" in keys:
        return "prm800k_mrmath"
    if {"modified_process", "error_steps"} <= keys:
        return "prmbench"
    if "input" in keys and isinstance(label, str):
        return "math_shepherd"
    if {"prompt", "completions", "labels"} <= keys:
        return "trl"
    if {"problem", "steps"} <= keys and isinstance(label, int) and not isinstance(label, bool):
        return "processbench"
    if "question" in keys and ("answer" in keys or "ground_truth" in keys):
        return "gsm8k"
    if "problem" in keys and ("unique_id" in keys or {"level", "subject"} <= keys):
        return "math"
    if {"problem", "solution"} <= keys and isinstance(data.get("task"), str):
        return "graphsilo"
    if "problem" in keys and isinstance(data.get("graph"), dict):
        return "steplab"  # a graph problem's `task` is not an embodied task
    if isinstance(data.get("transcript"), str) and "Your task is to:" in data["transcript"]:
        return "alfworld"
    if "task" in keys and isinstance(data.get("steps"), list):
        return "embodied"
    if "problem" in keys and ("steps" in keys or "solution" in keys):
        return "steplab"
    return None
