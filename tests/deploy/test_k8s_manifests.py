"""deploy/k8s validated offline: ``kubectl kustomize`` renders it, every built-in resource
passes the Kubernetes API's JSON schemas in strict mode (no field Kubernetes does not know;
the ``kubernetes-validate`` package ships them: kubeconform is on neither PyPI nor npm), and
what no schema says is checked here: the Gateway API route (a CRD: structural check), the
autoscaler, the network policies, the probes, Redis with Sentinel behind its Secret's password.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path
from typing import Any, Final

import kubernetes_validate
import pytest
import yaml

from api.runtime.redis_connect import parse

K8S: Final = Path(__file__).resolve().parents[2] / "deploy" / "k8s"
#: Kubernetes releases the manifests must pass: the oldest still supported upstream, the newest.
VERSIONS: Final = ("1.32.0", "1.37.0")
#: Kinds of the Gateway API (CRDs: no schema in kubernetes-validate).
GATEWAY_API: Final = "gateway.networking.k8s.io/v1"
#: Seconds a Redis outage may last before the web pods leave the Service: above a Sentinel
#: fail-over (redis.yaml: 5 s to notice a master down, then the election and promotion).
READY_GRACE: Final = 30


def _documents(name: str) -> list[dict[str, Any]]:
    return [d for d in yaml.safe_load_all((K8S / name).read_text()) if d]


def _resources() -> list[dict[str, Any]]:
    files = yaml.safe_load((K8S / "kustomization.yaml").read_text())["resources"]
    return [doc for name in files for doc in _documents(name)]


def _one(kind: str, name: str) -> dict[str, Any]:
    found = [d for d in _resources() if d["kind"] == kind and d["metadata"]["name"] == name]
    assert len(found) == 1, (kind, name)
    return found[0]


def _pod(kind: str, name: str) -> dict[str, Any]:
    pod: dict[str, Any] = _one(kind, name)["spec"]["template"]["spec"]
    return pod


def _rendered() -> list[dict[str, Any]]:
    kubectl = shutil.which("kubectl")
    if kubectl is None:
        pytest.skip("kubectl is not installed: the kustomization is not rendered (the files "
                    "are validated one by one by the other tests)")
    done = subprocess.run([kubectl, "kustomize", str(K8S)], capture_output=True, text=True,
                          timeout=120, check=True)
    return [d for d in yaml.safe_load_all(done.stdout) if d]


def test_kustomize_renders_every_resource_into_the_namespace() -> None:
    rendered = _rendered()
    assert len(rendered) == len(_resources())
    for doc in rendered:
        if doc["kind"] != "Namespace":
            assert doc["metadata"]["namespace"] == "sixtysix", doc["metadata"]["name"]


@pytest.mark.parametrize("version", VERSIONS)
def test_every_builtin_resource_passes_the_kubernetes_schemas(version: str) -> None:
    """Strict: a misspelt or misplaced field fails (the examples of the Secrets too)."""
    docs = [*_resources(), *_documents("secret.example.yaml"),
            *_documents("postgres-secret.example.yaml")]
    checked = 0
    for doc in docs:
        if doc["apiVersion"] == GATEWAY_API:
            continue
        kubernetes_validate.validate(doc, version, strict=True)
        checked += 1
    assert checked == len(docs) - 2  # all but the Gateway and the HTTPRoute


def test_the_schemas_refuse_what_kubernetes_would() -> None:
    """The validation can fail: an unknown field and a wrongly typed one are refused."""
    deployment = _one("Deployment", "sixtysix")
    bad = yaml.safe_load(yaml.safe_dump(deployment))
    bad["spec"]["template"]["spec"]["containers"][0]["readinessprobe"] = {}
    with pytest.raises(kubernetes_validate.ValidationError):
        kubernetes_validate.validate(bad, VERSIONS[-1], strict=True)
    bad = yaml.safe_load(yaml.safe_dump(deployment))
    bad["spec"]["revisionHistoryLimit"] = "five"
    with pytest.raises(kubernetes_validate.ValidationError):
        kubernetes_validate.validate(bad, VERSIONS[-1], strict=True)


def test_no_ingress_nginx_and_the_route_reaches_the_web_service() -> None:
    """The Gateway API instead of the retired ingress-nginx: the route hangs on a listener of
    the Gateway and sends every path to the web Service's port, with no request timeout
    (long-polls, event streams)."""
    kinds = {d["kind"] for d in _resources()}
    assert "Ingress" not in kinds and not any("nginx.ingress" in str(d) for d in _resources())
    gateway, route = _one("Gateway", "sixtysix"), _one("HTTPRoute", "sixtysix")
    assert gateway["apiVersion"] == route["apiVersion"] == GATEWAY_API
    listeners = {x["name"]: x for x in gateway["spec"]["listeners"]}
    for parent in route["spec"]["parentRefs"]:
        assert parent["name"] == gateway["metadata"]["name"]
        listener = listeners[parent["sectionName"]]
        assert listener["protocol"] == "HTTPS" and listener["tls"]["mode"] == "Terminate"
        assert listener["hostname"] in route["spec"]["hostnames"]
    service = _one("Service", "sixtysix")
    ports = {p["port"] for p in service["spec"]["ports"]}
    (rule,) = route["spec"]["rules"]
    assert rule["matches"] == [{"path": {"type": "PathPrefix", "value": "/"}}]
    assert [(b["name"], b["port"] in ports) for b in rule["backendRefs"]] == [("sixtysix", True)]
    assert rule["timeouts"]["request"] == "0s"


def test_an_autoscaler_sizes_the_web_tier_above_its_disruption_budget() -> None:
    hpa = _one("HorizontalPodAutoscaler", "sixtysix")["spec"]
    target = hpa["scaleTargetRef"]
    assert (target["kind"], target["name"]) == ("Deployment", "sixtysix")
    assert "replicas" not in _one("Deployment", "sixtysix")["spec"]  # apply would reset it
    pdb = _one("PodDisruptionBudget", "sixtysix")["spec"]
    assert pdb["minAvailable"] < hpa["minReplicas"] < hpa["maxReplicas"]
    (metric,) = hpa["metrics"]
    assert metric["resource"]["name"] == "cpu"
    container = _pod("Deployment", "sixtysix")["containers"][0]
    assert container["resources"]["requests"]["cpu"]  # utilisation is of the request


def _selects(selector: dict[str, Any], labels: dict[str, str]) -> bool:
    return bool(selector.get("matchLabels", {}).items() <= labels.items())


def _allowed_from(target: dict[str, str]) -> list[dict[str, Any]]:
    """The peers the network policies let in to pods labelled ``target``."""
    peers = []
    for policy in (d for d in _resources() if d["kind"] == "NetworkPolicy"):
        if _selects(policy["spec"]["podSelector"], target):
            for rule in policy["spec"].get("ingress", []):
                peers.extend(rule["from"])
    return peers


def _labels(name: str) -> dict[str, str]:
    kinds = {"sixtysix": "Deployment", "sixtysix-worker": "Deployment",
             "sixtysix-redis": "StatefulSet", "sixtysix-postgres": "StatefulSet"}
    labels: dict[str, str] = _one(kinds[name], name)["spec"]["template"]["metadata"]["labels"]
    return labels


def test_network_policies_let_in_only_the_gateway_the_apps_and_the_redis_nodes() -> None:
    deny = _one("NetworkPolicy", "default-deny-ingress")["spec"]
    assert deny["podSelector"] == {} and deny["policyTypes"] == ["Ingress"]
    assert "ingress" not in deny
    web, worker = _labels("sixtysix"), _labels("sixtysix-worker")
    redis, postgres = _labels("sixtysix-redis"), _labels("sixtysix-postgres")
    apps = [{"podSelector": {"matchLabels": web}}, {"podSelector": {"matchLabels": worker}}]
    assert _allowed_from(worker) == []
    assert _allowed_from(postgres) == apps
    assert _allowed_from(redis) == [*apps, {"podSelector": {"matchLabels": redis}}]
    into_web = _allowed_from(web)  # the Gateway's proxies: in their namespace, or labelled
    assert into_web
    for peer in into_web:
        if "namespaceSelector" in peer:
            names = peer["namespaceSelector"]["matchLabels"].values()
            assert "podSelector" not in peer and "sixtysix" not in names, peer
        else:
            assert "gateway.networking.k8s.io/gateway-name" in peer["podSelector"]["matchLabels"]
            assert not any(_selects(peer["podSelector"], w)
                           for w in (web, worker, redis, postgres)), peer


def test_the_web_tier_rides_out_a_redis_blip_and_liveness_never_asks_redis() -> None:
    """Readiness (``/readyz``, which asks Redis) takes a pod out only after
    :data:`READY_GRACE` seconds of failures in a row, above a Sentinel fail-over; liveness
    (``/healthz``) asks no Redis, so an outage restarts nothing."""
    container = _pod("Deployment", "sixtysix")["containers"][0]
    ready, alive = container["readinessProbe"], container["livenessProbe"]
    assert ready["httpGet"]["path"] == "/readyz" and alive["httpGet"]["path"] == "/healthz"
    assert ready["failureThreshold"] * ready["periodSeconds"] >= READY_GRACE
    sentinel = _one("ConfigMap", "sixtysix-redis-scripts")["data"]["sentinel.sh"]
    down_after = re.search(r"down-after-milliseconds mymaster (\d+)", sentinel)
    assert down_after is not None and int(down_after.group(1)) / 1000 < READY_GRACE / 2


def test_the_worker_pods_are_probed_on_their_heartbeat() -> None:
    container = _pod("Deployment", "sixtysix-worker")["containers"][0]
    probe = ["python", "-m", "api.worker.probe"]
    assert container["startupProbe"]["exec"]["command"] == probe
    assert container["livenessProbe"]["exec"]["command"] == [*probe, "--redis-down-ok"]
    startup = container["startupProbe"]
    assert startup["periodSeconds"] * startup["failureThreshold"] >= 60
    assert "readinessProbe" not in container  # no Service sends it anything


def _secret_env(container: dict[str, Any]) -> dict[str, tuple[str, str]]:
    return {e["name"]: (e["valueFrom"]["secretKeyRef"]["name"],
                        e["valueFrom"]["secretKeyRef"]["key"])
            for e in container.get("env", []) if "secretKeyRef" in e.get("valueFrom", {})}


def test_redis_is_the_official_image_with_sentinels_all_behind_the_secrets_password() -> None:
    pod = _pod("StatefulSet", "sixtysix-redis")
    assert _one("StatefulSet", "sixtysix-redis")["spec"]["replicas"] == 3
    scripts = _one("ConfigMap", "sixtysix-redis-scripts")["data"]
    for container in pod["containers"]:
        assert re.fullmatch(r"redis:\d+\.\d+(-alpine)?", container["image"])
        env = _secret_env(container)
        assert env["REDIS_PASSWORD"] == env["REDISCLI_AUTH"] == (
            "sixtysix-redis", "REDIS_PASSWORD")
        for probe in ("readinessProbe", "livenessProbe"):
            command = container[probe]["exec"]["command"]
            assert "grep" in command[-1] and "-a" not in command[-1].split()
    for line in ("requirepass $REDIS_PASSWORD", "masterauth $REDIS_PASSWORD"):
        assert f'echo "{line}"' in scripts["redis.sh"]
    for line in ("requirepass $REDIS_PASSWORD", "sentinel auth-pass mymaster $REDIS_PASSWORD",
                 "sentinel monitor mymaster $master 6379 2"):
        assert f'echo "{line}"' in scripts["sentinel.sh"]
    for name, script in scripts.items():
        syntax = subprocess.run(["sh", "-n"], input=script, text=True, capture_output=True,
                                timeout=10, check=False)
        assert syntax.returncode == 0, (name, syntax.stderr)


def test_the_secret_example_points_the_apps_at_the_sentinels_with_both_passwords() -> None:
    (example,) = _documents("secret.example.yaml")
    data = example["stringData"]
    target = parse(data["REDIS_URL"])
    assert target.master == "mymaster"
    assert target.password == target.sentinel_password == data["REDIS_PASSWORD"]
    pods = {f"sixtysix-redis-{i}.sixtysix-redis" for i in range(3)}
    assert {host for host, _ in target.hosts} == pods
    assert {port for _, port in target.hosts} == {26379}
    for name in ("sixtysix", "sixtysix-worker"):
        refs = _pod("Deployment", name)["containers"][0]["envFrom"]
        assert {"secretRef": {"name": example["metadata"]["name"]}} in refs
    assert not any(d["kind"] == "Secret" for d in _resources())  # none applied from the repo
