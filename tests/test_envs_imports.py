"""`import ddz` stays numpy-only: the RL adapters' libraries load only with them."""

from __future__ import annotations

import subprocess
import sys


def test_import_ddz_brings_no_rl_library() -> None:
    code = (
        "import sys, ddz, ddz.envs, ddz.envs.douzero\n"
        "bad = [m for m in ('pettingzoo', 'gymnasium', 'torch') if m in sys.modules]\n"
        "assert not bad, bad\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)
