"""trace_format.py: a strict reader of what `trace` and `trace_pipe` print
(trace/trace_output.c, Linux 6.1's format with the default options), so
that a torn or garbled line cannot pass for a good one.

    checker = TraceChecker(functions, symbols, nr_cpus)
    problems = checker.check(text, cpu=None, merged=True)  # [] if all good

Every line must be a header line (before the first event), a lost-events
or buffer-started note, or an event whose context columns are exactly
as printed (`%16s-%-7d [%03d] flags %5lu.%06lu: `) with a CPU in range,
time stamps that never go back on a CPU (nor at all in `trace`, whose
CPUs are merged from what each held at open; trace_pipe takes events as
they are committed, so an event a CPU commits late may follow a newer
one from another CPU, as in Linux), and a body of a known kind: a
function that can be traced `<-` a kernel symbol, a trace_marker text,
or a stack trace of kernel symbols.
"""

import re

CONTEXT = re.compile(r'(?P<comm>[ -~]{16})-(?P<pid>\d+) +\[(?P<cpu>\d{3})\] '
                     r'(?P<flags>[.d][.n][.h][.1-9a-f]\.) +'
                     r'(?P<sec>\d+)\.(?P<usec>\d{6}): (?P<body>.*)')
FUNCTION = re.compile(r'(?P<func>[A-Za-z_][\w.]*) <-(?P<parent>[A-Za-z_][\w.]*)')
MARKER = re.compile(r'tracing_mark_write: .*')
LOST = re.compile(r'CPU:(?P<cpu>\d+) \[LOST( \d+)? EVENTS\]')
STARTED = re.compile(r'##### CPU (?P<cpu>\d+) buffer started ####')
STACK_ENTRY = re.compile(r' => (?P<sym>[A-Za-z_][\w.]*)')
MAX_PROBLEMS = 10


def symbols_of(sym_path):
    """The text symbols of an `nm -n` listing (build/kernel.sym)."""
    names = set()
    with open(sym_path) as f:
        for line in f:
            parts = line.split()
            if len(parts) == 3 and parts[1] in 'tTwW':
                names.add(parts[2])
    return names


class TraceChecker:
    """Checks trace text; counts what it has seen across calls."""

    def __init__(self, functions, symbols, nr_cpus):
        self.functions = set(functions)
        self.symbols = set(symbols)
        self.nr_cpus = nr_cpus
        self.lines = 0          # lines checked, all calls
        self.events = 0

    def check(self, text, cpu=None, merged=True):
        """Problems found in one read of a trace file (cpu: of
        per_cpu/cpuN; merged: in time order across CPUs), each naming
        its line; [] if none."""
        problems = []
        in_header, in_stack, last_ts, cpu_ts = True, False, -1, {}
        for number, line in enumerate(text.splitlines(), 1):
            self.lines += 1
            if in_header and line.startswith('#') and not STARTED.fullmatch(line):
                continue
            in_header = False
            if in_stack and STACK_ENTRY.fullmatch(line):
                if STACK_ENTRY.fullmatch(line)['sym'] not in self.symbols:
                    problems.append(f'line {number}: unknown symbol: {line!r}')
                continue
            in_stack = False
            why, ts, event_cpu = self._line(line, cpu)
            if ts is not None:
                if ts < cpu_ts.get(event_cpu, -1) or (merged and
                                                      ts < last_ts):
                    why = why or 'time stamp goes back'
                last_ts = cpu_ts[event_cpu] = ts
                in_stack = line.endswith(': <stack trace>')
            if why:
                problems.append(f'line {number}: {why}: {line!r}')
            if len(problems) >= MAX_PROBLEMS:
                break
        return problems

    def _line(self, line, cpu):
        """(what is wrong or None, and for an event its time stamp and
        CPU, else None, None)."""
        for note in (LOST, STARTED):
            m = note.fullmatch(line)
            if m:
                return self._cpu_problem(int(m['cpu']), cpu), None, None
        m = CONTEXT.fullmatch(line)
        if not m:
            return 'not a trace line', None, None
        self.events += 1
        ts = int(m['sec']) * 1000000 + int(m['usec'])
        event_cpu = int(m['cpu'])
        comm = m['comm'].lstrip()
        expect = f'{comm:>16}-{m["pid"]:<7} [{m["cpu"]}] '
        if not comm or ' ' in comm or not line.startswith(expect):
            return 'context columns out of place', ts, event_cpu
        return (self._cpu_problem(event_cpu, cpu) or
                self._body_problem(m['body'])), ts, event_cpu

    def _cpu_problem(self, event_cpu, cpu):
        if event_cpu >= self.nr_cpus or cpu not in (None, event_cpu):
            return f'CPU {event_cpu} out of place'
        return None

    def _body_problem(self, body):
        if MARKER.fullmatch(body) or body == '<stack trace>':
            return None
        m = FUNCTION.fullmatch(body)
        if not m:
            return 'unknown event'
        if m['func'] not in self.functions:
            return f'{m["func"]} cannot be traced'
        if m['parent'] not in self.symbols:
            return f'parent {m["parent"]} is no kernel symbol'
        return None
