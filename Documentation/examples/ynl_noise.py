#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""A noise run through the kernel's ynl library, driven by tscprobe's spec.

Subscribes to the "events" multicast group, starts a noise run (START),
waits for its RUN_FINISHED notification, dumps the results (GET_RESULT)
and prints, per CPU, the p99.99 and the largest gap between two TSC reads,
in TSC cycles and in nanoseconds.  Nothing here knows tscprobe's message
layout beyond the attribute names of Documentation/netlink/specs/tscprobe.yaml:
ynl encodes and decodes every message from the spec.

usage: ynl_noise.py --ynl DIR [--spec FILE] [-c CPUS] [-d SECONDS]
                    [--threshold-us N] [--timeout SECONDS]

DIR is the kernel's tools/net/ynl (6.12: its lib/ package; newer kernels
keep it in pyynl/).  The spec is found next to this file by default.  Needs
CAP_NET_ADMIN (START is an admin command) and the module loaded.  Exit
status: 0 printed, 1 failed (the reason on stderr).
"""
import argparse
import os
import select
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
SPEC = os.path.join(HERE, "..", "netlink", "specs", "tscprobe.yaml")
# Nearest-rank percentile in parts per million, as the CLI computes it.
P9999_PPM = 999900


def import_ynl(path):
    """YnlFamily from the kernel's tools/net/ynl at @path."""
    for sub in ("", "pyynl"):
        if os.path.exists(os.path.join(path, sub, "lib", "ynl.py")):
            sys.path.insert(0, os.path.join(path, sub))
            from lib import YnlFamily  # noqa: E402 (found at run time)
            return YnlFamily
    sys.exit(f"ynl_noise: no ynl library (lib/ynl.py) under {path}")


def cpu_bitmap(cpus):
    """"0-1,3" as the spec's CPU bitmap, hex (ynl takes binary as hex)."""
    ids = set()
    for part in cpus.split(","):
        lo, _, hi = part.partition("-")
        ids.update(range(int(lo), int(hi or lo) + 1))
    bitmap = bytearray(max(ids) // 8 + 1)
    for cpu in ids:
        bitmap[cpu // 8] |= 1 << (cpu % 8)
    return bitmap.hex(), sorted(ids)


def wait_finished(ynl, run_id, timeout):
    """The RUN_FINISHED notification of @run_id, within @timeout seconds."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        select.select([ynl.sock], [], [], 0.5)
        ynl.check_ntf()
        for ntf in ynl.async_msg_queue:
            if ntf["name"] == "run-finished" and ntf["msg"].get("run-id") == run_id:
                return ntf["msg"]
        ynl.async_msg_queue.clear()     # the EVENT notifications of windows
    sys.exit(f"ynl_noise: no RUN_FINISHED for run {run_id} within {timeout} s")


def gap_series(messages):
    """Per CPU: the gap series' count, maximum and buckets, over every message.

    A CPU whose histogram does not fit one message continues in the next
    under the same id; the continuation repeats only the series id.
    """
    cpus = {}
    for msg in messages:
        for cpu in msg.get("cpu", []):
            for series in cpu.get("series", []):
                if series.get("id") != "gap":
                    continue
                s = cpus.setdefault(cpu["id"], {"count": 0, "maximum": 0, "buckets": []})
                s["count"] = series.get("count", s["count"])
                s["maximum"] = series.get("maximum", s["maximum"])
                s["buckets"] += series.get("bucket", [])
    return cpus


def bucket_bounds(index):
    """The smallest and largest value of histogram bucket @index (see the
    TSCPROBE_HIST_BUCKETS comment in include/uapi/linux/tscprobe.h)."""
    if index < 32:
        return index, index
    shift = index // 16 - 1
    m = index - 16 * shift
    return m << shift, ((m + 1) << shift) - 1


def percentile(buckets, ppm):
    """Nearest rank: the mean of the bucket holding rank ceil(ppm * n / 1e6)."""
    buckets = sorted(buckets, key=lambda b: b["index"])
    n = sum(b["calls"] for b in buckets)
    rank = max(1, (ppm * n + 999999) // 1000000)
    seen = 0
    for b in buckets:
        seen += b["calls"]
        if seen >= rank:
            lo, hi = bucket_bounds(b["index"])
            mean = (b["cycles"] + b["calls"] // 2) // b["calls"]
            return min(max(mean, lo), hi)
    return 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--ynl", required=True, help="the kernel's tools/net/ynl")
    ap.add_argument("--spec", default=SPEC)
    ap.add_argument("-c", "--cpus", default="0", help="CPU list, as 0-1,3")
    ap.add_argument("-d", "--duration", type=float, default=1.0, help="seconds")
    ap.add_argument("--threshold-us", type=int, default=10)
    ap.add_argument("--timeout", type=float, default=60, help="seconds to wait for the end")
    args = ap.parse_args()

    YnlFamily = import_ynl(args.ynl)
    # Two sockets: one subscribed that only listens, one for requests.
    # 6.12's library fails when a notification arrives on a socket before
    # the answer to its request (AttributeError in YnlFamily._ops), and a
    # noise run sends EVENT notifications from its first window on.
    listener = YnlFamily(args.spec)
    ynl = YnlFamily(args.spec)
    # Subscribe first: a run shorter than the time START takes to answer
    # must not end unseen.
    listener.ntf_subscribe("events")
    bitmap, cpus = cpu_bitmap(args.cpus)
    started = ynl.do("start", {"kind": "noise", "cpus": bitmap,
                               "duration-ns": int(args.duration * 1e9),
                               "threshold-ns": args.threshold_us * 1000})
    run_id = started["run-id"]
    khz = started.get("tsc-khz", 0)
    finished = wait_finished(listener, run_id, args.timeout + args.duration)
    series = gap_series(ynl.dump("get-result", {"run-id": run_id}))

    print(f"run {run_id}: noise on CPUs {args.cpus} for {args.duration:g} s, "
          f"{finished['state']} ({finished['stop-reason']}), TSC {khz} kHz")
    print(f"{'cpu':>4} {'samples':>12} {'p99.99 cycles':>14} {'max cycles':>12} "
          f"{'p99.99 ns':>11} {'max ns':>11}")
    for cpu in cpus:
        s = series.get(cpu)
        if not s or not s["count"]:
            sys.exit(f"ynl_noise: no gap series for CPU {cpu}")
        p = percentile(s["buckets"], P9999_PPM)
        mx = s["maximum"]
        ns = (lambda c: f"{c * 1e6 / khz:11.0f}") if khz else (lambda c: f"{'?':>11}")
        print(f"{cpu:>4} {s['count']:>12} {p:>14} {mx:>12} {ns(p)} {ns(mx)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
