/*
 * trace_event_ids.h: the ids of ftrace's own events, numbered as
 * Linux 6.1 numbers them (enum trace_type in kernel/trace/trace.h).
 * They are the ID lines of events/ftrace/NAME/format and the
 * common_type of each event in trace_pipe_raw and trace.dat, so
 * trace-cmd and libtraceevent read rvftrace's events by Linux's
 * numbers. rvftrace's ring buffer keeps the same number in the 5 type
 * bits of each event's first word (trace/trace.h: struct trace_entry).
 */
#ifndef _TRACE_EVENT_IDS_H
#define _TRACE_EVENT_IDS_H

enum trace_type {
	__TRACE_FIRST_TYPE = 0,
	TRACE_FN,		/*  1 ftrace/function */
	TRACE_CTX,
	TRACE_WAKE,
	TRACE_STACK,		/*  4 ftrace/kernel_stack */
	TRACE_PRINT,		/*  5 ftrace/print */
	TRACE_BPRINT,
	TRACE_MMIO_RW,
	TRACE_MMIO_MAP,
	TRACE_BRANCH,
	TRACE_GRAPH_RET,	/* 10 ftrace/funcgraph_exit */
	TRACE_GRAPH_ENT,	/* 11 ftrace/funcgraph_entry */
	TRACE_USER_STACK,
	TRACE_BLK,
	TRACE_BPUTS,
	TRACE_HWLAT,
	TRACE_OSNOISE,
	TRACE_TIMERLAT,
	TRACE_RAW_DATA,		/* 18 ftrace/raw_data */
	TRACE_FUNC_REPEATS,
	__TRACE_LAST_TYPE,
};

#endif
