"""fuzz.py: a console fuzzer, deterministic for a seed.

    result = Fuzzer(k, seed).run(batches)

Each batch types a few inputs at the shell, each one of: random bytes
(printable, control, escape sequences, high bytes), a random command
that looks valid (every command but poweroff, selftest, bench and
stress's own), or a random write to (or read of) a random tracefs
file. A command still running after a moment gets a Ctrl-C. After the
batch the shell must answer `echo alive-N` and the kernel must not have
crashed (the harness fails a wait on an oops or panic); tracing then
goes back to its defaults so batches do not pile up slowness. Raises
harness.KernelError or TimeoutError when the shell no longer answers.
"""

import random
import re

import harness

T = '/sys/kernel/tracing'
INPUTS_PER_BATCH = 8
SETTLE_WAIT = 3         # seconds before a running command gets a Ctrl-C
STUCK_WAIT = 30         # seconds the shell has to come back after that

DIRS = ('/', '/tmp', '/sys', '/sys/kernel', T, f'{T}/options',
        f'{T}/per_cpu', f'{T}/per_cpu/cpu0', '/proc/sys/kernel', '/dev',
        '/nope', '..', '.')
WORDS = ('0', '1', '-1', '2', '7', '16', '64', '4096', '99999999999',
         '0x10', '', 'fib', 'sort', 'fib*', '*sort*', '!fib', '*', '!',
         'fib:traceoff', 'fib:traceoff:3', '!fib:traceoff:0',
         'sort:stacktrace:2', 'fib:traceon', 'nosuch:traceoff', 'fib:',
         ':x', 'nop', 'function', 'function_graph', 'local', 'global',
         'counter', 'instret', 'overwrite', 'nooverwrite', 'sym-offset',
         'nosym-offset', 'latency-format', 'nolatency-format',
         'func_stack_trace', 'nofunc_stack_trace', 'record-tgid',
         'pause-on-trace', 'nopause-on-trace', 'event-fork', 'noevent-fork', 'irq-info', 'noirq-info',
         'context-info', 'nocontext-info', 'x' * 300, '\\', "'", '"',
         '>', '>>', '|', ';', '&', '$HOME', '%s%n', 'é')
COMMANDS = ('echo {w}', 'echo -n {w} {w}', 'cat {f}', 'cat {f} {f}',
            'ls {d}', 'ls -l {d}', 'ls {w}', 'cd {d}', 'cd', 'pwd', 'ps',
            'cpus', 'free', 'uptime', 'help', 'dmesg', 'run', 'run {w}',
            'run fib {n}', 'run sort {n}', 'run crc32 {n}',
            'run pingpong {n}', 'patchsite {w}', 'patchsite fib',
            'ftrace_debug', 'ftrace_debug off', 'stress', 'stress {w}',
            'echo {w} > /tmp/fuzz{n}', 'echo {w} >> /tmp/fuzz{n}',
            'cat /tmp/fuzz{n}', '{w}', '{w} {w}')
ESCAPES = ('\x1b[A', '\x1b[B', '\x1b[C', '\x1b[D', '\x1b[3~', '\x1bOH',
           '\x1b', '\t', '\x7f', '\x08', '\x15', '\x03', '\x04', '\n')
DEFAULTS = ('echo nop > {T}/current_tracer', 'echo > {T}/set_ftrace_filter',
            *(f"echo '!*:{cmd}' >> {{T}}/set_ftrace_filter"
              for cmd in ('traceoff', 'traceoff:0', 'traceon', 'traceon:0',
                          'stacktrace', 'stacktrace:0')),
            'echo > {T}/set_ftrace_notrace', 'echo > {T}/set_ftrace_pid',
            'echo 1 > {T}/tracing_on', 'echo 1 > /proc/sys/kernel/ftrace_enabled',
            'echo 1408 > {T}/buffer_size_kb', 'cd /', 'ftrace_debug off')


class Fuzzer:
    def __init__(self, k, seed):
        self.k = k
        self.rnd = random.Random(seed)
        self.files = None
        self.counts = {'batches': 0, 'inputs': 0, 'bytes': 0,
                       'random_bytes': 0, 'commands': 0,
                       'tracefs_writes': 0, 'tracefs_reads': 0,
                       'interrupted': 0}

    # --- what to type ---------------------------------------------------

    def tracefs_files(self):
        """Every file under tracefs, and the ftrace sysctl."""
        files, dirs = [], [T]
        while dirs:
            d = dirs.pop()
            for line in self.k.run(f'ls -l {d}').splitlines():
                mode, _, name = line.split(None, 2)
                (dirs if mode.startswith('d') else files).append(
                    f'{d}/{name}')
        return sorted(files) + ['/proc/sys/kernel/ftrace_enabled']

    def word(self):
        w = self.rnd.choice(WORDS)
        return f"'{w}'" if not w or ' ' in w else w

    def random_bytes(self):
        pieces = []
        for _ in range(self.rnd.randrange(1, 40)):
            kind = self.rnd.random()
            if kind < 0.6:
                pieces.append(chr(self.rnd.randrange(0x20, 0x7f)))
            elif kind < 0.8:
                pieces.append(self.rnd.choice(ESCAPES))
            elif kind < 0.9:
                pieces.append(chr(self.rnd.randrange(0x01, 0x20)))
            else:
                pieces.append(bytes([self.rnd.randrange(0x80, 0x100)]))
        self.counts['random_bytes'] += 1
        return b''.join(p if isinstance(p, bytes) else p.encode('latin-1')
                        for p in pieces) + b'\r'

    def command(self):
        template = self.rnd.choice(COMMANDS)
        line = re.sub(r'\{(\w)\}', lambda m: self.fill(m[1]), template)
        self.counts['commands'] += 1
        return line.encode() + b'\r'

    def fill(self, kind):
        if kind == 'w':
            return self.word()
        if kind == 'n':
            return str(self.rnd.randrange(0, 12))
        if kind == 'd':
            return self.rnd.choice(DIRS)
        return self.rnd.choice(self.files)

    def tracefs_access(self):
        path = self.rnd.choice(self.files)
        if self.rnd.random() < 0.25:
            self.counts['tracefs_reads'] += 1
            return f'cat {path}\r'.encode()
        words = ' '.join(self.word() for _ in range(self.rnd.randrange(0, 3)))
        redirect = self.rnd.choice(('>', '>', '>>'))
        self.counts['tracefs_writes'] += 1
        return f'echo {words} {redirect} {path}\r'.encode()

    def next_input(self):
        kind = self.rnd.random()
        if kind < 0.3:
            return self.random_bytes()
        if kind < 0.55:
            return self.command()
        return self.tracefs_access()

    # --- typing it ------------------------------------------------------

    def settle(self):
        """Back at a prompt; a command still running gets a Ctrl-C."""
        try:
            self.k.read_until_prompt(SETTLE_WAIT)
            return
        except TimeoutError:
            pass
        self.counts['interrupted'] += 1
        self.k.type('\x03')
        self.k.read_until_prompt(STUCK_WAIT)

    def alive(self):
        """The shell answers a fresh command (after a Ctrl-C for
        anything still running, a Ctrl-U for anything half typed)."""
        token = f'alive-{self.counts["batches"]}'
        self.k.type('\x03')
        self.k.type(f'\x15echo {token}\r')
        self.k.expect(rf'(?m)^{token}$', STUCK_WAIT)
        self.k.read_until_prompt(STUCK_WAIT)

    def reset(self):
        for cmd in DEFAULTS:
            self.k.run(cmd.format(T=T), STUCK_WAIT)

    def batch(self):
        for _ in range(INPUTS_PER_BATCH):
            data = self.next_input()
            self.counts['inputs'] += 1
            self.counts['bytes'] += len(data)
            self.k.type(data)
            self.settle()
        self.alive()
        self.reset()
        self.counts['batches'] += 1

    def run(self, batches):
        """Type batches batches; returns the counts."""
        if self.files is None:
            self.files = self.tracefs_files()
        for _ in range(batches):
            self.batch()
        return dict(self.counts)


def fuzz_check(k, seed, batches):
    """For tests: run, and say which batch the shell stopped answering in."""
    fuzzer = Fuzzer(k, seed)
    try:
        return fuzzer.run(batches)
    except (harness.KernelError, TimeoutError) as e:
        raise AssertionError(f'seed {seed}, batch {fuzzer.counts["batches"]}'
                             f': {e}') from e
