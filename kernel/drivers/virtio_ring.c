/*
 * virtio_ring.c: split virtqueues (virtio 1.1 spec, section 2.6; Linux's
 * drivers/virtio/virtio_ring.c). A queue is three arrays in memory that
 * the driver (we) and the device (QEMU) share:
 *
 *   descriptor table            available ring            used ring
 *   (driver writes)             (driver writes)           (device writes)
 *   +----------------------+    +-------+-------+         +-------+-------+
 *  0| addr len flags next -+-+  | flags |  idx  |         | flags |  idx  |
 *  1| addr len NEXT   2  --+ |  +-------+-------+         +-------+-------+
 *  2| addr len WRITE  -    |<+  | ring[0] = 1   |  kick   | {id 1, len 83}|
 *  3| (free) ...           |    | ring[1] ...   | ------> | ...           |
 *   +----------------------+    +---------------+ <------ +---------------+
 *                                                 interrupt
 *
 * A request is a chain of descriptors: first the buffers the device
 * reads (a 9P T-message), then those it writes (room for the reply,
 * VRING_DESC_F_WRITE). The driver puts the chain's head in the
 * available ring, raises avail->idx, and notifies the device (kick).
 * When done, the device puts {head, bytes written} in the used ring,
 * raises used->idx and interrupts; the driver takes the element and
 * frees the chain. The two idx counters run freely (mod 2^16), each
 * written by one side only, so no lock is shared with the device: the
 * fences order the stores to the rings before the stores to idx.
 *
 * The kernel runs identity-mapped (arch/riscv/mm/mmu.c), so a buffer's
 * address is its physical address, what the device wants.
 */
#include "kernel.h"
#include "virtio.h"
#include "mm.h"
#include "sched.h"
#include "string.h"
#include "asm/csr.h"

/*
 * The layout of the spec (2.6.2): the available ring right after the
 * descriptors, the used ring at the next 4-byte boundary, all in one
 * page. Each ring ends with a u16 (used_event, avail_event) unused here.
 */
static size_t avail_offset(unsigned int num)
{
	return sizeof(struct vring_desc) * num;
}

static size_t used_offset(unsigned int num)
{
	return ALIGN_UP(avail_offset(num) + sizeof(struct vring_avail) +
			2 * num + 2, 4);
}

static size_t vring_size(unsigned int num)
{
	return used_offset(num) + sizeof(struct vring_used) +
	       sizeof(struct vring_used_elem) * num + 2;
}

struct virtqueue *vring_new_virtqueue(struct virtio_device *vdev,
				      unsigned int index, unsigned int num)
{
	struct virtqueue *vq;
	char *ring;
	unsigned int i;

	if (!num || (num & (num - 1)) || vring_size(num) > PAGE_SIZE)
		return NULL;
	vq = kzalloc(sizeof(*vq) + num * sizeof(void *));
	ring = alloc_page();
	if (!vq || !ring) {
		kfree(vq);
		if (ring)
			free_page(ring);
		return NULL;
	}
	memset(ring, 0, PAGE_SIZE);
	vq->vdev = vdev;
	vq->index = index;
	vq->num = num;
	vq->desc = (struct vring_desc *)ring;
	vq->avail = (struct vring_avail *)(ring + avail_offset(num));
	vq->used = (struct vring_used *)(ring + used_offset(num));
	for (i = 0; i + 1 < num; i++)
		vq->desc[i].next = i + 1;
	vq->num_free = num;
	vq->lock = (spinlock_t)SPIN_LOCK_UNLOCKED;
	return vq;
}

/*
 * Chain out device-readable buffers, then in device-writable ones, and
 * offer the chain. token comes back from virtqueue_get_buf.
 */
int virtqueue_add(struct virtqueue *vq, const struct vq_buf *bufs,
		  unsigned int out, unsigned int in, void *token)
{
	unsigned long flags = spin_lock_irqsave(&vq->lock);
	unsigned int i, n = out + in;
	u16 head = vq->free_head, d = head, last = head;

	if (!n || n > vq->num_free) {
		spin_unlock_irqrestore(&vq->lock, flags);
		return -ENOSPC;
	}
	for (i = 0; i < n; i++) {
		vq->desc[d].addr = (unsigned long)bufs[i].addr;
		vq->desc[d].len = bufs[i].len;
		vq->desc[d].flags = (i >= out ? VRING_DESC_F_WRITE : 0) |
				    (i + 1 < n ? VRING_DESC_F_NEXT : 0);
		last = d;
		d = vq->desc[d].next;
	}
	vq->free_head = vq->desc[last].next;
	vq->num_free -= n;
	vq->token[head] = token;
	vq->avail->ring[vq->avail->idx % vq->num] = head;
	wmb();		/* the device must see the chain before idx */
	vq->avail->idx++;
	spin_unlock_irqrestore(&vq->lock, flags);
	return 0;
}

void virtqueue_kick(struct virtqueue *vq)
{
	mb();			/* avail->idx before the notification */
	virtio_notify(vq);
}

static bool more_used(struct virtqueue *vq)
{
	return READ_ONCE(vq->used->idx) != vq->last_used_idx;
}

/* Give a finished chain's descriptors back to the free list. */
static void detach_buf(struct virtqueue *vq, u16 head)
{
	u16 d = head;

	vq->num_free++;
	while (vq->desc[d].flags & VRING_DESC_F_NEXT) {
		d = vq->desc[d].next;
		vq->num_free++;
	}
	vq->desc[d].next = vq->free_head;
	vq->free_head = head;
}

/* Called with vq->lock held. */
static void *get_buf_locked(struct virtqueue *vq, u32 *len)
{
	struct vring_used_elem *e;
	void *token;

	if (!more_used(vq))
		return NULL;
	rmb();		/* the element after the idx that shows it */
	e = &vq->used->ring[vq->last_used_idx % vq->num];
	if (e->id >= vq->num)
		return NULL;	/* a broken device: leave the queue be */
	*len = e->len;
	token = vq->token[e->id];
	vq->token[e->id] = NULL;
	detach_buf(vq, e->id);
	vq->last_used_idx++;
	return token;
}

/* The next finished request's token, or NULL if none is finished. */
void *virtqueue_get_buf(struct virtqueue *vq, u32 *len)
{
	unsigned long flags = spin_lock_irqsave(&vq->lock);
	void *token = get_buf_locked(vq, len);

	spin_unlock_irqrestore(&vq->lock, flags);
	return token;
}

/*
 * A task sleeps until the interrupt; the boot code (CPU 0's idle
 * context, before the shell) and code with interrupts or preemption
 * off cannot sleep, and spin on the used ring instead.
 */
static bool may_sleep(void)
{
	return !irqs_disabled() && !current->preempt_count &&
	       current != this_cpu()->idle;
}

/* Wait for the next finished request and return its token. */
void *virtqueue_wait_buf(struct virtqueue *vq, u32 *len)
{
	unsigned long flags;
	void *token;

	if (!may_sleep()) {
		while (!(token = virtqueue_get_buf(vq, len)))
			cpu_relax();
		return token;
	}
	flags = spin_lock_irqsave(&vq->lock);
	while (!(token = get_buf_locked(vq, len)))
		sleep_on(vq, &vq->lock);
	spin_unlock_irqrestore(&vq->lock, flags);
	return token;
}

/*
 * The device's interrupt: wake the waiter. Taking vq->lock orders the
 * wake_up after a waiter's check of the ring, or before its sleep_on
 * (which gives the lock up only once it is asleep): none is lost.
 */
void vring_interrupt(struct virtqueue *vq)
{
	spin_lock(&vq->lock);
	wake_up(vq);
	spin_unlock(&vq->lock);
}
