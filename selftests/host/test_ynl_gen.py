#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
#
# The kernel's ynl tooling on the netlink spec: the spec is valid against
# the genetlink-legacy schema; ynl-gen-c finishes in uapi and user mode;
# the uapi header it generates says what include/uapi/linux/tscprobe.h says
# (every command, attribute and enum value, compiled by the C compiler and
# compared by value, and the same enum types); the user-mode code compiles;
# in kernel mode it writes kmod/netlink_gen.c and netlink_gen.h, the
# module's policies, as they are committed (a diff when they are not).
#
# ynl comes from Debian's linux-source-6.12, extracted into build/ynl by
# "make ynl" (a small kernel tree: tools/net/ynl, the schemas, MAINTAINERS).
# The spec is put into a copy of that tree's layout, as it would sit in the
# kernel: ynl-gen-c finds the schema next to specs/ and climbs to the
# directory holding MAINTAINERS.  Kernel mode needs the newest line's
# generator (build/ynl-newest, "make ynl-newest"), run by tools/nl-gen.sh as
# "make nl-gen" runs it.  Prints kselftest-style TAP.
import difflib
import os
import re
import shutil
import subprocess
import sys
import tempfile

import yaml

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SPEC = os.path.join(REPO, "Documentation/netlink/specs/tscprobe.yaml")
HEADER = os.path.join(REPO, "include/uapi/linux/tscprobe.h")
KTREE = os.path.join(REPO, "build/ynl")
YNL = os.path.join(KTREE, "tools/net/ynl")
SCHEMA = os.path.join(KTREE, "Documentation/netlink/genetlink-legacy.yaml")
# The generator's own limit: it finished in about a second here.
GEN_TIMEOUT = 60
NEWEST = os.path.join(REPO, "build/ynl-newest")
NL_GEN = os.path.join(REPO, "tools/nl-gen.sh")
GENERATED = ["kmod/netlink_gen.c", "kmod/netlink_gen.h"]
# Diff lines shown per file.
DIFF_LINES = 40
# The header's command enum starts with an UNSPEC member the spec has no
# operation for (the spec's first operation has value 1).
ONLY_IN_HEADER = {"TSCPROBE_CMD_UNSPEC"}


class Tap:
    def __init__(self):
        self.n = 0
        self.failed = 0
        print("TAP version 13")

    def check(self, desc, problems):
        """One test: passed when @problems (a list of lines) is empty."""
        self.n += 1
        for p in problems:
            print(f"# {p}")
        print(f"{'not ok' if problems else 'ok'} {self.n} {desc}")
        self.failed += bool(problems)
        return not problems

    def done(self):
        print(f"1..{self.n}")
        print(f"# Totals: pass:{self.n - self.failed} fail:{self.failed} "
              "xfail:0 xpass:0 skip:0 error:0")
        return 1 if self.failed else 0


def kernel_tree(tmp):
    """A tree laid out like the kernel's, holding our spec; its root."""
    root = os.path.join(tmp, "tree")
    os.makedirs(os.path.join(root, "Documentation/netlink/specs"))
    os.symlink(os.path.join(KTREE, "MAINTAINERS"), os.path.join(root, "MAINTAINERS"))
    os.symlink(SCHEMA, os.path.join(root, "Documentation/netlink/genetlink-legacy.yaml"))
    shutil.copy(SPEC, os.path.join(root, "Documentation/netlink/specs/tscprobe.yaml"))
    return root


def ynl_gen(root, out, *mode):
    """Run ynl-gen-c on the spec in @root; a list of problems."""
    cmd = [sys.executable, os.path.join(YNL, "ynl-gen-c.py"), *mode,
           "--spec", "Documentation/netlink/specs/tscprobe.yaml", "-o", out]
    try:
        p = subprocess.run(cmd, cwd=root, capture_output=True, text=True,
                           timeout=GEN_TIMEOUT)
    except subprocess.TimeoutExpired:
        return [f"{' '.join(mode)}: still running after {GEN_TIMEOUT} s"]
    if p.returncode != 0 or not os.path.exists(out):
        return [f"{' '.join(mode)}: exit {p.returncode}"] + \
            (p.stdout + p.stderr).strip().splitlines()[-10:]
    return []


def strip_comments(text):
    return re.sub(r"/\*.*?\*/", "", text, flags=re.S)


def header_names(path):
    """(enum tags, enum members, macro names) a header defines."""
    text = strip_comments(open(path).read())
    tags, members = set(), []
    for tag, body in re.findall(r"enum\s+(\w*)\s*\{(.*?)\};", text, flags=re.S):
        if tag:
            tags.add(tag)
        for item in body.split(","):
            name = item.split("=")[0].strip()
            if name:
                members.append(name)
    macros = [m for m in re.findall(r"^#define\s+(TSCPROBE_\w+)\s+\S", text, flags=re.M)]
    return tags, members, macros


PRINTER = r"""
#include <stdio.h>
#include "%s"

static void str(const char *name, const char *v) { printf("%%s \"%%s\"\n", name, v); }
static void num(const char *name, unsigned long long v) { printf("%%s %%llu\n", name, v); }
#define P(x) _Generic((x) + 0, char *: str, const char *: str, default: num)(#x, x)

int main(void)
{
%s
	return 0;
}
"""


def values(tmp, tag, header, names):
    """Every name of @names as @header defines it, compiled and run."""
    src = os.path.join(tmp, f"{tag}.c")
    exe = os.path.join(tmp, tag)
    with open(src, "w") as f:
        f.write(PRINTER % (header, "\n".join(f"\tP({n});" for n in names)))
    subprocess.run(["gcc", "-std=c11", "-Wall", "-Werror", "-o", exe, src],
                   check=True, capture_output=True, text=True)
    out = subprocess.run([exe], check=True, capture_output=True, text=True).stdout
    return dict(line.split(" ", 1) for line in out.splitlines())


def compare(tmp, generated):
    """Problems, by test, between the generated header and ours."""
    g_tags, g_members, g_macros = header_names(generated)
    o_tags, o_members, o_macros = header_names(HEADER)
    g = values(tmp, "generated", generated, g_members + g_macros)
    ours_names = set(o_members + o_macros)
    o = values(tmp, "ours", HEADER, sorted(ours_names & set(g)) +
               sorted(set(o_members) - set(g)))
    same = []
    for n in g_members + g_macros:
        if n not in ours_names:
            same.append(f"{n} = {g[n]} generated, not in include/uapi/linux/tscprobe.h")
        elif g[n] != o[n]:
            same.append(f"{n} = {g[n]} generated, {o[n]} in include/uapi/linux/tscprobe.h")
    back = [f"{n} = {o[n]} in include/uapi/linux/tscprobe.h, not generated from the spec"
            for n in o_members if n not in g and n not in ONLY_IN_HEADER]
    tags = [f"enum {t}: only generated" for t in sorted(g_tags - o_tags)] + \
        [f"enum {t}: only in include/uapi/linux/tscprobe.h" for t in sorted(o_tags - g_tags)]
    counts = [f"{len(g_members)} enum members and {len(g_macros)} macros generated"]
    return same, back, tags, counts


def compile_user(tmp, d):
    """Compile the user-mode code against ynl's library headers."""
    inc = os.path.join(tmp, "inc/linux")
    os.makedirs(inc)
    shutil.copy(HEADER, inc)
    p = subprocess.run(["gcc", "-std=gnu11", "-Wall", "-Wextra", "-Werror",
                        "-Wno-unused-parameter", "-c",
                        "-I", d, "-I", os.path.dirname(inc), "-I", os.path.join(YNL, "lib"),
                        os.path.join(d, "tscprobe-user.c"), "-o", os.path.join(d, "user.o")],
                       capture_output=True, text=True)
    return (p.stdout + p.stderr).strip().splitlines()[-15:] if p.returncode else []


def newest_source():
    """The linux-source tarball build/ynl-newest comes from, by name."""
    try:
        name = os.path.basename(open(os.path.join(NEWEST, ".extracted")).read().strip())
        return re.sub(r"\.tar\..*$", "", name)
    except OSError:
        return None


def kernel_mode(tmp):
    """Problems, by file of GENERATED, between kmod/ and nl-gen.sh's output now."""
    out = os.path.join(tmp, "kernel")
    try:
        p = subprocess.run([NL_GEN, out], capture_output=True, text=True,
                           timeout=2 * GEN_TIMEOUT)
    except subprocess.TimeoutExpired:
        return {f: [f"tools/nl-gen.sh: still running after {2 * GEN_TIMEOUT} s"] for f in GENERATED}
    if p.returncode != 0:
        return {f: [f"tools/nl-gen.sh: exit {p.returncode}"] +
                (p.stdout + p.stderr).strip().splitlines()[-10:] for f in GENERATED}
    problems = {}
    for f in GENERATED:
        try:
            have = open(os.path.join(REPO, f)).read().splitlines()
        except OSError:
            have = []
        want = open(os.path.join(out, os.path.basename(f))).read().splitlines()
        diff = list(difflib.unified_diff(have, want, f"{f} (committed)",
                                         f"{f} (from the spec)", lineterm=""))
        problems[f] = []
        if diff:
            problems[f] = [f"{f} is not what the spec gives: run 'make nl-gen' and commit it"] + \
                diff[:DIFF_LINES] + ([f"... {len(diff) - DIFF_LINES} more lines"] if len(diff) > DIFF_LINES else [])
    return problems


def check_kernel_mode(tap):
    """kmod/netlink_gen.[ch] are what the newest ynl-gen-c writes from the spec."""
    src = newest_source()
    if src is None:
        for f in GENERATED:
            tap.check(f"ynl-gen-c --mode kernel writes {f}",
                      [f"no {NEWEST}: run 'make ynl-newest' (needs the newest line's linux-source, 'make deps')"])
        return
    with tempfile.TemporaryDirectory() as tmp:
        problems = kernel_mode(tmp)
    for f in GENERATED:
        tap.check(f"ynl-gen-c --mode kernel ({src}) writes {f} as committed", problems[f])


def main():
    tap = Tap()
    if not os.path.exists(os.path.join(YNL, "ynl-gen-c.py")):
        tap.check("ynl is in build/ynl", [f"no {YNL}: run 'make ynl' (needs linux-source-6.12, 'make deps')"])
        check_kernel_mode(tap)
        return tap.done()
    import jsonschema
    try:
        jsonschema.validate(yaml.safe_load(open(SPEC)), yaml.safe_load(open(SCHEMA)))
        bad = []
    except jsonschema.ValidationError as e:
        bad = [f"{'/'.join(map(str, e.absolute_path))}: {e.message}"]
    tap.check("the spec is valid against genetlink-legacy", bad)

    with tempfile.TemporaryDirectory() as tmp:
        root = kernel_tree(tmp)
        uapi = os.path.join(tmp, "tscprobe.h")
        if tap.check("ynl-gen-c --mode uapi --header finishes", ynl_gen(root, uapi, "--mode", "uapi", "--header")):
            same, back, tags, counts = compare(tmp, uapi)
            tap.check("every generated name has the header's value (" + counts[0] + ")", same)
            tap.check("every enum member of the header is generated from the spec", back)
            tap.check("the same enum types", tags)
        else:
            for t in ("every generated name has the header's value",
                      "every enum member of the header is generated from the spec",
                      "the same enum types"):
                tap.check(t, ["no generated header"])
        d = os.path.join(tmp, "user")
        os.makedirs(d)
        ok = tap.check("ynl-gen-c --mode user --header finishes",
                       ynl_gen(root, os.path.join(d, "tscprobe-user.h"), "--mode", "user", "--header"))
        ok &= tap.check("ynl-gen-c --mode user --source finishes",
                        ynl_gen(root, os.path.join(d, "tscprobe-user.c"), "--mode", "user", "--source"))
        tap.check("the user-mode code compiles (-Wall -Wextra -Werror)",
                  compile_user(tmp, d) if ok else ["not generated"])
    check_kernel_mode(tap)
    return tap.done()


if __name__ == "__main__":
    sys.exit(main())
