# SPDX-License-Identifier: Apache-2.0
"""Self-test of the verification harness (verif/common), independent of the
project's generator: it writes a tiny hand-made counter in the generator's
output layout (.sv files, <top>.f, <top>.json) and checks that

* run_cocotb builds it with Verilator, runs cocotb tests against a Python
  model, and reuses the build on the second call (cache hit);
* build parameters and waves get their own cache entries, waves give dump.fst;
* public="top" hides the signals below the top module, public="all" shows them;
* a pair wrapper's instances share one hierarchical block (one compiled library);
* a failing cocotb test fails the pytest test, naming the cocotb test;
* generate() calls a generator jar, caches per (top, params, jar) and raises
  with the generator's stderr on failure (a stub jar compiled here stands in
  for gen/target/sue-gen.jar).
"""

from __future__ import annotations

import json
import shutil
import subprocess
import threading
import uuid
from pathlib import Path

import pytest

from common import BuildError, GeneratedDesign, GeneratorError, SimulationFailed, build, generate, paths, run_cocotb
from common import design as design_mod

INCR_SV = """\
`timescale 1ns/1ps
`default_nettype none
// Combinational incrementer (wraps).
module harness_incr #(
  parameter int W = 8
) (
  input  wire logic [W-1:0] a,
  output      logic [W-1:0] y
);
  assign y = a + {{(W-1){1'b0}}, 1'b1};
endmodule
`default_nettype wire
"""

COUNTER_SV = """\
`timescale 1ns/1ps
`default_nettype none
// Counter with synchronous reset and enable. {salt}
module harness_counter #(
  parameter int W = 8
) (
  input  wire logic         clk,
  input  wire logic         rst,
  input  wire logic         en,
  output      logic [W-1:0] count
);
  logic [W-1:0] next;
  harness_incr #(.W(W)) u_incr (.a(count), .y(next));
  always_ff @(posedge clk) begin
    if (rst) begin
      count <= '0;
    end else if (en) begin
      count <= next;
    end
  end
endmodule
`default_nettype wire
"""

TOP = "harness_counter"
FILES = ["harness_incr.sv", "harness_counter.sv"]


def write_design(d: Path, salt: str = "") -> GeneratedDesign:
    d.mkdir(parents=True, exist_ok=True)
    (d / "harness_incr.sv").write_text(INCR_SV)
    (d / "harness_counter.sv").write_text(COUNTER_SV.format(salt=salt))
    (d / f"{TOP}.f").write_text("\n".join(FILES) + "\n")
    (d / f"{TOP}.json").write_text(json.dumps({"top_module": TOP, "files": FILES}, indent=2))
    return GeneratedDesign.from_dir(d, TOP)


def test_build_run_and_cache_hit(tmp_path):
    # A salt comment makes this SV unique, so the first build is always a real
    # Verilator build and the second must be served from the cache.
    design = write_design(tmp_path / "d", salt=f"salt {uuid.uuid4().hex}")
    first = run_cocotb(design, "tb_harness_counter")
    try:
        assert not first.cache_hit
        assert first.tests == 1 and first.passed
        assert (first.build_dir / "build.ok").is_file()

        second = run_cocotb(design, "tb_harness_counter")
        assert second.cache_hit, "unchanged SV must not rebuild"
        assert second.build_dir == first.build_dir
        assert second.passed
        print(f"uncached build {first.build_seconds:.1f}s, cached {second.build_seconds:.3f}s")
        assert second.build_seconds < 1.0
    finally:
        # Salted builds are never reused: do not let them pile up in out/sim_cache.
        shutil.rmtree(first.build_dir, ignore_errors=True)


def test_same_sv_elsewhere_shares_build(tmp_path):
    a = run_cocotb(write_design(tmp_path / "a"), "tb_harness_counter")
    b = run_cocotb(write_design(tmp_path / "b"), "tb_harness_counter")
    assert b.cache_hit and a.build_dir == b.build_dir


def test_parameters_get_their_own_build(tmp_path):
    design = write_design(tmp_path / "d")
    w8 = run_cocotb(design, "tb_harness_counter")
    w4 = run_cocotb(design, "tb_harness_counter", parameters={"W": 4})  # wraps in the test
    assert w4.build_dir != w8.build_dir
    assert w4.passed


def test_cocotb_failure_fails_pytest(tmp_path):
    design = write_design(tmp_path / "d")
    with pytest.raises(SimulationFailed, match="deliberately_failing.*deliberate failure"):
        run_cocotb(design, "tb_harness_failing")
    res = run_cocotb(design, "tb_harness_failing", check=False)
    assert res.tests == 1 and len(res.failures) == 1 and not res.passed


def test_unknown_testcase_is_an_error(tmp_path):
    design = write_design(tmp_path / "d")
    with pytest.raises(SimulationFailed, match="no cocotb test ran"):
        run_cocotb(design, "tb_harness_counter", testcase="no_such_test")


def test_build_error_shows_verilator_output(tmp_path):
    write_design(tmp_path / "d")
    (tmp_path / "d" / "harness_incr.sv").write_text(INCR_SV.replace("assign y", "assign y ="))
    design = GeneratedDesign.from_dir(tmp_path / "d", TOP)
    with pytest.raises(BuildError, match=r"harness_incr\.sv:\d+:\d+: syntax error") as e:
        run_cocotb(design, "tb_harness_counter")
    assert e.value.build_dir is not None and not (e.value.build_dir / "build.ok").exists()
    shutil.rmtree(e.value.build_dir)  # broken SV: never reused


@pytest.mark.parametrize("public,inner", [("top", "0"), ("all", "1")])
def test_public_reaches_what_it_says(tmp_path, public, inner):
    """public="top" (the default) builds with --public-depth 1: ports reachable, the instance
    inside not; public="all" keeps cocotb's --public-flat-rw: the instance's signals readable."""
    design = write_design(tmp_path / "d")
    res = run_cocotb(design, "tb_harness_public", public=public, extra_env={"TB_EXPECT_INNER": inner})
    assert res.tests == 1 and res.passed


def test_pair_wrapper_builds_one_hierarchical_block(tmp_path):
    """pair_design names its top a hierarchical block: Verilator compiles one library of it
    (V<top>/lib<top>.a), which both instances use; a waves build stays flat."""
    from common.pair_wrapper import pair_design

    # the counter without its parameter: the wrapper reads the emitter's parameterless headers
    d = tmp_path / "d"
    d.mkdir()
    top = "harness_tick"
    (d / f"{top}.sv").write_text(
        f"module {top} (\n    input  wire logic clk,\n    input  wire logic rst,\n    output logic [7:0] count\n);\n"
        "    always_ff @(posedge clk) count <= rst ? 8'd0 : count + 8'd1;\nendmodule\n")
    (d / f"{top}.json").write_text(json.dumps({"top_module": top, "files": [f"{top}.sv"]}))
    pair = pair_design(GeneratedDesign.from_dir(d, top))
    assert pair.hier_blocks == (top,)
    build_dir, _, _ = build(pair)
    assert (build_dir / f"V{top}" / f"lib{top}.a").is_file()
    assert "--hierarchical" in json.loads((build_dir / "build.ok").read_text())["build_args"]
    flat_dir, _, _ = build(pair, waves=True)
    assert not (flat_dir / f"V{top}").exists()


def test_waves_write_fst(tmp_path, monkeypatch):
    monkeypatch.delenv("WAVES", raising=False)  # the plain run must really be plain
    design = write_design(tmp_path / "d")
    plain = run_cocotb(design, "tb_harness_counter")
    waved = run_cocotb(design, "tb_harness_counter", waves=True)
    assert waved.build_dir != plain.build_dir
    assert waved.waves_file is not None and waved.waves_file.is_file()
    assert waved.waves_file.stat().st_size > 0


# --- generate() against a stub generator jar --------------------------------

FAKE_GEN_JAVA = """\
import java.nio.file.*;
import java.util.*;

/** Stub of sue-gen.jar: TOP [-p k=v]... --out-dir DIR; copies a template design. */
public class FakeGen {
    public static void main(String[] args) throws Exception {
        String top = args[0];
        Path out = null;
        List<String> ps = new ArrayList<>();
        for (int i = 1; i < args.length; i++) {
            if (args[i].equals("-p")) ps.add(args[++i]);
            else if (args[i].equals("--out-dir")) out = Paths.get(args[++i]);
        }
        Files.writeString(Paths.get(System.getenv("FAKE_GEN_LOG")), top + " " + ps + "\\n",
                StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        if (!top.equals("harness_counter")) {
            System.err.println("error: unknown top '" + top + "'");
            System.exit(2);
        }
        Path src = Paths.get(System.getenv("FAKE_GEN_SRC"));
        Files.createDirectories(out);
        for (String f : new String[] {"harness_incr.sv", "harness_counter.sv", "harness_counter.f", "harness_counter.json"}) {
            Files.copy(src.resolve(f), out.resolve(f));
        }
    }
}
"""


@pytest.fixture
def fake_generator(tmp_path, monkeypatch):
    if shutil.which("javac") is None or shutil.which("jar") is None:
        pytest.skip("needs a JDK (javac, jar)")
    src = tmp_path / "java"
    src.mkdir()
    (src / "FakeGen.java").write_text(FAKE_GEN_JAVA)
    subprocess.run(["javac", "-d", str(src), str(src / "FakeGen.java")], check=True)
    jar = tmp_path / "fake-gen.jar"
    subprocess.run(["jar", "cfe", str(jar), "FakeGen", "-C", str(src), "FakeGen.class"], check=True)
    write_design(tmp_path / "template")
    log = tmp_path / "gen.log"
    monkeypatch.setattr(paths, "JAR", jar)
    monkeypatch.setattr(paths, "VERIF_OUT", tmp_path / "verif")
    monkeypatch.setenv("FAKE_GEN_SRC", str(tmp_path / "template"))
    monkeypatch.setenv("FAKE_GEN_LOG", str(log))
    return log


def test_generate_caches_per_params(fake_generator):
    log = fake_generator
    designs = []
    # Four threads race for the same configuration: the lock lets one generate.
    threads = [threading.Thread(target=lambda: designs.append(generate(TOP, {"W": 8, "fast": True}))) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(designs) == 4 and len({d.dir for d in designs}) == 1
    d = designs[0]
    assert d.top_module == TOP
    assert [f.name for f in d.files] == FILES and all(f.is_absolute() for f in d.files)
    assert log.read_text().splitlines() == ["harness_counter [W=8, fast=true]"]

    assert generate(TOP, {"fast": True, "W": 8}).dir == d.dir  # order-independent key
    other = generate(TOP, {"W": 4})
    assert other.dir != d.dir
    assert len(log.read_text().splitlines()) == 2


def test_generate_reports_generator_errors(fake_generator):
    with pytest.raises(GeneratorError, match="unknown top 'nope'"):
        generate("nope")
    assert not list((paths.VERIF_OUT / "nope").glob("*/nope.json"))


def test_generate_without_jar(monkeypatch, tmp_path):
    monkeypatch.setattr(paths, "JAR", tmp_path / "missing.jar")
    with pytest.raises(GeneratorError, match="make jar"):
        generate(TOP)


def test_jar_hash_changes_key():
    k1 = design_mod.design_key(TOP, {"W": "8"}, "a" * 64)
    k2 = design_mod.design_key(TOP, {"W": "8"}, "b" * 64)
    assert k1 != k2


def test_cache_keys_ignore_the_generator_stamp_line(tmp_path):
    """A new commit of the generator changes the stamp line of every file, never the hardware: the
    Verilator cache must not rebuild for it, but must for any other change."""
    from common.sim import hardware_bytes

    body = b"`resetall\nmodule m; endmodule\n"
    a, b, c = tmp_path / "a.sv", tmp_path / "b.sv", tmp_path / "c.sv"
    a.write_bytes(b"// m: generated\n// Generator: sue-gen 0.1.0 (commit aaaaaaa)\n" + body)
    b.write_bytes(b"// m: generated\n// Generator: sue-gen 0.1.0 (commit bbbbbbb-dirty)\n" + body)
    c.write_bytes(b"// m: generated\n// Generator: sue-gen 0.1.0 (commit aaaaaaa)\n" + body.replace(b"m;", b"n;"))
    assert hardware_bytes(a) == hardware_bytes(b) == b"// m: generated\n" + body
    assert hardware_bytes(a) != hardware_bytes(c)
