#!/usr/bin/env python3
"""The command line's progress line as a user sees it: the release binary in tmux (100x3),
`rxw find --count` over four logs (two gzipped) typed at a shell prompt, the pane captured
while the count runs, then drawn as `docs/src/screenshots/progress.svg` (and `.png` when
`rsvg-convert` is installed), in the same cells and colours as the workbench's screenshots.

    python3 benches/progress_shot.py target/release/rxw

The logs are made here (a `gen_log.py --lifecycles` base repeated to 150 MB each) in a
temporary directory and deleted at the end. Only the standard library.
"""
import argparse
import gzip
import os
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from paged_tmux import base_log, grow  # noqa: E402

CELL_W, CELL_H = 8.4, 17.0
FG, BG = "#d0d0d0", "#1c1c1c"


def tmux(*args):
    return subprocess.run(["tmux", "-L", "rxw-progress-shot", *args], capture_output=True,
                          text=True).stdout


def svg(lines, width, height):
    w, h = width * CELL_W, height * CELL_H
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w:.0f}" height="{h:.0f}" '
           f'viewBox="0 0 {w:.1f} {h:.1f}">',
           f'<rect width="100%" height="100%" fill="{BG}"/>',
           '<g font-family="DejaVu Sans Mono, Menlo, Consolas, monospace" font-size="14" '
           'xml:space="preserve">']
    for y, line in enumerate(lines[:height]):
        for x, ch in enumerate(line[:width]):
            if ch.strip():
                esc = ch.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
                out.append(f'<text x="{x * CELL_W:.1f}" y="{y * CELL_H + CELL_H * 0.78:.1f}" '
                           f'fill="{FG}">{esc}</text>')
    out.append("</g></svg>\n")
    return "\n".join(out)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("binary")
    ap.add_argument("--out", default=os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                                  "..", "docs", "src", "screenshots"))
    args = ap.parse_args()
    binary = os.path.abspath(args.binary)
    work = tempfile.mkdtemp(prefix="rxw-progress-shot-")
    try:
        base = os.path.join(work, "base.log")
        base_log(base, 30_000_000, 5)
        logs = os.path.join(work, "logs")
        os.mkdir(logs)
        for k in range(4):
            path = os.path.join(logs, f"agent-{k}.log")
            grow(base, path, 150_000_000)
            if k < 2:
                with open(path, "rb") as f, gzip.open(path + ".gz", "wb", compresslevel=1) as g:
                    shutil.copyfileobj(f, g)
                os.remove(path)
        width, height = 100, 3
        tmux("kill-server")
        tmux("-f", "/dev/null", "new-session", "-d", "-s", "p", "-x", str(width), "-y",
             str(height), "-c", work, "env PS1='$ ' bash --norc --noprofile")
        time.sleep(0.3)
        tmux("send-keys", "-t", "p", "-l",
             f"PATH={os.path.dirname(binary)}:$PATH; clear")
        tmux("send-keys", "-t", "p", "Enter")
        time.sleep(0.3)
        tmux("send-keys", "-t", "p", "-l", r"rxw find --count --file logs/ '\[RESULT \w+\] FAIL'")
        tmux("send-keys", "-t", "p", "Enter")
        # Once the line has shown a rate (after its first 200 ms), while the count runs.
        deadline = time.monotonic() + 60
        screen = ""
        while time.monotonic() < deadline:
            screen = tmux("capture-pane", "-p", "-t", "p")
            if "MB/s" in screen and "%" in screen:
                time.sleep(0.4)
                screen = tmux("capture-pane", "-p", "-t", "p")
                break
            time.sleep(0.05)
        tmux("kill-server")
        lines = screen.splitlines()
        print("\n".join(lines))
        if "MB/s" not in screen:
            sys.exit("no progress line was seen")
        os.makedirs(args.out, exist_ok=True)
        svg_path = os.path.join(args.out, "progress.svg")
        with open(svg_path, "w") as f:
            f.write(svg(lines, width, height))
        if shutil.which("rsvg-convert"):
            subprocess.run(["rsvg-convert", "-o", svg_path[:-4] + ".png", svg_path], check=True)
        print(f"written {svg_path}")
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
