/*
 * 9p.h: a 9P2000.L client (kernel/fs/9p.c), its message format
 * (kernel/fs/9p_msg.c) and its virtio transport (kernel/fs/9p_virtio.c),
 * after Linux's include/net/9p/ and net/9p/. The protocol is
 * documented in QEMU's docs and in Linux's
 * Documentation/filesystems/9p.rst; docs/virtio.md has the messages
 * this client sends.
 */
#ifndef _9P_H
#define _9P_H

#include "kernel.h"
#include "spinlock.h"

/* Message types: a T-message's reply is the next number. */
enum p9_msg_t {
	P9_RLERROR = 7,
	P9_TLOPEN = 12,
	P9_RLOPEN,
	P9_TLCREATE = 14,
	P9_RLCREATE,
	P9_TGETATTR = 24,
	P9_RGETATTR,
	P9_TREADDIR = 40,
	P9_RREADDIR,
	P9_TMKDIR = 72,
	P9_RMKDIR,
	P9_TUNLINKAT = 76,
	P9_RUNLINKAT,
	P9_TVERSION = 100,
	P9_RVERSION,
	P9_TATTACH = 104,
	P9_RATTACH,
	P9_TWALK = 110,
	P9_RWALK,
	P9_TREAD = 116,
	P9_RREAD,
	P9_TWRITE = 118,
	P9_RWRITE,
	P9_TCLUNK = 120,
	P9_RCLUNK,
};

#define P9_NOTAG	0xffff
#define P9_NOFID	0xffffffffU
#define P9_MAXWELEM	16	/* names per Twalk */
#define P9_HDRSZ	7	/* size[4] type[1] tag[2] */
#define P9_IOHDRSZ	24	/* Twrite's or Rread's header, and slack */
#define P9_QTDIR	0x80
#define P9_GETATTR_BASIC 0x7ffULL
#define P9_AT_REMOVEDIR	0x200

struct p9_qid {
	u8 type;
	u32 version;
	u64 path;
};

struct p9_attr {
	struct p9_qid qid;
	u32 mode;
	u64 size;
};

/*
 * A message being built or read: all access is bounds-checked, and a
 * read or write past size sets overflow instead (one check at the end).
 */
struct p9_buf {
	u8 *data;
	u32 size;
	u32 pos;
	bool overflow;
};

void p9_begin(struct p9_buf *b, u8 type, u16 tag);
u32 p9_end(struct p9_buf *b);
void p9_put_u8(struct p9_buf *b, u8 v);
void p9_put_u16(struct p9_buf *b, u16 v);
void p9_put_u32(struct p9_buf *b, u32 v);
void p9_put_u64(struct p9_buf *b, u64 v);
void p9_put_str(struct p9_buf *b, const char *s);
void p9_put_data(struct p9_buf *b, const void *p, u32 len);
u8 p9_get_u8(struct p9_buf *b);
u16 p9_get_u16(struct p9_buf *b);
u32 p9_get_u32(struct p9_buf *b);
u64 p9_get_u64(struct p9_buf *b);
u32 p9_get_str(struct p9_buf *b, char *s, u32 size);
const u8 *p9_get_data(struct p9_buf *b, u32 len);
void p9_get_qid(struct p9_buf *b, struct p9_qid *qid);
int p9_check_reply(struct p9_buf *b, u32 len, u8 type, u16 tag);
int p9_parse_dirent(struct p9_buf *b, struct p9_qid *qid, u64 *offset,
		    char *name, u32 size);

/* A transport sends tx[0..txlen) and waits for the reply in rx. */
typedef int (*p9_request_t)(void *priv, void *tx, u32 txlen, void *rx,
			    u32 rxsize, u32 *rxlen);

struct p9_client {
	struct mutex lock;	/* one request at a time: tx and rx */
	p9_request_t request;
	void *trans;
	u32 msize;		/* what Tversion agreed */
	struct p9_buf tx, rx;
	u32 root_fid;		/* Tattach's, open while mounted */
	u32 next_fid;
	int fids_live;		/* fids the server holds for us */
};

int p9_client_create(struct p9_client *c, p9_request_t request, void *trans,
		     u32 msize, const char *aname);
int p9_client_walk(struct p9_client *c, u32 fid, const char *const *names,
		   int n, u32 *newfid);
int p9_client_open(struct p9_client *c, u32 fid, u32 flags);
int p9_client_create_file(struct p9_client *c, u32 dfid, const char *name,
			  u32 flags, u32 mode);
ssize_t p9_client_read(struct p9_client *c, u32 fid, u64 offset, void *buf,
		       u32 count);
ssize_t p9_client_write(struct p9_client *c, u32 fid, u64 offset,
			const void *buf, u32 count);
ssize_t p9_client_readdir(struct p9_client *c, u32 fid, u64 offset,
			  void *buf, u32 count);
int p9_client_getattr(struct p9_client *c, u32 fid, struct p9_attr *attr);
int p9_client_mkdir(struct p9_client *c, u32 dfid, const char *name,
		    u32 mode);
int p9_client_unlinkat(struct p9_client *c, u32 dfid, const char *name,
		       u32 flags);
int p9_client_clunk(struct p9_client *c, u32 fid);
u32 p9_client_iosize(struct p9_client *c);

int p9_virtio_probe(const char *tag, p9_request_t *request, void **trans);

/* The mount at /mnt/host (kernel/fs/9p_vfs.c), NULL when absent. */
struct p9_client *p9_host_client(void);

#endif
