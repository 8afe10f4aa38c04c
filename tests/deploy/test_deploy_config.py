"""The deployment files parse and agree with the app: body cap, long-poll timeout, probes, env."""

from __future__ import annotations

import os
import re
import runpy
import subprocess
from pathlib import Path
from typing import Any

import pytest
import yaml

from api.app import create_app
from api.cli import build_parser, worker_command
from api.config import DEFAULTS
from api.runtime.serve import DEFAULT_REDIS_MAXMEMORY

DEPLOY = Path(__file__).resolve().parents[2] / "deploy"
YAML_FILES = sorted([*DEPLOY.glob("*.yaml"), *DEPLOY.glob("k8s/*.yaml")])
MAX_BODY: int = DEFAULTS["SIXTYSIX_MAX_BODY"]
MAX_WAIT: int = DEFAULTS["SIXTYSIX_MAX_WAIT"]
GUNICORN_ENV = {"SIXTYSIX_BIND", "WEB_CONCURRENCY", "SIXTYSIX_THREADS", "SIXTYSIX_LOG_LEVEL",
                "SIXTYSIX_ACCESS_LOG", "SIXTYSIX_WORKER_CLASS",
                "SIXTYSIX_WORKER_CONNECTIONS"}  # fmt: skip
#: Settings the image's entrypoint reads from a mounted secret (deploy/docker-entrypoint.sh).
SECRET_FILES = {"REDIS_URL_FILE", "QUEUE_URL_FILE", "DATABASE_URL_FILE"}


def _load(name: str) -> Any:
    return yaml.safe_load((DEPLOY / name).read_text())


def _size(text: str) -> int:
    """An nginx size (``64k``, ``1m``, ``512``) in bytes."""
    match = re.fullmatch(r"(\d+)([kKmM]?)", text)
    assert match is not None, text
    return int(match.group(1)) * {"": 1, "k": 1024, "m": 1024 * 1024}[match.group(2).lower()]


def _directive(conf: str, name: str) -> str:
    match = re.search(rf"^\s*{name} (\S+);", conf, re.MULTILINE)
    assert match is not None, name
    return match.group(1)


@pytest.mark.parametrize("path", YAML_FILES, ids=lambda p: str(p.relative_to(DEPLOY)))
def test_yaml_files_parse(path: Path) -> None:
    documents = list(yaml.safe_load_all(path.read_text()))
    assert documents and all(isinstance(doc, dict) for doc in documents)


def test_kustomization_lists_existing_manifests() -> None:
    for name in _load("k8s/kustomization.yaml")["resources"]:
        assert (DEPLOY / "k8s" / name).is_file(), name


def test_nginx_caps_bodies_like_the_app_and_outwaits_long_polls() -> None:
    conf = (DEPLOY / "nginx.conf").read_text()
    assert _size(_directive(conf, "client_max_body_size")) == MAX_BODY
    assert int(_directive(conf, "proxy_read_timeout").removesuffix("s")) > MAX_WAIT
    assert "proxy_buffering off;" in conf
    assert "$http_authorization" not in conf


def test_nginx_passes_event_streams_through_unbuffered() -> None:
    """Every path, the streams' included, is served by the one ``location /``: unbuffered,
    its reads outlasting the heartbeat, never logging query strings (stream tickets)."""
    conf = (DEPLOY / "nginx.conf").read_text()
    locations = re.findall(r"^\s*location\s+([^{]+?)\s*\{", conf, re.MULTILINE)
    assert locations == ["= /__problem/413", "/"]
    block = conf[conf.index("location / {"):]
    assert "proxy_buffering off;" in block and "proxy_cache off;" in block
    assert "proxy_http_version 1.1;" in block  # chunked responses pass as they come
    heartbeat: float = DEFAULTS["SIXTYSIX_STREAM_HEARTBEAT"]
    assert int(_directive(block, "proxy_read_timeout").removesuffix("s")) > 2 * heartbeat
    log_format = conf[conf.index("log_format"):conf.index("access_log")]
    assert '"uri":"$uri"' in log_format and "$request_uri" not in log_format
    assert "$args" not in log_format and "$request\"" not in log_format


def test_gunicorn_outwaits_long_polls() -> None:
    conf = runpy.run_path(str(DEPLOY / "gunicorn.conf.py"))
    assert conf["timeout"] > MAX_WAIT and conf["graceful_timeout"] > MAX_WAIT


def test_probes_hit_routes_of_the_app_and_config_names_are_known() -> None:
    routes = {
        rule.rule
        for rule in create_app({"REDIS_URL": "redis://127.0.0.1:1/0"}).url_map.iter_rules()
    }
    container = _load("k8s/deployment.yaml")["spec"]["template"]["spec"]["containers"][0]
    assert container["readinessProbe"]["httpGet"]["path"] == "/readyz" in routes
    assert container["livenessProbe"]["httpGet"]["path"] == "/healthz" in routes
    assert set(_load("k8s/configmap.yaml")["data"]) <= set(DEFAULTS) | GUNICORN_ENV
    assert set(_load("compose.yaml")["services"]["app"]["environment"]) <= (
        set(DEFAULTS) | GUNICORN_ENV | SECRET_FILES
    )


def _size_bytes(text: str) -> int:
    """A Redis memory size (``256mb``, ``1gb``, ``512``) in bytes; Kubernetes' ``1Gi`` too."""
    match = re.fullmatch(r"(\d+)(b|kb|mb|gb|ki|mi|gi)?", text.lower())
    assert match is not None, text
    unit = (match.group(2) or "b")[0]
    return int(match.group(1)) * {"b": 1, "k": 1024, "m": 1024**2, "g": 1024**3}[unit]


def test_every_redis_is_capped_without_eviction() -> None:
    """compose, systemd and the k8s chart values give Redis a maxmemory and noeviction; the
    configurable ones default to the cap of ``sixtysix serve``'s embedded Redis."""
    command = _load("compose.yaml")["services"]["redis"]["command"]
    assert command[:2] == ["redis-server", "/run/secrets/redis.conf"]  # its password only
    flags = dict(zip(command[2::2], command[3::2], strict=True))
    assert flags["--maxmemory"] == f"${{SIXTYSIX_REDIS_MAXMEMORY:-{DEFAULT_REDIS_MAXMEMORY}}}"
    assert flags["--maxmemory-policy"] == "noeviction"

    unit = (DEPLOY / "systemd" / "redis-sixtysix.service").read_text()
    assert f"Environment=SIXTYSIX_REDIS_MAXMEMORY={DEFAULT_REDIS_MAXMEMORY}\n" in unit
    assert re.search(r"--maxmemory \$\{SIXTYSIX_REDIS_MAXMEMORY\} --maxmemory-policy noeviction",
                     unit)

    scripts, _, _, redis_set, _ = yaml.safe_load_all((DEPLOY / "k8s/redis.yaml").read_text())
    config = dict(line.split(" ", 1) for line in re.findall(
        r'^\s*echo "([a-z-]+ [^"$]+)"$', scripts["data"]["redis.sh"], re.MULTILINE))
    assert config["maxmemory-policy"] == "noeviction" and config["appendonly"] == "yes"
    container = redis_set["spec"]["template"]["spec"]["containers"][0]
    limit = _size_bytes(container["resources"]["limits"]["memory"])
    assert 0 < _size_bytes(config["maxmemory"]) <= limit // 2  # room for an AOF rewrite's fork


def test_worker_default_is_what_the_operations_page_says(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("WEB_CONCURRENCY", raising=False)
    monkeypatch.setenv("PROMETHEUS_MULTIPROC_DIR", "unused")  # no directory made by the conf
    workers = runpy.run_path(str(DEPLOY / "gunicorn.conf.py"))["workers"]
    assert workers == min(len(os.sched_getaffinity(0)) + 1, 9)
    readme = (DEPLOY.parent / "docs" / "operations.md").read_text()
    row = next(x for x in readme.splitlines() if x.startswith("| `WEB_CONCURRENCY`"))
    assert row.split(" | ")[-1].startswith("cores + 1, at most 9")


#: Settings only the worker processes read.
WORKER_ENV = {"SIXTYSIX_WORKERS", "SIXTYSIX_LOG_LEVEL"}


def _is_worker_command(argv: list[str]) -> None:
    """``argv`` runs ``sixtysix worker`` as the CLI parses it."""
    assert argv[0].rsplit("/", 1)[-1] == "sixtysix" and argv[1] == "worker", argv
    args = build_parser().parse_args(argv[1:])
    assert args.run is worker_command


def test_compose_runs_workers_on_the_apps_redis() -> None:
    services = _load("compose.yaml")["services"]
    worker, app = services["worker"], services["app"]
    _is_worker_command(worker["command"])
    assert worker["image"] == app["image"]
    env = worker["environment"]
    assert env["REDIS_URL_FILE"] == app["environment"]["REDIS_URL_FILE"]
    assert not {"REDIS_URL", "QUEUE_URL", "QUEUE_URL_FILE"} & (set(env) | set(app["environment"]))
    assert set(env) <= set(DEFAULTS) | WORKER_ENV | SECRET_FILES
    assert "redis" in worker["depends_on"]


def test_k8s_workers_share_the_apps_settings() -> None:
    assert "worker-deployment.yaml" in _load("k8s/kustomization.yaml")["resources"]
    app = _load("k8s/deployment.yaml")["spec"]["template"]["spec"]["containers"][0]
    worker = _load("k8s/worker-deployment.yaml")["spec"]["template"]["spec"]["containers"][0]
    _is_worker_command(worker["command"])
    assert worker["image"] == app["image"] and worker["envFrom"] == app["envFrom"]


def test_systemd_worker_unit_runs_sixtysix_worker() -> None:
    unit = (DEPLOY / "systemd" / "sixtysix-worker.service").read_text()
    api_unit = (DEPLOY / "systemd" / "sixtysix.service").read_text()
    start = re.search(r"^ExecStart=(.+)$", unit, re.MULTILINE)
    assert start is not None
    _is_worker_command(start.group(1).split())
    settings = "EnvironmentFile=-/etc/sixtysix/sixtysix.env"
    assert settings in unit and settings in api_unit  # the same REDIS_URL and QUEUE_URL


def test_compose_worker_checks_its_own_heartbeat_not_the_images_http() -> None:
    """The worker serves no HTTP: the image's HEALTHCHECK (GET /healthz) would leave it
    unhealthy. Its own runs ``python -m api.worker.probe`` through the entrypoint (which puts
    REDIS_URL from its secret file in the environment)."""
    services = _load("compose.yaml")["services"]
    check = services["worker"]["healthcheck"]
    assert check["test"] == ["CMD", "/app/deploy/docker-entrypoint.sh",
                             "python", "-m", "api.worker.probe"]
    assert "/readyz" in str(services["app"]["healthcheck"]["test"])
    dockerfile = (DEPLOY / "Dockerfile").read_text()
    assert 'ENTRYPOINT ["/app/deploy/docker-entrypoint.sh"]' in dockerfile
    assert "COPY --chmod=0755 deploy/docker-entrypoint.sh deploy/docker-entrypoint.sh" in dockerfile


def test_compose_redis_is_the_official_image_behind_a_password_checked_by_its_answer() -> None:
    redis = _load("compose.yaml")["services"]["redis"]
    assert re.fullmatch(r"redis:\d+\.\d+-alpine", redis["image"])
    assert redis["secrets"] == ["redis.conf"]
    test = redis["healthcheck"]["test"]
    assert test[0] == "CMD-SHELL" and "REDISCLI_AUTH=" in test[1]
    assert test[1].endswith("redis-cli ping | grep -qx PONG")  # NOAUTH exits 0 too


def test_compose_holds_no_secret_in_any_environment() -> None:
    for name, service in _load("compose.yaml")["services"].items():
        for key, value in (service.get("environment") or {}).items():
            assert "PASSWORD" not in key or key.endswith("_FILE"), (name, key)
            assert "@" not in str(value) and "${" not in str(value), (name, key)


def test_the_entrypoint_reads_each_name_file_into_name(tmp_path: Path) -> None:
    secret = tmp_path / "redis_url"
    secret.write_text("redis://:s3cret@redis:6379/0")
    env = {"PATH": os.environ["PATH"], "REDIS_URL_FILE": str(secret)}
    done = subprocess.run(["sh", str(DEPLOY / "docker-entrypoint.sh"), "sh", "-c",
                           'printf "%s|%s" "$REDIS_URL" "${REDIS_URL_FILE-unset}"'],
                          env=env, capture_output=True, text=True, timeout=10, check=True)
    assert done.stdout == "redis://:s3cret@redis:6379/0|unset"
    missing = subprocess.run(["sh", str(DEPLOY / "docker-entrypoint.sh"), "true"],
                             env={**env, "REDIS_URL_FILE": str(tmp_path / "none")},
                             capture_output=True, text=True, timeout=10, check=False)
    assert missing.returncode != 0  # a secret that is not mounted stops the container
