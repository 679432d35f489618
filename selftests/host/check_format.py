#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
#
# check_format.py KIND FILE [ARGS]: parse a report with a real parser and
# check the rules of its format; exit 0 when it holds, else print why.
#   csv FILE COLUMN... : RFC 4180 via Python's csv; a header and >= 1 row;
#                        the named columns exist and are numbers in every row
#   prom FILE          : the Prometheus text format via prometheus_client's
#                        parser, plus: names are tscprobe_*, every family
#                        has one HELP and one TYPE, no series twice, and
#                        the naming conventions: snake_case, base units,
#                        _total on counters and only there
#   svg FILE PNG       : well-formed XML with an <svg> root, no scripts or
#                        external references; rendered by headless Chromium
#                        to PNG, which must not be blank
import csv
import os
import re
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET


def fail(why):
    print(why)
    sys.exit(1)


def check_csv(path, columns):
    with open(path, newline="") as f:
        rows = list(csv.reader(f, strict=True))
    if len(rows) < 2:
        fail(f"{len(rows)} rows: no data")
    header = rows[0]
    for r in rows[1:]:
        if len(r) != len(header):
            fail(f"row of {len(r)} fields under a header of {len(header)}")
    for col in columns:
        if col not in header:
            fail(f"no column {col}")
        i = header.index(col)
        for r in rows[1:]:
            try:
                float(r[i])
            except ValueError:
                fail(f"{col} = {r[i]!r} is not a number")


# Units that are not Prometheus base units (seconds, bytes, ratio, hertz...)
# as words of a metric name: the name should say the base unit instead.
NOT_BASE_UNITS = {"khz", "mhz", "ghz", "ns", "us", "ms", "nanoseconds",
                  "microseconds", "milliseconds", "minutes", "hours", "days",
                  "kb", "mb", "gb", "kib", "mib", "gib", "kilobytes",
                  "megabytes", "gigabytes", "percent"}


def check_prom_names(fam):
    """Prometheus naming conventions (what promtool's linter checks)."""
    if not re.fullmatch(r"[a-z_:][a-z0-9_:]*", fam.name):
        fail(f"{fam.name}: not snake_case")
    words = set(fam.name.split("_"))
    if words & NOT_BASE_UNITS:
        fail(f"{fam.name}: {', '.join(sorted(words & NOT_BASE_UNITS))} is not a base unit")
    for s in fam.samples:
        if fam.type == "counter" and not s.name.endswith(("_total", "_created")):
            fail(f"counter {s.name} does not end in _total")
        if fam.type != "counter" and s.name.endswith("_total"):
            fail(f"{fam.type} {s.name} ends in _total, kept for counters")
        for label in s.labels:
            if label.startswith("__") or not re.fullmatch(r"[a-zA-Z_][a-zA-Z0-9_]*", label):
                fail(f"{s.name}: bad label name {label}")


def check_prom(path):
    from prometheus_client.parser import text_string_to_metric_families
    text = open(path).read()
    helped, typed = set(), set()
    for line in text.splitlines():
        m = re.match(r"# (HELP|TYPE) (\S+) ", line)
        if m:
            seen_lines = helped if m.group(1) == "HELP" else typed
            if m.group(2) in seen_lines:
                fail(f"{m.group(2)}: a second {m.group(1)} line")
            seen_lines.add(m.group(2))
    seen = set()
    families = list(text_string_to_metric_families(text))
    if not families:
        fail("no metrics")
    for fam in families:
        if not fam.name.startswith("tscprobe_"):
            fail(f"{fam.name}: not a tscprobe_ metric")
        # The parser names a counter family without its _total suffix.
        names = {fam.name, fam.name + "_total"}
        if not names & helped or not names & typed:
            fail(f"{fam.name}: no HELP or TYPE line")
        check_prom_names(fam)
        for s in fam.samples:
            if not re.fullmatch(r"[a-zA-Z_:][a-zA-Z0-9_:]*", s.name):
                fail(f"bad metric name {s.name}")
            key = (s.name, tuple(sorted(s.labels.items())))
            if key in seen:
                fail(f"series twice: {key}")
            seen.add(key)
            if fam.type == "counter" and s.value < 0:
                fail(f"negative counter {key}")


def nonblank(png):
    from PIL import Image
    img = Image.open(png).convert("RGB")
    pixels = list(img.getdata())
    inked = sum(1 for p in pixels if p != (255, 255, 255))
    colours = len(set(pixels))
    if inked < len(pixels) // 100 or colours < 3:
        fail(f"blank rendering: {inked} of {len(pixels)} pixels inked, {colours} colours")


def check_svg(path, png):
    root = ET.parse(path).getroot()
    if root.tag != "{http://www.w3.org/2000/svg}svg":
        fail(f"root element is {root.tag}")
    for el in root.iter():
        tag = el.tag.split("}")[-1]
        if tag in ("script", "image", "foreignObject"):
            fail(f"not self-contained: <{tag}>")
        for k, v in el.attrib.items():
            if "href" in k:
                fail(f"external reference {k}={v}")
    w, h = int(float(root.get("width"))), int(float(root.get("height")))
    with tempfile.TemporaryDirectory() as profile:
        subprocess.run(
            ["chromium", "--headless", "--no-sandbox", "--disable-gpu",
             "--disable-quic", "--no-first-run",
             "--disable-background-networking", "--disable-component-update",
             "--disable-sync", f"--user-data-dir={profile}",
             "--hide-scrollbars", f"--window-size={w},{h}",
             f"--screenshot={png}", "file://" + os.path.abspath(path)],
            check=True, capture_output=True, timeout=120)
    nonblank(png)


def main():
    kind, path = sys.argv[1], sys.argv[2]
    if kind == "csv":
        check_csv(path, sys.argv[3:])
    elif kind == "prom":
        check_prom(path)
    elif kind == "svg":
        check_svg(path, sys.argv[3])
    else:
        fail(f"unknown kind {kind}")


if __name__ == "__main__":
    main()
