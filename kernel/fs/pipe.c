/*
 * pipe.c: pipes, as Linux's fs/pipe.c: a bounded ring of PIPE_SIZE
 * bytes between a read end and a write end, two open files of one
 * inode that is in no directory. A reader sleeps while the ring is
 * empty and gets end of file once the last writer has closed; a writer
 * sleeps while it is full and gets -EPIPE once the last reader has
 * closed (Linux sends SIGPIPE as well; here the command sees the error
 * and stops). Ctrl-C or kill wakes either with -EINTR.
 */
#include "kernel.h"
#include "vfs.h"
#include "mm.h"
#include "sched.h"
#include "spinlock.h"
#include "string.h"

#define PIPE_SIZE	4096

struct pipe_inode_info {
	spinlock_t lock;
	size_t head, len;	/* the bytes are at head, len of them */
	int readers, writers;	/* open ends */
	char buf[PIPE_SIZE];
};

/*
 * All pipes share one inode, in no directory (Linux's pipefs has one
 * per pipe); each end's file points at its pipe.
 */
static struct inode pipe_inode;

static struct pipe_inode_info *pipe_of(struct file *file)
{
	return file->private;
}

/* Under the lock: copy out up to n bytes. */
static size_t pipe_take(struct pipe_inode_info *p, char *buf, size_t n)
{
	size_t done = 0, chunk;

	while (done < n && p->len) {
		chunk = min(min(n - done, p->len), PIPE_SIZE - p->head);
		memcpy(buf + done, p->buf + p->head, chunk);
		p->head = (p->head + chunk) % PIPE_SIZE;
		p->len -= chunk;
		done += chunk;
	}
	return done;
}

/* Under the lock: copy in up to n bytes, as many as there is room for. */
static size_t pipe_put(struct pipe_inode_info *p, const char *buf, size_t n)
{
	size_t done = 0, tail, chunk;

	while (done < n && p->len < PIPE_SIZE) {
		tail = (p->head + p->len) % PIPE_SIZE;
		chunk = min(n - done, PIPE_SIZE - p->len);
		chunk = min(chunk, PIPE_SIZE - tail);
		memcpy(p->buf + tail, buf + done, chunk);
		p->len += chunk;
		done += chunk;
	}
	return done;
}

static ssize_t pipe_read(struct file *file, char *buf, size_t n)
{
	struct pipe_inode_info *p = pipe_of(file);
	unsigned long flags = spin_lock_irqsave(&p->lock);
	ssize_t ret;

	while (!p->len && p->writers && !current->sigpending &&
	       !(file->flags & O_NONBLOCK))
		sleep_on(&p->readers, &p->lock);
	if (p->len)
		ret = pipe_take(p, buf, n);
	else if (!p->writers)
		ret = 0;
	else
		ret = current->sigpending ? -EINTR : -EAGAIN;
	spin_unlock_irqrestore(&p->lock, flags);
	if (ret > 0)
		wake_up(&p->writers);
	return ret;
}

static ssize_t pipe_write(struct file *file, const char *buf, size_t n)
{
	struct pipe_inode_info *p = pipe_of(file);
	unsigned long flags = spin_lock_irqsave(&p->lock);
	size_t done = 0;
	ssize_t err = 0;

	while (done < n) {
		if (!p->readers) {
			err = -EPIPE;
			break;
		}
		if (current->sigpending) {
			err = -EINTR;
			break;
		}
		if (p->len == PIPE_SIZE) {
			sleep_on(&p->writers, &p->lock);
			continue;
		}
		done += pipe_put(p, buf + done, n - done);
		spin_unlock_irqrestore(&p->lock, flags);
		wake_up(&p->readers);
		flags = spin_lock_irqsave(&p->lock);
	}
	spin_unlock_irqrestore(&p->lock, flags);
	return done ? (ssize_t)done : err;
}

/* The last end to close frees the pipe; either end wakes the other. */
static int pipe_release(struct inode *inode, struct file *file)
{
	struct pipe_inode_info *p = pipe_of(file);
	unsigned long flags = spin_lock_irqsave(&p->lock);
	bool last;

	if ((file->flags & O_ACCMODE) == O_RDONLY)
		p->readers--;
	else
		p->writers--;
	last = !p->readers && !p->writers;
	spin_unlock_irqrestore(&p->lock, flags);
	if (last) {
		kfree(p);
		return 0;
	}
	wake_up(&p->readers);
	wake_up(&p->writers);
	return 0;
}

static const struct file_operations pipe_fops = {
	.read = pipe_read,
	.write = pipe_write,
	.release = pipe_release,
};

/*
 * res[0] the read end, res[1] the write end, as Linux's
 * create_pipe_files(). Each is closed with vfs_close; the last frees
 * the pipe.
 */
int create_pipe_files(struct file *res[2], int flags)
{
	struct pipe_inode_info *p = kzalloc(sizeof(*p));
	int err;

	if (!p)
		return -ENOMEM;
	pipe_inode.mode = S_IFIFO | 0600;
	pipe_inode.fops = &pipe_fops;
	err = vfs_open_inode(&pipe_inode, O_RDONLY | flags, &res[0]);
	if (err) {
		kfree(p);
		return err;
	}
	err = vfs_open_inode(&pipe_inode, O_WRONLY | flags, &res[1]);
	if (err) {
		res[0]->private = p;
		p->readers = 1;
		vfs_close(res[0]);
		return err;
	}
	res[0]->private = res[1]->private = p;
	p->readers = p->writers = 1;
	return 0;
}
