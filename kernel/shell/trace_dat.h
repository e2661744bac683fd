/*
 * trace_dat.h: trace-cmd's trace.dat file, written by trace_dat.c for
 * `trace-cmd record` and `extract` (version 6: trace-cmd.dat.v6(5)) and
 * read back by trace_dat_read.c for `trace-cmd report`.
 */
#ifndef _TRACE_DAT_H
#define _TRACE_DAT_H

/* The first 10 bytes of every trace.dat. */
#define TRACE_DAT_MAGIC		"\x17\x08\x44tracing"

struct shell_out;
struct name_list;

int trace_dat_write(const char *path);
int trace_dat_report(struct shell_out *out, const char *path);
/* The subdirectories of dir, sorted, each with a '/' after its name. */
int trace_dat_list_dirs(const char *dir, struct name_list *l);
/* `trace-cmd list` (trace_cmd_list.c). */
int trace_cmd_list(struct shell_out *out, int argc, char **argv);

#endif
