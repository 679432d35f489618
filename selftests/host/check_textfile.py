#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
#
# check_textfile.py FILE KIND ENGINE CPU...: the file tscprobe-textfile
# wrote for node_exporter, parsed with prometheus_client: the run's labels
# on tscprobe_run_info (this machine's kernel release and host name, the
# tscprobe version), the families of KIND with their types, a series for
# every CPU asked for, and figures that can be (quantiles in order, a
# coverage in (0, 1], counts > 0).  Exit 0 when it holds, else print why.
import os
import socket
import sys

from prometheus_client.parser import text_string_to_metric_families

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
RUN_LABELS = {"kind", "engine", "state", "stop_reason", "run_id", "kernel",
              "version", "host"}
KIND_FAMILIES = {
    "noise": {"tscprobe_noise_gap_cycles": "summary",
              "tscprobe_noise_coverage_ratio": "gauge",
              "tscprobe_noise_events": "counter",
              "tscprobe_noise_threshold_cycles": "gauge"},
    "cache": {"tscprobe_cache_cycles": "gauge",
              "tscprobe_cache_rounds": "counter"},
    "skew": {"tscprobe_skew_pair_ok": "gauge",
             "tscprobe_skew_one_way_cycles": "gauge",
             "tscprobe_skew_in_sync": "gauge"},
}

# The families with a series (or several) for every CPU measured.
PER_CPU = {
    "noise": ("tscprobe_noise_gap_cycles", "tscprobe_noise_coverage_ratio",
              "tscprobe_noise_events"),
    "cache": ("tscprobe_cache_cycles", "tscprobe_cache_rounds"),
}


def fail(why):
    print(why)
    sys.exit(1)


def check_run(fams, kind, engine):
    info = fams.get("tscprobe_run_info")
    if not info or info.type != "gauge" or len(info.samples) != 1:
        fail("no single tscprobe_run_info gauge")
    s = info.samples[0]
    want = {"kind": kind, "engine": engine, "state": "done",
            "stop_reason": "completed", "kernel": os.uname().release,
            "version": open(os.path.join(REPO, "VERSION")).read().strip(),
            "host": socket.gethostname()}
    if set(s.labels) != RUN_LABELS:
        fail(f"tscprobe_run_info labels {sorted(s.labels)}, want {sorted(RUN_LABELS)}")
    for k, v in want.items():
        if s.labels[k] != v:
            fail(f"tscprobe_run_info {k}={s.labels[k]!r}, want {v!r}")
    if s.value != 1:
        fail(f"tscprobe_run_info is {s.value}, not 1")
    for name, low in (("tscprobe_run_elapsed_seconds", 0), ("tscprobe_tsc_frequency_hertz", 1e8)):
        f = fams.get(name)
        if not f or f.type != "gauge" or not f.samples[0].value > low:
            fail(f"{name}: missing, not a gauge, or not above {low}")


def by_cpu(fam):
    out = {}
    for s in fam.samples:
        out.setdefault(s.labels.get("cpu"), []).append(s)
    return out


def check_noise(fams, cpus):
    gaps = by_cpu(fams["tscprobe_noise_gap_cycles"])
    for cpu in cpus:
        q = sorted((float(s.labels["quantile"]), s.value) for s in gaps.get(cpu, [])
                   if "quantile" in s.labels)
        if [x for x, _ in q] != [0, 0.5, 0.99, 0.999, 0.9999, 1]:
            fail(f"cpu {cpu}: quantiles {q}")
        if any(b[1] < a[1] for a, b in zip(q, q[1:])) or q[0][1] <= 0:
            fail(f"cpu {cpu}: quantiles out of order or zero: {q}")
        count = [s.value for s in gaps[cpu] if s.name.endswith("_count")]
        if count != [count[0]] or count[0] <= 0:
            fail(f"cpu {cpu}: gap count {count}")
    for s in fams["tscprobe_noise_coverage_ratio"].samples:
        if not 0 < s.value <= 1:
            fail(f"coverage {s.value} of cpu {s.labels['cpu']}")


def main():
    path, kind, engine, cpus = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
    fams = {f.name: f for f in text_string_to_metric_families(open(path).read())}
    check_run(fams, kind, engine)
    for name, typ in KIND_FAMILIES[kind].items():
        if name not in fams or fams[name].type != typ:
            fail(f"{name}: missing or not a {typ}")
    for name in PER_CPU.get(kind, ()):
        got = set(by_cpu(fams[name]))
        if got != set(cpus):
            fail(f"{name}: CPUs {sorted(got)}, want {cpus}")
    if kind == "skew":
        pairs = {(s.labels["from"], s.labels["to"]) for s in fams["tscprobe_skew_pair_ok"].samples}
        want = {(a, b) for a in cpus for b in cpus if a != b}
        if pairs != want:
            fail(f"skew pairs {sorted(pairs)}, want {sorted(want)}")
    if kind == "noise":
        check_noise(fams, cpus)


if __name__ == "__main__":
    main()
