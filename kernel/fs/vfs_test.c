/*
 * vfs_test.c: selftests of the VFS, ramfs and seq_buf: lookup, the
 * errors Linux gives, files created, written, truncated and appended,
 * removal, /dev/null, and generated text read in pieces or failing
 * for memory. Each case works in its own ramfs directory under /tmp
 * and removes it.
 */
#include "kernel.h"
#include "selftest.h"
#include "vfs.h"
#include "string.h"
#include "mm.h"

#define TEST_DIR	"vfs_selftest"
#define BIG_FILE	(64 * 1024)

static struct inode *make_test_dir(void)
{
	return ramfs_mount(vfs_lookup(NULL, "/tmp"), TEST_DIR);
}

static int walk_error(const char *path)
{
	struct inode *inode;

	return vfs_walk(NULL, path, &inode);
}

static void vfs_test_lookup(struct kunit *t)
{
	struct inode *root = vfs_root(), *sys = vfs_lookup(NULL, "/sys");

	KUNIT_EXPECT_TRUE(t, sys && S_ISDIR(sys->mode));
	KUNIT_EXPECT_TRUE(t, vfs_lookup(NULL, "/") == root);
	KUNIT_EXPECT_TRUE(t, vfs_lookup(NULL, "/..") == root);
	KUNIT_EXPECT_TRUE(t, vfs_lookup(NULL, "//sys///") == sys);
	KUNIT_EXPECT_TRUE(t, vfs_lookup(NULL, "/tmp/../sys/./kernel/..") == sys);
	KUNIT_EXPECT_TRUE(t, vfs_lookup(sys, "kernel/tracing") ==
			  vfs_lookup(NULL, "/sys/kernel/tracing"));
	KUNIT_EXPECT_TRUE(t, vfs_lookup(sys, "..") == root);
	KUNIT_EXPECT_TRUE(t, vfs_lookup(NULL, "/proc/sys/kernel") != NULL);
	KUNIT_EXPECT_TRUE(t, vfs_lookup(NULL, "/nonexistent") == NULL);
}

static void vfs_test_path(struct kunit *t)
{
	char buf[PATH_MAX];

	KUNIT_EXPECT_EQ(t, vfs_path(vfs_root(), buf, sizeof(buf)), 1);
	KUNIT_EXPECT_STREQ(t, buf, "/");
	KUNIT_EXPECT_EQ(t, vfs_path(vfs_lookup(NULL, "/sys/kernel/tracing"),
				    buf, sizeof(buf)), 19);
	KUNIT_EXPECT_STREQ(t, buf, "/sys/kernel/tracing");
	KUNIT_EXPECT_EQ(t, vfs_path(vfs_lookup(NULL, "/sys/kernel"), buf, 8),
			-ENAMETOOLONG);
}

/* The whole file, read a few bytes at a time, into buf. */
static ssize_t read_file(const char *path, char *buf, size_t size)
{
	struct file *f;
	ssize_t n, len = 0;
	int err = vfs_open(NULL, path, O_RDONLY, &f);

	if (err)
		return err;
	while ((n = vfs_read(f, buf + len, min((size_t)3, size - 1 - len))) > 0)
		len += n;
	vfs_close(f);
	buf[len] = 0;
	return n < 0 ? n : len;
}

static void vfs_test_ramfs(struct kunit *t)
{
	struct inode *dir = make_test_dir();
	const char *path = "/tmp/" TEST_DIR "/file";
	char buf[64];

	KUNIT_EXPECT_TRUE(t, dir != NULL);
	KUNIT_EXPECT_EQ(t, vfs_write_file(path, 0, "x"), -ENOENT);
	KUNIT_EXPECT_EQ(t, vfs_write_file(path, O_CREAT | O_TRUNC, "hello\n"), 0);
	KUNIT_EXPECT_EQ(t, read_file(path, buf, sizeof(buf)), 6);
	KUNIT_EXPECT_STREQ(t, buf, "hello\n");
	KUNIT_EXPECT_EQ(t, vfs_write_file(path, O_APPEND, "world\n"), 0);
	KUNIT_EXPECT_EQ(t, read_file(path, buf, sizeof(buf)), 12);
	KUNIT_EXPECT_STREQ(t, buf, "hello\nworld\n");
	KUNIT_EXPECT_EQ(t, vfs_write_file(path, 0, "J"), 0);
	KUNIT_EXPECT_EQ(t, read_file(path, buf, sizeof(buf)), 12);
	KUNIT_EXPECT_STREQ(t, buf, "Jello\nworld\n");
	KUNIT_EXPECT_EQ(t, vfs_write_file(path, O_TRUNC, "bye"), 0);
	KUNIT_EXPECT_EQ(t, read_file(path, buf, sizeof(buf)), 3);
	KUNIT_EXPECT_STREQ(t, buf, "bye");
	KUNIT_EXPECT_EQ(t, vfs_remove(dir), 0);
}

/* A file that grows past its first allocation many times over. */
static void vfs_test_ramfs_grow(struct kunit *t)
{
	struct inode *dir = make_test_dir();
	const char *path = "/tmp/" TEST_DIR "/big";
	char line[] = "0123456789abcdef";
	int i;

	for (i = 0; i < 1000; i++)
		KUNIT_EXPECT_EQ(t, vfs_write_file(path, O_CREAT | O_APPEND, line), 0);
	KUNIT_EXPECT_EQ(t, vfs_lookup(dir, "big")->size, 16000);
	KUNIT_EXPECT_EQ(t, memcmp(vfs_lookup(dir, "big")->data + 15984, line,
				  16), 0);
	KUNIT_EXPECT_EQ(t, vfs_remove(dir), 0);
}

/* `> file` gives a big file's memory back, as truncate does on Linux. */
static void vfs_test_ramfs_truncate_frees(struct kunit *t)
{
	struct inode *dir = make_test_dir();
	const char *path = "/tmp/" TEST_DIR "/big";
	char *text = kmalloc(BIG_FILE + 1);
	size_t empty;

	KUNIT_EXPECT_TRUE(t, dir && text);
	if (!dir || !text) {
		kfree(text);
		return;
	}
	memset(text, 'x', BIG_FILE);
	text[BIG_FILE] = 0;
	KUNIT_EXPECT_EQ(t, vfs_write_file(path, O_CREAT, ""), 0);
	empty = mm_bytes_in_use();
	KUNIT_EXPECT_EQ(t, vfs_write_file(path, 0, text), 0);
	KUNIT_EXPECT_TRUE(t, mm_bytes_in_use() >= empty + BIG_FILE);
	KUNIT_EXPECT_EQ(t, vfs_write_file(path, O_TRUNC, ""), 0);
	KUNIT_EXPECT_EQ(t, vfs_lookup(dir, "big")->size, 0);
	KUNIT_EXPECT_EQ(t, mm_bytes_in_use(), empty);
	kfree(text);
	KUNIT_EXPECT_EQ(t, vfs_remove(dir), 0);
}

static void vfs_test_walk_errors(struct kunit *t)
{
	struct inode *dir = make_test_dir();
	char long_name[NAME_MAX + 8];

	memset(long_name, 'n', sizeof(long_name) - 1);
	long_name[sizeof(long_name) - 1] = 0;
	vfs_write_file("/tmp/" TEST_DIR "/f", O_CREAT, "data");
	KUNIT_EXPECT_EQ(t, walk_error("/nonexistent/x"), -ENOENT);
	KUNIT_EXPECT_EQ(t, walk_error(""), -ENOENT);
	KUNIT_EXPECT_EQ(t, walk_error("/tmp/" TEST_DIR "/f/x"), -ENOTDIR);
	KUNIT_EXPECT_EQ(t, walk_error("/tmp/" TEST_DIR "/f/"), -ENOTDIR);
	KUNIT_EXPECT_EQ(t, walk_error("/tmp/" TEST_DIR "/f/.."), -ENOTDIR);
	KUNIT_EXPECT_EQ(t, walk_error(long_name), -ENAMETOOLONG);
	KUNIT_EXPECT_EQ(t, walk_error("/tmp/" TEST_DIR "/f"), 0);
	KUNIT_EXPECT_EQ(t, vfs_remove(dir), 0);
}

static ssize_t read_only_read(struct file *file, char *buf, size_t n)
{
	return 0;
}

static ssize_t swallow_write(struct file *file, const char *buf, size_t n)
{
	return n;
}

static const struct file_operations read_only_fops = {
	.read = read_only_read,
};

static const struct file_operations read_write_fops = {
	.read = read_only_read,
	.write = swallow_write,
};

static void vfs_test_open_errors(struct kunit *t)
{
	struct inode *dir = make_test_dir();
	struct file *f;

	vfs_create(dir, "ro", 0444, &read_only_fops, NULL);
	vfs_create(dir, "mode_ro", 0444, &read_write_fops, NULL);
	vfs_create(dir, "rw", 0644, &read_write_fops, NULL);
	KUNIT_EXPECT_EQ(t, vfs_open(NULL, "/tmp", O_WRONLY, &f), -EISDIR);
	/* Root writes a 0444 file; one without write() fails the write. */
	KUNIT_EXPECT_EQ(t, vfs_write_file("/tmp/" TEST_DIR "/ro", 0, "x"), -EINVAL);
	KUNIT_EXPECT_EQ(t, vfs_write_file("/tmp/" TEST_DIR "/mode_ro", 0, "x"),
			0);
	KUNIT_EXPECT_EQ(t, vfs_write_file("/tmp/" TEST_DIR "/rw", 0, "x"), 0);
	KUNIT_EXPECT_EQ(t, vfs_write_file("/sys/kernel/tracing/new", O_CREAT, "x"),
			-EACCES);
	KUNIT_EXPECT_EQ(t, vfs_write_file("/tmp/nodir/new", O_CREAT, "x"), -ENOENT);
	KUNIT_EXPECT_EQ(t, vfs_write_file("/tmp/" TEST_DIR "/new/", O_CREAT, "x"),
			-EISDIR);
	KUNIT_EXPECT_EQ(t, vfs_open(NULL, "/tmp", O_RDONLY, &f), 0);
	KUNIT_EXPECT_EQ(t, vfs_read(f, NULL, 1), -EISDIR);
	KUNIT_EXPECT_EQ(t, vfs_write(f, "x", 1), -EBADF);
	KUNIT_EXPECT_EQ(t, vfs_close(f), 0);
	KUNIT_EXPECT_EQ(t, vfs_remove(dir), 0);
}

static int release_refuses(struct inode *inode, struct file *file)
{
	return -EINVAL;
}

static const struct file_operations refusing_fops = {
	.read = read_only_read,
	.release = release_refuses,
};

static void vfs_test_tree(struct kunit *t)
{
	struct inode *dir = make_test_dir(), *sub;
	struct file *f;

	KUNIT_EXPECT_TRUE(t, make_test_dir() == NULL);
	KUNIT_EXPECT_TRUE(t, vfs_mkdir(dir, "a/b") == NULL);
	KUNIT_EXPECT_TRUE(t, vfs_mkdir(dir, "..") == NULL);
	sub = vfs_mkdir(dir, "sub");
	KUNIT_EXPECT_TRUE(t, vfs_create(sub, "f", 0444, &refusing_fops, NULL));
	KUNIT_EXPECT_EQ(t, vfs_open(sub, "f", O_RDONLY, &f), 0);
	KUNIT_EXPECT_EQ(t, vfs_remove(dir), -EBUSY);
	KUNIT_EXPECT_EQ(t, vfs_close(f), -EINVAL);
	KUNIT_EXPECT_EQ(t, vfs_remove(vfs_root()), -EBUSY);
	KUNIT_EXPECT_EQ(t, vfs_remove(dir), 0);
	KUNIT_EXPECT_TRUE(t, vfs_lookup(NULL, "/tmp/" TEST_DIR) == NULL);
}

static void vfs_test_seq_buf(struct kunit *t)
{
	struct seq_buf s;
	struct file f = { .pos = 0 };
	char buf[8];
	int i;

	KUNIT_EXPECT_EQ(t, seq_init(&s, 16), 0);
	for (i = 0; i < 100; i++)
		seq_printf(&s, "%03d,", i);
	seq_puts(&s, "end");
	KUNIT_EXPECT_EQ(t, s.len, 403);
	KUNIT_EXPECT_TRUE(t, !s.overflow);
	KUNIT_EXPECT_EQ(t, seq_read(&s, &f, buf, 4), 4);
	KUNIT_EXPECT_EQ(t, memcmp(buf, "000,", 4), 0);
	f.pos = 398;
	KUNIT_EXPECT_EQ(t, seq_read(&s, &f, buf, sizeof(buf)), 5);
	KUNIT_EXPECT_EQ(t, memcmp(buf, "9,end", 5), 0);
	KUNIT_EXPECT_EQ(t, seq_read(&s, &f, buf, sizeof(buf)), 0);
	seq_free(&s);
}

static void vfs_test_dev_null(struct kunit *t)
{
	char buf[8];
	struct file *f;

	KUNIT_EXPECT_EQ(t, vfs_write_file("/dev/null", O_TRUNC, "gone\n"), 0);
	KUNIT_EXPECT_EQ(t, vfs_open(NULL, "/dev/null", O_RDWR, &f), 0);
	KUNIT_EXPECT_EQ(t, vfs_write(f, "abc", 3), 3);
	KUNIT_EXPECT_EQ(t, vfs_read(f, buf, sizeof(buf)), 0);
	KUNIT_EXPECT_EQ(t, vfs_close(f), 0);
}

/* Text that could not be made is an error, not a short file. */
static void vfs_test_seq_buf_nomem(struct kunit *t)
{
	struct seq_buf s;
	struct file f = { .pos = 0 };
	char buf[8];

	KUNIT_EXPECT_EQ(t, seq_init(&s, 16), 0);
	seq_puts(&s, "partial");
	mm_fail_every(1);
	seq_printf(&s, "%0100d", 0);
	mm_fail_every(0);
	KUNIT_EXPECT_TRUE(t, s.overflow);
	KUNIT_EXPECT_EQ(t, seq_read(&s, &f, buf, sizeof(buf)), -ENOMEM);
	seq_free(&s);
	KUNIT_EXPECT_EQ(t, seq_init(&s, 16), 0);
	seq_set_nomem(&s);
	KUNIT_EXPECT_EQ(t, seq_read(&s, &f, buf, sizeof(buf)), -ENOMEM);
	seq_free(&s);
}

SELFTEST_SUITE(vfs,
	KUNIT_CASE(vfs_test_lookup),
	KUNIT_CASE(vfs_test_path),
	KUNIT_CASE(vfs_test_ramfs),
	KUNIT_CASE(vfs_test_ramfs_grow),
	KUNIT_CASE(vfs_test_ramfs_truncate_frees),
	KUNIT_CASE(vfs_test_walk_errors),
	KUNIT_CASE(vfs_test_open_errors),
	KUNIT_CASE(vfs_test_tree),
	KUNIT_CASE(vfs_test_seq_buf),
	KUNIT_CASE(vfs_test_dev_null),
	KUNIT_CASE(vfs_test_seq_buf_nomem));
