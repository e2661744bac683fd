"""test_console_client.py: scripts/console.py, `make console`.

QEMU runs the kernel with its console on a Unix socket, as `make debug`
starts it (scripts/debug.sh; here QEMU waits for the client, so no boot
output is missed); console.py connects, and what is piped
into it reaches the shell, whose answer comes back on its output:
typed commands run, and Ctrl-] ends the client, not the kernel.
"""

import os
import select
import subprocess
import tempfile
import time

SMP = 1
ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..')


def read_until(proc, text, seconds):
    """What proc printed, up to and including text."""
    out, deadline = b'', time.monotonic() + seconds
    while text not in out:
        left = deadline - time.monotonic()
        assert left > 0, f'no {text!r} within {seconds}s: {out[-500:]!r}'
        if select.select([proc.stdout], [], [], left)[0]:
            data = os.read(proc.stdout.fileno(), 4096)
            assert data, f'console.py ended: {out[-500:]!r}'
            out += data
    return out


def test_console_py_types_and_reads(k):
    elf = os.path.join(k.build, 'kernel.elf')
    with tempfile.TemporaryDirectory() as tmp:
        sock = os.path.join(tmp, 'console.sock')
        qemu = subprocess.Popen(
            ['qemu-system-riscv64', '-machine', 'virt', '-smp', '1',
             '-m', '256M', '-bios', 'default', '-kernel', elf,
             '-display', 'none', '-monitor', 'none',
             '-serial', f'unix:{sock},server=on,wait=on'],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            client = subprocess.Popen(
                ['python3', os.path.join(ROOT, 'scripts', 'console.py'),
                 sock], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
            read_until(client, b'rvftrace:/# ', 60)
            client.stdin.write(b'echo $((6 * 7))-from-console\r')
            client.stdin.flush()
            read_until(client, b'\n42-from-console', 30)
            client.stdin.write(b'\x1d')
            client.stdin.flush()
            assert client.wait(30) == 0
            assert qemu.poll() is None, 'Ctrl-] ended the kernel'
        finally:
            qemu.kill()
            qemu.wait()
