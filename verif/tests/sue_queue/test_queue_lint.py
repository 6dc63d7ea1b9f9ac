# SPDX-License-Identifier: Apache-2.0
"""Queue manager tops at realistic and edge sizes: generated and linted by verilator -Wall,
iverilog and yosys (no simulation), and parameter errors reported clearly."""

from __future__ import annotations

import re
import time

import pytest

from common import GeneratorError, generate
from common.lint import assert_lints_clean


CONFIGS = [
    ("queue_lists", {"xpus": 1024, "vcs": 4, "cells": 8192}),  # realistic size: 4096 queues
    ("queue_lists", {"xpus": 1024, "vcs": 8, "cells": 65536}),  # largest
    ("queue_lists", {"xpus": 1000, "vcs": 1, "cells": 3000}),  # non-powers of two
    ("queue_lists", {"xpus": 2, "vcs": 1, "cells": 2}),  # smallest
    ("queue_lists", {"xpus": 1024, "vcs": 4, "cells": 8192, "destLimited": True}),  # with destination limits
    ("queue_lists", {"xpus": 1000, "vcs": 1, "cells": 3000, "destLimited": True}),  # one VC: sweep == xpus
    ("active_scheduler", {"xpus": 1024, "vcs": 4}),  # realistic size
    ("active_scheduler", {"xpus": 1024, "vcs": 8}),
    ("active_scheduler", {"xpus": 1000, "vcs": 2}),
    ("active_scheduler", {"xpus": 2, "vcs": 1}),
    ("cell_allocator", {"cells": 8192}),
    ("cell_allocator", {"cells": 65536}),
    ("cell_allocator", {"cells": 2}),
    ("cell_allocator", {"cells": 1000}),
]


@pytest.mark.parametrize("top,params", CONFIGS,
                         ids=[f"{t}-" + "-".join(f"{k}{v}" for k, v in p.items()) for t, p in CONFIGS])
def test_lints_clean(top, params):
    t0 = time.monotonic()
    generate(top, params)
    gen_s = time.monotonic() - t0
    assert gen_s < 60, f"generation took {gen_s:.1f} s"
    assert_lints_clean(top, params)


@pytest.mark.parametrize(
    "top,params,message",
    [
        ("queue_lists", {"vcs": 3}, "vcs' = 3 is out of range"),
        ("queue_lists", {"xpus": 1}, "xpus' = 1 is out of range"),
        ("cell_allocator", {"cells": 1}, "cells' = 1 is out of range"),
        ("active_scheduler", {"vcs": 16}, "vcs' = 16 is out of range"),
    ],
)
def test_rejects_invalid_parameters(top, params, message):
    with pytest.raises(GeneratorError, match=re.escape(message)):
        generate(top, params)
