"""What an export takes: filters, label policy and split policy, validated and normalized.

Each is a frozen dataclass built from a plain dict (API body, CLI flags, the Export row) by
`*_from`, which fills defaults and raises ValidationFailed naming the field; `as_dict` gives
the normalized dict stored on the Export, so equal options always compare and hash equal.
"""

import math
from dataclasses import asdict, dataclass, field, fields
from datetime import UTC, datetime
from enum import StrEnum
from typing import Any

from labeling.errors import ValidationFailed
from labeling.exporters.decontaminate import Benchmark, benchmarks_from
from labeling.models import PROBLEM_DOMAINS, SuggestionSource
from labeling.rules.machine_sources import SOURCES_MAX, machine_sources


class LabelSource(StrEnum):
    """Where step labels come from."""

    # The default: per step, a review's resolution, else the annotators' majority (ties left
    # out), else a machine label only with `machine_labels` (exporters/final.py).
    FINAL = "final"
    REVIEWED = "reviewed"  # the current Resolution of each solution (review or agreement)
    HUMAN = "human"  # submitted annotations by steplab annotators
    IMPORTED = "imported"  # annotations imported with a dataset (labels_as=annotations)
    ANNOTATIONS = "annotations"  # both of the above
    AUTO_CONSENSUS = "auto_consensus"  # suggestions of source "consensus"
    AUTO_ANY = "auto_any"  # any suggestion, sources in priority order

    @property
    def uses_annotations(self) -> bool:
        return self in (LabelSource.HUMAN, LabelSource.IMPORTED, LabelSource.ANNOTATIONS)

    @property
    def reads_annotations(self) -> bool:
        """Annotations are among the labels it reads (`annotators` filters them)."""
        return self.uses_annotations or self == LabelSource.FINAL


class Unsure(StrEnum):
    DROP = "drop"  # leave out every solution with an unsure step
    TRUNCATE = "truncate"  # end the row before its first unsure step
    KEEP = "keep"  # keep unsure steps with their rating


class Neutral(StrEnum):
    POSITIVE = "positive"
    NEGATIVE = "negative"


class Combine(StrEnum):
    MAJORITY = "majority"  # one row per solution: per-step majority of its annotations
    PER_ANNOTATION = "per_annotation"  # one row per annotation


class DependencyPolicy(StrEnum):
    """Step dependencies (`uses`) in the export, and what a -1 does to the steps that use it."""

    NONE = "none"  # not written (the files as before dependencies existed)
    KEEP = "keep"  # `uses` per step written; labels as given
    INHERIT = "inherit"  # ...and a step that uses a -1 step (transitively) is exported as -1


class SplitMode(StrEnum):
    HASH = "hash"  # train/validation/test by a hash of the problem; a `split` column
    NONE = "none"  # no split column (the dataset's own layout, e.g. for round trips)


# Suggestion sources in the order auto_any prefers them on a step that has several.
AUTO_PRIORITY = (
    SuggestionSource.CONSENSUS,
    SuggestionSource.SYMBOLIC,
    SuggestionSource.CODE,
    SuggestionSource.ROLLOUT,
    SuggestionSource.JUDGE,
    SuggestionSource.PRM,
    # a team's own model's labels (labeling.services.imports.predictions)
    SuggestionSource.PREDICTION,
    SuggestionSource.IMPORT,
)
SPLITS = ("train", "validation", "test")


def _choice(raw: dict[str, Any], key: str, enum: type[StrEnum], default: StrEnum, at: str) -> Any:
    value = raw.get(key, default)
    try:
        return enum(value)
    except ValueError:
        allowed = ", ".join(e.value for e in enum)
        raise ValidationFailed(
            f"{at}.{key} must be one of {allowed}; got {value!r}.", field=f"{at}.{key}"
        ) from None


def _bool(raw: dict[str, Any], key: str, default: bool, at: str) -> bool:
    value = raw.get(key, default)
    if not isinstance(value, bool):
        raise ValidationFailed(f"{at}.{key} must be true or false.", field=f"{at}.{key}")
    return value


def _strings(raw: dict[str, Any], key: str, at: str) -> tuple[str, ...]:
    value = raw.get(key) or []
    if not isinstance(value, list | tuple) or not all(isinstance(v, str) for v in value):
        raise ValidationFailed(f"{at}.{key} must be a list of strings.", field=f"{at}.{key}")
    return tuple(sorted(set(value)))


def _fraction(raw: dict[str, Any], key: str, default: float, at: str) -> float:
    value = raw.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int | float) or not 0 <= value <= 1:
        raise ValidationFailed(f"{at}.{key} must be a number from 0 to 1.", field=f"{at}.{key}")
    return float(value)


def _moment(raw: dict[str, Any], key: str, at: str) -> datetime | None:
    value = raw.get(key)
    if value is None or value == "":
        return None
    if isinstance(value, datetime):
        moment = value
    else:
        try:
            moment = datetime.fromisoformat(str(value))
        except ValueError:
            raise ValidationFailed(
                f"{at}.{key} must be an ISO 8601 date or date-time; got {value!r}.",
                field=f"{at}.{key}",
            ) from None
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


def _unknown(raw: dict[str, Any], cls: type, at: str) -> None:
    if not isinstance(raw, dict):
        raise ValidationFailed(f"{at} must be an object.", field=at)
    known = {f.name for f in fields(cls)}
    extra = sorted(set(raw) - known)
    if extra:
        raise ValidationFailed(
            f"{at}: unknown option {extra[0]!r}; known: {', '.join(sorted(known))}.",
            field=f"{at}.{extra[0]}",
        )


@dataclass(frozen=True)
class Filters:
    label_source: LabelSource = LabelSource.FINAL
    # label_source=final: machine labels (suggestions in auto_sources' order, and resolutions
    # machine sources agreed on) for the steps no human labeled. Off: humans' labels only.
    machine_labels: bool = False
    # Suggestion sources auto_any uses, most preferred first.
    auto_sources: tuple[str, ...] = tuple(s.value for s in AUTO_PRIORITY)
    min_agreement: float = 0.0
    unsure: Unsure = Unsure.DROP
    labeled_after: datetime | None = None  # submitted_at (annotations) / updated_at >= this
    labeled_before: datetime | None = None  # ... < this
    annotators: tuple[str, ...] = ()  # usernames or external annotator names; () = all
    problem_sources: tuple[str, ...] = ()  # Problem.source values; () = all
    domains: tuple[str, ...] = ()  # problem domains (a many-domains project's); () = all
    # Gold questions arrive with the review issue; until then there are none to exclude.
    include_gold: bool = False
    # Machine labels only: leave out suggestions whose score (the measured probability that
    # the verdict is right, autolabel/calibration) is below this or unknown; None keeps all.
    min_score: float | None = None
    # Benchmark sets whose problems (exact or near-duplicate) are left out (decontaminate.py).
    decontaminate: tuple[Benchmark, ...] = ()

    def as_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data.update(
            label_source=self.label_source.value,
            unsure=self.unsure.value,
            auto_sources=list(self.auto_sources),
            annotators=list(self.annotators),
            problem_sources=list(self.problem_sources),
            domains=list(self.domains),
            decontaminate=[b.as_dict() for b in self.decontaminate],
            labeled_after=self.labeled_after.isoformat() if self.labeled_after else None,
            labeled_before=self.labeled_before.isoformat() if self.labeled_before else None,
        )
        return data


@dataclass(frozen=True)
class LabelPolicy:
    neutral: Neutral = Neutral.POSITIVE  # what a 0 (neutral) step becomes in boolean formats
    truncate_after_first_error: bool = True
    # An unrated step the labeler wrote themselves (PRM800K human_completion) counts as +1.
    human_written_positive: bool = True
    # Soft labels (the Monte-Carlo estimate, else the share of positive votes): a soft_labels
    # column in TRL, float `label`s in OpenRLHF.
    soft_labels: bool = False
    label_sources: bool = False  # a label_sources column in the TRL format
    combine: Combine = Combine.MAJORITY
    dependency_policy: DependencyPolicy = DependencyPolicy.NONE
    # OpenRLHF: the step tag after each step (its --placeholder_token) and the hard labels
    # (its --reward_tokens: the positive one, then the negative one).
    placeholder_token: str = "ки"
    reward_tokens: tuple[str, str] = ("+", "-")
    # chat_template: the tokenizer whose chat template renders each row (a local directory or
    # a name in the Hugging Face cache, loaded offline), the separator token after each step
    # (Qwen PRM's <extra_0>) and an optional system message.
    tokenizer: str = ""
    step_separator: str = "<extra_0>"
    system_prompt: str = ""

    def as_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data.update(
            reward_tokens=list(self.reward_tokens),
            neutral=self.neutral.value,
            combine=self.combine.value,
            dependency_policy=self.dependency_policy.value,
        )
        return data


@dataclass(frozen=True)
class SplitPolicy:
    mode: SplitMode = SplitMode.HASH
    train: float = 0.9
    validation: float = 0.05
    test: float = 0.05
    seed: str = ""

    def as_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["mode"] = self.mode.value
        return data


@dataclass(frozen=True)
class ExportOptions:
    filters: Filters = field(default_factory=Filters)
    label_policy: LabelPolicy = field(default_factory=LabelPolicy)
    split_policy: SplitPolicy = field(default_factory=SplitPolicy)


def _domains(raw: dict[str, Any], at: str) -> tuple[str, ...]:
    domains = _strings(raw, "domains", at)
    bad = [d for d in domains if d not in PROBLEM_DOMAINS]
    if bad:
        raise ValidationFailed(
            f"{at}.domains: unknown domain {bad[0]!r}; known: {', '.join(PROBLEM_DOMAINS)}.",
            field=f"{at}.domains",
        )
    return tuple(sorted(set(domains)))  # equal options compare equal


def filters_from(raw: dict[str, Any] | None) -> Filters:
    raw = dict(raw or {})
    at = "filters"
    _unknown(raw, Filters, at)
    source = _choice(raw, "label_source", LabelSource, Filters.label_source, at)
    auto = raw.get("auto_sources")
    if auto is None:
        auto_sources = Filters.auto_sources
    else:
        if not isinstance(auto, list | tuple) or not auto:
            raise ValidationFailed(
                "filters.auto_sources must be a non-empty list.", field="filters.auto_sources"
            )
        if len(auto) > SOURCES_MAX:
            raise ValidationFailed(
                f"filters.auto_sources: at most {SOURCES_MAX} sources.",
                field="filters.auto_sources",
            )
        known = machine_sources()
        bad = [a for a in auto if a not in known]
        if bad:
            raise ValidationFailed(
                f"filters.auto_sources: unknown source {bad[0]!r}; known: {', '.join(known)}.",
                field="filters.auto_sources",
            )
        auto_sources = tuple(dict.fromkeys(auto))  # keeps the caller's priority order
    annotators = _strings(raw, "annotators", at)
    if annotators and not source.reads_annotations:
        raise ValidationFailed(
            "filters.annotators only applies to annotation label sources "
            "('final', 'human', 'imported', 'annotations').",
            field="filters.annotators",
        )
    min_score = raw.get("min_score")
    if min_score is not None:
        min_score = _fraction(raw, "min_score", 0.0, at)
        if source.uses_annotations or source == LabelSource.REVIEWED:
            raise ValidationFailed(
                "filters.min_score only applies to machine label sources "
                "('auto_consensus', 'auto_any', 'final' with machine_labels).",
                field="filters.min_score",
            )
    machine_labels = _bool(raw, "machine_labels", False, at)
    if machine_labels and source != LabelSource.FINAL:
        raise ValidationFailed(
            "filters.machine_labels only applies to label_source 'final' (the other sources "
            "are either machine or human already).",
            field="filters.machine_labels",
        )
    if min_score is not None and source == LabelSource.FINAL and not machine_labels:
        raise ValidationFailed(
            "filters.min_score only applies to machine labels: with label_source 'final', "
            "set filters.machine_labels too.",
            field="filters.min_score",
        )
    after = _moment(raw, "labeled_after", at)
    before = _moment(raw, "labeled_before", at)
    if after and before and after >= before:
        raise ValidationFailed(
            "filters.labeled_after must be before filters.labeled_before.",
            field="filters.labeled_after",
        )
    return Filters(
        label_source=source,
        machine_labels=machine_labels,
        auto_sources=auto_sources,
        min_agreement=_fraction(raw, "min_agreement", 0.0, at),
        unsure=_choice(raw, "unsure", Unsure, Filters.unsure, at),
        labeled_after=after,
        labeled_before=before,
        annotators=annotators,
        problem_sources=_strings(raw, "problem_sources", at),
        domains=_domains(raw, at),
        include_gold=_bool(raw, "include_gold", False, at),
        min_score=min_score,
        decontaminate=benchmarks_from(raw.get("decontaminate")),
    )


TOKEN_MAX = 32  # characters of a placeholder, reward token or step separator
TOKENIZER_MAX = 300  # characters of a tokenizer path or name
SYSTEM_PROMPT_MAX = 4000


def _token(value: Any, at: str) -> str:
    if not isinstance(value, str) or not value.strip() or len(value) > TOKEN_MAX:
        raise ValidationFailed(
            f"{at} must be a non-blank string of at most {TOKEN_MAX} characters.", field=at
        )
    if any(c in value for c in "\n\r\t"):
        raise ValidationFailed(f"{at} must not contain line breaks or tabs.", field=at)
    return value


def _tokens(raw: dict[str, Any], at: str) -> tuple[str, str, str]:
    placeholder = _token(
        raw.get("placeholder_token", LabelPolicy.placeholder_token), f"{at}.placeholder_token"
    )
    rewards = raw.get("reward_tokens", list(LabelPolicy.reward_tokens))
    if not isinstance(rewards, list | tuple) or len(rewards) != 2:
        raise ValidationFailed(
            f"{at}.reward_tokens must be two strings: the positive token, then the negative.",
            field=f"{at}.reward_tokens",
        )
    good, bad = (_token(t, f"{at}.reward_tokens") for t in rewards)
    if good == bad or placeholder in (good, bad):
        raise ValidationFailed(
            f"{at}: the placeholder and the two reward tokens must all differ.",
            field=f"{at}.reward_tokens",
        )
    return placeholder, good, bad


def label_policy_from(raw: dict[str, Any] | None) -> LabelPolicy:
    raw = dict(raw or {})
    at = "label_policy"
    _unknown(raw, LabelPolicy, at)
    placeholder, good, bad = _tokens(raw, at)
    tokenizer = raw.get("tokenizer", "")
    if not isinstance(tokenizer, str) or len(tokenizer) > TOKENIZER_MAX or "\0" in tokenizer:
        raise ValidationFailed(
            f"{at}.tokenizer must be a path or a name of at most {TOKENIZER_MAX} characters.",
            field=f"{at}.tokenizer",
        )
    system = raw.get("system_prompt", "")
    if not isinstance(system, str) or len(system) > SYSTEM_PROMPT_MAX:
        raise ValidationFailed(
            f"{at}.system_prompt must be a string of at most {SYSTEM_PROMPT_MAX} characters.",
            field=f"{at}.system_prompt",
        )
    return LabelPolicy(
        placeholder_token=placeholder,
        reward_tokens=(good, bad),
        tokenizer=tokenizer.strip(),
        step_separator=_token(
            raw.get("step_separator", LabelPolicy.step_separator), f"{at}.step_separator"
        ),
        system_prompt=system,
        neutral=_choice(raw, "neutral", Neutral, LabelPolicy.neutral, at),
        truncate_after_first_error=_bool(raw, "truncate_after_first_error", True, at),
        human_written_positive=_bool(raw, "human_written_positive", True, at),
        soft_labels=_bool(raw, "soft_labels", False, at),
        label_sources=_bool(raw, "label_sources", False, at),
        combine=_choice(raw, "combine", Combine, LabelPolicy.combine, at),
        dependency_policy=_choice(
            raw, "dependency_policy", DependencyPolicy, LabelPolicy.dependency_policy, at
        ),
    )


def split_policy_from(raw: dict[str, Any] | None) -> SplitPolicy:
    raw = dict(raw or {})
    at = "split_policy"
    _unknown(raw, SplitPolicy, at)
    mode = _choice(raw, "mode", SplitMode, SplitPolicy.mode, at)
    seed = raw.get("seed", "")
    if not isinstance(seed, str) or len(seed) > 200:
        raise ValidationFailed(
            "split_policy.seed must be a string of at most 200 characters.",
            field="split_policy.seed",
        )
    if mode == SplitMode.NONE:
        return SplitPolicy(mode=mode, train=1.0, validation=0.0, test=0.0, seed=seed)
    given = {name: name in raw for name in SPLITS}
    values = {name: _fraction(raw, name, getattr(SplitPolicy, name), at) for name in SPLITS}
    if any(given.values()) and not all(given.values()):
        # Fractions not given take what is left, shared equally, so {"train": 0.8} works.
        rest = 1.0 - sum(values[n] for n in SPLITS if given[n])
        missing = [n for n in SPLITS if not given[n]]
        for name in missing:
            values[name] = max(rest, 0.0) / len(missing)
    if not math.isclose(sum(values.values()), 1.0, abs_tol=1e-6):
        raise ValidationFailed(
            "split_policy: train + validation + test must add up to 1; got "
            f"{sum(values.values()):g}.",
            field="split_policy",
        )
    return SplitPolicy(mode=mode, seed=seed, **values)


def options_from(
    *,
    filters: dict[str, Any] | None = None,
    label_policy: dict[str, Any] | None = None,
    split_policy: dict[str, Any] | None = None,
) -> ExportOptions:
    return ExportOptions(
        filters=filters_from(filters),
        label_policy=label_policy_from(label_policy),
        split_policy=split_policy_from(split_policy),
    )
