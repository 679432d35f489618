#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
#
# The netlink spec (Documentation/netlink/specs/tscprobe.yaml) and the
# contract (include/uapi/linux/tscprobe.h) must say the same thing: every
# command, attribute, enum value, flag and constant of one is in the other
# with the same value.  The C names are derived from the spec the way the
# kernel's ynl tooling derives them.  Prints kselftest-style TAP.
import os
import re
import sys

import yaml

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SPEC = os.path.join(REPO, "Documentation/netlink/specs/tscprobe.yaml")
HEADER = os.path.join(REPO, "include/uapi/linux/tscprobe.h")


def c_name(prefix, name):
    """"tscprobe-a-" + "run-id" -> "TSCPROBE_A_RUN_ID"."""
    return (prefix + name).replace("-", "_").upper()


def header_values():
    """Every enum constant and numeric #define of the header, by name."""
    text = open(HEADER).read()
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    values = {}
    macros = set(re.findall(r"#define\s+(TSCPROBE_\w+)", text))
    shadowed = []
    for body in re.findall(r"enum\s+\w+\s*\{(.*?)\};", text, flags=re.S):
        nxt = 0
        for item in body.split(","):
            item = item.strip()
            if not item:
                continue
            name, _, val = item.partition("=")
            name = name.strip()
            if name in macros:
                shadowed.append(name)
            nxt = int(val.strip(), 0) if val.strip() else nxt
            values[name] = nxt
            nxt += 1
    for m in re.finditer(r"#define\s+(TSCPROBE_\w+)\s+\(?\s*(\d+)U?L{0,2}(?:\s*<<\s*(\d+))?\s*\)?\s*$", text, flags=re.M):
        v = int(m.group(2))
        if m.group(3):
            v <<= int(m.group(3))
        values[m.group(1)] = v
    return values, shadowed


def spec_values(spec):
    """(C name, value, where) for everything the spec defines."""
    fam = spec["name"]
    out = []
    for d in spec["definitions"]:
        if d["type"] == "const":
            out.append((c_name(fam + "-", d["name"]), d["value"], "const"))
            continue
        prefix = d.get("name-prefix", f"{fam}-{d['name']}-")
        for i, e in enumerate(d["entries"]):
            v = 1 << i if d["type"] == "flags" else i
            out.append((c_name(prefix, e), v, f"{d['type']} {d['name']}"))
    for s in spec["attribute-sets"]:
        v = 1
        for a in s["attributes"]:
            v = a.get("value", v)
            out.append((c_name(s["name-prefix"], a["name"]), v, f"set {s['name']}"))
            v += 1
    ops = spec["operations"]
    v = 1
    for o in ops["list"]:
        v = o.get("value", v)
        out.append((c_name(ops["name-prefix"], o["name"]), v, "operation"))
        v += 1
    return out


def main():
    spec = yaml.safe_load(open(SPEC))
    values, shadowed = header_values()
    # One test per area of the spec (a definition, an attribute set, the
    # operations), failing with every mismatch listed.
    areas = {}
    for name, v, where in spec_values(spec):
        bad = areas.setdefault(where, [])
        if values.get(name) != v:
            bad.append(f"{name} = {v} in the spec, {values.get(name)} in the header")
    # And the other way: every name of the header's enumerations of
    # commands, attributes and values is in the spec.
    in_spec = {n for n, _, _ in spec_values(spec)}
    # A #define of an enum member's name silently replaces it in C.
    areas["no enum member is shadowed by a macro"] = [
        f"{n} is both an enum member and a #define" for n in shadowed]
    missing = areas.setdefault("header names missing from the spec", [])
    for n in sorted(values):
        if n.startswith("__") or n.endswith("_MAX") or n.endswith("_UNSPEC"):
            continue
        if n.startswith(HEADER_ENUM_PREFIXES) and n not in in_spec:
            missing.append(n)

    print("TAP version 13")
    print(f"1..{len(areas)}")
    failed = 0
    for i, (area, bad) in enumerate(areas.items(), 1):
        for b in bad:
            print(f"# {b}")
        print(f"{'not ok' if bad else 'ok'} {i} {area}")
        failed += bool(bad)
    print(f"# Totals: pass:{len(areas) - failed} fail:{failed} xfail:0 xpass:0 skip:0 error:0")
    return 1 if failed else 0


HEADER_ENUM_PREFIXES = (
    "TSCPROBE_CMD_", "TSCPROBE_A_", "TSCPROBE_CPU_A_", "TSCPROBE_SERIES_A_",
    "TSCPROBE_BUCKET_A_", "TSCPROBE_WINDOW_A_", "TSCPROBE_EVENT_A_",
    "TSCPROBE_LEVEL_A_", "TSCPROBE_PAIR_A_", "TSCPROBE_STAT_A_",
    "TSCPROBE_KIND_", "TSCPROBE_STATE_", "TSCPROBE_STOP_", "TSCPROBE_CLOCK_",
    "TSCPROBE_IRQS_", "TSCPROBE_SERIES_", "TSCPROBE_REL_", "TSCPROBE_PAIR_",
    "TSCPROBE_FEAT_", "TSCPROBE_CPU_F_",
    "TSCPROBE_CAUSE_", "TSCPROBE_TSC_",
)


if __name__ == "__main__":
    sys.exit(main())
