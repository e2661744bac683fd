/*
 * 9p.c: a 9P2000.L client (Linux's net/9p/client.c), one request at a
 * time. Each operation builds its T-message in c->tx, the transport
 * carries it and brings the reply into c->rx, and the reply is
 * checked and read. A fid names a file on the server, as a file
 * descriptor does locally: Tattach and Twalk make one, Tclunk lets it
 * go. fids_live counts those the server holds for us, so a test can
 * see that every fid is clunked.
 */
#include "kernel.h"
#include "9p.h"
#include "mm.h"
#include "string.h"

#define P9_TAG		1	/* one request at a time: one tag */
#define P9_VERSION	"9P2000.L"

static void p9_start(struct p9_client *c, u8 type)
{
	mutex_lock(&c->lock);
	p9_begin(&c->tx, type, type == P9_TVERSION ? P9_NOTAG : P9_TAG);
}

/*
 * Send the message built since p9_start and check the reply: on 0 the
 * lock is still held and c->rx is at the reply's first field, for
 * p9_finish to release; on an error the lock is already released.
 */
static int p9_rpc(struct p9_client *c, u8 rtype)
{
	u32 len = p9_end(&c->tx), rxlen = 0;
	u16 tag = c->tx.data[5] | c->tx.data[6] << 8;
	int err = len ? 0 : -EINVAL;

	c->rx.size = c->msize;
	if (!err)
		err = c->request(c->trans, c->tx.data, len, c->rx.data,
				 c->msize, &rxlen);
	if (!err)
		err = p9_check_reply(&c->rx, rxlen, rtype, tag);
	if (err)
		mutex_unlock(&c->lock);
	return err;
}

/* Done reading the reply: -EIO if it was shorter than its fields. */
static int p9_finish(struct p9_client *c)
{
	int err = c->rx.overflow ? -EIO : 0;

	mutex_unlock(&c->lock);
	return err;
}

static u32 p9_fid_alloc(struct p9_client *c)
{
	u32 fid = c->next_fid++;

	if (c->next_fid == P9_NOFID)
		c->next_fid = 1;
	return fid;
}

static int p9_version(struct p9_client *c, u32 msize)
{
	char version[16];
	u32 agreed;

	p9_start(c, P9_TVERSION);
	p9_put_u32(&c->tx, msize);
	p9_put_str(&c->tx, P9_VERSION);
	if (p9_rpc(c, P9_RVERSION))
		return -EIO;
	agreed = p9_get_u32(&c->rx);
	p9_get_str(&c->rx, version, sizeof(version));
	if (p9_finish(c) || strcmp(version, P9_VERSION) ||
	    agreed < 4096 || agreed > msize)
		return -EPROTO;
	c->msize = agreed;
	c->tx.size = agreed;
	return 0;
}

static int p9_attach(struct p9_client *c, const char *aname)
{
	u32 fid = p9_fid_alloc(c);
	int err;

	p9_start(c, P9_TATTACH);
	p9_put_u32(&c->tx, fid);
	p9_put_u32(&c->tx, P9_NOFID);
	p9_put_str(&c->tx, "root");
	p9_put_str(&c->tx, aname);
	p9_put_u32(&c->tx, 0);
	err = p9_rpc(c, P9_RATTACH);
	if (err)
		return err;
	err = p9_finish(c);
	if (!err) {
		c->root_fid = fid;
		c->fids_live++;
	}
	return err;
}

/*
 * Negotiate msize (the server may lower it) and attach to aname. The
 * buffers are msize bytes each, the largest message either side sends.
 */
int p9_client_create(struct p9_client *c, p9_request_t request, void *trans,
		     u32 msize, const char *aname)
{
	int err;

	memset(c, 0, sizeof(*c));
	c->lock = (struct mutex){ SPIN_LOCK_UNLOCKED, 0, 0 };
	c->request = request;
	c->trans = trans;
	c->msize = msize;
	c->next_fid = 1;
	c->tx = (struct p9_buf){ .data = kmalloc(msize), .size = msize };
	c->rx = (struct p9_buf){ .data = kmalloc(msize), .size = msize };
	err = c->tx.data && c->rx.data ? p9_version(c, msize) : -ENOMEM;
	if (!err)
		err = p9_attach(c, aname);
	if (err) {
		kfree(c->tx.data);
		kfree(c->rx.data);
	}
	return err;
}

/* The most data one Tread or Twrite carries. */
u32 p9_client_iosize(struct p9_client *c)
{
	return c->msize - P9_IOHDRSZ;
}

/* One Twalk of up to P9_MAXWELEM names; all must be found. */
static int p9_walk_once(struct p9_client *c, u32 fid, u32 newfid,
			const char *const *names, int n)
{
	int i, err;

	p9_start(c, P9_TWALK);
	p9_put_u32(&c->tx, fid);
	p9_put_u32(&c->tx, newfid);
	p9_put_u16(&c->tx, n);
	for (i = 0; i < n; i++)
		p9_put_str(&c->tx, names[i]);
	err = p9_rpc(c, P9_RWALK);
	if (err)
		return err;
	/* Fewer qids than names: the walk stopped, newfid was not made. */
	err = p9_get_u16(&c->rx) == n ? 0 : -ENOENT;
	return p9_finish(c) ?: err;
}

/*
 * A new fid for the file n names below fid (n may be 0: a copy of fid),
 * walked P9_MAXWELEM names at a time.
 */
int p9_client_walk(struct p9_client *c, u32 fid, const char *const *names,
		   int n, u32 *newfid)
{
	u32 nfid = p9_fid_alloc(c);
	int step = min(n, P9_MAXWELEM), err;

	err = p9_walk_once(c, fid, nfid, names, step);
	if (err)
		return err;
	c->fids_live++;
	for (names += step, n -= step; n > 0; names += step, n -= step) {
		step = min(n, P9_MAXWELEM);
		err = p9_walk_once(c, nfid, nfid, names, step);
		if (err) {
			p9_client_clunk(c, nfid);
			return err;
		}
	}
	*newfid = nfid;
	return 0;
}

int p9_client_open(struct p9_client *c, u32 fid, u32 flags)
{
	int err;

	p9_start(c, P9_TLOPEN);
	p9_put_u32(&c->tx, fid);
	p9_put_u32(&c->tx, flags);
	err = p9_rpc(c, P9_RLOPEN);
	return err ?: p9_finish(c);
}

/* Create name in the directory dfid; dfid then is the new file, open. */
int p9_client_create_file(struct p9_client *c, u32 dfid, const char *name,
			  u32 flags, u32 mode)
{
	int err;

	p9_start(c, P9_TLCREATE);
	p9_put_u32(&c->tx, dfid);
	p9_put_str(&c->tx, name);
	p9_put_u32(&c->tx, flags);
	p9_put_u32(&c->tx, mode);
	p9_put_u32(&c->tx, 0);
	err = p9_rpc(c, P9_RLCREATE);
	return err ?: p9_finish(c);
}

/* Tread and Treaddir: fid[4] offset[8] count[4], data back. */
static ssize_t p9_read_common(struct p9_client *c, u8 type, u32 fid,
			      u64 offset, void *buf, u32 count)
{
	const u8 *data;
	u32 got;
	int err;

	p9_start(c, type);
	p9_put_u32(&c->tx, fid);
	p9_put_u64(&c->tx, offset);
	p9_put_u32(&c->tx, min(count, p9_client_iosize(c)));
	err = p9_rpc(c, type + 1);
	if (err)
		return err;
	got = p9_get_u32(&c->rx);
	data = got <= count ? p9_get_data(&c->rx, got) : NULL;
	if (data)
		memcpy(buf, data, got);
	err = p9_finish(c);
	return err ?: data ? (ssize_t)got : -EIO;
}

ssize_t p9_client_read(struct p9_client *c, u32 fid, u64 offset, void *buf,
		       u32 count)
{
	return p9_read_common(c, P9_TREAD, fid, offset, buf, count);
}

/* The raw entries (p9_parse_dirent) from the directory offset offset. */
ssize_t p9_client_readdir(struct p9_client *c, u32 fid, u64 offset,
			  void *buf, u32 count)
{
	return p9_read_common(c, P9_TREADDIR, fid, offset, buf, count);
}

ssize_t p9_client_write(struct p9_client *c, u32 fid, u64 offset,
			const void *buf, u32 count)
{
	u32 n = min(count, p9_client_iosize(c)), done;
	int err;

	p9_start(c, P9_TWRITE);
	p9_put_u32(&c->tx, fid);
	p9_put_u64(&c->tx, offset);
	p9_put_u32(&c->tx, n);
	p9_put_data(&c->tx, buf, n);
	err = p9_rpc(c, P9_RWRITE);
	if (err)
		return err;
	done = p9_get_u32(&c->rx);
	err = p9_finish(c);
	return err ?: done <= n ? (ssize_t)done : -EIO;
}

int p9_client_getattr(struct p9_client *c, u32 fid, struct p9_attr *attr)
{
	int err;

	p9_start(c, P9_TGETATTR);
	p9_put_u32(&c->tx, fid);
	p9_put_u64(&c->tx, P9_GETATTR_BASIC);
	err = p9_rpc(c, P9_RGETATTR);
	if (err)
		return err;
	p9_get_u64(&c->rx);			/* valid */
	p9_get_qid(&c->rx, &attr->qid);
	attr->mode = p9_get_u32(&c->rx);
	p9_get_u32(&c->rx);			/* uid */
	p9_get_u32(&c->rx);			/* gid */
	p9_get_u64(&c->rx);			/* nlink */
	p9_get_u64(&c->rx);			/* rdev */
	attr->size = p9_get_u64(&c->rx);
	return p9_finish(c);
}

int p9_client_mkdir(struct p9_client *c, u32 dfid, const char *name,
		    u32 mode)
{
	int err;

	p9_start(c, P9_TMKDIR);
	p9_put_u32(&c->tx, dfid);
	p9_put_str(&c->tx, name);
	p9_put_u32(&c->tx, mode);
	p9_put_u32(&c->tx, 0);
	err = p9_rpc(c, P9_RMKDIR);
	return err ?: p9_finish(c);
}

/* flags: 0 for a file, P9_AT_REMOVEDIR for an empty directory. */
int p9_client_unlinkat(struct p9_client *c, u32 dfid, const char *name,
		       u32 flags)
{
	int err;

	p9_start(c, P9_TUNLINKAT);
	p9_put_u32(&c->tx, dfid);
	p9_put_str(&c->tx, name);
	p9_put_u32(&c->tx, flags);
	err = p9_rpc(c, P9_RUNLINKAT);
	return err ?: p9_finish(c);
}

/* The server forgets fid even when Tclunk fails (the spec says so). */
int p9_client_clunk(struct p9_client *c, u32 fid)
{
	int err;

	p9_start(c, P9_TCLUNK);
	p9_put_u32(&c->tx, fid);
	c->fids_live--;
	err = p9_rpc(c, P9_RCLUNK);
	return err ?: p9_finish(c);
}
