/*
 * virtio.h: virtio devices on the virtio-mmio transport
 * (kernel/drivers/virtio_mmio.c) and their split virtqueues
 * (kernel/drivers/virtio_ring.c), with the names of Linux's
 * include/linux/virtio.h and include/uapi/linux/virtio_ring.h.
 * docs/virtio.md tells the whole story.
 */
#ifndef _VIRTIO_H
#define _VIRTIO_H

#include "kernel.h"
#include "spinlock.h"

#define VIRTIO_ID_9P		9	/* the virtio spec's device ids */

#define VIRTIO_F_VERSION_1	32	/* a modern (virtio 1.0) device */

/* Descriptor flags: the chain goes on at next; the device writes here. */
#define VRING_DESC_F_NEXT	1
#define VRING_DESC_F_WRITE	2

/* The three parts of a split virtqueue, as the device reads them. */
struct vring_desc {
	u64 addr;		/* guest-physical address of the buffer */
	u32 len;
	u16 flags;
	u16 next;
};

struct vring_avail {
	u16 flags;
	u16 idx;		/* where the driver puts the next head */
	u16 ring[];
};

struct vring_used_elem {
	u32 id;			/* head of the chain the device did */
	u32 len;		/* bytes it wrote into the chain */
};

struct vring_used {
	u16 flags;
	u16 idx;		/* where the device puts the next element */
	struct vring_used_elem ring[];
};

struct virtio_device;

struct virtqueue {
	struct virtio_device *vdev;
	unsigned int index;	/* the queue's number in its device */
	unsigned int num;	/* descriptors, a power of 2 */
	struct vring_desc *desc;
	struct vring_avail *avail;
	struct vring_used *used;
	u16 free_head;		/* the chain of free descriptors */
	unsigned int num_free;
	u16 last_used_idx;	/* the used elements seen so far */
	spinlock_t lock;	/* the rings, and waiting for them */
	void *token[];		/* per head: virtqueue_add's token */
};

/* One buffer of a chain: the device reads it, or writes it (in). */
struct vq_buf {
	void *addr;
	u32 len;
};

struct virtio_device {
	unsigned long base;	/* the registers (virtio spec 4.2.2) */
	u32 irq;		/* the PLIC's source number */
	u32 device_id;		/* VIRTIO_ID_* */
	u64 features;		/* what the driver and the device agreed */
	struct virtqueue *vq;	/* queue 0: all that 9P needs */
	char name[16];		/* "virtioN", its interrupt's in Linux */
};

struct virtio_device *virtio_find_device(u32 device_id, int nth);
int virtio_device_setup(struct virtio_device *vdev, u64 driver_features);
u8 virtio_config_read8(struct virtio_device *vdev, unsigned int offset);
void virtio_notify(struct virtqueue *vq);

struct virtqueue *vring_new_virtqueue(struct virtio_device *vdev,
				      unsigned int index, unsigned int num);
int virtqueue_add(struct virtqueue *vq, const struct vq_buf *bufs,
		  unsigned int out, unsigned int in, void *token);
void virtqueue_kick(struct virtqueue *vq);
void *virtqueue_get_buf(struct virtqueue *vq, u32 *len);
void *virtqueue_wait_buf(struct virtqueue *vq, u32 *len);
void vring_interrupt(struct virtqueue *vq);

void virtio_mmio_init(void);

#endif
