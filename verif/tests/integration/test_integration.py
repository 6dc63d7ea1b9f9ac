# SPDX-License-Identifier: Apache-2.0
"""Integration: two configurations of sue_endpoint and user modules with the library's class
names compile together (one Verilator and one Icarus run), the instantiation template is a
complete instance, and FuseSoC accepts the generated core file.

The generator names every module with a prefix (``sue_`` by default) and, below the top, a
suffix from the module's content; the top takes a suffix from its parameters when they are not
the defaults. These tests fail if two configurations define one module name differently, if a
generated module takes a name a user is likely to have (``arbiter``, ``stream_fifo``), or if the
template or the core file stop matching the design.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from common import GeneratorError, generate, paths
from common.design import GeneratedDesign

CONFIG_A = {"xpus": 16, "dataWidth": 256}
CONFIG_B = {"xpus": 16, "dataWidth": 512}

# Modules a user design plausibly has; before prefixes the generator emitted these very names.
USER_MODULES = """
module arbiter (input logic clk, input logic [1:0] req, output logic [1:0] gnt);
  always_ff @(posedge clk) gnt <= req & ~(req - 2'd1);
endmodule

module stream_fifo (input logic clk, input logic [7:0] d, output logic [7:0] q);
  always_ff @(posedge clk) q <= d;
endmodule
"""


def _ports(design: GeneratedDesign) -> list[dict]:
    top = next(m for m in design.report["modules"] if m["name"] == design.top_module)
    return top["ports"]


def _declarations(design: GeneratedDesign) -> str:
    lines = []
    for p in _ports(design):
        width = p["width"]
        lines.append(f"  logic {'' if width == 1 else f'[{width - 1}:0] '}{p['name']};\n")
    return "".join(lines)


def _wrapper_by_template(name: str, design: GeneratedDesign, template: str) -> str:
    # Every signal the template connects is declared here; the template is the whole instance.
    return f"module {name};\n{_declarations(design)}  `include \"{template}\"\nendmodule\n"


def _wrapper_by_name(name: str, design: GeneratedDesign) -> str:
    conns = ",\n".join(f"    .{p['name']}({p['name']})" for p in _ports(design))
    return f"module {name};\n{_declarations(design)}  {design.top_module} u_dut (\n{conns}\n  );\nendmodule\n"


@pytest.fixture(scope="module")
def two_configs() -> tuple[GeneratedDesign, GeneratedDesign]:
    return generate("sue_endpoint", CONFIG_A), generate("sue_endpoint", CONFIG_B)


def test_names_differ_where_content_differs(two_configs):
    a, b = two_configs
    assert a.top_module != b.top_module
    assert a.top_module.startswith("sue_endpoint_") and b.top_module.startswith("sue_endpoint_")
    names_a = {f.stem: f.read_text() for f in a.files}
    names_b = {f.stem: f.read_text() for f in b.files}
    for name in names_a.keys() & names_b.keys():
        # A shared name must mean shared content, or the union below would not be one design.
        body = lambda text: text[text.index("\nmodule "):]  # noqa: E731  (headers name the Java class only)
        assert body(names_a[name]) == body(names_b[name]), f"{name} differs between the two configurations"
    assert names_a.keys() & names_b.keys(), "expected identical sub-modules (e.g. FIFOs) to be shared"
    for name in (*names_a, *names_b):
        assert name.startswith("sue_"), f"module {name} lacks the sue_ prefix"


def _union_files(tmp_path: Path, a: GeneratedDesign, b: GeneratedDesign) -> list[Path]:
    files: dict[str, Path] = {}
    for f in (*a.files, *b.files):
        files.setdefault(f.name, f)  # shared names have identical content (test above)
    user = tmp_path / "user_modules.sv"
    user.write_text(USER_MODULES)
    template = a.dir / "sue_endpoint_inst.svh"
    assert template.is_file()
    top = tmp_path / "integration_top.sv"
    top.write_text(
        _wrapper_by_template("wrap_a", a, template.name)
        + _wrapper_by_name("wrap_b", b)
        + "module integration_top (input logic clk, input logic [1:0] req, input logic [7:0] d,\n"
        "                        output logic [1:0] gnt, output logic [7:0] q);\n"
        "  wrap_a u_a ();\n  wrap_b u_b ();\n"
        "  arbiter u_arb (.clk(clk), .req(req), .gnt(gnt));\n"
        "  stream_fifo u_fifo (.clk(clk), .d(d), .q(q));\n"
        "endmodule\n"
    )
    return [*files.values(), user, top]


def test_two_configurations_and_user_modules_compile_together(two_configs, tmp_path):
    a, b = two_configs
    files = [str(f) for f in _union_files(tmp_path, a, b)]
    verilator = subprocess.run(
        ["verilator", "--lint-only", "-Wno-fatal", "-Wno-lint", "-Wno-style", f"+incdir+{a.dir}",
         "--top-module", "integration_top", *files],
        capture_output=True, text=True, timeout=900,
    )
    assert verilator.returncode == 0, verilator.stderr[-4000:]
    assert "Duplicate" not in verilator.stderr, verilator.stderr[-4000:]
    icarus = subprocess.run(
        ["iverilog", "-g2012", "-I", str(a.dir), "-s", "integration_top", "-o", str(tmp_path / "a.vvp"), *files],
        capture_output=True, text=True, timeout=900,
    )
    assert icarus.returncode == 0, icarus.stderr[-4000:]


def test_fusesoc_accepts_the_core(two_configs, tmp_path):
    a, _ = two_configs
    core = a.dir / "sue_endpoint.core"
    text = core.read_text()
    vlnv = re.search(r"^name:\s*(\S+)", text, re.M).group(1)
    assert vlnv.split(":")[2] == a.top_module
    fusesoc = Path(sys.executable).parent / "fusesoc"
    proc = subprocess.run([str(fusesoc), "--cores-root", str(a.dir), "core", "show", vlnv],
                          capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert f"Name:        {vlnv}" in proc.stdout
    assert re.search(r"^lint\s*:", proc.stdout, re.M), proc.stdout
    # The core's files are the filelist's, in the same (dependency) order.
    listed = re.findall(r"^      - (\S+)$", text, re.M)
    assert listed == [f.name for f in a.files]


@pytest.mark.parametrize(
    "args,message",
    [
        (["--prefix", "9x_"], "cannot start a SystemVerilog identifier"),
        (["--prefix", "a-b"], "cannot start a SystemVerilog identifier"),
        (["--prefix", "module"], "is a SystemVerilog keyword"),
        (["--top-name", "wire"], "is not a plain SystemVerilog identifier"),
    ],
)
def test_bad_names_exit_2(args, message, tmp_path):
    proc = subprocess.run(["java", "-jar", str(paths.JAR), "demo_accumulator", *args, "--out-dir", str(tmp_path)],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 2, proc.stdout + proc.stderr
    assert message in proc.stderr
    assert "Exception" not in proc.stderr
