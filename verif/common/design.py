# SPDX-License-Identifier: Apache-2.0
"""Generated designs: call the Java generator and read what it wrote.

A generated design is a directory with one ``<module>.sv`` per module, a
filelist ``<top>.f`` and a JSON report ``<top>.json`` holding at least
``{"top_module": "<sv module>", "files": ["a.sv", ...]}`` (names relative to the
directory, dependency order, top module last).

``generate(top, params)`` runs ``java -jar gen/target/sue-gen.jar TOP -p k=v ...
--out-dir out/verif/<top>/<key>`` where *key* hashes the top, the parameters
and the jar's content. A directory that already holds the report is reused, so
a test matrix generates each configuration once per jar build, and a new jar
(new Java code) never serves stale SV.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import subprocess
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Mapping

from filelock import FileLock, Timeout

from . import paths

_TOP_NAME = re.compile(r"^[A-Za-z0-9_.-]+$")

# JVM options of the test generations. A generation runs for seconds, mostly in the JIT compilers:
# C1 alone (no C2) halves its CPU time and the SV is the same. Measured 2026-11 (CPU s, user+sys):
# stream_fifo 1.25 -> 0.83; sue_endpoint 256 bits x 4 XPUs 4.2 -> 2.2, 512 x 1024 (default) 5.3 ->
# 2.6, 1024 x 1024 6.6 -> 4.3. The suite generates a few hundred designs per clean run.
JVM_OPTIONS = ("-XX:TieredStopAtLevel=1",)

# Class data sharing for the generator's own classes (AppCDS, JDK 13+): the first generation of a
# jar writes the classes it loaded, parsed and verified to a dynamic archive (-XX:ArchiveClassesAtExit),
# every later one maps it (-XX:SharedArchiveFile). Measured 2026-11 (CPU s, user+sys, JDK 17, C1):
# stream_fifo 0.80 -> 0.55, crc_engine 0.96 -> 0.69, sue_endpoint 256 bits x 4 XPUs 2.27 -> 1.90,
# the same SV; a clean test-sim generates about 350 designs. A JVM that cannot use the archive (another
# JDK) warns and runs without it. Keyed by the jar's content and mtime, next to the designs.
def _cds_options(jar: Path, jar_sha: str) -> tuple[tuple[str, ...], Callable[[], None]]:
    """(JVM options, what to call after the run): map the jar's archive, or write it when there is
    none yet and no other worker is writing it (the call then gives the archive its name)."""
    # the JVM refuses an archive of the same jar with another mtime (a rebuild): both in the name
    archive = paths.VERIF_OUT / f"cds-{jar_sha[:16]}-{jar.stat().st_mtime_ns}.jsa"
    use = (f"-XX:SharedArchiveFile={archive}",)
    if archive.is_file():
        return use, _nothing
    lock = FileLock(str(archive) + ".lock")
    try:
        lock.acquire(timeout=0)
    except Timeout:
        return (), _nothing  # another worker writes it: this generation runs without
    if archive.is_file():
        lock.release()
        return use, _nothing
    tmp = archive.with_name(f"{archive.name}.{os.getpid()}.tmp")

    def done() -> None:
        try:
            if tmp.is_file():
                tmp.replace(archive)
        finally:
            lock.release()

    return (f"-XX:ArchiveClassesAtExit={tmp}",), done


def _nothing() -> None:
    pass


class GeneratorError(RuntimeError):
    """The generator failed or wrote something the harness cannot use."""


@dataclass(frozen=True)
class GeneratedDesign:
    dir: Path
    top_module: str
    files: tuple[Path, ...]  # absolute, dependency order, top module last
    report: dict[str, Any] = field(repr=False, compare=False)
    # Modules Verilator compiles once, as a library of their own, however often they are instantiated
    # (hierarchical Verilation, common.sim): the pair wrapper names its endpoint.
    hier_blocks: tuple[str, ...] = ()

    @classmethod
    def from_dir(cls, d: Path | str, name: str | None = None) -> "GeneratedDesign":
        """Load a design from its directory.

        *name* selects ``<name>.json``; without it the directory must hold
        exactly one JSON report with a ``top_module``.
        """
        d = Path(d).resolve()
        if name is not None and (d / f"{name}.json").is_file():
            candidates = [d / f"{name}.json"]
        else:
            candidates = sorted(d.glob("*.json"))
        reports = []
        for p in candidates:
            try:
                data = json.loads(p.read_text())
            except ValueError as e:
                raise GeneratorError(f"{p}: invalid JSON: {e}") from e
            if isinstance(data, dict) and "top_module" in data:
                reports.append((p, data))
        if len(reports) != 1:
            raise GeneratorError(
                f"{d}: expected one <top>.json report with top_module, found {[p.name for p, _ in reports]}"
            )
        path, report = reports[0]
        files = report.get("files")
        if not isinstance(files, list) or not files:
            raise GeneratorError(f"{path}: 'files' must be a non-empty list")
        abs_files = tuple((d / f).resolve() for f in files)
        missing = [str(f) for f in abs_files if not f.is_file()]
        if missing:
            raise GeneratorError(f"{path}: listed files do not exist: {missing}")
        return cls(dir=d, top_module=str(report["top_module"]), files=abs_files, report=report)


def format_param(value: Any) -> str:
    """Render a Python value as the generator's ``-p key=value`` text."""
    if isinstance(value, bool):  # before int: bool is an int subclass
        return "true" if value else "false"
    return str(value)


_jar_sha_cache: dict[tuple[str, int, int], str] = {}


def jar_sha256(jar: Path = paths.JAR) -> str:
    """Content hash of the jar, memoised on (path, mtime, size)."""
    st = jar.stat()
    k = (str(jar), st.st_mtime_ns, st.st_size)
    if k not in _jar_sha_cache:
        _jar_sha_cache[k] = hashlib.sha256(jar.read_bytes()).hexdigest()
    return _jar_sha_cache[k]


def design_key(top: str, params: Mapping[str, str], jar_sha: str) -> str:
    blob = json.dumps([top, sorted(params.items()), jar_sha], separators=(",", ":"))
    return hashlib.sha256(blob.encode()).hexdigest()[:16]


def generate(top: str, params: Mapping[str, Any] | None = None, *, timeout: float = 600) -> GeneratedDesign:
    """Generate *top* with *params* (cached) and return the design.

    Safe under pytest-xdist: a file lock per output directory makes concurrent
    workers wait for one generation instead of racing on the same files.
    """
    if not _TOP_NAME.match(top):
        raise ValueError(f"invalid top name {top!r}")
    jar = paths.JAR
    if not jar.is_file():
        raise GeneratorError(f"generator jar {jar} not found: run `make jar` first")
    sparams = {str(k): format_param(v) for k, v in (params or {}).items()}
    jar_sha = jar_sha256(jar)
    key = design_key(top, sparams, jar_sha)
    dest = paths.VERIF_OUT / top / key
    dest.parent.mkdir(parents=True, exist_ok=True)

    with FileLock(str(dest) + ".lock"):
        if not (dest / f"{top}.json").is_file():
            # Generate into a scratch dir and rename, so a crash or a Ctrl-C
            # never leaves a half-written design that looks like a cache hit.
            tmp = dest.with_name(key + ".tmp")
            shutil.rmtree(tmp, ignore_errors=True)
            cds, cds_done = _cds_options(jar, jar_sha)
            cmd = ["java", *JVM_OPTIONS, *cds, "-jar", str(jar), top]
            for k, v in sorted(sparams.items()):
                cmd += ["-p", f"{k}={v}"]
            cmd += ["--out-dir", str(tmp)]
            try:
                proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
            except subprocess.TimeoutExpired as e:
                raise GeneratorError(f"generator timed out after {timeout} s: {' '.join(cmd)}") from e
            finally:
                cds_done()
            if proc.returncode != 0 or not (tmp / f"{top}.json").is_file():
                why = f"exit code {proc.returncode}" if proc.returncode else f"no {top}.json written"
                raise GeneratorError(
                    f"generator failed ({why}): {' '.join(cmd)}\n"
                    f"--- stdout ---\n{proc.stdout}\n--- stderr ---\n{proc.stderr}"
                )
            (tmp / "generate.cmd").write_text(" ".join(cmd) + "\n")
            shutil.rmtree(dest, ignore_errors=True)
            tmp.rename(dest)
    return GeneratedDesign.from_dir(dest, top)
