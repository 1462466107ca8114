"""What the benchmarks share: timing one piece of work a few times."""

from __future__ import annotations

import statistics
import time
from typing import Callable


def timed(work: Callable[[], object], repeat: int) -> tuple[float, float]:
    """``work`` run ``repeat`` times: (the best wall-clock seconds, the median)."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    return min(times), statistics.median(times)
