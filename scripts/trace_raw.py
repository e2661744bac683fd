#!/usr/bin/env python3
"""trace_raw.py: decode what per_cpu/cpuN/trace_pipe_raw gives, pages of
Linux's ring buffer (kernel/trace/ring_buffer.c: struct
buffer_data_page), as libtraceevent's kbuffer does, and the ftrace
events in them (the layouts of events/ftrace/NAME/format).

    python3 scripts/trace_raw.py RAW [kernel.sym]

prints one event a line: time stamp in ns, event name and fields (with
kernel.sym, an `nm -n` listing, addresses as symbols).

A page is u64 time_stamp, u64 commit (the bytes of events, with
RB_MISSED_EVENTS and RB_MISSED_STORED in bits 31 and 30), then the
events. Each starts with a u32: type_len in bits 0-4, time_delta in
bits 5-31. type_len 1..28: 4 * type_len bytes of data follow; 0: the
next u32 is the length of the data plus 4, then the data; 29: padding
(its next u32 its length, or with delta 0 the rest of the page); 30: a
time extend (the next u32 holds the delta's bits from 27 up); 31: an
absolute time stamp, in the same two words.
"""
import bisect
import struct
import sys

PAGE_SIZE = 4096
PAGE_HDR = 16
TS_SHIFT = 27
TYPE_LEN_MAX = 28
PADDING, TIME_EXTEND, TIME_STAMP = 29, 30, 31
MISSED_EVENTS, MISSED_STORED = 1 << 31, 1 << 30
COMMIT_MASK = (1 << 30) - 1

COMMON = struct.Struct('<HBBi')     # type, flags, preempt_count, pid
# id: (name, fields after the common ones, their struct format)
EVENTS = {
    1: ('function', ('ip', 'parent_ip'), '<QQ'),
    4: ('kernel_stack', ('size',), '<i4x'),
    5: ('print', ('ip',), '<Q'),
    10: ('funcgraph_exit', ('func', 'depth', 'overrun', 'calltime',
                            'rettime'), '<QiIQQ'),
    11: ('funcgraph_entry', ('func', 'depth'), '<Qi'),
}


class Event(dict):
    """One event: its fields, and ts, cpu, name."""


def _u32(page, pos):
    return struct.unpack_from('<I', page, pos)[0]


def decode_event(data):
    """The common and own fields of one event's data."""
    etype, flags, preempt, pid = COMMON.unpack_from(data)
    ev = Event(type=etype, flags=flags, preempt_count=preempt, pid=pid)
    name, fields, fmt = EVENTS.get(etype, (f'type {etype}', (), '<'))
    ev['name'] = name
    ev.update(zip(fields, struct.unpack_from(fmt, data, COMMON.size)))
    rest = data[COMMON.size + struct.calcsize(fmt):]
    if name == 'print':
        ev['buf'] = rest.split(b'\0', 1)[0].decode(errors='replace')
    elif name == 'kernel_stack':
        ev['caller'] = list(struct.unpack_from(f'<{ev["size"]}Q', rest))
    return ev


def decode_page(page):
    """(events, missed) of one page: missed is the count of events lost
    before it, -1 if lost but not counted, 0 if none."""
    if len(page) != PAGE_SIZE:
        raise ValueError(f'a page is {PAGE_SIZE} bytes, not {len(page)}')
    ts, commit = struct.unpack_from('<QQ', page)
    size = commit & COMMIT_MASK
    if size > PAGE_SIZE - PAGE_HDR:
        raise ValueError(f'commit {size} runs past the page')
    missed = 0
    if commit & MISSED_EVENTS:
        missed = -1
        if commit & MISSED_STORED:
            missed = struct.unpack_from('<Q', page, PAGE_HDR + size)[0]
    events, pos, end = [], PAGE_HDR, PAGE_HDR + size
    while pos < end:
        word = _u32(page, pos)
        type_len, delta = word & 0x1f, word >> 5
        if type_len == PADDING:
            if not delta:
                break               # the rest of the page is padding
            pos += 4 + _u32(page, pos + 4)
        elif type_len == TIME_EXTEND:
            ts += delta + (_u32(page, pos + 4) << TS_SHIFT)
            pos += 8
        elif type_len == TIME_STAMP:
            ts = delta + (_u32(page, pos + 4) << TS_SHIFT)
            pos += 8
        else:
            ts += delta
            if type_len:
                length, start = 4 * type_len, pos + 4
            else:
                length, start = _u32(page, pos + 4) - 4, pos + 8
            if start + length > end:
                raise ValueError(f'event at {pos} runs past commit')
            ev = decode_event(page[start:start + length])
            ev['ts'] = ts
            events.append(ev)
            pos = start + length
    if pos > end:
        raise ValueError('the last event runs past commit')
    return events, missed


def decode(raw, cpu=0):
    """All the events of a trace_pipe_raw capture, in order."""
    if len(raw) % PAGE_SIZE:
        raise ValueError(f'{len(raw)} bytes is not whole pages')
    events = []
    for off in range(0, len(raw), PAGE_SIZE):
        page_events, _ = decode_page(raw[off:off + PAGE_SIZE])
        for ev in page_events:
            ev['cpu'] = cpu
        events += page_events
    return events


class Symbols:
    """An `nm -n` listing: the function an address lies in."""

    def __init__(self, path):
        self.addrs, self.names = [], []
        with open(path) as f:
            for line in f:
                parts = line.split()
                if len(parts) == 3 and parts[1] in 'tTwW':
                    self.addrs.append(int(parts[0], 16))
                    self.names.append(parts[2])

    def name(self, addr):
        i = bisect.bisect_right(self.addrs, addr) - 1
        return self.names[i] if i >= 0 else hex(addr)


def main(argv):
    with open(argv[1], 'rb') as f:
        events = decode(f.read())
    syms = Symbols(argv[2]) if len(argv) > 2 else None
    for ev in events:
        fields = ' '.join(
            f'{k}={syms.name(v) if syms and k in ("ip", "parent_ip", "func") else v}'
            for k, v in ev.items() if k not in ('ts', 'name', 'type', 'cpu'))
        print(f'{ev["ts"]} {ev["name"]}: {fields}')
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
