/*
 * virtio_mmio.c: the virtio-mmio transport (virtio 1.1 spec, section
 * 4.2; Linux's drivers/virtio/virtio_mmio.c). QEMU's virt machine has
 * eight slots of 512 bytes from 0x10001000, each "virtio,mmio" in the
 * device tree with its PLIC interrupt; a slot without a device reads
 * DeviceID 0. The registers used here:
 *
 *   0x000 MagicValue "virt"      0x044 QueueReady
 *   0x004 Version (2: modern)    0x050 QueueNotify
 *   0x008 DeviceID               0x060 InterruptStatus
 *   0x010 DeviceFeatures         0x064 InterruptACK
 *   0x014 DeviceFeaturesSel      0x070 Status
 *   0x020 DriverFeatures         0x080 QueueDesc   (low, high)
 *   0x024 DriverFeaturesSel      0x090 QueueDriver (the available ring)
 *   0x030 QueueSel               0x0a0 QueueDevice (the used ring)
 *   0x034 QueueNumMax            0x100 the device's configuration
 *   0x038 QueueNum
 *
 * Only the modern layout (version 2) is driven: it takes the three
 * rings' 64-bit addresses apart and negotiates 64 feature bits.
 * QEMU 7.2 offers the legacy layout (version 1, one page frame number
 * for the whole queue) unless started with
 * `-global virtio-mmio.force-legacy=false`, which `make run SHARE=`
 * and the tests pass.
 */
#include "kernel.h"
#include "virtio.h"
#include "fdt.h"
#include "irq.h"
#include "printk.h"

#define VIRTIO_MMIO_MAGIC_VALUE		0x000
#define VIRTIO_MMIO_VERSION		0x004
#define VIRTIO_MMIO_DEVICE_ID		0x008
#define VIRTIO_MMIO_DEVICE_FEATURES	0x010
#define VIRTIO_MMIO_DEVICE_FEATURES_SEL	0x014
#define VIRTIO_MMIO_DRIVER_FEATURES	0x020
#define VIRTIO_MMIO_DRIVER_FEATURES_SEL	0x024
#define VIRTIO_MMIO_QUEUE_SEL		0x030
#define VIRTIO_MMIO_QUEUE_NUM_MAX	0x034
#define VIRTIO_MMIO_QUEUE_NUM		0x038
#define VIRTIO_MMIO_QUEUE_READY		0x044
#define VIRTIO_MMIO_QUEUE_NOTIFY	0x050
#define VIRTIO_MMIO_INTERRUPT_STATUS	0x060
#define VIRTIO_MMIO_INTERRUPT_ACK	0x064
#define VIRTIO_MMIO_STATUS		0x070
#define VIRTIO_MMIO_QUEUE_DESC_LOW	0x080
#define VIRTIO_MMIO_QUEUE_DESC_HIGH	0x084
#define VIRTIO_MMIO_QUEUE_AVAIL_LOW	0x090
#define VIRTIO_MMIO_QUEUE_AVAIL_HIGH	0x094
#define VIRTIO_MMIO_QUEUE_USED_LOW	0x0a0
#define VIRTIO_MMIO_QUEUE_USED_HIGH	0x0a4
#define VIRTIO_MMIO_CONFIG		0x100

#define VIRTIO_MMIO_MAGIC		0x74726976	/* "virt" */

/* Status bits: the driver's progress through initialisation (3.1.1). */
#define VIRTIO_CONFIG_S_ACKNOWLEDGE	1
#define VIRTIO_CONFIG_S_DRIVER		2
#define VIRTIO_CONFIG_S_DRIVER_OK	4
#define VIRTIO_CONFIG_S_FEATURES_OK	8
#define VIRTIO_CONFIG_S_FAILED		0x80

#define VIRTQUEUE_NUM	16	/* requests go one at a time */

static struct virtio_device devices[VIRTIO_MMIO_MAX];
static int nr_devices;

static u32 readl(struct virtio_device *vdev, unsigned int off)
{
	return *(volatile u32 *)(vdev->base + off);
}

static void writel(struct virtio_device *vdev, unsigned int off, u32 val)
{
	*(volatile u32 *)(vdev->base + off) = val;
}

static void write_addr(struct virtio_device *vdev, unsigned int low,
		       const void *p)
{
	writel(vdev, low, (unsigned long)p);
	writel(vdev, low + 4, (unsigned long)p >> 32);
}

static void add_status(struct virtio_device *vdev, u32 bits)
{
	writel(vdev, VIRTIO_MMIO_STATUS,
	       readl(vdev, VIRTIO_MMIO_STATUS) | bits);
}

u8 virtio_config_read8(struct virtio_device *vdev, unsigned int offset)
{
	return *(volatile u8 *)(vdev->base + VIRTIO_MMIO_CONFIG + offset);
}

void virtio_notify(struct virtqueue *vq)
{
	writel(vq->vdev, VIRTIO_MMIO_QUEUE_NOTIFY, vq->index);
}

/*
 * The nth device (from 0) of this kind. The transport has only found
 * it: virtio_device_setup makes it work.
 */
struct virtio_device *virtio_find_device(u32 device_id, int nth)
{
	int i;

	for (i = 0; i < nr_devices; i++)
		if (devices[i].device_id == device_id && !nth--)
			return &devices[i];
	return NULL;
}

/* 64 feature bits, read and written 32 at a time through a selector. */
static u64 device_features(struct virtio_device *vdev)
{
	u64 f;

	writel(vdev, VIRTIO_MMIO_DEVICE_FEATURES_SEL, 1);
	f = (u64)readl(vdev, VIRTIO_MMIO_DEVICE_FEATURES) << 32;
	writel(vdev, VIRTIO_MMIO_DEVICE_FEATURES_SEL, 0);
	return f | readl(vdev, VIRTIO_MMIO_DEVICE_FEATURES);
}

static void set_driver_features(struct virtio_device *vdev, u64 f)
{
	writel(vdev, VIRTIO_MMIO_DRIVER_FEATURES_SEL, 1);
	writel(vdev, VIRTIO_MMIO_DRIVER_FEATURES, f >> 32);
	writel(vdev, VIRTIO_MMIO_DRIVER_FEATURES_SEL, 0);
	writel(vdev, VIRTIO_MMIO_DRIVER_FEATURES, f);
}

/* Tell the device where queue 0's three parts are, and turn it on. */
static int setup_queue(struct virtio_device *vdev)
{
	u32 max;
	struct virtqueue *vq;

	writel(vdev, VIRTIO_MMIO_QUEUE_SEL, 0);
	if (readl(vdev, VIRTIO_MMIO_QUEUE_READY))
		return -EBUSY;
	max = readl(vdev, VIRTIO_MMIO_QUEUE_NUM_MAX);
	if (!max)
		return -ENODEV;
	vq = vring_new_virtqueue(vdev, 0, min(max, (u32)VIRTQUEUE_NUM));
	if (!vq)
		return -ENOMEM;
	writel(vdev, VIRTIO_MMIO_QUEUE_NUM, vq->num);
	write_addr(vdev, VIRTIO_MMIO_QUEUE_DESC_LOW, vq->desc);
	write_addr(vdev, VIRTIO_MMIO_QUEUE_AVAIL_LOW, vq->avail);
	write_addr(vdev, VIRTIO_MMIO_QUEUE_USED_LOW, vq->used);
	writel(vdev, VIRTIO_MMIO_QUEUE_READY, 1);
	vdev->vq = vq;
	return 0;
}

/*
 * The initialisation of the spec (3.1.1): reset, ACKNOWLEDGE, DRIVER,
 * the features both sides know (VERSION_1 is required), FEATURES_OK
 * and the device's confirmation of it, the queue, DRIVER_OK.
 */
int virtio_device_setup(struct virtio_device *vdev, u64 driver_features)
{
	u64 want = driver_features | (1ULL << VIRTIO_F_VERSION_1);
	int err;

	writel(vdev, VIRTIO_MMIO_STATUS, 0);
	add_status(vdev, VIRTIO_CONFIG_S_ACKNOWLEDGE | VIRTIO_CONFIG_S_DRIVER);
	vdev->features = device_features(vdev) & want;
	if (!(vdev->features & (1ULL << VIRTIO_F_VERSION_1))) {
		err = -ENODEV;
		goto fail;
	}
	set_driver_features(vdev, vdev->features);
	add_status(vdev, VIRTIO_CONFIG_S_FEATURES_OK);
	if (!(readl(vdev, VIRTIO_MMIO_STATUS) & VIRTIO_CONFIG_S_FEATURES_OK)) {
		err = -ENODEV;
		goto fail;
	}
	err = setup_queue(vdev);
	if (err)
		goto fail;
	add_status(vdev, VIRTIO_CONFIG_S_DRIVER_OK);
	return 0;
fail:
	add_status(vdev, VIRTIO_CONFIG_S_FAILED);
	return err;
}

/* Every device's line goes here: ask each whether it was its. */
static void virtio_mmio_interrupt(void)
{
	struct virtio_device *vdev;
	u32 status;
	int i;

	for (i = 0; i < nr_devices; i++) {
		vdev = &devices[i];
		status = readl(vdev, VIRTIO_MMIO_INTERRUPT_STATUS);
		if (!status)
			continue;
		writel(vdev, VIRTIO_MMIO_INTERRUPT_ACK, status);
		if (vdev->vq)
			vring_interrupt(vdev->vq);
	}
}

/* A slot with a device: keep it, or say why not. */
static void probe_slot(const struct virtio_mmio_slot *slot)
{
	struct virtio_device *vdev = &devices[nr_devices];
	u32 version;

	vdev->base = slot->base;
	vdev->irq = slot->irq;
	if (readl(vdev, VIRTIO_MMIO_MAGIC_VALUE) != VIRTIO_MMIO_MAGIC)
		return;
	vdev->device_id = readl(vdev, VIRTIO_MMIO_DEVICE_ID);
	if (!vdev->device_id)
		return;
	version = readl(vdev, VIRTIO_MMIO_VERSION);
	printk("virtio-mmio: %#lx irq %u: device %u, version %u%s\n",
	       vdev->base, vdev->irq, vdev->device_id, version,
	       version == 2 ? "" :
	       " (legacy, unused: QEMU needs -global "
	       "virtio-mmio.force-legacy=false)");
	if (version != 2)
		return;
	snprintf(vdev->name, sizeof(vdev->name), "virtio%d", nr_devices);
	plic_enable(vdev->irq, virtio_mmio_interrupt, vdev->name);
	nr_devices++;
}

void virtio_mmio_init(void)
{
	int i;

	for (i = 0; i < boot_info.nr_virtio_mmio; i++)
		probe_slot(&boot_info.virtio_mmio[i]);
	if (!nr_devices)
		printk("virtio-mmio: no device\n");
}
