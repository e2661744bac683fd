/*
 * 9p_test.c: selftests of the virtqueue and the 9P client, on the host
 * folder the test runner shares (tests/run_all.py): messages of every
 * kind there and back, a file larger than one message, the host's
 * errors as errnos, the VFS's files at /mnt/host, each allocation of
 * those failing in turn; and after each, every fid clunked and every
 * descriptor back on the free list. Without a host folder the suite is
 * skipped.
 */
#include "kernel.h"
#include "selftest.h"
#include "9p.h"
#include "virtio.h"
#include "vfs.h"
#include "mm.h"
#include "string.h"
#include "fault_inject.h"

#define TEST_DIR	"p9_selftest"
#define BIG		(100 * 1024)	/* over one 64 KiB message */
#define SWEEP_MAX	200	/* allocations the operations may make */

static struct p9_client *c;
static int fids_at_start;

static void p9_test_init(struct kunit *t)
{
	c = p9_host_client();
	if (!c)
		KUNIT_SKIP(t, "no host folder at /mnt/host");
	fids_at_start = c->fids_live;
}

/* Nothing held between requests: the fids and the descriptors. */
static void expect_all_released(struct kunit *t)
{
	struct virtqueue *vq = c->trans;

	KUNIT_EXPECT_EQ(t, c->fids_live, fids_at_start);
	KUNIT_EXPECT_EQ(t, vq->num_free, vq->num);
	KUNIT_EXPECT_EQ(t, vq->last_used_idx, vq->avail->idx);
}

static int walk1(const char *name, u32 *fid)
{
	return p9_client_walk(c, c->root_fid, &name, 1, fid);
}

static void fill(u8 *buf, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		buf[i] = i * 7 + i / 251;
}

static ssize_t write_all(u32 fid, const u8 *buf, size_t n)
{
	size_t done = 0;
	ssize_t w;

	while (done < n && (w = p9_client_write(c, fid, done, buf + done,
						 n - done)) > 0)
		done += w;
	return done;
}

static ssize_t read_all(u32 fid, u8 *buf, size_t n)
{
	size_t done = 0;
	ssize_t r;

	while (done < n && (r = p9_client_read(c, fid, done, buf + done,
						n - done)) > 0)
		done += r;
	return done;
}

/* Is name among the entries of the open directory fid? */
static bool dir_has(u32 fid, const char *name)
{
	u8 *data = kmalloc(p9_client_iosize(c));
	struct p9_buf b = { .data = data };
	struct p9_qid qid;
	char entry[NAME_MAX];
	u64 offset = 0;
	ssize_t n;
	bool found = false;

	while (data && !found && (n = p9_client_readdir(c, fid, offset, data,
					p9_client_iosize(c))) > 0) {
		b.size = n;
		b.pos = 0;
		while (b.pos < b.size && !p9_parse_dirent(&b, &qid, &offset,
							 entry, sizeof(entry)))
			found |= !strcmp(entry, name);
	}
	kfree(data);
	return found;
}

/* Tmkdir, Tlcreate, Twrite, Tread, Tgetattr, Treaddir, Tunlinkat. */
static void p9_test_round_trip(struct kunit *t)
{
	const char *path[2] = { TEST_DIR, "f" };
	u8 *out = kmalloc(BIG), *in = kzalloc(BIG);
	struct p9_attr attr;
	u32 dir, fid;

	KUNIT_EXPECT_TRUE(t, out && in);
	if (!out || !in)
		goto free;
	fill(out, BIG);
	KUNIT_EXPECT_EQ(t, p9_client_mkdir(c, c->root_fid, TEST_DIR, 0755), 0);
	KUNIT_EXPECT_EQ(t, walk1(TEST_DIR, &dir), 0);
	KUNIT_EXPECT_EQ(t, p9_client_walk(c, dir, NULL, 0, &fid), 0);
	KUNIT_EXPECT_EQ(t, p9_client_create_file(c, fid, "f", O_RDWR, 0644), 0);
	KUNIT_EXPECT_EQ(t, write_all(fid, out, BIG), BIG);
	KUNIT_EXPECT_EQ(t, p9_client_clunk(c, fid), 0);

	KUNIT_EXPECT_EQ(t, p9_client_walk(c, c->root_fid, path, 2, &fid), 0);
	KUNIT_EXPECT_EQ(t, p9_client_getattr(c, fid, &attr), 0);
	KUNIT_EXPECT_EQ(t, attr.size, BIG);
	KUNIT_EXPECT_EQ(t, p9_client_open(c, fid, O_RDONLY), 0);
	KUNIT_EXPECT_EQ(t, read_all(fid, in, BIG), BIG);
	KUNIT_EXPECT_TRUE(t, !memcmp(in, out, BIG));
	KUNIT_EXPECT_EQ(t, p9_client_clunk(c, fid), 0);

	KUNIT_EXPECT_EQ(t, p9_client_walk(c, dir, NULL, 0, &fid), 0);
	KUNIT_EXPECT_EQ(t, p9_client_open(c, fid, O_RDONLY), 0);
	KUNIT_EXPECT_TRUE(t, dir_has(fid, "f"));
	KUNIT_EXPECT_EQ(t, p9_client_clunk(c, fid), 0);

	KUNIT_EXPECT_EQ(t, p9_client_unlinkat(c, dir, "f", 0), 0);
	KUNIT_EXPECT_EQ(t, p9_client_clunk(c, dir), 0);
	KUNIT_EXPECT_EQ(t, p9_client_unlinkat(c, c->root_fid, TEST_DIR,
					      P9_AT_REMOVEDIR), 0);
	KUNIT_EXPECT_EQ(t, walk1(TEST_DIR, &fid), -ENOENT);
	expect_all_released(t);
free:
	kfree(out);
	kfree(in);
}

/* The host's errors come back as Linux's errnos, and hold no fid. */
static void p9_test_host_errors(struct kunit *t)
{
	u32 dir, fid;

	KUNIT_EXPECT_EQ(t, walk1("no such file", &fid), -ENOENT);
	KUNIT_EXPECT_EQ(t, p9_client_mkdir(c, c->root_fid, TEST_DIR, 0755), 0);
	KUNIT_EXPECT_EQ(t, p9_client_mkdir(c, c->root_fid, TEST_DIR, 0755),
			-EEXIST);
	KUNIT_EXPECT_EQ(t, walk1(TEST_DIR, &dir), 0);
	KUNIT_EXPECT_EQ(t, p9_client_walk(c, dir, NULL, 0, &fid), 0);
	KUNIT_EXPECT_EQ(t, p9_client_create_file(c, fid, "f", O_WRONLY, 0644),
			0);
	KUNIT_EXPECT_EQ(t, p9_client_clunk(c, fid), 0);
	KUNIT_EXPECT_EQ(t, p9_client_unlinkat(c, c->root_fid, TEST_DIR,
					      P9_AT_REMOVEDIR), -ENOTEMPTY);
	KUNIT_EXPECT_EQ(t, p9_client_unlinkat(c, c->root_fid, TEST_DIR, 0),
			-EISDIR);
	KUNIT_EXPECT_EQ(t, p9_client_unlinkat(c, dir, "f", 0), 0);
	KUNIT_EXPECT_EQ(t, p9_client_unlinkat(c, dir, "f", 0), -ENOENT);
	KUNIT_EXPECT_EQ(t, p9_client_clunk(c, dir), 0);
	KUNIT_EXPECT_EQ(t, p9_client_unlinkat(c, c->root_fid, TEST_DIR,
					      P9_AT_REMOVEDIR), 0);
	expect_all_released(t);
}

/* The VFS's way: O_CREAT, write, read back, lookups, a listing. */
static void p9_test_vfs_files(struct kunit *t)
{
	static const char text[] = "written through the VFS\n";
	char buf[64] = "";
	struct file *f;
	struct inode *inode;

	KUNIT_EXPECT_EQ(t, vfs_write_file("/mnt/host/" TEST_DIR, O_CREAT |
					  O_TRUNC, text), 0);
	KUNIT_EXPECT_EQ(t, vfs_open(NULL, "/mnt/host/" TEST_DIR, O_RDONLY,
				    &f), 0);
	KUNIT_EXPECT_EQ(t, vfs_read(f, buf, sizeof(buf)), sizeof(text) - 1);
	KUNIT_EXPECT_STREQ(t, buf, text);
	KUNIT_EXPECT_EQ(t, vfs_close(f), 0);
	inode = vfs_lookup(NULL, "/mnt/host/" TEST_DIR);
	KUNIT_EXPECT_TRUE(t, inode && inode->size == sizeof(text) - 1);
	KUNIT_EXPECT_EQ(t, vfs_walk(NULL, "/mnt/host/" TEST_DIR "/x", &inode),
			-ENOTDIR);
	KUNIT_EXPECT_EQ(t, p9_client_unlinkat(c, c->root_fid, TEST_DIR, 0), 0);
	KUNIT_EXPECT_TRUE(t, !vfs_lookup(NULL, "/mnt/host/" TEST_DIR));
	expect_all_released(t);
}

static int count_child(struct inode *child, void *n)
{
	(*(int *)n)++;
	return 0;
}

/* Create, write, read back and list, as a user would; 0 or an errno. */
static int vfs_round(void)
{
	char buf[16] = "";
	int children = 0;
	struct file *f;
	int err = vfs_write_file("/mnt/host/" TEST_DIR, O_CREAT | O_TRUNC,
				 "nomem\n");

	if (!err)
		err = vfs_open(NULL, "/mnt/host/" TEST_DIR, O_RDONLY, &f);
	if (!err) {
		err = vfs_read(f, buf, sizeof(buf)) == 6 ? 0 : -EIO;
		vfs_close(f);
	}
	return err ?: vfs_for_each_child(vfs_lookup(NULL, "/mnt/host"),
					 count_child, &children);
}

/*
 * Each allocation of a round fails in turn, kmalloc's then the page
 * allocator's: the round fails with -ENOMEM or gets through, and no
 * fid is left behind either way.
 */
static void p9_test_nomem(struct kunit *t)
{
	struct fault_attr *attrs[] = { &failslab, &fail_page_alloc };
	unsigned long injected;
	int i, n, err, children = 0;

	for (i = 0; i < 2; i++) {
		for (n = 1; n <= SWEEP_MAX; n++) {
			injected = attrs[i]->injected;
			fault_attr_set(attrs[i], 100, n, 1);
			err = vfs_round();
			fault_attr_set(attrs[i], 0, 1, -1);
			KUNIT_EXPECT_TRUE(t, !err || err == -ENOMEM ||
					  err == -ENOSPC);
			KUNIT_EXPECT_EQ(t, c->fids_live, fids_at_start);
			if (attrs[i]->injected == injected)
				break;	/* the round ran through */
		}
		KUNIT_EXPECT_TRUE(t, n > 1 && n <= SWEEP_MAX);
	}
	KUNIT_EXPECT_EQ(t, vfs_round(), 0);
	vfs_for_each_child(vfs_lookup(NULL, "/mnt/host"), count_child,
			   &children);
	KUNIT_EXPECT_TRUE(t, children > 0);
	KUNIT_EXPECT_EQ(t, p9_client_unlinkat(c, c->root_fid, TEST_DIR, 0), 0);
	KUNIT_EXPECT_TRUE(t, !vfs_lookup(NULL, "/mnt/host/" TEST_DIR));
	expect_all_released(t);
}

SELFTEST_SUITE_INIT(p9, p9_test_init,
	KUNIT_CASE(p9_test_round_trip),
	KUNIT_CASE(p9_test_host_errors),
	KUNIT_CASE(p9_test_vfs_files),
	KUNIT_CASE(p9_test_nomem));
