"""rvftrace.py: gdb commands that show ftrace's state in a halted kernel.

Loaded by `make debug` (scripts/rvftrace.gdb sources it), or by hand with
`source scripts/gdb/rvftrace.py`. Like Linux's scripts/gdb (lx-ps,
lx-dmesg), each command reads the kernel's own structures through its
debug info, so what it prints is what the code sees:

    rv-tasks             every task: pid, comm, state, CPU, graph depth
    rv-ret-stack [PID]   a task's function_graph return stack (the
                         current task's without PID): function, the
                         return address it replaced, the call time
    rv-site FUNC|ADDR    a site's dyn_ftrace record: its ip, its count of
                         ops, its flags, its ops literal and the
                         instruction there now
    rv-ops               ftrace_ops_list, the ops in the order the list
                         function calls them, with their filter sizes
"""

import gdb

FLAGS = ((31, 'ENABLED'), (30, 'REGS'), (29, 'REGS_EN'), (28, 'IPMODIFY'),
         (27, 'DISABLED'), (26, 'CALL_OPS_EN'))
REF_MASK = (1 << 26) - 1
STATES = {0: 'R', 1: 'S', 2: 'X'}


def value(expr):
    return gdb.parse_and_eval(expr)


def container_of(ptr, typename, member):
    """The struct typename holding the list_head at ptr."""
    t = gdb.lookup_type(typename)
    offset = int(gdb.parse_and_eval(f'&(({typename} *)0)->{member}'))
    return gdb.Value(int(ptr) - offset).cast(t.pointer()).dereference()


def all_tasks():
    head = value('all_tasks').address
    node = head.dereference()['next']
    while int(node) != int(head):
        yield container_of(node, 'struct task', 'tasks')
        node = node.dereference()['next']


def symbol(addr):
    """NAME+0xOFF for an address, as %pS prints it (gdb's info symbol)."""
    out = gdb.execute(f'info symbol {int(addr)}', to_string=True)
    if out.startswith('No symbol'):
        return f'{int(addr):#x}'
    name, _, rest = out.partition(' in section')[0].partition(' + ')
    return f'{name}+{int(rest):#x}' if rest else f'{name}+0x0'


def task_by_pid(pid):
    for t in all_tasks():
        if int(t['pid']) == pid:
            return t
    raise gdb.GdbError(f'no task with pid {pid}')


def current_task():
    """The task on the CPU gdb is looking at: tp points at its struct cpu."""
    tp = value('$tp').cast(gdb.lookup_type('struct cpu').pointer())
    return tp.dereference()['curr'].dereference()


class Tasks(gdb.Command):
    """rv-tasks: every task, as ps would list it."""

    def __init__(self):
        super().__init__('rv-tasks', gdb.COMMAND_DATA)

    def invoke(self, arg, from_tty):
        print(f'{"PID":>5} {"COMM":<16} S CPU DEPTH')
        for t in all_tasks():
            state = STATES.get(int(t['state']), '?')
            print(f'{int(t["pid"]):>5} {t["comm"].string():<16} {state} '
                  f'{int(t["cpu"]):>3} {int(t["curr_ret_stack"]) + 1:>5}')


class RetStack(gdb.Command):
    """rv-ret-stack [PID]: a task's function_graph return stack."""

    def __init__(self):
        super().__init__('rv-ret-stack', gdb.COMMAND_DATA)

    def invoke(self, arg, from_tty):
        t = task_by_pid(int(arg, 0)) if arg.strip() else current_task()
        top = int(t['curr_ret_stack'])
        print(f'pid {int(t["pid"])} ({t["comm"].string()}): '
              f'{top + 1} entries, {int(t["trace_overrun"])} overrun')
        if not int(t['ret_stack']):
            return
        for i in range(top, -1, -1):
            e = t['ret_stack'][i]
            print(f'  [{i}] {symbol(e["func"])}  returns to '
                  f'{symbol(e["ret"])}  called at {int(e["calltime"])}')


def records():
    pg = value("'trace/ftrace.c'::ftrace_pages_start")
    while int(pg):
        for i in range(int(pg['index'])):
            yield pg['records'][i]
        pg = pg['next']


def site_address(arg):
    try:
        return int(value(arg).address if value(arg).type.code ==
                   gdb.TYPE_CODE_FUNC else value(arg))
    except gdb.error as e:
        raise gdb.GdbError(str(e))


class Site(gdb.Command):
    """rv-site FUNC|ADDR: the dyn_ftrace record of FUNC's site."""

    def __init__(self):
        super().__init__('rv-site', gdb.COMMAND_DATA)

    def invoke(self, arg, from_tty):
        if not arg.strip():
            raise gdb.GdbError('usage: rv-site FUNC|ADDR')
        addr = site_address(arg.strip())
        rec = min(records(), key=lambda r: abs(int(r['ip']) - addr),
                  default=None)
        if rec is None or abs(int(rec['ip']) - addr) > 16:
            raise gdb.GdbError(f'{arg.strip()}: no site there')
        ip, flags = int(rec['ip']), int(rec['flags'])
        names = [n for bit, n in FLAGS if flags >> bit & 1]
        print(f'site {ip:#x} ({symbol(ip)}): {flags & REF_MASK} ops, '
              f'flags {" ".join(names) or "-"}')
        literal = ip - 8
        ops = value(f'*(struct ftrace_ops **){literal}')
        if int(ops):
            name = ops.dereference()['name']
            text = name.string() if int(name) else f'{int(ops):#x}'
            print(f'ops literal at {literal:#x}: {text}')
        gdb.execute(f'x/i {ip}')


class Ops(gdb.Command):
    """rv-ops: the registered ftrace_ops, in list order."""

    def __init__(self):
        super().__init__('rv-ops', gdb.COMMAND_DATA)

    def invoke(self, arg, from_tty):
        end = int(value('&ftrace_list_end'))
        ops = value('ftrace_ops_list')
        while int(ops) != end:
            o = ops.dereference()
            h = o['func_hash'].dereference()
            n = [int(h[k]['count']) if int(h[k]) else 0
                 for k in ('filter_hash', 'notrace_hash')]
            name = o['name'].string() if int(o['name']) else '?'
            print(f'{name}: func {symbol(o["func"])}, flags '
                  f'{int(o["flags"]):#x}, filter {n[0] or "all"}, '
                  f'notrace {n[1]}')
            ops = o['next']
        print(f'ftrace_trace_function = '
              f'{symbol(value("ftrace_trace_function"))}')


Tasks()
RetStack()
Site()
Ops()
