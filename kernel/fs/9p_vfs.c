/*
 * 9p_vfs.c: the host's folder at /mnt/host, over 9P (Linux's fs/9p/).
 * QEMU shares it as a virtio-9p device with the mount tag "host"
 * (`make run SHARE=DIR`). The inodes below /mnt/host are a cache of
 * the host's tree: each lookup asks the host (Twalk, Tgetattr), each
 * listing reads the directory (Treaddir), so what the host changes the
 * guest sees at once. Every operation walks a fresh fid from the
 * root and clunks it when done: an open file holds one fid, and
 * nothing else is held between operations.
 */
#include "kernel.h"
#include "init.h"
#include "9p.h"
#include "vfs.h"
#include "mm.h"
#include "printk.h"
#include "string.h"

#define P9_HOST_TAG	"host"
#define P9_MSIZE	(64 * 1024)
#define P9_MAX_DEPTH	32	/* names from /mnt/host down to a file */

static struct p9_client client;
static struct inode *mount_root;

static const struct file_operations p9_file_ops;
static const struct inode_operations p9_dir_ops;

struct p9_client *p9_host_client(void)
{
	return mount_root ? &client : NULL;
}

/* The names from /mnt/host down to inode, and then extra if not NULL. */
static int path_names(struct inode *inode, const char *extra,
		      const char **names)
{
	struct inode *p;
	int n = 0, i;

	for (p = inode; p != mount_root; p = p->parent)
		n++;
	if (n + 1 > P9_MAX_DEPTH)
		return -ENAMETOOLONG;
	for (p = inode, i = n; p != mount_root; p = p->parent)
		names[--i] = p->name;
	if (extra)
		names[n++] = extra;
	return n;
}

/* A new fid for inode (or its entry extra), which the caller clunks. */
static int walk_to(struct inode *inode, const char *extra, u32 *fid)
{
	const char *names[P9_MAX_DEPTH];
	int n = path_names(inode, extra, names);

	if (n < 0)
		return n;
	return p9_client_walk(&client, client.root_fid, names, n, fid);
}

static struct inode *p9_inode_new(struct inode *dir, const char *name,
				  bool is_dir, u32 mode)
{
	struct inode *inode;

	mode &= 0777;
	inode = vfs_create(dir, name, (is_dir ? S_IFDIR : S_IFREG) | mode,
			   is_dir ? NULL : &p9_file_ops, NULL);
	if (inode && is_dir)
		inode->iops = &p9_dir_ops;
	return inode;
}

static bool other_name(struct inode *child, const void *name)
{
	return strcmp(child->name, name);
}

/* What the host says of dir/name now; a cached child is refreshed. */
static int p9_lookup(struct inode *dir, const char *name,
		     struct inode **child)
{
	struct p9_attr attr = { 0 };
	bool is_dir;
	u32 fid;
	int err = walk_to(dir, name, &fid);

	if (!err) {
		err = p9_client_getattr(&client, fid, &attr);
		p9_client_clunk(&client, fid);
	}
	is_dir = S_ISDIR(attr.mode);
	if (err || (*child && S_ISDIR((*child)->mode) != is_dir)) {
		vfs_prune(dir, other_name, name);
		*child = NULL;
	}
	if (err)
		return err;
	if (!*child)
		*child = p9_inode_new(dir, name, is_dir, attr.mode);
	if (!*child)
		return -ENOMEM;
	(*child)->mode = ((*child)->mode & S_IFMT) | (attr.mode & 0777);
	(*child)->size = is_dir ? 0 : attr.size;
	return 0;
}

/* The names a listing found, one after another with their NULs. */
struct name_set {
	char *buf;
	size_t len, size;
};

static int name_set_add(struct name_set *s, const char *name)
{
	size_t n = strlen(name) + 1;
	char *bigger;

	if (s->len + n > s->size) {
		bigger = kmalloc(2 * (s->size + n));
		if (!bigger)
			return -ENOMEM;
		memcpy(bigger, s->buf, s->len);
		kfree(s->buf);
		s->buf = bigger;
		s->size = 2 * (s->size + n);
	}
	memcpy(s->buf + s->len, name, n);
	s->len += n;
	return 0;
}

static bool in_name_set(struct inode *child, const void *data)
{
	const struct name_set *s = data;
	size_t i;

	for (i = 0; i < s->len; i += strlen(s->buf + i) + 1)
		if (!strcmp(s->buf + i, child->name))
			return true;
	return false;
}

/* One Rreaddir's entries: cache the new ones, note all. */
static int add_entries(struct inode *dir, struct p9_buf *b,
		       struct name_set *seen, u64 *offset)
{
	struct p9_qid qid;
	char name[NAME_MAX];
	int err = 0;

	while (!err && b->pos < b->size) {
		err = p9_parse_dirent(b, &qid, offset, name, sizeof(name));
		if (err || !strcmp(name, ".") || !strcmp(name, ".."))
			continue;
		err = name_set_add(seen, name);
		/* Already cached, vfs_create refuses: that is fine. */
		p9_inode_new(dir, name, qid.type & P9_QTDIR, 0644);
	}
	return err;
}

static int read_entries(struct inode *dir, u32 fid, struct name_set *seen)
{
	u32 size = p9_client_iosize(&client);
	struct p9_buf b = { .data = kmalloc(size) };
	u64 offset = 0;
	ssize_t n;
	int err = b.data ? 0 : -ENOMEM;

	while (!err && (n = p9_client_readdir(&client, fid, offset, b.data,
					      size)) > 0) {
		b.size = n;
		b.pos = 0;
		err = add_entries(dir, &b, seen, &offset);
	}
	kfree(b.data);
	return err ?: n < 0 ? n : 0;
}

/* Bring dir's children up to date with the host's listing. */
static int p9_readdir(struct inode *dir)
{
	struct name_set seen = { 0 };
	u32 fid;
	int err = walk_to(dir, NULL, &fid);

	if (err)
		return err;
	err = p9_client_open(&client, fid, O_RDONLY);
	if (!err)
		err = read_entries(dir, fid, &seen);
	p9_client_clunk(&client, fid);
	if (!err)
		vfs_prune(dir, in_name_set, &seen);
	kfree(seen.buf);
	return err;
}

/* O_CREAT: Tlcreate makes the file on the host; open opens it after. */
static struct inode *p9_create(struct inode *dir, const char *name)
{
	u32 fid;
	int err = walk_to(dir, NULL, &fid);

	if (err)
		return ERR_PTR(err);
	err = p9_client_create_file(&client, fid, name, O_WRONLY, 0644);
	p9_client_clunk(&client, fid);
	if (err)
		return ERR_PTR(err);
	return p9_inode_new(dir, name, false, 0644);
}

/* mkdir makes the directory on the host (Tmkdir), then caches it. */
static struct inode *p9_mkdir(struct inode *dir, const char *name)
{
	u32 fid;
	int err = walk_to(dir, NULL, &fid);

	if (err)
		return ERR_PTR(err);
	err = p9_client_mkdir(&client, fid, name, 0755);
	p9_client_clunk(&client, fid);
	if (err)
		return ERR_PTR(err);
	return p9_inode_new(dir, name, true, 0755);
}

/* rm and rmdir remove on the host (Tunlinkat); the VFS then forgets. */
static int p9_unlink(struct inode *dir, struct inode *child)
{
	u32 fid;
	int err = walk_to(dir, NULL, &fid);

	if (err)
		return err;
	err = p9_client_unlinkat(&client, fid, child->name,
				 S_ISDIR(child->mode) ? P9_AT_REMOVEDIR : 0);
	p9_client_clunk(&client, fid);
	return err;
}

static const struct inode_operations p9_dir_ops = {
	.create = p9_create,
	.mkdir = p9_mkdir,
	.unlink = p9_unlink,
	.lookup = p9_lookup,
	.readdir = p9_readdir,
};

static u32 file_fid(struct file *file)
{
	return (unsigned long)file->private;
}

/* Open flags are Linux's on both sides, so they pass as they are. */
static int p9_open(struct inode *inode, struct file *file)
{
	u32 fid;
	int err = walk_to(inode, NULL, &fid);

	if (err)
		return err;
	err = p9_client_open(&client, fid,
			     file->flags & (O_ACCMODE | O_TRUNC | O_APPEND));
	if (err) {
		p9_client_clunk(&client, fid);
		return err;
	}
	file->private = (void *)(unsigned long)fid;
	if (file->flags & O_TRUNC)
		inode->size = 0;
	return 0;
}

static ssize_t p9_read(struct file *file, char *buf, size_t n)
{
	ssize_t got = p9_client_read(&client, file_fid(file), file->pos, buf,
				     min(n, (size_t)p9_client_iosize(&client)));

	if (got > 0)
		file->pos += got;
	return got;
}

/* All of buf, in as many Twrites as msize needs. */
static ssize_t p9_write(struct file *file, const char *buf, size_t n)
{
	size_t done = 0;
	ssize_t w;

	while (done < n) {
		w = p9_client_write(&client, file_fid(file), file->pos,
				    buf + done,
				    min(n - done,
					(size_t)p9_client_iosize(&client)));
		if (w <= 0)
			return done ? (ssize_t)done : w ?: -EIO;
		done += w;
		file->pos += w;
	}
	file->inode->size = max(file->inode->size, file->pos);
	return done;
}

static int p9_release(struct inode *inode, struct file *file)
{
	return p9_client_clunk(&client, file_fid(file));
}

static const struct file_operations p9_file_ops = {
	.open = p9_open,
	.read = p9_read,
	.write = p9_write,
	.release = p9_release,
};

static struct inode *mnt_dir(void)
{
	struct inode *mnt = vfs_lookup(NULL, "/mnt");

	return mnt ? mnt : vfs_mkdir(vfs_root(), "mnt");
}

static void p9_mount_host(void)
{
	p9_request_t request;
	void *trans;
	int err = p9_virtio_probe(P9_HOST_TAG, &request, &trans);

	if (err == -ENODEV) {
		printk("9p: no virtio-9p device tagged \"" P9_HOST_TAG
		       "\": /mnt/host not mounted\n");
		return;
	}
	if (!err)
		err = p9_client_create(&client, request, trans, P9_MSIZE, "");
	if (!err) {
		mount_root = vfs_mkdir(mnt_dir(), "host");
		err = mount_root ? 0 : -ENOMEM;
	}
	if (err) {
		printk("9p: cannot mount /mnt/host: %d\n", err);
		return;
	}
	mount_root->iops = &p9_dir_ops;
	printk("9p: the host's folder is /mnt/host (msize %u)\n",
	       client.msize);
}
late_initcall(p9_mount_host);
