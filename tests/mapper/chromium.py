"""A minimal headless Chromium driver for the viz.html browser test: Debian's
`chromium` (tools/bootstrap-apt.sh installs it) spoken to over the DevTools
protocol on --remote-debugging-pipe (fd 3 in, fd 4 out, NUL-terminated JSON),
so no websocket library, npm package or browser download is needed.

    with Chromium() as browser:
        page = browser.open(Path("x.viz.html"), width=1400, height=900)
        page.evaluate("document.title"); page.screenshot(); page.problems()
"""

from __future__ import annotations

import base64
import fcntl
import json
import os
import select
import shutil
import struct
import subprocess
import tempfile
import time
import zlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

CHROMIUM = "/usr/bin/chromium"
FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--disable-dev-shm-usage", "--remote-debugging-pipe")
TIMEOUT = 60.0


def unavailable() -> str | None:
    """Why the browser test cannot run here, or None. Chromium missing while
    apt offers it is a broken bootstrap, not a reason to skip."""
    if Path(CHROMIUM).exists():
        return None
    policy = subprocess.run(["apt-cache", "policy", "chromium"], capture_output=True,
                            text=True, check=False) if shutil.which("apt-cache") else None
    if policy is not None and "Candidate: (none)" not in policy.stdout and \
            "Candidate:" in policy.stdout:
        raise AssertionError("chromium is offered by apt but not installed: run make setup "
                             "(tools/bootstrap-apt.sh installs it)")
    return "chromium cannot be installed here (apt offers no chromium package)"


class ProtocolError(RuntimeError):
    pass


@dataclass
class Chromium:
    """One headless browser process with a fresh profile."""

    proc: subprocess.Popen[bytes] | None = None
    events: list[dict[str, Any]] = field(default_factory=list)
    _to: int = -1
    _from: int = -1
    _buf: bytes = b""
    _next_id: int = 0
    _profile: tempfile.TemporaryDirectory[str] | None = None

    def __enter__(self) -> Chromium:
        self._profile = tempfile.TemporaryDirectory(prefix="loom-chromium-")
        cmd_r, cmd_w = os.pipe()   # commands: we write, chromium reads fd 3
        out_r, out_w = os.pipe()   # answers: chromium writes fd 4, we read
        # the child's ends above 9, so that moving them onto 3 and 4 clobbers neither
        child = [fcntl.fcntl(fd, fcntl.F_DUPFD_CLOEXEC, 10) for fd in (cmd_r, out_w)]
        for fd in (cmd_r, out_w):
            os.close(fd)
        a, b = child
        self.proc = subprocess.Popen(  # noqa: S603 (a fixed command)
            ["bash", "-c", f'exec "$@" 3<&{a} 4>&{b} {a}<&- {b}>&-', "chromium", CHROMIUM,
             *FLAGS, f"--user-data-dir={self._profile.name}", "about:blank"],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            pass_fds=child)
        for fd in child:
            os.close(fd)
        self._to, self._from = cmd_w, out_r
        return self

    def __exit__(self, *exc: object) -> None:
        try:
            if self.proc is not None and self.proc.poll() is None:
                self.send("Browser.close")
        except (ProtocolError, OSError):
            pass
        if self.proc is not None:
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        for fd in (self._to, self._from):
            os.close(fd)
        if self._profile is not None:
            self._profile.cleanup()

    # --- the protocol ---------------------------------------------------------------------

    def _read_message(self, deadline: float) -> dict[str, Any]:
        while b"\0" not in self._buf:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([self._from], [], [], left)[0]:
                raise ProtocolError("chromium did not answer in time")
            chunk = os.read(self._from, 1 << 20)
            if not chunk:
                raise ProtocolError("chromium closed its DevTools pipe")
            self._buf += chunk
        raw, self._buf = self._buf.split(b"\0", 1)
        return json.loads(raw)

    def send(self, method: str, params: dict[str, Any] | None = None,
             session: str | None = None) -> dict[str, Any]:
        self._next_id += 1
        msg: dict[str, Any] = {"id": self._next_id, "method": method, "params": params or {}}
        if session is not None:
            msg["sessionId"] = session
        os.write(self._to, json.dumps(msg).encode() + b"\0")
        deadline = time.monotonic() + TIMEOUT
        while True:
            answer = self._read_message(deadline)
            if answer.get("id") != self._next_id:
                self.events.append(answer)
                continue
            if "error" in answer:
                raise ProtocolError(f"{method}: {answer['error']}")
            return answer.get("result", {})

    def wait_event(self, method: str, session: str) -> dict[str, Any]:
        deadline = time.monotonic() + TIMEOUT
        for e in self.events:
            if e.get("method") == method and e.get("sessionId") == session:
                return e
        while True:
            e = self._read_message(deadline)
            self.events.append(e)
            if e.get("method") == method and e.get("sessionId") == session:
                return e

    def open(self, html: Path, width: int, height: int) -> Page:
        target = self.send("Target.createTarget", {"url": "about:blank"})["targetId"]
        session = self.send("Target.attachToTarget",
                            {"targetId": target, "flatten": True})["sessionId"]
        page = Page(self, session)
        for domain in ("Page", "Runtime", "Log", "Network"):
            self.send(f"{domain}.enable", session=session)
        self.send("Emulation.setDeviceMetricsOverride",
                  {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False},
                  session=session)
        self.send("Page.navigate", {"url": html.resolve().as_uri()}, session=session)
        self.wait_event("Page.loadEventFired", session)
        return page


@dataclass
class Page:
    browser: Chromium
    session: str

    def evaluate(self, expression: str) -> Any:
        result = self.browser.send("Runtime.evaluate", {"expression": expression,
                                                        "returnByValue": True},
                                   session=self.session)
        if "exceptionDetails" in result:
            raise ProtocolError(f"{expression}: {result['exceptionDetails']}")
        return result["result"].get("value")

    def screenshot(self, clip: dict[str, float] | None = None) -> bytes:
        params: dict[str, Any] = {"format": "png"}
        if clip is not None:
            params["clip"] = {**clip, "scale": 1}
        data = self.browser.send("Page.captureScreenshot", params, session=self.session)["data"]
        return base64.b64decode(data)

    def click(self, x: float, y: float) -> None:
        """A left click at viewport (x, y), as a user's."""
        for kind in ("mousePressed", "mouseReleased"):
            self.browser.send("Input.dispatchMouseEvent", {"type": kind, "x": x, "y": y,
                                                           "button": "left", "clickCount": 1},
                              session=self.session)

    def _mine(self) -> list[dict[str, Any]]:
        return [e for e in self.browser.events if e.get("sessionId") == self.session]

    def problems(self) -> list[str]:
        """Console errors and warnings, uncaught exceptions, failed loads."""
        out = []
        for e in self._mine():
            p = e.get("params", {})
            if e["method"] == "Runtime.exceptionThrown":
                d = p["exceptionDetails"]
                out.append(f"exception: {d.get('exception', {}).get('description', d.get('text'))}")
            elif e["method"] == "Runtime.consoleAPICalled" and p["type"] in ("error", "warning",
                                                                             "assert"):
                out.append(f"console.{p['type']}: {[a.get('value') for a in p['args']]}")
            elif e["method"] == "Log.entryAdded" and p["entry"]["level"] in ("error", "warning"):
                out.append(f"log {p['entry']['level']}: {p['entry']['text']}")
            elif e["method"] == "Network.loadingFailed":
                out.append(f"load failed: {p.get('errorText')}")
        return out

    def requests(self) -> list[str]:
        """Every URL the page asked for."""
        return [e["params"]["request"]["url"] for e in self._mine()
                if e["method"] == "Network.requestWillBeSent"]


# --- PNG ------------------------------------------------------------------------------------


def png_pixels(data: bytes) -> list[tuple[int, int, int]]:
    """The RGB pixels of an 8-bit, non-interlaced RGB or RGBA PNG (what
    Chromium's captureScreenshot writes), row by row."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, idat, header = 8, b"", None
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    assert header is not None
    width, height, depth, color, _, _, interlace = header
    assert depth == 8 and color in (2, 6) and interlace == 0, header
    bpp = 3 if color == 2 else 4
    raw = zlib.decompress(idat)
    stride = width * bpp
    prev = bytearray(stride)
    pixels = []
    for y in range(height):
        kind, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b = prev[i]
            c = prev[i - bpp] if i >= bpp else 0
            if kind == 1:
                line[i] = (line[i] + a) & 0xFF
            elif kind == 2:
                line[i] = (line[i] + b) & 0xFF
            elif kind == 3:
                line[i] = (line[i] + (a + b) // 2) & 0xFF
            elif kind == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 0xFF
        pixels += [tuple(line[i:i + 3]) for i in range(0, stride, bpp)]
        prev = line
    return pixels  # type: ignore[return-value]
