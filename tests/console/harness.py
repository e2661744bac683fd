"""harness.py: boot rvftrace in QEMU and drive its serial console.

QEMU runs as a child process whose stdin and stdout are the guest's
UART as a raw byte pipe (-serial stdio, no monitor multiplexed in), so
Ctrl-A, Ctrl-C and friends reach the guest as they are. A reader thread
collects the output; run(), expect() and read_until_prompt() wait on it.

    k = Kernel(smp=4).start()        # boots, waits for the first prompt
    out = k.run('echo hi')           # 'hi\\n'
    k.type('\\x03'); k.expect(r'\\^C')
    status = k.poweroff()            # QEMU's exit status

Output is decoded as UTF-8 with every '\\r' removed. An oops or a
panic, or QEMU exiting unless poweroff() asked it to, fails whatever is
waiting with a KernelError that carries the end of the console output.
"""

import atexit
import codecs
import difflib
import os
import re
import subprocess
import threading
import time

QEMU = os.environ.get('QEMU', 'qemu-system-riscv64')
BUILD = 'build'         # the default build directory; run_all.py sets it
PROMPT = re.compile(r'rvftrace:[^\n#]*# ')
CRASH = re.compile(r'Oops - |Kernel panic')
TAIL_LINES = 40
TYPE_CHUNK = 16         # bytes per write: the 16550's receive FIFO
TYPE_PAUSE = 0.005      # seconds between chunks, a fast typist
CRASH_REPORT_WAIT = 5   # seconds an oops gets to finish printing

_live = set()           # kernels still running, killed if Python exits
# Exact instruction counts: with QEMU's default sleep=on, host time leaks
# into the virtual clock while a hart idles, so every figure says off.
ICOUNT = ['-icount', 'shift=0,sleep=off']


def share_args(path, tag='host'):
    """QEMU's arguments that share the host folder path with the guest
    as a virtio-9p device, mounted at /mnt/host when tag is 'host'.
    QEMU 7.2's virtio-mmio offers the legacy layout unless told
    otherwise; the kernel drives the modern one (docs/virtio.md)."""
    return ['-global', 'virtio-mmio.force-legacy=false',
            '-fsdev', f'local,id=share,path={path},security_model=none',
            '-device', f'virtio-9p-device,fsdev=share,mount_tag={tag}']


class KernelError(AssertionError):
    """The kernel crashed, QEMU exited, or an expected output never came."""


def check(actual, expected):
    """Fail with a unified diff (expected -> actual) unless they are equal."""
    if actual == expected:
        return
    diff = '\n'.join(difflib.unified_diff(
        expected.splitlines(), actual.splitlines(),
        'expected', 'actual', lineterm=''))
    if not diff:    # the two differ only in line endings
        diff = f'expected {expected!r}\n  actual {actual!r}'
    raise AssertionError('output differs:\n' + diff)


class Kernel:
    """One QEMU running the kernel, and its console."""

    check = staticmethod(check)

    def __init__(self, build=None, smp=4, mem='256M', append=None,
                 timeout=30, qemu_args=(), initrd=None):
        self.build = build or BUILD
        self.qemu_args = list(qemu_args)
        self.initrd = initrd
        self.smp = smp
        self.mem = mem
        self.append = append
        self.timeout = timeout
        self.proc = None
        self._text = ''
        self._stderr = b''
        self._pos = 0               # where the next wait starts looking
        self._eof = False
        self._powering_off = False
        self._cond = threading.Condition()
        self._readers = []

    # --- process -----------------------------------------------------

    def command(self):
        cmd = [QEMU, '-machine', 'virt', '-smp', str(self.smp),
               '-m', self.mem, '-bios', 'default',
               '-kernel', os.path.join(self.build, 'kernel.elf'),
               '-display', 'none', '-monitor', 'none', '-serial', 'stdio']
        if self.append:
            cmd += ['-append', self.append]
        if self.initrd:
            cmd += ['-initrd', self.initrd]
        return cmd + self.qemu_args

    def launch(self):
        """Start QEMU without waiting for anything."""
        self.proc = subprocess.Popen(self.command(), stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE)
        _live.add(self)
        self._readers = [
            threading.Thread(target=self._read_console, daemon=True),
            threading.Thread(target=self._read_stderr, daemon=True)]
        for r in self._readers:
            r.start()
        return self

    def start(self):
        """Boot and wait for the first prompt; returns self."""
        self.launch()
        try:
            self.read_until_prompt(self.timeout)
        except TimeoutError as e:
            raise KernelError(f'no shell prompt {self.timeout}s after '
                              f'boot:\n{self.tail()}') from e
        return self

    def wait(self, timeout):
        """Wait for QEMU to exit; returns its exit status."""
        try:
            status = self.proc.wait(timeout)
        except subprocess.TimeoutExpired as e:
            raise KernelError(f'QEMU still running after {timeout}s:\n'
                              f'{self.tail()}') from e
        for r in self._readers:
            r.join(2)
        return status

    def poweroff(self, timeout=10):
        """Type `poweroff` and return QEMU's exit status."""
        self._powering_off = True
        self.type('poweroff\r')
        return self.wait(timeout)

    def close(self):
        """Kill QEMU if it still runs; safe to call twice."""
        if self.proc is None:
            return
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait()
        for r in self._readers:
            r.join(2)
        self.proc.stdin.close()
        self.proc.stdout.close()
        self.proc.stderr.close()
        _live.discard(self)

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.close()

    @property
    def alive(self):
        return (self.proc is not None and self.proc.poll() is None and
                not CRASH.search(self.output))

    # --- output ------------------------------------------------------

    def _read_console(self):
        decoder = codecs.getincrementaldecoder('utf-8')('replace')
        fd = self.proc.stdout.fileno()
        while True:
            data = os.read(fd, 4096)
            text = decoder.decode(data, final=not data).replace('\r', '')
            with self._cond:
                self._text += text
                self._eof = not data
                self._cond.notify_all()
            if not data:
                return

    def _read_stderr(self):
        self._stderr = self.proc.stderr.read()

    @property
    def output(self):
        """Everything the console printed so far."""
        return self._text

    def tail(self, lines=TAIL_LINES):
        """The end of the console output, for failure messages."""
        text = '\n'.join(self._text.splitlines()[-lines:])
        report = f'--- console tail ---\n{text}\n--- end ---'
        if self._stderr:
            report += '\nQEMU: ' + self._stderr.decode(errors='replace')
        return report

    def crash_report(self):
        """Why the kernel is unusable, if an oops or an exit says so."""
        with self._cond:
            crashed = CRASH.search(self._text)
            if crashed:
                self._cond.wait_for(lambda: self._eof, CRASH_REPORT_WAIT)
        if crashed:
            return f'kernel crashed:\n{self.tail()}'
        status = self.proc.poll() if self.proc else None
        if status is not None and not self._powering_off:
            return f'QEMU exited with status {status}:\n{self.tail()}'
        return None

    def _wait(self, find, timeout, what):
        """Wait until find(text) returns something, and return that."""
        deadline = time.monotonic() + timeout
        with self._cond:
            while True:
                found = find(self._text)
                if found:
                    return found
                if CRASH.search(self._text, self._pos) or self._eof:
                    break
                left = deadline - time.monotonic()
                if left <= 0:
                    raise TimeoutError(f'no {what} within {timeout}s:\n'
                                       f'{self.tail()}')
                self._cond.wait(left)
        raise KernelError(f'while waiting for {what}: '
                          f'{self.crash_report() or "QEMU exited"}')

    def expect(self, regex, timeout=10):
        """Wait for output after the last match to match regex."""
        pattern = re.compile(regex)
        m = self._wait(lambda text: pattern.search(text, self._pos),
                       timeout, f'match for /{pattern.pattern}/')
        self._pos = m.end()
        return m

    def _find_prompt(self, text, start):
        # A prompt starts a line, or ends the output (after `echo -n`).
        for m in PROMPT.finditer(text, start):
            if (m.start() == 0 or text[m.start() - 1] == '\n' or
                    m.end() == len(text)):
                return m
        return None

    def read_until_prompt(self, timeout=10):
        """Wait for the next prompt; returns the output before it."""
        start = self._pos
        m = self._wait(lambda text: self._find_prompt(text, start),
                       timeout, 'shell prompt')
        self._pos = m.end()
        return self._text[start:m.start()]

    # --- input -------------------------------------------------------

    def type(self, data):
        """Send bytes (or a str as UTF-8) to the console, in small bursts."""
        if isinstance(data, str):
            data = data.encode()
        for i in range(0, len(data), TYPE_CHUNK):
            try:
                self.proc.stdin.write(data[i:i + TYPE_CHUNK])
                self.proc.stdin.flush()
            except BrokenPipeError as e:
                raise KernelError(f'cannot type, QEMU is gone:\n'
                                  f'{self.tail()}') from e
            time.sleep(TYPE_PAUSE)

    def run(self, cmd, timeout=10):
        """Type cmd and Enter at the prompt; returns what it printed."""
        self.type(cmd + '\r')
        out = self.read_until_prompt(timeout)
        return out.partition('\n')[2]    # drop the echoed command line

    def prompt(self):
        """The prompt the last wait ended at, e.g. 'rvftrace:/# '."""
        with self._cond:
            return self._text[self._text.rfind('\n', 0, self._pos) + 1:
                              self._pos]

    def responsive(self, timeout=5):
        """Does an empty command line get a fresh prompt?"""
        if not self.alive:
            return False
        self._pos = len(self._text)
        try:
            self.run('', timeout)
        except (TimeoutError, KernelError):
            return False
        return True


@atexit.register
def _kill_all():
    # An orphaned QEMU would run on forever: its stdin closing is no reason
    # for it to stop.
    for k in list(_live):
        k.close()
