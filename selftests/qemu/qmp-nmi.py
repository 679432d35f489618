#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""qmp-nmi.py SOCKET COUNT: COUNT NMIs to the guest whose QMP monitor
listens on SOCKET, 50 ms apart (QEMU's inject-nmi: on x86, to the
monitor's default CPU, CPU 0).  run-vm.sh serves a guest test's "# vm-host: nmi COUNT"
line with it: a TCG guest has no other source of NMIs (no PMU, so no
watchdog), and the kernel's own NMI backtraces print call traces the log
check rejects.  Exit status 1 when the monitor refuses or is not there."""
import json
import socket
import sys
import time


def command(stream, name):
    """Send one command, return its reply (events before it are skipped)."""
    stream.write(json.dumps({"execute": name}) + "\n")
    stream.flush()
    while True:
        line = stream.readline()
        if not line:
            raise OSError("the monitor closed the connection")
        reply = json.loads(line)
        if "return" in reply or "error" in reply:
            return reply


def main():
    path, count = sys.argv[1], int(sys.argv[2])
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
        sock.settimeout(10)
        sock.connect(path)
        stream = sock.makefile("rw")
        json.loads(stream.readline())  # the greeting
        for name in ["qmp_capabilities"] + ["inject-nmi"] * count:
            reply = command(stream, name)
            if "error" in reply:
                print(f"qmp-nmi: {name}: {reply['error'].get('desc')}",
                      file=sys.stderr)
                return 1
            if name == "inject-nmi":
                time.sleep(0.05)
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except (OSError, ValueError) as err:
        print(f"qmp-nmi: {err}", file=sys.stderr)
        sys.exit(1)
