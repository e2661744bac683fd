"""test_trace_printk.py: trace_printk() with a constant format, as
Linux 6.1's (kernel/trace/trace_printk.c): an ftrace:bprint event whose
text is made when the trace is read, shown as `CALLER: TEXT`, alone
under printk-msg-only, as `: IP : TEXT` under raw, as a comment under
function_graph; its format is listed in printk_formats (q-g), and the
trace_printk option turns it off. `run printk N` makes the calls
(kernel/demo/printk_demo.c)."""

import re

from tracing import T, reset, cat, write, trace_lines

TEXTS = ['step 1 of 3: odd 0x9e3779b1', 'step 2 of 3: even 0x3c6ef362',
         'step 3 of 3: odd 0xdaa66d13']
LINE = re.compile(r'^ +printk-\d+ +\[\d{3}\] [.dNhH0-9]{5} +\d+\.\d{6}: '
                  r'printk_demo_step: (.*)$')


def run_printk(k):
    k.check(k.run('run printk'), 'printk: 3 trace_printk() calls\n')


def test_bprint_lines(k):
    reset(k)
    run_printk(k)
    lines = trace_lines(k)
    assert [LINE.match(l)[1] for l in lines] == TEXTS, lines
    # trace_pipe makes the same text, and consumes it
    assert [LINE.match(l)[1] for l in
            k.run(f'head -n 3 {T}/trace_pipe').splitlines()] == TEXTS
    assert trace_lines(k) == []
    reset(k)


def test_printk_formats(k):
    """Each constant format once: address, then the text with its
    newline escaped, as Linux's t_show prints it."""
    formats = cat(k, 'printk_formats').splitlines()
    for text in (r'"step %lu of %lu: %s 0x%08x\n"', r'"a=%ld\n"'):
        found = [f for f in formats if f.endswith(' : ' + text)]
        assert len(found) == 1, (text, formats)
        assert re.fullmatch(r'0x8[0-9a-f]{7} : ".*"', found[0]), found


def test_option_trace_printk_off(k):
    reset(k)
    write(k, 'options/trace_printk', '0')
    run_printk(k)
    assert trace_lines(k) == []
    write(k, 'options/trace_printk', '1')
    run_printk(k)
    assert len(trace_lines(k)) == 3
    reset(k)


def test_msg_only_and_raw(k):
    reset(k)
    run_printk(k)
    write(k, 'options/printk-msg-only', '1')
    assert trace_lines(k) == TEXTS
    write(k, 'options/printk-msg-only', '0')
    write(k, 'options/raw', '1')
    raw = trace_lines(k)
    write(k, 'options/raw', '0')
    for line, text in zip(raw, TEXTS, strict=True):
        assert re.fullmatch(r'\d+ \d+ \d+ : 8[0-9a-f]{7} : ' + text, line), raw
    reset(k)


def test_bprint_under_function_graph(k):
    reset(k)
    write(k, 'set_ftrace_filter', 'printk_demo_step')
    write(k, 'current_tracer', 'function_graph')
    run_printk(k)
    comments = [l.split('/* ')[1] for l in trace_lines(k) if '/* ' in l]
    assert comments == [t + ' */' for t in TEXTS], comments
    reset(k)


def test_bprint_format(k):
    """Linux's bprint format byte for byte (test_events checks it whole)."""
    k.check(k.run(f'ls {T}/events/ftrace/bprint'), 'format\nid\n')
    k.check(cat(k, 'events/ftrace/bprint/id'), '6\n')
    fmt = cat(k, 'events/ftrace/bprint/format')
    assert fmt.startswith('name: bprint\nID: 6\nformat:\n'), fmt
    assert fmt.endswith(
        '\tfield:unsigned long ip;\toffset:8;\tsize:8;\tsigned:0;\n'
        '\tfield:const char * fmt;\toffset:16;\tsize:8;\tsigned:0;\n'
        '\tfield:u32 buf[];\toffset:24;\tsize:0;\tsigned:0;\n\n'
        'print fmt: "%ps: %s", (void *)REC->ip, REC->fmt\n'), fmt


def test_stacktrace_option(k):
    """The stacktrace option follows each trace_printk line with the
    stack from where trace_printk returns to, up, as Linux's
    trace_vbprintk does (ftrace_trace_stack); a trace_marker line gets
    none, as in Linux."""
    reset(k)
    write(k, 'options/stacktrace', '1')
    run_printk(k)
    write(k, 'trace_marker', 'hello')
    write(k, 'options/stacktrace', '0')
    lines = trace_lines(k)
    reset(k)
    printed = [i for i, l in enumerate(lines) if LINE.match(l)]
    assert [LINE.match(lines[i])[1] for i in printed] == TEXTS, lines
    # printk_demo_step's trace_printk is its last call, a sibling call:
    # the stack has lost its frame and starts in printk_main, as a
    # frame-pointer walk on Linux would
    for i in printed:
        assert lines[i + 1].endswith(': <stack trace>'), lines
        assert lines[i + 2:i + 6] == [' => printk_main', ' => job_thread',
                                      ' => kthread_entry',
                                      ' => ret_from_fork'], lines
    assert lines[-1].endswith(': hello'), lines
