"""Joining a Ray cluster: the one named, the one in ``RAY_ADDRESS``, the one
this process is already connected to, or a new local one."""

from __future__ import annotations

import logging
import os

import ray

import ddz


def connect(address: str | None = None, quiet: bool = False) -> None:
    """Connect this process to Ray unless it is already connected.

    ``address`` (``"HOST:PORT"`` of a head node, or ``"auto"``) wins over
    ``RAY_ADDRESS``; with neither, Ray starts a local cluster on this machine,
    left running for later calls until ``ray.shutdown()`` (as Ray does).
    An existing connection is kept as it is, whatever ``address`` says.
    ``quiet`` keeps Ray's start-up lines and the workers' output off stderr
    (for the command line, whose output is the summary).
    """
    if ray.is_initialized():
        return
    address = address or os.environ.get("RAY_ADDRESS") or None
    options: dict = {"logging_level": logging.WARNING, "log_to_driver": False} if quiet else {}
    if address is None:
        # A local cluster only for this process: no dashboard to serve.
        ray.init(include_dashboard=False, **options)
    else:
        ray.init(address=address, **options)


def total_cpus() -> int:
    """The CPUs the cluster offers now (at least 1)."""
    return max(1, int(ray.cluster_resources().get("CPU", 1)))


def check_version(driver: str) -> None:
    """Refuse to play on a node whose ddz differs from the driver's: the
    deals of a seed are only the same with the same engine."""
    if ddz.__version__ != driver:
        raise RuntimeError(
            f"this node has ddz {ddz.__version__}, the driver ddz {driver}: install the "
            "same ddz on every node"
        )
