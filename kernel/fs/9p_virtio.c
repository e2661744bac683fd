/*
 * 9p_virtio.c: 9P over a virtio-9p device (Linux's
 * net/9p/trans_virtio.c). A request is a chain of two buffers: the
 * T-message the device reads and the room it writes the R-message
 * into. The device's configuration holds its mount tag (QEMU's
 * -device virtio-9p-device,mount_tag=TAG): le16 length, then the bytes.
 */
#include "kernel.h"
#include "9p.h"
#include "virtio.h"
#include "string.h"

#define VIRTIO_9P_MOUNT_TAG	0	/* feature: the config has a tag */
#define TAG_MAX			64

static int p9_virtio_request(void *trans, void *tx, u32 txlen, void *rx,
			     u32 rxsize, u32 *rxlen)
{
	struct virtqueue *vq = trans;
	struct vq_buf bufs[2] = { { tx, txlen }, { rx, rxsize } };
	int err = virtqueue_add(vq, bufs, 1, 1, tx);

	if (err)
		return err;
	virtqueue_kick(vq);
	return virtqueue_wait_buf(vq, rxlen) == tx ? 0 : -EIO;
}

static bool tag_is(struct virtio_device *vdev, const char *tag)
{
	u32 len = virtio_config_read8(vdev, 0) |
		  virtio_config_read8(vdev, 1) << 8, i;

	if (len != strlen(tag) || len >= TAG_MAX)
		return false;
	for (i = 0; i < len; i++)
		if (virtio_config_read8(vdev, 2 + i) != (u8)tag[i])
			return false;
	return true;
}

/* Set up the virtio-9p device tagged tag: -ENODEV if there is none. */
int p9_virtio_probe(const char *tag, p9_request_t *request, void **trans)
{
	struct virtio_device *vdev;
	int i, err;

	for (i = 0; (vdev = virtio_find_device(VIRTIO_ID_9P, i)); i++) {
		if (!tag_is(vdev, tag))
			continue;
		err = virtio_device_setup(vdev, 1ULL << VIRTIO_9P_MOUNT_TAG);
		if (!err) {
			*request = p9_virtio_request;
			*trans = vdev->vq;
		}
		return err;
	}
	return -ENODEV;
}
