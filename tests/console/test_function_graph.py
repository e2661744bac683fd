"""test_function_graph.py: the function_graph tracer as a user sees it,
held against Linux 6.1's output (shared/reference/linux-6.1: 02, 03, e,
e2, f1-f4, g1-g4, h1, h2, m4, n): call trees drawn as a reader would,
the graph filters, max_graph_depth, tracing_thresh, each funcgraph
option, the interrupt markers, an unfiltered SMP run whose every return
has its entry, the filters beside other ftrace users, stack traces
under the graph, and the frame-pointer test's panic."""

import re

import harness
from tracing import T, reset, cat, write

HEADER = ('# tracer: function_graph\n#\n'
          '# CPU  DURATION                  FUNCTION CALLS\n'
          '# |     |   |                     |   |   |   |\n')

# A line with the default options: CPU, duration and its mark (or
# blanks), then the call indented two spaces a level.
LINE = re.compile(r'^ (\d)\) (?:([ +!#*@$]) (\d+(?:\.\d+)?) us +|( {14}))'
                  r'\|  ((?:  )*)(\S.*)$')
IRQ = re.compile(r'^ \d\)   (==========>|<==========) \|$')
MARKS = ((1e9, '$'), (1e8, '@'), (1e7, '*'), (1e6, '#'), (1e5, '!'),
         (1e4, '+'))


def reset_graph(k):
    for name, value in (('set_graph_function', ''),
                        ('set_graph_notrace', ''), ('max_graph_depth', '0'),
                        ('tracing_thresh', '0')):
        write(k, name, value)
    for opt in ('duration', 'cpu', 'overhead', 'irqs'):
        write(k, f'options/funcgraph-{opt}', '1')
    for opt in ('proc', 'abstime', 'tail'):
        write(k, f'options/funcgraph-{opt}', '0')
    reset(k)


def mark(ns):
    return next((m for limit, m in MARKS if ns > limit), ' ')


def parse(line):
    """(cpu, depth, text, duration in us or None) of a call line."""
    m = LINE.match(line)
    assert m, f'not a function_graph line: {line!r}'
    cpu, sign, usecs, blank, indent, text = m.groups()
    if blank is None:
        # The duration is cut, not rounded: its mark may sit just above.
        low, high = float(usecs) * 1000, (float(usecs) + 0.01) * 1000
        assert sign in (mark(low), mark(high)), line
        assert len(m.group(0).split('|')[0]) == 18, line
    return int(cpu), len(indent) // 2, text, None if blank else float(usecs)


def calls(out):
    """The call lines of a trace, headers and interrupt markers left out."""
    return [l for l in out.splitlines()
            if not l.startswith('#') and not IRQ.match(l)]


def traced(k, cmd, clean=lambda out: True, tries=3):
    """Run cmd on an empty buffer and return the trace. A tick landing
    inside the call tree, or a move to another CPU, changes its shape:
    then run it again, up to tries times."""
    for _ in range(tries):
        write(k, 'trace', '')
        k.run(cmd, timeout=60)
        out = cat(k, 'trace')
        body = [l for l in out.splitlines() if not l.startswith('#')]
        cpus = {l[:4] for l in body if re.match(r' \d\) ', l)}
        if '==========>' not in out and len(cpus) <= 1 and clean(out):
            return out
    return out


def fib_tree(n, depth=0):
    """fib(n)'s calls as a reader draws them: (depth, text)."""
    if n < 2:
        return [(depth, 'fib();')]
    return ([(depth, 'fib() {')] + fib_tree(n - 1, depth + 1) +
            fib_tree(n - 2, depth + 1) + [(depth, '}')])


def check_durations_nest(lines):
    """Every call lasted at least as long as the calls it made."""
    stack = [0.0]
    for _, depth, text, usecs in map(parse, lines):
        if text.endswith('{'):
            stack.append(0.0)
        elif text.startswith('}'):
            children = stack.pop()
            assert usecs >= children - 1e-6, (usecs, children)
            stack[-1] += usecs
        else:
            stack[-1] += usecs


def test_empty_header(k):
    reset_graph(k)
    write(k, 'current_tracer', 'function_graph')
    write(k, 'tracing_on', '0')
    write(k, 'trace', '')
    k.check(cat(k, 'trace'), HEADER)
    assert cat(k, 'trace_options').endswith(
        'funcgraph-cpu\nfuncgraph-overhead\nnofuncgraph-proc\n'
        'funcgraph-duration\nnofuncgraph-abstime\nfuncgraph-irqs\n'
        'nofuncgraph-tail\nsleep-time\ngraph-time\n')
    reset_graph(k)


def test_fib_call_tree(k):
    """`run fib 6` under set_graph_function fib: the 25 calls, nested."""
    reset_graph(k)
    write(k, 'set_graph_function', 'fib')
    k.check(cat(k, 'set_graph_function'), 'fib\n')
    write(k, 'current_tracer', 'function_graph')
    out = traced(k, 'run fib 6')
    assert out.startswith(HEADER)
    lines = calls(out)
    tree = [parse(l)[1:3] for l in lines]
    k.check('\n'.join(f'{d} {t}' for d, t in tree),
            '\n'.join(f'{d} {t}' for d, t in fib_tree(6)))
    assert sum(t.startswith('fib()') for _, t in tree) == 25
    assert sum(t == 'fib();' for _, t in tree) == 13
    check_durations_nest(lines)
    reset_graph(k)


def test_sort_subtree(k):
    """set_graph_function sort: its whole subtree and nothing else."""
    reset_graph(k)
    write(k, 'set_graph_function', 'sort')
    write(k, 'current_tracer', 'function_graph')
    tree = [parse(l)[1:3] for l in calls(traced(k, 'run sort 20'))]
    # Heap sort of 20: 10 sift_downs to build the heap, 19 to sort.
    k.check(repr(tree), repr([(0, 'sort() {')] + [(1, 'sift_down();')] * 29 +
                             [(0, '}')]))
    reset_graph(k)


def test_graph_notrace(k):
    reset_graph(k)
    write(k, 'set_graph_function', 'sort')
    write(k, 'set_graph_notrace', "'sift*'")
    k.check(cat(k, 'set_graph_notrace'), 'sift_down\n')
    write(k, 'current_tracer', 'function_graph')
    tree = [parse(l)[1:3] for l in calls(traced(k, 'run sort 20'))]
    k.check(repr(tree), repr([(0, 'sort();')]))
    write(k, 'set_graph_notrace', '!sift_down', append=True)
    k.check(cat(k, 'set_graph_notrace'), '#### no functions disabled ####\n')
    assert len(calls(traced(k, 'run sort 20'))) == 31
    reset_graph(k)


def test_ftrace_filter_limits_graph(k):
    """set_ftrace_filter chooses the sites function_graph hooks."""
    reset_graph(k)
    write(k, 'set_ftrace_filter', 'fib_main')
    write(k, 'current_tracer', 'function_graph')
    k.check(cat(k, 'enabled_functions'), 'fib_main (1)      \n')
    tree = [parse(l)[1:3] for l in calls(traced(k, 'run fib 5'))]
    k.check(repr(tree), repr([(0, 'fib_main();')]))
    write(k, 'set_ftrace_filter', "'fib_main fib'")
    k.check(cat(k, 'enabled_functions'), 'fib (1)      \nfib_main (1)      \n')
    write(k, 'max_graph_depth', '2')
    tree = [parse(l)[1:3] for l in calls(traced(k, 'run fib 5'))]
    k.check(repr(tree), repr([(0, 'fib_main() {'), (1, 'fib();'), (0, '}')]))
    reset_graph(k)


def test_set_ftrace_pid(k):
    """set_ftrace_pid keeps other tasks' calls out of the graph too."""
    reset_graph(k)
    write(k, 'set_graph_function', 'fib')
    write(k, 'set_ftrace_pid', '1')
    write(k, 'current_tracer', 'function_graph')
    write(k, 'trace', '')
    k.run('run fib 5')
    k.check(''.join(calls(cat(k, 'trace'))), '')
    write(k, 'set_ftrace_pid', '')
    assert len(calls(traced(k, 'run fib 5'))) == len(fib_tree(5))
    reset_graph(k)


def test_max_graph_depth_1(k):
    """Unfiltered, depth 1 (reference h2): only outermost calls."""
    reset_graph(k)
    write(k, 'max_graph_depth', '1')
    k.check(cat(k, 'max_graph_depth'), '1\n')
    write(k, 'current_tracer', 'function_graph')
    write(k, 'trace', '')
    k.run('run fib 5')
    write(k, 'tracing_on', '0')
    lines = [l for l in calls(cat(k, 'trace')) if not l.startswith(' --') and
             l.strip() and not re.match(r'^ \d\) +\S+-\d+ +=> ', l)]
    parsed = [parse(l) for l in lines]
    assert parsed and all(depth == 0 for _, depth, _, _ in parsed), lines
    # the shell's loop runs each line through sh_run, outermost here
    assert ('sh_run() {' in [p[2] for p in parsed] or
            'sh_run();' in [p[2] for p in parsed]), lines
    reset_graph(k)


def test_tracing_thresh(k):
    """Reference h1: returns only, each at least tracing_thresh us."""
    reset_graph(k)
    write(k, 'set_ftrace_filter', 'fib')
    write(k, 'current_tracer', 'function_graph')
    write(k, 'tracing_thresh', '50')
    k.check(cat(k, 'tracing_thresh'), '50\n')
    write(k, 'trace', '')
    k.run('run fib 12')
    lines = calls(cat(k, 'trace'))
    assert lines
    for line in lines:
        _, depth, text, usecs = parse(line)
        k.check(text, '} /* fib */')
        assert usecs >= 50, line
    assert parse(lines[-1])[1] == 0
    write(k, 'tracing_thresh', '0')
    tree = [parse(l)[1:3] for l in calls(traced(k, 'run fib 3'))]
    k.check(repr(tree), repr(fib_tree(3)))
    reset_graph(k)


def test_lost_entry_named(k):
    """References 03, g1: a return whose entry was overwritten names its
    function. fib(15)'s 1973 calls take 79 KB; the buffer keeps 11."""
    reset_graph(k)
    write(k, 'buffer_size_kb', '8')
    write(k, 'set_graph_function', 'fib')
    write(k, 'current_tracer', 'function_graph')
    lines = calls(traced(k, 'run fib 15'))
    cpu, depth, text, _ = parse(lines[-1])
    assert (depth, text) == (0, '} /* fib */'), lines[-1]
    assert [parse(l)[1:3] for l in lines].count((0, 'fib() {')) == 0
    write(k, 'buffer_size_kb', '1408')
    reset_graph(k)


def fib2_trace(k):
    """fib(2)'s three calls in the buffer; returns the CPU they ran on."""
    reset_graph(k)
    write(k, 'set_graph_function', 'fib')
    write(k, 'current_tracer', 'function_graph')
    lines = calls(traced(k, 'run fib 2'))
    k.check(repr([parse(l)[1:3] for l in lines]), repr(fib_tree(2)))
    return parse(lines[0])[0]


def option(k, name, value):
    write(k, f'options/funcgraph-{name}', str(value))
    return cat(k, 'trace').splitlines()


def test_option_duration_cpu_overhead(k):
    """References f2, f3, f4: the columns each option removes."""
    cpu = fib2_trace(k)
    lines = option(k, 'duration', 0)
    k.check('\n'.join(lines[2:]),
            '# CPU               FUNCTION CALLS\n'
            '# |                 |   |   |   |\n' +
            f' {cpu}) fib() {{\n {cpu})   fib();\n {cpu})   fib();\n {cpu}) }}')
    write(k, 'options/funcgraph-duration', '1')
    lines = option(k, 'cpu', 0)
    k.check('\n'.join(lines[2:4]),
            '#  DURATION                  FUNCTION CALLS\n'
            '#   |   |                     |   |   |   |')
    k.check(lines[4], '              |  fib() {')
    assert re.match(r'^[ +!#*@$] [\d.]+ us +\|    fib\(\);$', lines[5])
    write(k, 'options/funcgraph-cpu', '1')
    lines = option(k, 'overhead', 0)
    assert all(re.match(rf'^ {cpu}\)   [\d.]+ us +\|  ', l)
               for l in lines[5:]), lines
    reset_graph(k)


def center(task):
    """COMM-PID as funcgraph-proc shows it: comm cut to 7, in 14 columns."""
    comm, pid = task.rsplit('-', 1)
    text = f'{comm[:7]}-{pid}'
    pad = max(14 - len(text), 0)
    return ' ' * (pad // 2) + text + ' ' * (pad - pad // 2)


def test_option_proc_abstime_tail(k):
    """Reference f1: time, task and the name after every brace."""
    cpu = fib2_trace(k)
    lines = option(k, 'proc', 1)
    k.check('\n'.join(lines[2:4]),
            '# CPU  TASK/PID         DURATION                  FUNCTION CALLS\n'
            '# |     |    |           |   |                     |   |   |   |')
    task = re.match(rf'^ {cpu}\) (.{{14}}) \| ', lines[4])[1]
    assert task.strip().startswith('fib-'), lines[4]
    k.check(task, center(task.strip()))
    lines = option(k, 'abstime', 1)
    k.check('\n'.join(lines[2:4]),
            '#     TIME        CPU  TASK/PID         DURATION'
            '                  FUNCTION CALLS\n'
            '#      |          |     |    |           |   |'
            '                     |   |   |   |')
    assert all(re.match(rf'^ +\d+\.\d{{6}} \|   {cpu}\) .{{14}} \| ', l)
               for l in lines[4:]), lines
    lines = option(k, 'tail', 1)
    assert lines[-1].endswith('|  } /* fib */'), lines[-1]
    reset_graph(k)


def test_comm_truncated(k):
    """Reference g4: comm cut to 7 characters (pingpong -> pingpon)."""
    reset_graph(k)
    write(k, 'set_graph_function', 'pingpong_main')
    write(k, 'options/funcgraph-proc', '1')
    write(k, 'current_tracer', 'function_graph')
    write(k, 'trace', '')
    k.run('run pingpong 1')
    line = calls(cat(k, 'trace'))[0]
    m = re.match(r'^ \d\) (.{14}) \|               \|  pingpong_main\(\) \{$',
                 line)
    assert m and m[1].strip().startswith('pingpon-'), line
    k.check(m[1], center(m[1].strip()))
    reset_graph(k)


def test_trace_marker_comment(k):
    """Reference n: trace_marker text is a comment in the call tree."""
    reset_graph(k)
    write(k, 'set_graph_function', 'fib')
    write(k, 'current_tracer', 'function_graph')
    for _ in range(3):      # again if a tick lands in a fib call
        write(k, 'trace', '')
        k.run('run fib 1')
        write(k, 'trace_marker', "'hello world'")
        k.run('run fib 1')
        out = cat(k, 'trace')
        if '==========>' not in out:
            break
    texts = [l.split('|  ', 1)[1] for l in calls(out) if '|  ' in l]
    k.check('\n'.join(texts), 'fib();\n/* hello world */\nfib();')
    assert re.search(r'^ \d\)               \|  /\* hello world \*/$',
                     out, re.M)
    reset_graph(k)


def irq_blocks(out):
    """Each CPU's whole ==========> ... <========== blocks, as lines."""
    blocks, cur = [], {}
    for line in out.splitlines():
        cpu, m = line[:4], IRQ.match(line)
        if m and m[1] == '==========>':
            cur[cpu] = []
        elif m and cur.get(cpu) is not None:
            blocks.append(cur.pop(cpu))
        elif cur.get(cpu) is not None:
            cur[cpu].append(line)
    return blocks


def test_irq_markers(k):
    """do_irq, in .irqentry.text, framed as on x86; funcgraph-irqs 0
    hides it at print time and stops recording inside it."""
    reset_graph(k)
    write(k, 'set_graph_function', 'do_irq')
    write(k, 'current_tracer', 'function_graph')
    write(k, 'trace', '')
    k.run('run fib 20', timeout=60)
    write(k, 'tracing_on', '0')
    out = cat(k, 'trace')
    blocks = irq_blocks(out)
    assert len(blocks) >= out.count('==========>') - k.smp > 0, out[-2000:]
    for block in blocks:
        texts = [parse(l)[2] for l in block]
        assert texts == ['do_irq();'] or (texts[0] == 'do_irq() {' and
                                          texts[-1] == '}'), block
    assert any('scheduler_tick();' in [parse(l)[2] for l in b]
               for b in blocks), blocks
    hidden = '\n'.join(option(k, 'irqs', 0))
    assert '=====' not in hidden and 'do_irq() {' not in hidden, hidden
    write(k, 'tracing_on', '1')
    write(k, 'trace', '')
    k.run('run fib 20', timeout=60)
    write(k, 'tracing_on', '0')
    assert 'scheduler_tick' not in cat(k, 'trace')
    blocks = irq_blocks('\n'.join(option(k, 'irqs', 1)))
    assert blocks and all(len(b) == 1 and parse(b[0])[2] == 'do_irq();'
                          for b in blocks), blocks
    reset_graph(k)


def fits(stack, depth, text):
    """Does a call at depth go on top of the open calls? An interrupt
    may be drawn one level off: one that came between a call's entry
    being counted and being written shows before it, one deeper; one
    that came between a return being counted and being written shows
    at the returning call's level (Linux's fgraph has both windows)."""
    if not stack:
        return True
    expected = stack[-1][0] + 1
    irq = text.startswith('do_irq()')
    return depth == expected or (irq and abs(depth - expected) == 1)


def check_balanced(out):
    """Per task, every return closes its own entry. Before each CPU's
    first event the others' may be missing: start after the latest."""
    lines = [l for l in out.splitlines() if not l.startswith('#')]
    line = re.compile(r'^ *(\d+\.\d{6}) \|   (\d)\) (.{14}) \| (.{14})\|  '
                      r'((?:  )*)(\S.*)$')
    first = {}
    for l in lines:
        m = line.match(l)
        if m:
            first.setdefault(m[2], float(m[1]))
    start = max(first.values())
    open_calls, checked = {}, 0
    for l in lines:
        m = line.match(l)
        if not m or float(m[1]) < start:
            continue
        checked += 1
        task, depth, text = m[3].strip(), len(m[5]) // 2, m[6]
        if task == '<idle>-0':      # one idle task per CPU
            task += m[2]
        stack = open_calls.setdefault(task, [])
        if text.startswith('}'):
            if stack:
                top = stack.pop()
                assert depth == top[0], l
                assert text in ('}', f'}} /* {top[1]} */'), l
            continue
        assert fits(stack, depth, text), l
        if text.endswith('() {'):
            stack.append((depth, text[:-4]))
    return checked


def test_unfiltered_smp_balanced(k):
    """Every function, every CPU, preemption and interrupts: `run sort
    100000` completes, each return has its entry, none went unmatched.
    Recording stops where sort ends (is_sorted:traceoff), so the buffer
    holds its last calls."""
    reset_graph(k)
    write(k, 'buffer_size_kb', '32')
    write(k, 'set_ftrace_filter', 'is_sorted:traceoff')
    for opt in ('proc', 'abstime'):
        write(k, f'options/funcgraph-{opt}', '1')
    write(k, 'current_tracer', 'function_graph')
    out = k.run('run sort 100000', timeout=120)
    assert out.startswith('sort: 100000 numbers sorted'), out
    k.check(cat(k, 'tracing_on'), '0\n')
    # The tasks still hooked (stoppers asleep in sleep_on) follow.
    out = k.run('fgraph')
    assert out.startswith('ret_stack: 50 entries of 40 bytes per task\n'
                          'unbalanced returns: 0\n'), out
    out = cat(k, 'trace')
    assert 'sift_down();' in out
    assert check_balanced(out) > 400
    write(k, 'set_ftrace_filter', '!is_sorted:traceoff', append=True)
    write(k, 'buffer_size_kb', '1408')
    reset_graph(k)


STACK_TRACER = '/proc/sys/kernel/stack_tracer_enabled'
# A function a line of the trace names, with funcgraph-tail on.
NAMED = re.compile(r'([\w.]+)\(\)|/\* (\S+) \*/')
# Other ftrace users, each enabling sites of its own: started, stopped.
OTHER_USERS = (
    ('stack tracer', [f'echo 1 > {STACK_TRACER}'],
     [f'echo 0 > {STACK_TRACER}']),
    ('probe', [f'echo fib_main:traceon >> {T}/set_ftrace_filter'],
     [f"echo '!fib_main:traceon' >> {T}/set_ftrace_filter"]),
    ('klp', ['klp enable'], ['klp disable']),
    ('stack_trace_filter', [f'echo fib_main > {T}/stack_trace_filter',
                            f'echo 1 > {STACK_TRACER}'],
     [f'echo 0 > {STACK_TRACER}', f'echo > {T}/stack_trace_filter']),
)


def graphed(k, workload):
    """The functions that a graph of the workload's commands names."""
    write(k, 'trace', '')
    for cmd in workload:
        k.run(cmd, timeout=60)
    write(k, 'tracing_on', '0')
    out = cat(k, 'trace')
    write(k, 'tracing_on', '1')
    return [entry or ret for entry, ret in NAMED.findall(out)]


def test_filter_holds_beside_other_users(k):
    """set_ftrace_filter chooses what function_graph draws even where
    another ftrace user enabled more sites (Linux checks the graph's own
    hashes at entry: ftrace_graph_entry_test)."""
    reset_graph(k)
    write(k, 'options/funcgraph-tail', '1')
    write(k, 'set_ftrace_filter', 'fib')
    write(k, 'current_tracer', 'function_graph')
    strays = {}
    for name, start, stop in OTHER_USERS:
        for cmd in start:
            k.run(cmd)
        names = graphed(k, ['run fib 2', 'klp status'])
        for cmd in stop:
            k.run(cmd)
        strays[name] = (names.count('fib'),
                        sorted({n for n in names if n != 'fib'}))
    # fib 2: fib() {, two fib();, and } /* fib */
    k.check(repr(strays),
            repr({name: (4, []) for name, _, _ in OTHER_USERS}))
    reset_graph(k)


def test_notrace_holds_beside_the_stack_tracer(k):
    """set_ftrace_notrace too: the stack tracer hooks every function."""
    reset_graph(k)
    write(k, 'options/funcgraph-tail', '1')
    write(k, 'set_ftrace_notrace', 'fib')
    write(k, 'current_tracer', 'function_graph')
    k.run(f'echo 1 > {STACK_TRACER}')
    names = graphed(k, ['run fib 2'])
    k.run(f'echo 0 > {STACK_TRACER}')
    assert 'fib_main' in names, names
    k.check(f"fib drawn {names.count('fib')} times", 'fib drawn 0 times')
    reset_graph(k)


def stack_traces(out):
    """The <stack trace> events of a trace, each a list of functions."""
    traces = []
    for line in out.splitlines():
        if line.endswith('<stack trace>'):
            traces.append([])
        elif line.startswith(' => ') and traces:
            traces[-1].append(line[4:])
    return traces


def test_stack_traces_name_real_callers(k):
    """A stack trace under function_graph shows the real callers, never
    return_to_handler: sh_write tail-calls its out-of-line part, both
    hooked, so the part's caller is cmd_echo. (The stack tracer's table
    is the selftest stack_caller_through_tail_call's.)"""
    reset_graph(k)
    write(k, 'current_tracer', 'function_graph')
    write(k, 'set_ftrace_filter', "'sh_write*:stacktrace'", append=True)
    write(k, 'trace', '')
    k.check(k.run('echo hi'), 'hi\n')
    write(k, 'tracing_on', '0')
    traces = stack_traces(cat(k, 'trace'))
    write(k, 'set_ftrace_filter', "'!sh_write*:stacktrace'", append=True)
    reset_graph(k)
    assert traces, 'no stack trace'
    k.check(repr([t[:2] for t in traces]),
            repr([[t[0], 'cmd_echo'] for t in traces]))
    assert 'return_to_handler' not in repr(traces), traces


def test_frame_pointer_panic(k):
    """HAVE_FUNCTION_GRAPH_FP_TEST: a return with a corrupted frame
    pointer panics, naming the function; QEMU exits with a failure."""
    fp = harness.Kernel(smp=k.smp, append='fgraph_fp_test')
    try:
        fp.launch()
        status = fp.wait(60)
    finally:
        fp.close()
    assert status != 0, status
    assert re.search(r'Kernel panic - not syncing: Bad frame pointer: '
                     r'expected [0-9a-f]+, received [0-9a-f]+\n'
                     r'  from func ftrace_test_bad_frame return to [0-9a-f]+',
                     fp.output), fp.tail()
    assert 'went unseen' not in fp.output


def test_latency_format(k):
    """latency-format under function_graph, as Linux's
    print_graph_headers_flags and print_graph_lat_fmt: the latency
    header, the flag columns' legend and `||||` in the column header,
    and ` ..... | ` after the CPU on each line; nothing while empty."""
    reset_graph(k)
    write(k, 'set_graph_function', 'fib')
    write(k, 'current_tracer', 'function_graph')
    write(k, 'options/latency-format', '1')
    k.check(cat(k, 'trace'), '# tracer: function_graph\n#\n')
    k.run('run fib 1')
    out = cat(k, 'trace').splitlines()
    k.check('\n'.join(out[2:4]),
            '# function_graph latency trace v1.1.5 on rvftrace\n'
            '# ----------------------------------------------------'
            '----------------')
    legend = out.index('#      _-----=> irqs-off        ')
    k.check('\n'.join(out[legend:legend + 7]),
            '#      _-----=> irqs-off        \n'
            '#     / _----=> need-resched    \n'
            '#    | / _---=> hardirq/softirq \n'
            '#    || / _--=> preempt-depth   \n'
            '#    ||| /                      \n'
            '# CPU||||     DURATION                  FUNCTION CALLS\n'
            '# |  ||||      |   |                     |   |   |   |')
    assert re.match(r'^ 0\)  \.\.\.\.\. \| [ +!#*@$] *\d+\.\d{3} us +\|  fib\(\);$',
                    out[legend + 7]), out[legend + 7:]
    write(k, 'options/latency-format', '0')
    reset_graph(k)
