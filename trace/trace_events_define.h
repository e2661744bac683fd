/*
 * trace_events_define.h: what trace/ makes of each TRACE_EVENT
 * (Linux's include/trace/trace_events.h, in fewer stages). Include it
 * after defining TRACE_INCLUDE_EVENTS to a file that includes the event
 * headers; it reads them once per stage:
 *
 *   1. struct trace_event_raw_CLASS: the record (common header, fields,
 *      then the strings of __string fields);
 *   2. trace_event_fields_CLASS[]: each field's type, name, size and
 *      sign, for the format file and the filters (offsets at boot);
 *   3. trace_event_print_CLASS(): the line, from TP_printk;
 *   4. print_fmt_CLASS: TP_printk as text, as the format file shows it;
 *   5. trace_event_raw_event_CLASS(): the probe, which fills a record
 *      and hands it to trace_event_commit;
 *   6. the class and, per DEFINE_EVENT, the event.
 */
#include "trace_events.h"

/* The event headers were read once already, for their tracepoints. */
#undef TRACE_EVENT
#undef DECLARE_EVENT_CLASS
#undef DEFINE_EVENT
#undef PARAMS
#define __stringify_1(x...)	#x
#define __stringify(x...)	__stringify_1(x)
#define PARAMS(args...)		args
#define TP_STRUCT__entry(args...)	args
#define TP_fast_assign(args...)		args
#define TRACE_HEADER_MULTI_READ

#define TRACE_EVENT(name, proto, args, tstruct, assign, print)		\
	DECLARE_EVENT_CLASS(name, PARAMS(proto), PARAMS(args),		\
			    PARAMS(tstruct), PARAMS(assign), PARAMS(print)) \
	DEFINE_EVENT(name, name, PARAMS(proto), PARAMS(args))

/* ---- 1. the record ---------------------------------------------------- */
#define __field(type, item)		type item;
#define __array(type, item, len)	type item[len];
#define __string(item, src)		u32 __data_loc_##item;
#define DECLARE_EVENT_CLASS(name, proto, args, tstruct, assign, print)	\
	struct trace_event_raw_##name {					\
		struct trace_event_common common;			\
		tstruct							\
		char __data[];						\
	};
#define DEFINE_EVENT(template, name, proto, args)
#include TRACE_INCLUDE_EVENTS
#undef __field
#undef __array
#undef __string
#undef DECLARE_EVENT_CLASS

/* ---- 2. the fields ---------------------------------------------------- */
#define is_signed_type(type)	(((type)(-1)) < (type)1)
#define __field(_type, _item)						\
	{ .type = #_type, .name = #_item, .size = sizeof(_type),	\
	  .align = __alignof__(_type), .is_signed = is_signed_type(_type) },
#define __array(_type, _item, _len)					\
	{ .type = #_type "[" __stringify(_len) "]", .name = #_item,	\
	  .size = sizeof(_type) * (_len), .align = __alignof__(_type),	\
	  .is_signed = is_signed_type(_type),				\
	  .filter_type = FILTER_STATIC_STRING },
#define __string(_item, _src)						\
	{ .type = "__data_loc char[]", .name = #_item, .size = 4,	\
	  .align = 4, .filter_type = FILTER_DYN_STRING },
#define DECLARE_EVENT_CLASS(name, proto, args, tstruct, assign, print)	\
	static struct trace_event_field trace_event_fields_##name[] = {	\
		tstruct { 0 }						\
	};
#include TRACE_INCLUDE_EVENTS
#undef __field
#undef __array
#undef __string
#undef DECLARE_EVENT_CLASS

/* ---- 3. the printer --------------------------------------------------- */
#define __entry field
#define __get_str(item)							\
	((const char *)field + (field->__data_loc_##item & 0xffff))
#define __print_flags(flag, delim, flag_array...)			\
	trace_print_flags_seq(scratch, delim, flag,			\
		(const struct trace_print_flags[]){ flag_array, { 0, NULL } })
#define TP_printk(fmt, args...)	fmt "\n", args
#define DECLARE_EVENT_CLASS(name, proto, args, tstruct, assign, print)	\
	static void trace_event_print_##name(struct seq_buf *s,		\
					     const void *rec, char *scratch) \
	{								\
		const struct trace_event_raw_##name *field = rec;	\
									\
		seq_printf(s, print);					\
	}
#include TRACE_INCLUDE_EVENTS
#undef __entry
#undef __get_str
#undef __print_flags
#undef TP_printk
#undef DECLARE_EVENT_CLASS

/* ---- 4. the print fmt, as Linux's format file shows it ---------------- */
#define __entry REC
#define __get_str(item)	__get_str(item)
#define __print_flags(flag, delim, flag_array...)			\
	__print_flags(flag, delim, flag_array)
#define TP_printk(fmt, args...)	__stringify(fmt) ", " __stringify(args)
#define DECLARE_EVENT_CLASS(name, proto, args, tstruct, assign, print)	\
	static const char print_fmt_##name[] = print;
#include TRACE_INCLUDE_EVENTS
#undef __entry
#undef __get_str
#undef __print_flags
#undef TP_printk
#undef DECLARE_EVENT_CLASS

/* ---- 5. the probe ----------------------------------------------------- */
#define __field(type, item)
#define __array(type, item, len)
/* A string's length counts its NUL; what does not fit is cut. */
#define __string(item, src)						\
	const char *__str_##item = (src);				\
	u32 __len_##item = min(strlen(__str_##item) + 1,		\
			       (size_t)(TRACE_EVENT_MAX_SIZE -		\
					sizeof(*__entry) - __data_size)); \
	__data_size += __len_##item;
#define __assign_str(dst, src)						\
	do {								\
		__entry->__data_loc_##dst = (u32)(sizeof(*__entry) +	\
			__data_off) | __len_##dst << 16;		\
		memcpy(__entry->__data + __data_off, __str_##dst,	\
		       __len_##dst);					\
		__entry->__data[__data_off + __len_##dst - 1] = 0;	\
		__data_off += __len_##dst;				\
	} while (0)
#define DECLARE_EVENT_CLASS(name, proto, args, tstruct, assign, print)	\
	static notrace void trace_event_raw_event_##name(void *__data,	\
							 proto)		\
	{								\
		struct trace_event_call *call = __data;			\
		u64 __buf[TRACE_EVENT_MAX_SIZE / 8];			\
		struct trace_event_raw_##name *__entry = (void *)__buf;	\
		u32 __data_size = 0, __data_off = 0;			\
									\
		if (trace_event_ignore(call))				\
			return;						\
		{							\
			tstruct						\
			{ assign }					\
			(void)__data_off;				\
			trace_event_commit(call, __entry,		\
					   sizeof(*__entry) + __data_size); \
		}							\
	}
#include TRACE_INCLUDE_EVENTS
#undef __field
#undef __array
#undef __string
#undef __assign_str
#undef DECLARE_EVENT_CLASS

/* ---- 6. the classes and the events -------------------------------------- */
#define DECLARE_EVENT_CLASS(name, proto, args, tstruct, assign, _print)	\
	static const struct trace_event_class trace_event_class_##name = { \
		.fields = trace_event_fields_##name,			\
		.size = sizeof(struct trace_event_raw_##name),		\
		.probe = (void *)trace_event_raw_event_##name,			\
		.print = trace_event_print_##name,			\
		.print_fmt = print_fmt_##name,				\
	};
#undef DEFINE_EVENT
#define DEFINE_EVENT(template, _name, proto, args)			\
	static struct trace_event_call event_##_name = {		\
		.system = __stringify(TRACE_SYSTEM),			\
		.name = #_name,						\
		.class = &trace_event_class_##template,			\
		.tp = &__tracepoint_##_name,				\
		.order = __COUNTER__,					\
	};								\
	trace_event_section(_name) = &event_##_name;
#include TRACE_INCLUDE_EVENTS
#undef DECLARE_EVENT_CLASS
#undef DEFINE_EVENT
#undef TRACE_EVENT
