"""The monitoring that ships in ``deploy/``: the Prometheus configuration, its alerts and the
Grafana dashboard parse, use only metrics the bot's ``/metrics`` really serves (scraped
in-process, as ``test_web`` does), and pass ``promtool`` where it is installed (Debian's
``prometheus`` package); the metrics port is one number in every file that names it."""

from __future__ import annotations

import importlib
import json
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
from aiohttp.test_utils import TestClient, TestServer
from prometheus_client.parser import text_string_to_metric_families

from bot.app import App
from bot.web import operator_app

ROOT = Path(__file__).resolve().parents[2]
PROMETHEUS = ROOT / "deploy" / "prometheus"
DASHBOARD = ROOT / "deploy" / "grafana" / "durak.json"
OPERATIONS = ROOT / "docs" / "OPERATIONS.md"
METRICS_PORT = 9090

# The series a scrape's samples are named by, for each kind of metric family.
SUFFIXES = {
    "counter": ("_total",),
    "gauge": ("",),
    "histogram": ("_bucket", "_count", "_sum"),
}
# Series Prometheus makes itself for every target.
PROMETHEUS_OWN = {"up"}


def load_yaml(path: Path) -> Any:
    """``path`` read by a real YAML parser (PyYAML, a developer dependency)."""
    yaml = importlib.import_module("yaml")
    return yaml.safe_load(path.read_text())


@pytest.fixture
async def served(app: App) -> dict[str, set[str]]:
    """Metric family -> the series names the bot's ``/metrics`` serves for it (a labelled
    counter nothing bumped yet has no sample, but its family is there)."""
    async with TestClient(TestServer(operator_app(app.operated()))) as client:
        response = await client.get("/metrics")
        assert response.status == 200
        text = await response.text()
    families: dict[str, set[str]] = {}
    for family in text_string_to_metric_families(text):
        if family.name.endswith("_created"):
            continue
        families[family.name] = {family.name + suffix for suffix in SUFFIXES[family.type]}
    return families


def alert_rules() -> list[dict[str, Any]]:
    rules = load_yaml(PROMETHEUS / "alerts.yml")
    return [rule for group in rules["groups"] for rule in group["rules"]]


def dashboard_exprs() -> list[str]:
    dashboard = json.loads(DASHBOARD.read_text())
    return [target["expr"] for panel in dashboard["panels"] for target in panel["targets"]]


def series_in(expr: str) -> set[str]:
    """The bot's series (``durak_…``) and Prometheus's own that ``expr`` reads."""
    names = set(re.findall(r"\b(durak_[a-z_]+)\b", expr))
    return names | {name for name in PROMETHEUS_OWN if re.search(rf"\b{name}\{{", expr)}


def test_every_series_the_alerts_and_the_dashboard_read_is_served(
    served: dict[str, set[str]],
) -> None:
    exposed = PROMETHEUS_OWN | {series for names in served.values() for series in names}
    for source, exprs in (
        ("alerts.yml", [rule["expr"] for rule in alert_rules()]),
        ("durak.json", dashboard_exprs()),
    ):
        used = {name for expr in exprs for name in series_in(expr)}
        assert used, source
        assert used <= exposed, (source, sorted(used - exposed))


def test_the_dashboard_shows_every_metric_the_bot_serves(served: dict[str, set[str]]) -> None:
    """A metric added to ``bot/metrics.py`` gets a panel, or this fails."""
    used = {name for expr in dashboard_exprs() for name in series_in(expr)}
    unshown = [family for family, names in served.items() if not names & used]
    assert not unshown


def test_the_dashboard_is_one_grafana_dashboard_on_a_chosen_prometheus() -> None:
    dashboard = json.loads(DASHBOARD.read_text())
    assert dashboard["uid"] and dashboard["title"]
    ids = [panel["id"] for panel in dashboard["panels"]]
    assert len(ids) == len(set(ids))
    variables = {v["name"]: v for v in dashboard["templating"]["list"]}
    assert variables["datasource"]["type"] == "datasource"
    for panel in dashboard["panels"]:
        assert panel["targets"], panel["title"]
        for where in (panel, *panel["targets"]):
            assert where["datasource"] == {"type": "prometheus", "uid": "${datasource}"}


def test_every_alert_is_explained_in_operations() -> None:
    """Each alert's name appears in docs/OPERATIONS.md's Monitoring section, which says what
    it means and what to do."""
    text = OPERATIONS.read_text()
    monitoring = re.search(r"(?ms)^## Monitoring\n(.*?)(?=^## |\Z)", text)
    assert monitoring is not None
    names = [rule["alert"] for rule in alert_rules()]
    assert len(names) == len(set(names))
    missing = [name for name in names if f"`{name}`" not in monitoring.group(1)]
    assert not missing


def test_the_scrape_configuration_reads_the_alerts_and_the_metrics_port() -> None:
    config = load_yaml(PROMETHEUS / "prometheus.yml")
    assert config["rule_files"] == ["alerts.yml"]
    (job,) = config["scrape_configs"]
    assert job["metrics_path"] == "/metrics"
    assert [sd["port"] for sd in job["dns_sd_configs"]] == [METRICS_PORT]
    assert {rule["alert"] for rule in alert_rules()} >= {
        "DurakBotDown",
        "DurakRedisUnreachable",
        "DurakUpdatesFailing",
        "DurakMessagesBehind",
        "DurakComputersDegraded",
    }


def test_the_metrics_port_is_the_same_in_the_image_compose_and_the_docs() -> None:
    dockerfile = (ROOT / "Dockerfile").read_text()
    assert re.findall(r"(?m)^ENV METRICS_LISTEN=0\.0\.0\.0:(\d+)$", dockerfile) == ["9090"]
    assert re.findall(r"(?m)^EXPOSE (\d+)$", dockerfile) == ["9090"]
    compose = (ROOT / "docker-compose.yml").read_text()
    assert re.findall(r'(?m)^    expose:\n      - "(\d+)"$', compose) == ["9090"]
    example = (ROOT / ".env.example").read_text()
    assert re.findall(r"(?m)^# METRICS_LISTEN=0\.0\.0\.0:(\d+)$", example) == ["9090"]
    docs = OPERATIONS.read_text()
    named = set(re.findall(r"METRICS_LISTEN=[\w.]*:(\d+)", docs))
    assert named == {str(METRICS_PORT)}


PROMTOOL = shutil.which("promtool")


@pytest.mark.skipif(
    PROMTOOL is None, reason="promtool not installed (Debian: apt-get install prometheus)"
)
@pytest.mark.parametrize(
    "check",
    [
        ["check", "config", "prometheus.yml"],
        ["check", "rules", "alerts.yml"],
        ["test", "rules", "alerts.test.yml"],  # each alert fires when it should, only then
    ],
    ids=["config", "rules", "alerts fire"],
)
def test_promtool_accepts_the_configuration_and_the_alerts(check: list[str]) -> None:
    assert PROMTOOL is not None
    done = subprocess.run(
        [PROMTOOL, *check], cwd=PROMETHEUS, capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stdout + done.stderr
