"""trace_format.py: a strict reader of what `trace` and `trace_pipe` print
(trace/trace_output.c, trace/trace_graph_output.c: Linux 6.1's formats
with the default options), so that a torn or garbled line cannot pass
for a good one.

    checker = TraceChecker(functions, symbols, nr_cpus, graph=False)
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

With graph, events are function_graph's lines instead: the CPU column
(as wide as the highest CPU's number), a DURATION column that is blank
for an entry or a comment and holds a mark and `N.NNN us` for a leaf
or a return, then the call tree, indented two spaces a level: `f() {`,
`f();`, `}` or `} /* f */` with f a function that can be traced, or a
`/* marker */`; also the interrupt arrows and the task-switch banners.
"""

import re

CONTEXT = re.compile(r'(?P<comm>[ -~]{16})-(?P<pid>\d+) +\[(?P<cpu>\d{3})\] '
                     r'(?P<flags>[.d][.n][.h][.1-9a-f]\.) +'
                     r'(?P<sec>\d+)\.(?P<usec>\d{6}): (?P<body>.*)')
# Every parent is named: code reaches up to the next symbol, so even the
# return address after a noreturn call that ends its function (kthread_exit
# <-kthread_entry) names the function.
FUNCTION = re.compile(r'(?P<func>[A-Za-z_][\w.]*) '
                      r'<-(?P<parent>[A-Za-z_][\w.]*)')
MARKER = re.compile(r'tracing_mark_write: .*')
LOST = re.compile(r'CPU:(?P<cpu>\d+) \[LOST( \d+)? EVENTS\]')
STARTED = re.compile(r'##### CPU (?P<cpu>\d+) buffer started ####')
STACK_ENTRY = re.compile(r' => (?P<sym>[A-Za-z_][\w.]*)')
NAME = r'[A-Za-z_][\w.]*'
GRAPH = re.compile(r' (?P<cpu> *\d+)\) (?P<duration>.{14})\|  '
                   r'(?P<indent>(?:  )*)(?P<call>\S.*)')
DURATION = re.compile(r'[ +!#*@$] \d+(?:\.\d+)? us +')
BLANK_DURATION = ' ' * 14
CALLS_WITH_DURATION = re.compile(rf'(?P<leaf>{NAME})\(\);|}}'
                                 rf'(?: /\* (?P<ret>{NAME}) \*/)?')
CALLS_WITHOUT = re.compile(rf'(?P<entry>{NAME})\(\) {{|/\* .* \*/')
GRAPH_IRQ = re.compile(r' (?P<cpu> *\d+)\)   (?:==========>|<==========) \|')
GRAPH_SWITCH = re.compile(r' (?P<cpu> *\d+)\) (?P<prev>.{14}) => '
                          r'(?P<next>.{14})')
GRAPH_TASK = re.compile(r' *\S+-\d+ *')
GRAPH_RULE = ' ' + '-' * 42
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

    def __init__(self, functions, symbols, nr_cpus, graph=False):
        self.functions = set(functions)
        self.symbols = set(symbols)
        self.nr_cpus = nr_cpus
        self.graph = graph
        self.cpu_width = len(str(nr_cpus - 1))
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
            if self.graph:
                why = self._graph_line(line, cpu)
                if why:
                    problems.append(f'line {number}: {why}: {line!r}')
                if len(problems) >= MAX_PROBLEMS:
                    break
                continue
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

    def _graph_line(self, line, cpu):
        """What is wrong with a line of function_graph's, or None."""
        if line in ('', GRAPH_RULE) or LOST.fullmatch(line):
            return None
        for form in (GRAPH_IRQ, GRAPH_SWITCH, GRAPH):
            m = form.fullmatch(line)
            if m:
                break
        else:
            return 'not a function_graph line'
        if len(m['cpu']) != self.cpu_width:
            return 'CPU column out of place'
        why = self._cpu_problem(int(m['cpu']), cpu)
        if why or form is GRAPH_IRQ:
            return why
        if form is GRAPH_SWITCH:
            return None if (GRAPH_TASK.fullmatch(m['prev']) and
                            GRAPH_TASK.fullmatch(m['next'])) else \
                'task switch banner out of place'
        self.events += 1
        return self._graph_call(m['duration'], m['call'])

    def _graph_call(self, duration, call):
        if duration == BLANK_DURATION:
            m = CALLS_WITHOUT.fullmatch(call)
        elif DURATION.fullmatch(duration):
            m = CALLS_WITH_DURATION.fullmatch(call)
        else:
            return 'duration column out of place'
        if not m:
            return 'not a call of the call tree'
        for name in m.groups():
            if name and name not in self.functions:
                return f'{name} cannot be traced'
        return None

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
