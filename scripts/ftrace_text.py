"""ftrace_text.py: read a captured `cat trace` (Linux 6.1's text formats)
for trace2json and trace2folded.

    trace = ftrace_text.load(path_or_None)      # None: standard input

Function tracer lines, `TASK-PID [CPU] FLAGS TIMESTAMP: func <-parent`
in any of their variants (record-tgid, irq-info=0, latency-format,
context-info=0 with print-parent, sym-offset, sym-addr, func_stack_trace's
` => ` lines, other events such as `tracing_mark_write: text`), become
one Event each, in trace.events.

function_graph lines, `CPU) DURATION | func() {` with any of the
funcgraph-abstime/cpu/proc/overhead/duration/tail columns, become a tree
of Frames per task, in trace.frames, and a log of when each frame opened
and closed, in trace.log, for a second pass to lay out in time.

The nesting follows the indentation (2 spaces a level): in a whole
capture that is the same as following the braces, and it also places the
lines of a capture that starts or ends inside a call. A return whose entry
came before the capture becomes a frame of its own (entry_seen false);
the levels above it that no line names are frames named None. An entry
whose return never shows is abandoned when a line at its depth or above
comes, or when the capture ends.

Each CPU's lines belong to the task a task-switch banner last named (or
that the funcgraph-proc column names); before a CPU's first banner that
task is unknown, and the banner's left side names it. Any other line (a
header, a shell prompt, the command echoed, other output) is skipped.
"""
import io
import os
import re
import sys
from dataclasses import dataclass, field

UNKNOWN = '[unknown]'   # a frame the capture never names, as perf says
INDENT = 2              # spaces per call depth, Linux's TRACE_GRAPH_INDENT

SYM = r'[^\s(){};]+'
ADDR = r'(?: <[0-9a-f]+>)?'         # sym-addr
OFFSET = r'(?:\+0x[0-9a-f]+/0x[0-9a-f]+)?'  # sym-offset

# The task-switch banner's middle line: ` 0)   init-1   =>   worker-46  `.
BANNER = re.compile(r' *(?P<cpu>\d+)\) +(?P<prev>.+?)-(?P<prev_pid>\d+)'
                    r' +=> +(?P<next>.+?)-(?P<next_pid>\d+)')

FUNCTION_LINE = re.compile(r'''
    \ *(?P<comm>.+?)-(?P<pid>\d+)\ +
    (?:\(\ *[\d-]+\)\ +)?                   # record-tgid
    \[(?P<cpu>\d+)\]\ +
    (?:\S{4,5}\ +)?                         # irq-info: the flags
    (?P<ts>\d+(?:\.\d+)?):\ (?P<body>.*)''', re.X)

# latency-format: `  init-1   0..... 20950us+: func <-parent`
LATENCY_LINE = re.compile(r' *(?P<comm>.+?)-(?P<pid>\d+) +(?P<cpu>\d+)\S{5}'
                          r' +(?P<us>\d+)us.: (?P<body>.*)')

# context-info=0 leaves only the call; without a parent it is too bare
# to tell from other output, so only `func <-parent` is taken.
BARE_CALL = re.compile(rf'(?P<body>[^\s<>]+{ADDR} <-\S+{ADDR})')

CALL_BODY = re.compile(rf'(?P<func>[^\s<]\S*?){OFFSET}{ADDR}'
                       rf'(?: <-(?P<parent>\S+?){OFFSET}{ADDR})?')
EVENT_BODY = re.compile(r'(?P<event>\w+): (?P<text>.*)')
STACK_ENTRY = re.compile(r' => (?P<sym>\S.*)')

# The columns in Linux's order, each optional, then the indented
# statement; the statement's forms make the regex pick the right split.
GRAPH_LINE = re.compile(rf'''
    (?:\ *(?P<abstime>\d+\.\d+)\ \|\ \ )?           # funcgraph-abstime
    (?:\ *(?P<cpu>\d+)\)\ )?                        # funcgraph-cpu
    (?:\ *(?P<comm>\S.*?)-(?P<pid>\d+)\ *\|\ )?     # funcgraph-proc
    (?:\ {{14}}\|\ \ |                              # duration, blank
       [ +!\#*@$]\ (?P<dur>\d+(?:\.\d+)?)\ us\ *\|\ \ )?  # or mark, time
    (?P<indent>\ *)
    (?:(?P<entry>{SYM})\(\)\ \{{
     |(?P<leaf>{SYM})\(\);
     |(?P<ret>\}})(?:\ /\*\ (?P<tail>{SYM})\ \*/)?
     |/\*\ (?P<comment>.*)\ \*/
     |(?:==========>|<==========)\ \|             # irq markers
    )''', re.X)


@dataclass(eq=False)
class Task:
    """A task on one CPU, which is one track of the output."""
    cpu: int | None         # None without the funcgraph-cpu column
    comm: str | None = None  # None until a banner names it
    pid: int | None = None

    def label(self):
        if self.comm is None:
            return 'unknown task'
        return f'{self.comm}-{self.pid}'


@dataclass(eq=False)
class Event:
    """One line in the function tracer's format."""
    kind: str               # 'call', 'stack' or 'event'
    task: Task
    ts_ns: int | None       # None without context-info
    name: str
    args: dict


@dataclass(eq=False)
class Frame:
    """One call of a function_graph capture."""
    name: str | None        # None: a level no line of the capture names
    task: Task
    depth: int
    parent: 'Frame | None'
    entry_seen: bool = True
    closed: bool = False    # its return (or its leaf line) is in the capture
    dur_ns: int | None = None
    # When the trace says it started: its entry's funcgraph-abstime, or
    # for a frame whose entry came before the capture, return - duration.
    abstime_ns: int | None = None
    children: list = field(default_factory=list)


@dataclass(eq=False)
class Comment:
    """A `/* text */` line of function_graph, such as a trace_marker write."""
    task: Task
    text: str


@dataclass
class Trace:
    events: list = field(default_factory=list)
    frames: list = field(default_factory=list)
    # ('open' | 'close' | 'abandon' | 'comment', Frame or Comment, the
    # line's funcgraph-abstime or None), in the order of the lines.
    log: list = field(default_factory=list)
    has_abstime: bool = False
    has_duration: bool = False
    # How the function tracer lines gave their times: 'seconds', 'ticks'
    # (trace_clock counter, uptime), 'latency' (us), 'none'.
    clocks: set = field(default_factory=set)


def names_match(open_name, return_name):
    """Whether a return can close the open frame: a nameless `}` closes
    any, a frame the capture never named takes the return's name."""
    return return_name is None or open_name in (None, return_name)


def decimal_ns(text, digits):
    """Nanoseconds in `text`, a decimal number of units of 10**-digits s,
    exactly: no float rounding."""
    whole, _, frac = text.partition('.')
    return int(whole) * 10**digits + int(frac.ljust(digits, '0')[:digits])


def seconds_ns(text):
    return decimal_ns(text, 9)


def micros_ns(text):
    return decimal_ns(text, 3)


class Parser:
    """Reads a capture line by line (feed), then hands over the Trace
    (finish)."""

    def __init__(self):
        self.trace = Trace()
        self.running = {}       # cpu -> the Task its lines belong to
        self.tasks = {}         # (cpu, comm, pid) -> Task
        self.stacks = {}        # Task -> its open Frames, index = depth
        self.handlers = [
            (BANNER, self.on_banner),
            (STACK_ENTRY, self.on_stack_entry),
            (FUNCTION_LINE, self.on_function_line),
            (LATENCY_LINE, self.on_latency_line),
            (GRAPH_LINE, self.on_graph_line),
            (BARE_CALL, self.on_bare_call),
        ]

    def feed(self, line):
        line = line.rstrip()
        for pattern, handler in self.handlers:
            m = pattern.fullmatch(line)
            if m:
                handler(m)
                return

    def finish(self):
        """The Trace, once the calls still open are abandoned: the
        capture ended before their returns."""
        for stack in self.stacks.values():
            while stack:
                self.abandon(stack.pop(), None)
        return self.trace

    # --- tasks ---------------------------------------------------------

    def task(self, cpu, comm=None, pid=None):
        """The task a line names, which now runs on cpu; or, if the line
        names none, the task running on cpu."""
        if comm is None:
            return self.running.setdefault(cpu, Task(cpu))
        task = self.tasks.setdefault((cpu, comm, pid), Task(cpu, comm, pid))
        self.running[cpu] = task
        return task

    def on_banner(self, m):
        cpu = int(m['cpu'])
        prev = self.running.get(cpu)
        if prev is not None and prev.comm is None:
            prev.comm, prev.pid = m['prev'], int(m['prev_pid'])
            self.tasks.setdefault((cpu, prev.comm, prev.pid), prev)
        self.task(cpu, m['next'], int(m['next_pid']))

    # --- function tracer -----------------------------------------------

    def on_function_line(self, m):
        task = self.task(int(m['cpu']), m['comm'], int(m['pid']))
        clock = 'seconds' if '.' in m['ts'] else 'ticks'
        # A tick of trace_clock counter or uptime is shown as 1 us.
        ts = seconds_ns(m['ts']) if clock == 'seconds' else int(m['ts']) * 1000
        self.add_event(task, ts, m['body'], clock)

    def on_latency_line(self, m):
        task = self.task(int(m['cpu']), m['comm'], int(m['pid']))
        self.add_event(task, int(m['us']) * 1000, m['body'], 'latency')

    def on_bare_call(self, m):
        self.add_event(self.task(None), None, m['body'], 'none')

    def add_event(self, task, ts, body, clock):
        self.trace.clocks.add(clock)
        call = CALL_BODY.fullmatch(body)
        event = EVENT_BODY.fullmatch(body)
        if body == '<stack trace>':
            new = Event('stack', task, ts, body, {'stack': []})
        elif event:
            new = Event('event', task, ts, event['event'],
                        {'message': event['text']})
        elif call:
            args = {'parent': call['parent']} if call['parent'] else {}
            new = Event('call', task, ts, call['func'], args)
        else:
            new = Event('event', task, ts, body, {})
        self.trace.events.append(new)

    def on_stack_entry(self, m):
        events = self.trace.events
        if events and events[-1].kind == 'stack':
            events[-1].args['stack'].append(m['sym'])

    # --- function_graph ------------------------------------------------

    def on_graph_line(self, m):
        cpu = int(m['cpu']) if m['cpu'] else None
        task = self.task(cpu, m['comm'], int(m['pid']) if m['pid'] else None)
        ts = seconds_ns(m['abstime']) if m['abstime'] else None
        dur = micros_ns(m['dur']) if m['dur'] else None
        depth = len(m['indent']) // INDENT
        self.trace.has_abstime |= ts is not None
        self.trace.has_duration |= dur is not None
        if m['entry']:
            self.on_entry(task, depth, m['entry'], ts)
        elif m['leaf']:
            self.on_leaf(task, depth, m['leaf'], dur, ts)
        elif m['ret']:
            self.on_return(task, depth, m['tail'], dur, ts)
        elif m['comment'] is not None:
            self.trace.log.append(('comment', Comment(task, m['comment']), ts))
        # An irq marker changes nothing: the handler's calls nest under
        # the interrupted call, as the trace indents them.

    def on_entry(self, task, depth, name, ts):
        stack = self.reconcile(task, depth, ts)
        frame = Frame(name, task, depth, stack[-1] if stack else None,
                      abstime_ns=ts)
        self.open(frame, ts)
        stack.append(frame)

    def on_leaf(self, task, depth, name, dur, ts):
        stack = self.reconcile(task, depth, ts)
        frame = Frame(name, task, depth, stack[-1] if stack else None,
                      abstime_ns=ts)
        self.open(frame, ts)
        self.close(frame, dur, ts)

    def on_return(self, task, depth, name, dur, ts):
        stack = self.stacks.setdefault(task, [])
        if len(stack) > depth and names_match(stack[depth].name, name):
            self.reconcile(task, depth + 1, ts)
            frame = stack.pop()
            frame.name = frame.name or name
        else:
            # Linux names the function (`} /* func */`) when the entry is
            # not the one open at that depth: here it came before the
            # capture, or the open one lost its return.
            self.reconcile(task, depth, ts)
            frame = Frame(name, task, depth, stack[-1] if stack else None,
                          entry_seen=False)
            self.open(frame, ts)
        if not frame.entry_seen and ts is not None and dur is not None:
            frame.abstime_ns = ts - dur
        self.close(frame, dur, ts)

    def reconcile(self, task, depth, ts):
        """task's stack, made depth frames deep: frames deeper lost their
        return; missing levels were entered before the capture."""
        stack = self.stacks.setdefault(task, [])
        while len(stack) > depth:
            self.abandon(stack.pop(), ts)
        while len(stack) < depth:
            frame = Frame(None, task, len(stack), stack[-1] if stack else None,
                          entry_seen=False)
            self.open(frame, ts)
            stack.append(frame)
        return stack

    def open(self, frame, ts):
        self.trace.frames.append(frame)
        if frame.parent:
            frame.parent.children.append(frame)
        self.trace.log.append(('open', frame, ts))

    def close(self, frame, dur, ts):
        frame.closed = True
        frame.dur_ns = dur
        self.trace.log.append(('close', frame, ts))

    def abandon(self, frame, ts):
        self.trace.log.append(('abandon', frame, ts))


def parse(lines):
    parser = Parser()
    for line in lines:
        parser.feed(line)
    return parser.finish()


def load(path):
    """The Trace in the file at path, or on standard input if path is None;
    exits with a message if it holds no trace line."""
    raw = open(path, 'rb') if path else sys.stdin.buffer
    # Universal newlines: a console capture ends its lines with \r\n.
    with io.TextIOWrapper(raw, encoding='utf-8', errors='replace') as text:
        trace = parse(text)
    if not trace.events and not trace.frames and not trace.log:
        sys.exit(f'{os.path.basename(sys.argv[0])}: no trace lines in '
                 f'{path or "standard input"}')
    return trace
