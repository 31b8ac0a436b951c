"""What the benchmarks say about the machine they ran on."""

from __future__ import annotations

import platform


def cpu_model() -> str:
    """The processor's name, from /proc/cpuinfo where there is one."""
    try:
        with open("/proc/cpuinfo") as info:
            for line in info:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()
