#!/usr/bin/env python3
"""console.py: a terminal on the kernel's serial console, for `make debug`.

`make debug` starts QEMU with its console on a Unix socket
(build/console.sock) and gdb in the foreground; `make console`, in a
second terminal, runs this client on that socket: what is typed goes to
the kernel's UART as a terminal would send it (raw: the kernel's own
line editor echoes), what the kernel prints comes back. Ctrl-] quits,
as in telnet. No telnet is needed.

usage: console.py SOCKET
"""

import os
import select
import socket
import sys
import termios
import time
import tty

QUIT = b'\x1d'          # Ctrl-]


def connect(path, seconds=30):
    """The socket, once QEMU has made it (it may still be starting)."""
    deadline = time.monotonic() + seconds
    while True:
        s = socket.socket(socket.AF_UNIX)
        try:
            s.connect(path)
            return s
        except (FileNotFoundError, ConnectionRefusedError):
            s.close()
            if time.monotonic() > deadline:
                raise
            time.sleep(0.2)


def relay(s, fd_in, fd_out):
    """Copy both ways until the socket closes, input ends or Ctrl-]."""
    while True:
        ready = select.select([s, fd_in], [], [])[0]
        if s in ready:
            data = s.recv(4096)
            if not data:
                return
            os.write(fd_out, data)
        if fd_in in ready:
            data = os.read(fd_in, 1024)
            if not data or QUIT in data:
                s.sendall(data.split(QUIT)[0])
                return
            s.sendall(data)


def main():
    if len(sys.argv) != 2:
        sys.exit('usage: console.py SOCKET')
    s = connect(sys.argv[1])
    fd_in, fd_out = sys.stdin.fileno(), sys.stdout.fileno()
    saved = termios.tcgetattr(fd_in) if os.isatty(fd_in) else None
    if saved:
        tty.setraw(fd_in)
        os.write(fd_out, b'console.py: connected; Ctrl-] quits\r\n')
    try:
        relay(s, fd_in, fd_out)
    finally:
        if saved:
            termios.tcsetattr(fd_in, termios.TCSADRAIN, saved)
        s.close()


if __name__ == '__main__':
    main()
