"""gdbstub.py: drive QEMU's gdbstub (the GDB remote serial protocol)
to force an interleaving between harts: stop one hart at an
instruction and let the others run on until one of them reaches
another. QEMU numbers its threads 1, 2, ... in hart order.

    k = Kernel(smp=4, qemu_args=gdb_args(path)).start()
    g = GdbStub(path)               # the VM stops as gdb attaches
    g.break_at(addr); g.cont()
    hart, regs = g.wait_break()     # regs: x0..x31, then pc

Only what the tests need: breakpoints, per-thread continue and step,
and registers.
"""

import re
import socket
import time

ABI = ('zero ra sp gp tp t0 t1 t2 s0 s1 a0 a1 a2 a3 a4 a5 a6 a7 '
       's2 s3 s4 s5 s6 s7 s8 s9 s10 s11 t3 t4 t5 t6').split()
PC = 32


def gdb_args(path):
    """QEMU options for a gdbstub on a Unix socket at path."""
    return ['-gdb', f'unix:{path},server=on,wait=off']


def reg_index(name):
    """The index in a register list of an ABI register name (a5)."""
    return ABI.index(name)


class GdbStub:
    def __init__(self, path, timeout=30):
        self.timeout = timeout
        self.s = socket.socket(socket.AF_UNIX)
        self.s.connect(path)
        self.buf = b''
        try:
            self.recv(2)        # QEMU stops the VM as gdb attaches
        except OSError:
            pass
        self.threads = self._threads()
        self.breaks = set()

    def send(self, data):
        sum8 = sum(data.encode()) & 0xff
        self.s.sendall(b'$%s#%02x' % (data.encode(), sum8))

    def recv(self, timeout=None):
        """The next packet; acknowledged, as QEMU wants every one to be."""
        self.s.settimeout(self.timeout if timeout is None else timeout)
        while True:
            m = re.search(rb'\$([^#]*)#..', self.buf)
            if m:
                self.buf = self.buf[m.end():]
                self.s.sendall(b'+')
                return m.group(1).decode()
            data = self.s.recv(65536)
            if not data:
                raise EOFError('gdbstub closed')
            self.buf += data.replace(b'+', b'')

    def cmd(self, data):
        self.send(data)
        return self.recv()

    def _threads(self):
        ids, r = [], self.cmd('qfThreadInfo')
        while r.startswith('m'):
            ids += [int(x, 16) for x in r[1:].split(',')]
            r = self.cmd('qsThreadInfo')
        return ids

    def regs(self, thread):
        assert self.cmd(f'Hg{thread:x}') == 'OK'
        g = self.cmd('g')
        return [int.from_bytes(bytes.fromhex(g[i * 16:(i + 1) * 16]),
                               'little') for i in range(PC + 1)]

    def break_at(self, addr):
        assert self.cmd(f'Z0,{addr:x},4') == 'OK'
        self.breaks.add(addr)

    def unbreak(self, addr):
        assert self.cmd(f'z0,{addr:x},4') == 'OK'
        self.breaks.discard(addr)

    def cont(self, threads=None):
        """Resume threads (all by default); the others stay stopped."""
        self.send('vCont;' + ';'.join(
            f'c:{t:x}' for t in threads or self.threads))

    def step_over(self, thread):
        """thread stopped at a breakpoint: run that one instruction."""
        addr = self.regs(thread)[PC]
        held = addr in self.breaks
        if held:
            self.unbreak(addr)
        self.send(f'vCont;s:{thread:x}')
        self.recv()
        if held:
            self.break_at(addr)

    def wait_break(self, timeout=None):
        """(thread, registers) of the next thread to stop at a
        breakpoint, or None if none did within timeout (all stopped)."""
        deadline = None if timeout is None else time.monotonic() + timeout
        while True:
            left = None if deadline is None else \
                max(deadline - time.monotonic(), 0.001)
            try:
                r = self.recv(left)
            except socket.timeout:
                self.s.sendall(b'\x03')     # stop everyone
                self.recv()
                return None
            m = re.match(r'T05thread:([0-9a-f]+);', r)
            if m:
                thread = int(m[1], 16)
                return thread, self.regs(thread)

    def detach(self):
        for addr in list(self.breaks):
            self.unbreak(addr)
        self.send('D')
        self.recv()
