"""The bot's Prometheus metrics as a benchmark reads them: ``/metrics`` scraped from every
worker (``METRICS_LISTEN``) and summed, the difference of two scrapes, and a histogram's
quantiles estimated from its buckets as Prometheus's ``histogram_quantile`` does."""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field

import aiohttp
from prometheus_client.parser import text_string_to_metric_families

Labels = frozenset[tuple[str, str]]


@dataclass
class Scrape:
    """Samples summed over the workers: (sample name, labels) -> value; and the names of
    the metric families that exist (a labelled counter nothing bumped yet has no sample)."""

    samples: dict[tuple[str, Labels], float] = field(default_factory=lambda: defaultdict(float))
    families: set[str] = field(default_factory=set)

    def has(self, family: str) -> bool:
        return family in self.families

    def since(self, earlier: Scrape) -> Scrape:
        """What was counted between ``earlier`` and this scrape."""
        samples = {
            key: value - earlier.samples.get(key, 0.0) for key, value in self.samples.items()
        }
        return Scrape(defaultdict(float, samples), set(self.families))

    def by(self, sample: str, *labels: str) -> dict[tuple[str, ...], float]:
        """The values of ``sample`` summed by the values of ``labels``."""
        sums: dict[tuple[str, ...], float] = defaultdict(float)
        for (name, have), value in self.samples.items():
            if name == sample:
                found = dict(have)
                sums[tuple(found.get(label, "") for label in labels)] += value
        return dict(sums)

    def quantiles(
        self, histogram: str, label: str, qs: Sequence[float]
    ) -> dict[str, tuple[float, list[float]]]:
        """For each value of ``label``: the number of observations and the estimated
        quantiles ``qs`` (linear within a bucket; above the last finite bound, that bound)."""
        buckets: dict[str, list[tuple[float, float]]] = defaultdict(list)
        for (name, have), value in self.samples.items():
            if name == f"{histogram}_bucket":
                found = dict(have)
                buckets[found.get(label, "")].append((float(found["le"]), value))
        result = {}
        for key, counts in buckets.items():
            counts.sort()
            total = counts[-1][1] if counts else 0.0
            if total > 0:
                result[key] = (total, [_quantile(counts, q) for q in qs])
        return result


def _quantile(counts: list[tuple[float, float]], q: float) -> float:
    """``counts``: (upper bound, cumulative count), sorted, the last bound +Inf."""
    rank = q * counts[-1][1]
    lower, below = 0.0, 0.0
    for bound, cumulative in counts:
        if cumulative >= rank:
            if math.isinf(bound):
                return lower
            if cumulative == below:
                return bound
            return lower + (bound - lower) * (rank - below) / (cumulative - below)
        lower, below = bound, cumulative
    return lower


async def scrape(addresses: Sequence[str]) -> Scrape:
    """``/metrics`` of every worker (``host:port``), summed."""
    total = Scrape()
    async with aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=30)) as session:
        for address in addresses:
            async with session.get(f"http://{address}/metrics") as response:
                response.raise_for_status()
                text = await response.text()
            for family in text_string_to_metric_families(text):
                total.families.add(family.name)
                for sample in family.samples:
                    key = (sample.name, frozenset(sample.labels.items()))
                    total.samples[key] += sample.value
    return total
