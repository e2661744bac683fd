"""test_trace_marker_raw.py: trace_marker_raw, as Linux 6.1's
(kernel/trace/trace.c: tracing_mark_raw_write): a write is an id of 4
bytes and binary data, one ftrace:raw_data event (id 18), shown in the
trace as trace_output.c's trace_raw_data shows it, `# ID buf: BYTES`,
every byte of Linux's event (at least 16, zeros after the data), and
under function_graph as a comment. A write under 4 bytes or over 3 KiB,
or with the markers option off, is EINVAL; over 1 KiB keeps 1 KiB. The shell's printf writes a byte at a time, so the tests write
the bytes to a file first and dd them in one write, as one would."""

import re

from tracing import T, EINVAL, reset, cat, write, trace_lines

FORMAT = '''name: raw_data
ID: 18
format:
\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;
\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;
\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;
\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;

\tfield:unsigned int id;\toffset:8;\tsize:4;\tsigned:0;
\tfield:char buf[];\toffset:12;\tsize:0;\tsigned:0;

print fmt: "id:%04x %08x", REC->id, (int)REC->buf[0]
'''
SMP = (1,)
LINE = re.compile(r'^ +(?:dd|sh)-\d+ +\[\d{3}\] [.dNhH0-9]{5} +\d+\.\d{6}: '
                  r'(.*)$')


def write_raw(k, octal, size):
    """The bytes (printf's octal escapes) in one write of size bytes."""
    k.check(k.run(f"printf '{octal}' > /tmp/raw"), '')
    return k.run(f'dd if=/tmp/raw of={T}/trace_marker_raw bs={size}')


def events(k):
    return [LINE.match(l)[1] for l in trace_lines(k)]


def test_format(k):
    k.check(cat(k, 'events/ftrace/raw_data/format'), FORMAT)


def test_write_shows_id_and_bytes(k):
    reset(k)
    write_raw(k, r'\052\000\000\000\001\002\003', 7)
    write_raw(k, r'\001\002\003\004' + r'\377' * 14, 18)
    assert events(k) == [
        '# 2a buf: 01 02 03' + ' 00' * 13,
        '# 4030201 buf:' + ' ff' * 14 + ' 00' * 6,
    ], events(k)
    reset(k)


def test_id_alone_and_raw_option(k):
    """An id alone still holds Linux's 16 bytes; under raw, the
    context is numbers and the rest the same."""
    reset(k)
    write_raw(k, r'\007\000\000\000', 4)
    write(k, 'options/raw', '1')
    lines = trace_lines(k)
    write(k, 'options/raw', '0')
    assert len(lines) == 1 and re.fullmatch(
        r'\d+ \d \d+ # 7 buf:' + ' 00' * 16, lines[0]), lines
    reset(k)


def test_errors(k):
    reset(k)
    k.check(k.run(f'echo -n abc > {T}/trace_marker_raw'), EINVAL)
    out = write_raw(k, r'\001\002\003', 3)
    assert out.startswith('dd: /sys/kernel/tracing/trace_marker_raw: '
                          'Invalid argument\n') and \
        '\n0+0 records out\n' in out, out
    write(k, 'options/markers', '0')
    k.check(k.run(f'echo -n abcd > {T}/trace_marker_raw'), EINVAL)
    write(k, 'options/markers', '1')
    k.check(k.run(f'cat {T}/trace_marker_raw'),
            'cat: /sys/kernel/tracing/trace_marker_raw: Invalid argument\n')
    assert trace_lines(k) == []
    k.check(k.run(f'echo -n abcd > {T}/trace_marker_raw'), '')
    assert events(k) == ['# 64636261 buf:' + ' 00' * 16], events(k)
    reset(k)


def test_function_graph_comment(k):
    """Under function_graph, a comment in the call tree, as Linux's
    print_graph_comment prints any other event."""
    reset(k)
    write(k, 'set_ftrace_filter', 'fib')
    write(k, 'current_tracer', 'function_graph')
    write_raw(k, r'\052\000\000\000\001\002\003', 7)
    lines = trace_lines(k)
    assert len(lines) == 1 and lines[0].endswith(
        '|  /* # 2a buf: 01 02 03' + ' 00' * 13 + ' */'), lines
    reset(k)


def test_sizes(k):
    """Over 3 KiB is EINVAL; over 1 KiB, the first 1 KiB is kept and the
    write says so, the rest is another write, another event."""
    reset(k)
    out = k.run(f'dd if=/dev/zero of={T}/trace_marker_raw bs=3073 count=1')
    assert out.startswith('dd: /sys/kernel/tracing/trace_marker_raw: '
                          'Invalid argument\n'), out
    assert trace_lines(k) == []
    k.run(f'dd if=/dev/zero of={T}/trace_marker_raw bs=1100 count=1')
    assert events(k) == ['# 0 buf:' + ' 00' * 1024,
                         '# 0 buf:' + ' 00' * 76], events(k)
    reset(k)
