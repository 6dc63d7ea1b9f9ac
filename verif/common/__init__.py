# SPDX-License-Identifier: Apache-2.0
"""Verification harness shared by every testbench under verif/.

    from common import generate, run_cocotb

    design = generate("sue_tx", {"data_width": 256})   # Java generator, cached
    run_cocotb(design, "tb_sue_tx")                    # Verilator build cached by SV hash

See design.py (generation and the report format), sim.py (build cache, runs,
waves) and paths.py (where outputs go).
"""

from .design import GeneratedDesign, GeneratorError, generate
from .sim import BuildError, SimResult, SimulationFailed, build, run_cocotb

__all__ = [
    "BuildError",
    "GeneratedDesign",
    "GeneratorError",
    "SimResult",
    "SimulationFailed",
    "build",
    "generate",
    "run_cocotb",
]
