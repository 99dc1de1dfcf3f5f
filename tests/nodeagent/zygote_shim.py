"""The `python` the elastic story's hosts run torch processes with: it hands its command to the
story's torch zygote (`torch_zygote.py`) and stands in for the process the zygote forks.

Started as `SHIM -m MODULE ARGS...` (or `SHIM SCRIPT ARGS...`) inside a host's network
namespace, it connects to the zygote's socket and sends its arguments, environment and working
directory with its standard streams and its network namespace (file descriptors); the zygote
forks a child that joins that namespace and runs the command as `python` would. The shim then
forwards every signal it is sent to that child (as the launcher's SIGTERM to torchrun) and exits
as the child did: the same status, or the same signal. When the shim itself is killed, the
zygote kills the child. Standard library only, run with `python -S`: it starts in milliseconds.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import struct
import sys

FORWARDED = (signal.SIGTERM, signal.SIGINT, signal.SIGHUP, signal.SIGQUIT, signal.SIGUSR1, signal.SIGUSR2)


def main(address: str) -> None:
    """Run `sys.argv[1:]` as `python` would, through the zygote listening on `address`."""
    child: list[int] = []
    pending: list[int] = []

    def forward(signum: int, _frame: object) -> None:
        if child:
            try:
                os.kill(child[0], signum)
            except ProcessLookupError:
                pass
        else:
            pending.append(signum)

    for signum in FORWARDED:
        signal.signal(signum, forward)
    request = json.dumps({"argv": sys.argv[1:], "env": dict(os.environ), "cwd": os.getcwd()}).encode()
    net = os.open("/proc/self/ns/net", os.O_RDONLY)
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as channel:
        channel.connect(address)
        socket.send_fds(channel, [struct.pack("!I", len(request))], [0, 1, 2, net])
        channel.sendall(request)
        os.close(net)
        answers = channel.makefile("r")
        child.append(int(answers.readline()))
        for signum in pending:
            os.kill(child[0], signum)
        status = answers.readline().strip()
    if not status:  # the zygote ended before its child
        sys.exit(255)
    code = int(status)
    if code < 0:  # ended by a signal: end by the same one
        signal.signal(-code, signal.SIG_DFL)
        os.kill(os.getpid(), -code)
    sys.exit(code)
