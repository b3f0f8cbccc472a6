"""`ddz.distributed`: `simulate`, `evaluate` and `VecEnv` rollouts sharded over a Ray
cluster (docs/distributed.md). Needs the optional extra: ``pip install 'ddz[ray]'``.

`import ddz` never imports this package (nor Ray); ``ddz.distributed`` is
loaded on first use.
"""

from __future__ import annotations

try:
    import ray  # noqa: F401
except ImportError as e:  # pragma: no cover - exercised without the extra
    raise ImportError(
        "ddz.distributed needs Ray: pip install 'ddz[ray]' (or pip install ray)"
    ) from e

from .actors import rollouts
from .cluster import connect
from .evaluation import evaluate
from .parts import iter_parts, plan, simulate
from .policies import RandomPolicy
from .trajectory import collect

__all__ = [
    "RandomPolicy",
    "collect",
    "connect",
    "evaluate",
    "iter_parts",
    "plan",
    "rollouts",
    "simulate",
]
