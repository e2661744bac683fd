/*
 * pipe_test.c: selftests of pipes (kernel/fs/pipe.c): bytes come out
 * in order, the end of file once the last writer has closed, EPIPE
 * once the reader has, a writer blocked on a full pipe going on when
 * a reader (another task) makes room, and -EINTR for a marked reader.
 */
#include "kernel.h"
#include "selftest.h"
#include "vfs.h"
#include "sched.h"
#include "string.h"
#include "mm.h"

#define PIPE_SIZE	4096	/* kernel/fs/pipe.c's ring */
#define BIG		(3 * PIPE_SIZE + 100)

static void pipe_test_order_and_eof(struct kunit *t)
{
	struct file *p[2];
	char buf[16];

	if (create_pipe_files(p, 0))
		KUNIT_SKIP(t, "no memory for a pipe");
	KUNIT_EXPECT_EQ(t, vfs_write(p[1], "hello ", 6), 6);
	KUNIT_EXPECT_EQ(t, vfs_write(p[1], "pipe", 4), 4);
	KUNIT_EXPECT_EQ(t, vfs_read(p[0], buf, 3), 3);
	KUNIT_EXPECT_TRUE(t, !memcmp(buf, "hel", 3));
	KUNIT_EXPECT_EQ(t, vfs_read(p[0], buf, sizeof(buf)), 7);
	KUNIT_EXPECT_TRUE(t, !memcmp(buf, "lo pipe", 7));
	KUNIT_EXPECT_EQ(t, vfs_write(p[0], "x", 1), -EBADF);
	vfs_close(p[1]);
	KUNIT_EXPECT_EQ(t, vfs_read(p[0], buf, sizeof(buf)), 0);
	vfs_close(p[0]);
}

static void pipe_test_epipe(struct kunit *t)
{
	struct file *p[2];

	if (create_pipe_files(p, 0))
		KUNIT_SKIP(t, "no memory for a pipe");
	vfs_close(p[0]);
	KUNIT_EXPECT_EQ(t, vfs_write(p[1], "x", 1), -EPIPE);
	vfs_close(p[1]);
}

/* A shared end: each holder closes it, the last one for real. */
static void pipe_test_shared_end(struct kunit *t)
{
	struct file *p[2];
	char c;

	if (create_pipe_files(p, O_NONBLOCK))
		KUNIT_SKIP(t, "no memory for a pipe");
	get_file(p[1]);
	vfs_close(p[1]);
	KUNIT_EXPECT_EQ(t, vfs_read(p[0], &c, 1), -EAGAIN);
	vfs_close(p[1]);
	KUNIT_EXPECT_EQ(t, vfs_read(p[0], &c, 1), 0);
	vfs_close(p[0]);
}

struct reader {
	struct file *f;
	size_t got;
	bool in_order;
};

static void read_all(void *arg)
{
	struct reader *r = arg;
	char buf[100];
	ssize_t n;
	int i;

	r->in_order = true;
	while ((n = vfs_read(r->f, buf, sizeof(buf))) > 0) {
		for (i = 0; i < n; i++)
			r->in_order &= buf[i] == (char)((r->got + i) % 251);
		r->got += n;
	}
}

/* More than the ring holds: the writer sleeps until the reader reads. */
static void pipe_test_blocking_writer(struct kunit *t)
{
	struct reader r = { 0 };
	struct file *p[2];
	struct task *task;
	char *data = kmalloc(BIG);
	int i;

	if (data && create_pipe_files(p, 0)) {
		kfree(data);
		data = NULL;
	}
	if (!data)
		KUNIT_SKIP(t, "no memory for a pipe");
	for (i = 0; i < BIG; i++)
		data[i] = i % 251;
	r.f = p[0];
	task = kthread_create(read_all, &r, "pipe_reader");
	KUNIT_EXPECT_TRUE(t, task);
	if (!task) {
		vfs_close(p[0]);
		vfs_close(p[1]);
		kfree(data);
		return;
	}
	kthread_start(task);
	KUNIT_EXPECT_EQ(t, vfs_write(p[1], data, BIG), BIG);
	vfs_close(p[1]);
	kthread_wait(task);
	KUNIT_EXPECT_EQ(t, r.got, BIG);
	KUNIT_EXPECT_TRUE(t, r.in_order);
	vfs_close(p[0]);
	kfree(data);
}

/* Ctrl-C's mark wakes a reader of an empty pipe with -EINTR. */
static void pipe_test_interrupted_read(struct kunit *t)
{
	struct file *p[2];
	char c;

	if (create_pipe_files(p, 0))
		KUNIT_SKIP(t, "no memory for a pipe");
	current->sigpending = true;
	KUNIT_EXPECT_EQ(t, vfs_read(p[0], &c, 1), -EINTR);
	current->sigpending = false;
	vfs_close(p[0]);
	vfs_close(p[1]);
}

SELFTEST_SUITE(pipe,
	KUNIT_CASE(pipe_test_order_and_eof),
	KUNIT_CASE(pipe_test_epipe),
	KUNIT_CASE(pipe_test_shared_end),
	KUNIT_CASE(pipe_test_blocking_writer),
	KUNIT_CASE(pipe_test_interrupted_read));
