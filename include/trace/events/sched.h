/*
 * sched events (Linux's include/trace/events/sched.h): the scheduler's
 * tracepoints, each declared once for the core's call sites and for
 * trace/'s record, format and print (include/tracepoint.h).
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM sched

#if !defined(_TRACE_SCHED_H) || defined(TRACE_HEADER_MULTI_READ)
#define _TRACE_SCHED_H

#include "tracepoint.h"
#include "string.h"

/*
 * prev_state as Linux reports it: a task's state bits, or
 * TASK_REPORT_MAX for one preempted while it could run (`R+`). Written
 * out as Linux's, so that the format file's print fmt reads as Linux's.
 */
#ifndef TASK_REPORT
#define TASK_REPORT_RUNNING	0x00000000
#define TASK_REPORT_SLEEPING	0x00000001	/* S */
#define TASK_REPORT_ZOMBIE	0x00000020	/* Z */
#define TASK_REPORT (0x00000000 | 0x00000001 | 0x00000002 | 0x00000004 | 0x00000008 | 0x00000010 | 0x00000020 | 0x00000040)
#define TASK_REPORT_MAX ((TASK_REPORT + 1) << 1)

static inline long __trace_sched_switch_state(bool preempt,
					      const struct task *p)
{
	if (preempt)
		return TASK_REPORT_MAX;
	if (p->state == TASK_SLEEPING)
		return TASK_REPORT_SLEEPING;
	if (p->state == TASK_DEAD)
		return TASK_REPORT_ZOMBIE;
	return TASK_REPORT_RUNNING;
}
#endif

DECLARE_EVENT_CLASS(sched_wakeup_template,
	TP_PROTO(struct task *p),
	TP_ARGS(p),
	TP_STRUCT__entry(
		__array(char, comm, TASK_COMM_LEN)
		__field(pid_t, pid)
		__field(int, prio)
		__field(int, target_cpu)
	),
	TP_fast_assign(
		memcpy(__entry->comm, p->comm, TASK_COMM_LEN);
		__entry->pid = p->pid;
		__entry->prio = p->prio;
		__entry->target_cpu = p->cpu;
	),
	TP_printk("comm=%s pid=%d prio=%d target_cpu=%03d",
		  __entry->comm, __entry->pid, __entry->prio,
		  __entry->target_cpu)
);

/* Before the task is put on the run queue: on the waker's CPU. */
DEFINE_EVENT(sched_wakeup_template, sched_waking,
	TP_PROTO(struct task *p),
	TP_ARGS(p));

/* Once it is on the run queue, able to run. */
DEFINE_EVENT(sched_wakeup_template, sched_wakeup,
	TP_PROTO(struct task *p),
	TP_ARGS(p));

/* A new task's first wake-up (kthread_start). */
DEFINE_EVENT(sched_wakeup_template, sched_wakeup_new,
	TP_PROTO(struct task *p),
	TP_ARGS(p));

TRACE_EVENT(sched_switch,
	TP_PROTO(bool preempt, struct task *prev, struct task *next),
	TP_ARGS(preempt, prev, next),
	TP_STRUCT__entry(
		__array(char, prev_comm, TASK_COMM_LEN)
		__field(pid_t, prev_pid)
		__field(int, prev_prio)
		__field(long, prev_state)
		__array(char, next_comm, TASK_COMM_LEN)
		__field(pid_t, next_pid)
		__field(int, next_prio)
	),
	TP_fast_assign(
		memcpy(__entry->prev_comm, prev->comm, TASK_COMM_LEN);
		__entry->prev_pid = prev->pid;
		__entry->prev_prio = prev->prio;
		__entry->prev_state = __trace_sched_switch_state(preempt, prev);
		memcpy(__entry->next_comm, next->comm, TASK_COMM_LEN);
		__entry->next_pid = next->pid;
		__entry->next_prio = next->prio;
	),
	TP_printk("prev_comm=%s prev_pid=%d prev_prio=%d prev_state=%s%s ==> next_comm=%s next_pid=%d next_prio=%d",
		__entry->prev_comm, __entry->prev_pid, __entry->prev_prio,
		(__entry->prev_state & (TASK_REPORT_MAX - 1)) ?
		  __print_flags(__entry->prev_state & (TASK_REPORT_MAX - 1), "|",
				{ 0x00000001, "S" }, { 0x00000002, "D" }, { 0x00000004, "T" },
				{ 0x00000008, "t" }, { 0x00000010, "X" }, { 0x00000020, "Z" },
				{ 0x00000040, "P" }, { 0x00000080, "I" }) :
		  "R",
		__entry->prev_state & TASK_REPORT_MAX ? "+" : "",
		__entry->next_comm, __entry->next_pid, __entry->next_prio)
);

/* A task the scheduler runs on another CPU than it last ran on. */
TRACE_EVENT(sched_migrate_task,
	TP_PROTO(struct task *p, int dest_cpu),
	TP_ARGS(p, dest_cpu),
	TP_STRUCT__entry(
		__array(char, comm, TASK_COMM_LEN)
		__field(pid_t, pid)
		__field(int, prio)
		__field(int, orig_cpu)
		__field(int, dest_cpu)
	),
	TP_fast_assign(
		memcpy(__entry->comm, p->comm, TASK_COMM_LEN);
		__entry->pid = p->pid;
		__entry->prio = p->prio;
		__entry->orig_cpu = p->cpu;
		__entry->dest_cpu = dest_cpu;
	),
	TP_printk("comm=%s pid=%d prio=%d orig_cpu=%d dest_cpu=%d",
		  __entry->comm, __entry->pid, __entry->prio,
		  __entry->orig_cpu, __entry->dest_cpu)
);

DECLARE_EVENT_CLASS(sched_process_template,
	TP_PROTO(struct task *p),
	TP_ARGS(p),
	TP_STRUCT__entry(
		__array(char, comm, TASK_COMM_LEN)
		__field(pid_t, pid)
		__field(int, prio)
	),
	TP_fast_assign(
		memcpy(__entry->comm, p->comm, TASK_COMM_LEN);
		__entry->pid = p->pid;
		__entry->prio = p->prio;
	),
	TP_printk("comm=%s pid=%d prio=%d",
		  __entry->comm, __entry->pid, __entry->prio)
);

/* A task reaped by kthread_wait. */
DEFINE_EVENT(sched_process_template, sched_process_free,
	TP_PROTO(struct task *p),
	TP_ARGS(p));

/* A task in kthread_exit. */
DEFINE_EVENT(sched_process_template, sched_process_exit,
	TP_PROTO(struct task *p),
	TP_ARGS(p));

/* kthread_create: the creating task is the parent. */
TRACE_EVENT(sched_process_fork,
	TP_PROTO(struct task *parent, struct task *child),
	TP_ARGS(parent, child),
	TP_STRUCT__entry(
		__array(char, parent_comm, TASK_COMM_LEN)
		__field(pid_t, parent_pid)
		__array(char, child_comm, TASK_COMM_LEN)
		__field(pid_t, child_pid)
	),
	TP_fast_assign(
		memcpy(__entry->parent_comm, parent->comm, TASK_COMM_LEN);
		__entry->parent_pid = parent->pid;
		memcpy(__entry->child_comm, child->comm, TASK_COMM_LEN);
		__entry->child_pid = child->pid;
	),
	TP_printk("comm=%s pid=%d child_comm=%s child_pid=%d",
		__entry->parent_comm, __entry->parent_pid,
		__entry->child_comm, __entry->child_pid)
);

#endif
