"""Model references a project admin sends (training_runs.model_refs): no server secret sent to
their URL, no server path read, for anyone but staff; the operator's lists let them through."""

import os
from pathlib import Path

import pytest
from rest_framework.test import APIClient

from autolabel.completers.config import clear_completer_cache
from autolabel.models import AutolabelRun
from autolabel.run_chunks import autolabel_chunk_process
from autolabel.services import autolabel_run_create, autolabel_run_prepare
from labeling.errors import ValidationFailed
from tests.autolabel_rollouts.servers import StubServer
from tests.factories import ProjectFactory, UserFactory
from training_runs.models import PrmModel, TrainingRun

SECRET = "s3cret-django-key-never-to-leave"


def _judge_reply(path, body):
    return 200, {"choices": [{"index": 0, "message": {"content": "VERDICT: correct"}}]}


@pytest.fixture
def stub():
    with StubServer(_judge_reply) as server:
        yield server
    clear_completer_cache()


def _client(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def _judge(base_url: str, key_env: str | None) -> dict:
    backend = {"kind": "openai", "base_url": base_url, "model": "m", "api_key_env": key_env}
    return {"judge": {"backend": backend, "votes": 1}}


def _post_run(project, user, params: dict, sources=("judge",)):
    return _client(user).post(
        f"/api/projects/{project.pk}/autolabel-runs/",
        {"sources": list(sources), "params": params, "filter": {"solution_ids": _one(project)}},
        format="json",
    )


def _one(project) -> list[int]:
    return list(project.solutions.order_by("id").values_list("id", flat=True)[:1])


def _execute(run_id: int) -> None:
    """What the workers do: the start task writes the run's items, a chunk task the first."""
    run = autolabel_run_prepare(run=AutolabelRun.objects.get(pk=run_id))
    autolabel_chunk_process(run=run, solution_ids=_one(run.project))


def _error(response) -> dict:
    assert response.status_code == 400, response.content
    return response.json()["error"]


def test_a_project_admin_cannot_send_the_servers_secret_to_their_url(pb_project, stub, monkeypatch):
    monkeypatch.setenv("DJANGO_SECRET_KEY", SECRET)
    response = _post_run(
        pb_project, pb_project.admin, _judge(f"{stub.url}/v1", "DJANGO_SECRET_KEY")
    )
    error = _error(response)
    assert error["code"] == "validation_error"
    assert error["details"]["field"] == "params.judge.backend.base_url"
    assert "not one of this server's model servers (MODEL_SERVER_URLS)" in error["message"]
    assert "ask a server admin" in error["message"]
    assert not AutolabelRun.objects.exists()
    assert stub.headers == []  # nothing was ever sent


def test_staff_may_name_any_server_and_variable(pb_project, stub, monkeypatch):
    monkeypatch.setenv("DJANGO_SECRET_KEY", SECRET)
    staff = UserFactory(username="operator", is_staff=True)
    response = _post_run(pb_project, staff, _judge(f"{stub.url}/v1", "DJANGO_SECRET_KEY"))
    assert response.status_code == 202, response.content
    _execute(response.json()["id"])
    # The mechanism a project admin would have used: the variable's value as the bearer key.
    assert stub.headers and stub.headers[0]["Authorization"] == f"Bearer {SECRET}"


def test_listed_server_and_key_variable_work_for_a_project_admin(
    pb_project, stub, settings, monkeypatch
):
    monkeypatch.setenv("STEPLAB_JUDGE_KEY", "sk-judge")
    settings.MODEL_SERVER_URLS = [stub.url]
    settings.MODEL_API_KEY_ENVS = ["STEPLAB_JUDGE_KEY"]
    response = _post_run(
        pb_project, pb_project.admin, _judge(f"{stub.url}/v1", "STEPLAB_JUDGE_KEY")
    )
    assert response.status_code == 202, response.content
    _execute(response.json()["id"])
    assert stub.headers[0]["Authorization"] == "Bearer sk-judge"

    error = _error(_post_run(pb_project, pb_project.admin, _judge(f"{stub.url}/v1", "OTHER_KEY")))
    assert error["details"]["field"] == "params.judge.backend.api_key_env"
    assert "MODEL_API_KEY_ENVS" in error["message"]


@pytest.mark.parametrize(
    "name",
    ["DJANGO_SECRET_KEY", "SECRET_KEY", "DATABASE_URL", "REDIS_URL", "CELERY_BROKER_URL"]
    + ["HF_TOKEN", "AWS_SECRET_ACCESS_KEY", "aws_session_token"],
)
def test_the_servers_secrets_are_refused_even_when_listed(
    pb_project, stub, settings, monkeypatch, name
):
    monkeypatch.setenv(name, SECRET)
    settings.MODEL_SERVER_URLS = [stub.url]
    settings.MODEL_API_KEY_ENVS = [name]
    error = _error(_post_run(pb_project, pb_project.admin, _judge(f"{stub.url}/v1", name)))
    assert error["details"]["field"] == "params.judge.backend.api_key_env"
    assert "one of this server's own secrets" in error["message"]
    assert stub.headers == []


def test_the_public_prms_server_and_key_follow_the_same_rules(pb_project, stub, settings):
    prm = {"convention": "qwen", "backend": "vllm", "model": "q", "api_key_env": "HF_TOKEN"}
    error = _error(
        _post_run(pb_project, pb_project.admin, {"prm": {**prm, "url": stub.url}}, ["prm"])
    )
    assert error["details"]["field"] == "params.prm.url"
    settings.MODEL_SERVER_URLS = [stub.url]
    settings.MODEL_API_KEY_ENVS = ["HF_TOKEN"]
    error = _error(
        _post_run(pb_project, pb_project.admin, {"prm": {**prm, "url": stub.url}}, ["prm"])
    )
    assert error["details"]["field"] == "params.prm.api_key_env"
    assert stub.headers == []


@pytest.mark.parametrize(
    "url",
    [
        "http://127.0.0.1:80011/v1",
        "http://127.0.0.1:8001@attacker.example/v1",
        "http://127.0.0.1:8001.attacker.example/v1",
        "https://127.0.0.1:8001/v1",
        "http://127.0.0.1/v1",
        "http://127.0.0.1:8001/v1/../../admin",
        "http://127.0.0.1:8001/v1%2f..%2f..%2fadmin",
        "http://127.0.0.1:8001/v10",
    ],
)
def test_a_url_only_passes_under_a_listed_prefix(pb_project, settings, url):
    settings.MODEL_SERVER_URLS = ["http://127.0.0.1:8001/v1", "http://models.internal"]
    with pytest.raises(ValidationFailed, match="MODEL_SERVER_URLS"):
        autolabel_run_create(
            project=pb_project,
            sources=["judge"],
            params=_judge(url, None),
            created_by=pb_project.admin,
        )


@pytest.mark.parametrize(
    "url", ["http://127.0.0.1:8001/v1", "http://127.0.0.1:8001/v1/", "http://MODELS.internal:80/a"]
)
def test_urls_under_a_listed_prefix_pass(pb_project, settings, url):
    settings.MODEL_SERVER_URLS = ["http://127.0.0.1:8001/v1", "http://models.internal"]
    run = autolabel_run_create(
        project=pb_project, sources=["judge"], params=_judge(url, None), created_by=pb_project.admin
    )
    assert run.params["judge"]["backend"]["base_url"] == url


def _model(directory: Path) -> Path:
    directory.mkdir(parents=True, exist_ok=True)
    (directory / "config.json").write_text("{}")
    return directory


@pytest.fixture
def dirs(tmp_path: Path, settings) -> dict[str, Path]:
    models = tmp_path / "models"
    settings.MODEL_DIRS = [str(models)]
    settings.TRAINING_ROOT = str(tmp_path / "training")
    outside = _model(tmp_path / "secret-team" / "prm")
    good = _model(models / "good")
    (models / "escape").symlink_to(outside)
    return {"models": models, "good": good, "outside": outside, "tmp": tmp_path}


def _prm_run(project, user, path: str):
    return autolabel_run_create(
        project=project, sources=["prm"], params={"prm": {"path": path}}, created_by=user
    )


def _refusal(project, user, path: str) -> str:
    with pytest.raises(ValidationFailed) as caught:
        _prm_run(project, user, path)
    assert caught.value.details["field"] == "params.prm.path"
    return caught.value.message.replace(path, "<path>")


def test_model_paths_must_resolve_under_the_model_dirs(pb_project, dirs):
    admin, models = pb_project.admin, dirs["models"]
    expected = None
    for path in [
        str(dirs["outside"]),  # exists, outside
        str(models / ".." / "secret-team" / "prm"),  # traversal
        str(models / "escape"),  # a symlink out
        str(dirs["tmp"] / "nowhere"),  # does not exist
        "/etc",
        "models/good",  # relative: resolved against the worker's cwd
        "Qwen/Qwen2.5-Math-PRM-7B",  # a hub id: the server would download it
    ]:
        message = _refusal(pb_project, admin, path)
        assert "MODEL_DIRS" in message and "ask a server admin" in message
        expected = expected or message
        assert message == expected  # the same words whether the path exists or not
    run = _prm_run(pb_project, admin, str(models / "sub" / ".." / "good"))
    assert run.params["prm"]["path"] == os.path.realpath(dirs["good"])
    staff = UserFactory(username="operator", is_staff=True)
    assert _prm_run(pb_project, staff, str(dirs["outside"])).params["prm"]["path"] == str(
        dirs["outside"]
    )


def test_another_projects_training_output_is_refused(pb_project, dirs):
    other = ProjectFactory(name="Other team")
    theirs = TrainingRun.objects.create(project=other, base_model="/m", export=None)
    ours = TrainingRun.objects.create(project=pb_project, base_model="/m", export=None)
    root = Path(dirs["tmp"]) / "training"
    their_prm = _model(root / f"run-{theirs.pk}" / "out")
    our_prm = _model(root / f"run-{ours.pk}" / "out")
    _refusal(pb_project, pb_project.admin, str(their_prm))
    _refusal(pb_project, pb_project.admin, str(root / f"run-{ours.pk}" / ".." / f"run-{theirs.pk}"))
    assert _prm_run(pb_project, pb_project.admin, str(our_prm)).params["prm"]["path"] == str(
        our_prm.resolve()
    )


def test_a_model_registered_by_a_non_staff_user_is_checked_again(pb_project, dirs):
    legacy = PrmModel.objects.create(
        project=pb_project, name="old", path=str(dirs["outside"]), created_by=pb_project.admin
    )
    vetted = PrmModel.objects.create(
        project=pb_project,
        name="ops",
        path=str(dirs["outside"]),
        created_by=None,
        created_by_server=True,
    )
    # Registered by a non-staff user deleted since: nobody's, not the server's (it was the
    # server's, unchecked, while a deleted creator and the server both read as None).
    orphan = PrmModel.objects.create(
        project=pb_project, name="orphan", path=str(dirs["outside"]), created_by=UserFactory()
    )
    orphan.created_by.delete()
    orphan.refresh_from_db()
    assert orphan.created_by_id is None
    for model in (legacy, orphan):
        with pytest.raises(ValidationFailed, match="MODEL_DIRS"):
            autolabel_run_create(
                project=pb_project,
                sources=["prm"],
                params={"prm": {"model_id": model.pk}},
                created_by=pb_project.admin,
            )
    run = autolabel_run_create(
        project=pb_project,
        sources=["prm"],
        params={"prm": {"model_id": vetted.pk}},
        created_by=pb_project.admin,
    )
    assert run.params["prm"]["path"] == str(dirs["outside"])


@pytest.mark.parametrize(
    ("backend", "field"),
    [
        ({"kind": "transformers", "path": "OUTSIDE"}, "path"),
        (
            {"kind": "transformers", "path": "GOOD", "gguf_file": "../../secret-team/x.gguf"},
            "gguf_file",
        ),
        ({"kind": "transformers", "path": "GOOD", "gguf_file": "OUTSIDE"}, "gguf_file"),
        (
            {"kind": "openai", "base_url": "http://m:1", "model": "m", "tokenizer": "OUTSIDE"},
            "tokenizer",
        ),
    ],
)
def test_backend_paths_follow_the_same_rules(pb_project, dirs, settings, backend, field):
    settings.MODEL_SERVER_URLS = ["http://m:1"]
    swap = {"OUTSIDE": str(dirs["outside"]), "GOOD": str(dirs["good"])}
    backend = {k: swap.get(v, v) for k, v in backend.items()}
    with pytest.raises(ValidationFailed) as caught:
        autolabel_run_create(
            project=pb_project,
            sources=["rollout"],
            params={"rollout": {"backend": backend}},
            created_by=pb_project.admin,
        )
    assert caught.value.details["field"] == f"params.rollout.backend.{field}"
    assert "MODEL_DIRS" in caught.value.message


@pytest.mark.parametrize("value", [["STEPLAB_JUDGE_KEY"], 7, {"a": 1}])
def test_an_api_key_env_that_is_no_name_is_a_400(pb_project, settings, value):
    settings.MODEL_SERVER_URLS = ["http://m:1"]
    settings.MODEL_API_KEY_ENVS = ["STEPLAB_JUDGE_KEY"]
    error = _error(_post_run(pb_project, pb_project.admin, _judge("http://m:1/v1", value)))
    assert error["details"]["field"] == "params.judge.backend.api_key_env"
    assert "must name an environment variable" in error["message"]


def test_a_training_runs_output_for_a_deleted_creator_is_registered_as_nobodys(pb_project, dirs):
    """training_run_execute registers its PRM for the run's creator; once deleted, the run
    (not made by the server) registers as nobody: the path is checked, the model not trusted."""
    from training_runs.services import prm_model_register

    with pytest.raises(ValidationFailed, match="MODEL_DIRS"):
        prm_model_register(
            project=pb_project, name="x", path=str(dirs["outside"]), created_by_server=False
        )
    ours = prm_model_register(project=pb_project, name="ours", path=str(dirs["outside"]))
    assert ours.created_by_id is None and ours.created_by_server
    mine = prm_model_register(
        project=pb_project, name="mine", path=str(dirs["good"]), created_by=pb_project.admin
    )
    assert not mine.created_by_server
