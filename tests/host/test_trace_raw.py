#!/usr/bin/env python3
"""test_trace_raw.py: scripts/trace_raw.py, the decoder of trace_pipe_raw's
pages, on pages built here by hand from Linux's rules (kernel/trace/
ring_buffer.c): small and long events (type_len 0 counts its own length
word), time extends and absolute stamps, padding with and without a
length, the lost-events flags, and pages it must refuse. Prints KTAP.

    python3 tests/host/test_trace_raw.py
"""
import os
import struct
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, '..', '..', 'scripts'))
import trace_raw  # noqa: E402
import ktap

PAGE = 4096


def header(type_len, delta):
    return struct.pack('<I', type_len | delta << 5)


def function(ip, parent, pid=7, flags=0):
    return struct.pack('<HBBiQQ', 1, flags, 0, pid, ip, parent)


def small(delta, data):
    assert len(data) % 4 == 0 and len(data) <= 112
    return header(len(data) // 4, delta) + data


def long_event(delta, data):
    return header(0, delta) + struct.pack('<I', len(data) + 4) + data


def page(ts, events, flags=0, tail=b''):
    body = b''.join(events)
    head = struct.pack('<QQ', ts, len(body) | flags)
    return (head + body + tail).ljust(PAGE, b'\0')


def expect(cond, what):
    if not cond:
        raise AssertionError(what)


def test_small_events_and_deltas():
    p = page(1000, [small(0, function(0x80200000, 0x80200100)),
                    small(25, function(0x80200010, 0x80200000, pid=9))])
    events, missed = trace_raw.decode_page(p)
    expect([(e['ts'], e['name'], e['pid'], e['ip']) for e in events] ==
           [(1000, 'function', 7, 0x80200000),
            (1025, 'function', 9, 0x80200010)], events)
    expect(missed == 0, missed)


def test_long_event_counts_its_length_word():
    text = b'x' * 200 + b'\n\0\0\0'
    data = struct.pack('<HBBiQ', 5, 0, 0, 3, 0x80201234) + text
    events, _ = trace_raw.decode_page(page(5, [long_event(0, data)]))
    expect(events[0]['name'] == 'print', events)
    expect(events[0]['buf'] == 'x' * 200 + '\n', events[0]['buf'])


def test_time_extend_and_time_stamp():
    delta = (3 << 27) + 12345
    extend = header(30, delta & ((1 << 27) - 1)) + struct.pack('<I',
                                                                delta >> 27)
    stamp = header(31, 77) + struct.pack('<I', 2)
    p = page(10, [small(0, function(1, 2)), extend,
                  small(5, function(3, 4)), stamp, small(1, function(5, 6))])
    ts = [e['ts'] for e in trace_raw.decode_page(p)[0]]
    expect(ts == [10, 10 + delta + 5, 77 + (2 << 27) + 1], ts)


def test_padding():
    # A discarded event: array[0] counts itself, as in rb_reset_tail.
    discarded = header(29, 1) + struct.pack('<I', 28) + b'\xff' * 24
    p = page(0, [small(0, function(1, 2)), discarded,
                 small(3, function(3, 4)), header(29, 0), b'\xff' * 12])
    events, _ = trace_raw.decode_page(p)
    expect([e['ip'] for e in events] == [1, 3], events)


def test_graph_events():
    ent = struct.pack('<HBBiQi4x', 11, 0, 0, 6, 0x80200000, 2)
    ret = struct.pack('<HBBiQiIQQ', 10, 1, 0, 6, 0x80200000, 2, 0, 100,
                      2600)
    events, _ = trace_raw.decode_page(page(0, [small(0, ent),
                                               small(2500, ret)]))
    expect(events[0]['depth'] == 2 and events[0]['name'] ==
           'funcgraph_entry', events)
    expect(events[1]['rettime'] - events[1]['calltime'] == 2500, events)


def test_lost_events():
    ev = [small(0, function(1, 2))]
    stored = page(0, ev, 3 << 30, struct.pack('<Q', 42))
    expect(trace_raw.decode_page(stored)[1] == 42, 'stored count')
    expect(trace_raw.decode_page(page(0, ev, 1 << 31))[1] == -1,
           'count not stored')


def test_refuses_broken_pages():
    for bad, why in ((page(0, [])[:100], 'short page'),
                     (struct.pack('<QQ', 0, PAGE).ljust(PAGE, b'\0'),
                      'commit past the page'),
                     (page(0, [small(0, function(1, 2))[:-8]]),
                      'event past commit')):
        try:
            trace_raw.decode_page(bad)
        except ValueError:
            continue
        raise AssertionError(f'accepted: {why}')


def main():
    return ktap.run(ktap.tests_in(globals()))


if __name__ == '__main__':
    sys.exit(main())
