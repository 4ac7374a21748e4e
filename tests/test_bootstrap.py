"""tools/bootstrap-apt.sh decides the LLVM version from apt's answer (issue 9, class 1).

A fake apt-cache stands in for apt; its answer is long, like the real one, so a
pipeline that stops reading early (`| grep -q` under pipefail) would fail.
"""

from __future__ import annotations

import os
import stat
import subprocess
from pathlib import Path

SCRIPT = Path(__file__).resolve().parents[1] / "tools" / "bootstrap-apt.sh"


def _fake_apt_cache(tmp_path: Path, offered: set[str]) -> Path:
    fake = tmp_path / "apt-cache"
    lines = ["case \"$2\" in"]
    for pkg in sorted(offered):
        lines.append(f"  {pkg}) echo \"$2:\"; echo '  Installed: (none)'; "
                     "echo '  Candidate: 1:22.1.8-1~deb12u1'; "
                     "for i in $(seq 1 20000); do echo \"     1:22.1.$i 500\"; done;;")
    lines.append("  *) echo \"$2:\"; echo '  Installed: (none)'; echo '  Candidate: (none)';;")
    lines.append("esac")
    fake.write_text("#!/usr/bin/env bash\n" + "\n".join(lines) + "\n")
    fake.chmod(fake.stat().st_mode | stat.S_IEXEC)
    return fake


def _fake_dpkg_query(tmp_path: Path, installed: set[str]) -> Path:
    fake = tmp_path / "dpkg-query"
    names = " ".join(sorted(installed))
    fake.write_text("#!/usr/bin/env bash\n"
                    f'for p in {names}; do [ "$p" = "$3" ] && '
                    "{ printf 'install ok installed'; exit 0; }; done; exit 1\n")
    fake.chmod(fake.stat().st_mode | stat.S_IEXEC)
    return fake


def _decide(tmp_path: Path, offered: set[str], installed: set[str] = frozenset(),
            **env: str) -> subprocess.CompletedProcess:
    full = {k: v for k, v in os.environ.items() if k != "LOOM_LLVM"}
    full.update(APT_CACHE=str(_fake_apt_cache(tmp_path, offered)),
                DPKG_QUERY=str(_fake_dpkg_query(tmp_path, set(installed))), **env)
    return subprocess.run(["bash", str(SCRIPT), "--decide"], capture_output=True,
                          text=True, env=full, check=False)


def test_clang_22_offered_means_22(tmp_path):
    proc = _decide(tmp_path, {"clang-22", "mlir-22-tools"})
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "22"
    assert "LLVM 22" in proc.stderr


def test_a_machine_with_19_moves_to_22_when_offered(tmp_path):
    proc = _decide(tmp_path, {"clang-22", "mlir-22-tools"},
                   installed={"clang-19", "mlir-19-tools"})
    assert proc.stdout.strip() == "22"


def test_an_installed_22_is_kept_without_package_lists(tmp_path):
    proc = _decide(tmp_path, set(), installed={"clang-22", "mlir-22-tools"})
    assert proc.stdout.strip() == "22"


def test_nothing_offered_falls_back_to_19(tmp_path):
    proc = _decide(tmp_path, set())
    assert proc.stdout.strip() == "19"
    assert "falling back to LLVM 19" in proc.stderr


def test_loom_llvm_forces_a_version(tmp_path):
    proc = _decide(tmp_path, {"clang-22", "mlir-22-tools"}, LOOM_LLVM="19")
    assert proc.stdout.strip() == "19"
    assert "LOOM_LLVM=19 forces LLVM 19" in proc.stderr


def test_a_bad_forced_version_is_refused(tmp_path):
    proc = _decide(tmp_path, {"clang-22"}, LOOM_LLVM="7")
    assert proc.returncode == 2
    assert "LOOM_LLVM=7 is not 22 or 19" in proc.stderr


def _missing(tmp_path: Path, installed: set[str],
             offered: frozenset[str] = frozenset({"clang-22", "mlir-22-tools", "chromium"})
             ) -> subprocess.CompletedProcess:
    full = {k: v for k, v in os.environ.items() if k != "LOOM_LLVM"}
    full.update(APT_CACHE=str(_fake_apt_cache(tmp_path, set(offered))),
                DPKG_QUERY=str(_fake_dpkg_query(tmp_path, installed)))
    proc = subprocess.run(["bash", str(SCRIPT), "--missing"], capture_output=True, text=True,
                          env=full, check=False)
    assert proc.returncode == 0, proc.stderr
    return proc


BASE = {"build-essential", "libpython3.11", "liblz4-dev", "zlib1g-dev", "ccache",
        "clang-22", "mlir-22-tools"}


def test_chromium_is_installed_for_the_viz_html_browser_test(tmp_path):
    # tests/mapper/test_viz_html.py renders viz.html in Debian's chromium
    assert _missing(tmp_path, BASE).stdout.split() == ["chromium"]
    assert _missing(tmp_path, BASE | {"chromium"}).stdout.split() == []


def test_chromium_not_offered_is_left_out_saying_so(tmp_path):
    proc = _missing(tmp_path, BASE, offered=frozenset({"clang-22", "mlir-22-tools"}))
    assert proc.stdout.split() == []
    assert "chromium is not offered by apt; the tests that need it will skip" in proc.stderr
