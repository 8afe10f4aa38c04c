"""The deployments' PostgreSQL (the archive, ``DATABASE_URL``): compose runs it with a named
volume and a health check, its password a compose secret, never in clear; Kubernetes runs a
StatefulSet with a claim, probes and its Secret, and the web and worker pods take
``DATABASE_URL`` from that Secret. The manifests are checked against the structure Kubernetes
requires of them here, and against its schemas in tests/deploy/test_k8s_manifests.py."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path
from typing import Any, Final

import yaml
from sqlalchemy.engine import make_url

DEPLOY: Final = Path(__file__).resolve().parents[2] / "deploy"
#: Every resource kind the manifests hold, and its ``apiVersion``.
API_VERSIONS: Final = {
    "Namespace": "v1", "ConfigMap": "v1", "Service": "v1", "Secret": "v1",
    "Deployment": "apps/v1", "StatefulSet": "apps/v1",
    "PodDisruptionBudget": "policy/v1", "NetworkPolicy": "networking.k8s.io/v1",
    "HorizontalPodAutoscaler": "autoscaling/v2",
    "Gateway": "gateway.networking.k8s.io/v1", "HTTPRoute": "gateway.networking.k8s.io/v1",
}


def _load(name: str) -> Any:
    return yaml.safe_load((DEPLOY / name).read_text())


def _documents(name: str) -> list[dict[str, Any]]:
    return [d for d in yaml.safe_load_all((DEPLOY / name).read_text()) if d]


def _k8s(kind: str, name: str) -> dict[str, Any]:
    """The resource ``kind``/``name`` among the manifests kustomization.yaml lists."""
    for file in _load("k8s/kustomization.yaml")["resources"]:
        for doc in _documents(f"k8s/{file}"):
            if doc["kind"] == kind and doc["metadata"]["name"] == name:
                return doc
    raise AssertionError(f"no {kind} {name} in deploy/k8s")


def _made_secrets(tmp_path: Path) -> Path:
    """deploy/secrets/ as make-secrets.sh makes it, in a copy of deploy/ under ``tmp_path``."""
    script = tmp_path / "make-secrets.sh"
    shutil.copy(DEPLOY / "make-secrets.sh", script)
    subprocess.run(["sh", str(script)], check=True, capture_output=True, timeout=30)
    return tmp_path / "secrets"


def test_compose_runs_postgres_with_a_volume_a_health_check_and_no_password_in_clear(
        tmp_path: Path) -> None:
    """PostgreSQL reads its password from a compose secret and the app and worker their
    DATABASE_URL from another; make-secrets.sh makes both, the same password in each."""
    compose = _load("compose.yaml")
    services = compose["services"]
    db = services["postgres"]
    assert re.fullmatch(r"postgres:\d+(\.\d+)?(-alpine)?", db["image"]), db["image"]
    env = db["environment"]
    assert "POSTGRES_PASSWORD" not in env
    assert env["POSTGRES_PASSWORD_FILE"] == "/run/secrets/postgres_password"
    volume, mount = db["volumes"][0].split(":")
    assert mount == "/var/lib/postgresql/data" and volume in compose["volumes"]
    assert db["healthcheck"]["test"][:2] == ["CMD", "pg_isready"]
    secrets = _made_secrets(tmp_path)
    password = (secrets / "postgres_password").read_text()
    assert re.fullmatch(r"[0-9a-f]{48}", password)
    assert "postgres_password" in db["secrets"]
    for name in ("app", "worker"):
        service = services[name]
        assert "DATABASE_URL" not in service["environment"], name
        assert service["environment"]["DATABASE_URL_FILE"] == "/run/secrets/database_url"
        assert "database_url" in service["secrets"], name
        parsed = make_url((secrets / "database_url").read_text())
        assert parsed.drivername == "postgresql+psycopg" and parsed.host == "postgres"
        assert (parsed.username, parsed.database) == (env["POSTGRES_USER"], env["POSTGRES_DB"])
        assert parsed.password == password
        assert service["depends_on"]["postgres"]["condition"] == "service_healthy"
    for name, secret in compose["secrets"].items():
        assert secret["file"] == f"./secrets/{name}" and (secrets / name).is_file(), name
    ignored = (DEPLOY.parent / ".gitignore").read_text().splitlines()
    assert "deploy/secrets/" in ignored


def test_k8s_manifests_have_the_structure_kubernetes_requires() -> None:
    """Every document: a known kind at its apiVersion, a name; every pod template: containers
    with a name and an image, the labels its selector matches, volumes for its mounts (or the
    StatefulSet's claims), and the namespace's ``restricted`` Pod Security Standard."""
    files = [*_load("k8s/kustomization.yaml")["resources"], "secret.example.yaml",
             "postgres-secret.example.yaml"]
    for file in files:
        for doc in _documents(f"k8s/{file}"):
            where = f"{file}: {doc.get('kind')}"
            assert API_VERSIONS[doc["kind"]] == doc["apiVersion"], where
            assert re.fullmatch(r"[a-z0-9]([-a-z0-9]*[a-z0-9])?", doc["metadata"]["name"])
            if doc["kind"] in {"Deployment", "StatefulSet"}:
                _check_workload(doc, where)


def _check_workload(doc: dict[str, Any], where: str) -> None:
    spec = doc["spec"]
    template = spec["template"]
    labels = template["metadata"]["labels"]
    assert spec["selector"]["matchLabels"].items() <= labels.items(), where
    pod = template["spec"]
    assert pod["securityContext"]["runAsNonRoot"] is True, where
    assert pod["securityContext"]["seccompProfile"]["type"] == "RuntimeDefault", where
    volumes = {v["name"] for v in pod.get("volumes", [])}
    volumes |= {c["metadata"]["name"] for c in spec.get("volumeClaimTemplates", [])}
    for container in pod["containers"]:
        assert container["name"] and container["image"], where
        security = container["securityContext"]
        assert security["allowPrivilegeEscalation"] is False, where
        assert security["capabilities"]["drop"] == ["ALL"], where
        for mount in container.get("volumeMounts", []):
            assert mount["name"] in volumes, (where, mount)


def _secret_ref(container: dict[str, Any], name: str) -> dict[str, str]:
    env = {e["name"]: e for e in container.get("env", [])}
    ref: dict[str, str] = env[name]["valueFrom"]["secretKeyRef"]
    return ref


def test_k8s_runs_postgres_in_a_statefulset_with_a_claim_probes_and_its_secret() -> None:
    resources = _load("k8s/kustomization.yaml")["resources"]
    assert "postgres.yaml" in resources
    assert not any("example" in r for r in resources)  # no secret is applied from the repo
    sts = _k8s("StatefulSet", "sixtysix-postgres")
    service = _k8s("Service", sts["spec"]["serviceName"])
    labels = sts["spec"]["template"]["metadata"]["labels"]
    assert service["spec"]["selector"].items() <= labels.items()
    container = sts["spec"]["template"]["spec"]["containers"][0]
    assert container["image"].startswith("postgres:")
    claim = sts["spec"]["volumeClaimTemplates"][0]
    assert claim["spec"]["resources"]["requests"]["storage"]
    data = next(m for m in container["volumeMounts"] if m["name"] == claim["metadata"]["name"])
    env = {e["name"]: e for e in container["env"]}
    assert env["PGDATA"]["value"].startswith(data["mountPath"] + "/")
    for probe in ("readinessProbe", "livenessProbe"):
        assert container[probe]["exec"]["command"][0] == "pg_isready", probe
    example = _documents("k8s/postgres-secret.example.yaml")[0]
    password = _secret_ref(container, "POSTGRES_PASSWORD")
    assert password["name"] == example["metadata"]["name"]
    assert password["key"] in example["stringData"]
    url = make_url(example["stringData"]["DATABASE_URL"])
    assert url.drivername == "postgresql+psycopg" and url.host == service["metadata"]["name"]
    assert url.port == service["spec"]["ports"][0]["port"]
    assert (url.username, url.database) == (env["POSTGRES_USER"]["value"],
                                            env["POSTGRES_DB"]["value"])
    for name in ("sixtysix", "sixtysix-worker"):
        app = _k8s("Deployment", name)["spec"]["template"]["spec"]["containers"][0]
        ref = _secret_ref(app, "DATABASE_URL")
        assert ref == {"name": example["metadata"]["name"], "key": "DATABASE_URL"}, name
