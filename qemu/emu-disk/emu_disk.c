// SPDX-License-Identifier: GPL-2.0
/*
 * emu_disk - emulated block devices whose latency runs on the guest's clock
 *
 * The project judges idle-state prediction by how a CPU sleeps while it
 * waits for IO, so the test bed needs disks whose requests take a known,
 * realistic time that is counted in the guest's own clock. QEMU's null-aio
 * backend cannot give it in instruction-counting mode: it completes on the
 * host's real-time clock, which barely moves while the guest runs. Nor may
 * the delay be an hrtimer of the guest: every predictor would then see the
 * completion coming as a timer, which no real device is.
 *
 * DOC: How a request completes
 *
 * Each possible CPU owns one comparator of the HPET, which QEMU runs on its
 * virtual clock (the guest boots with hpet=disable, so the kernel leaves the
 * device to this driver). The comparator's interrupt goes through an I/O
 * APIC pin (GSI 16 + CPU) whose affinity is that CPU: it is the completion
 * interrupt of the CPU's hardware queue, as with an NVMe device that has one
 * queue and one MSI-X vector per CPU. irq_cpu= sends every completion to
 * one CPU instead, as a single-queue controller does.
 *
 * ->queue_rq() moves the data at once (reads of never-written sectors give
 * zeroes; written pages are kept in memory, up to mem_mb in all), draws the
 * request's service time from the disk's profile, and files the request on
 * the completing CPU's list, sorted by deadline = issue time + service time,
 * in HPET ticks. The comparator always holds the earliest deadline of its
 * list. Its interrupt ends every request whose deadline has passed, in
 * deadline order, and programs the next one. Several requests in flight
 * thus complete in latency order, whatever order they were issued in, and
 * a CPU sees nothing of a request until its interrupt arrives.
 *
 * completion= says how a due request is ended. mq (the default) calls
 * blk_mq_end_request(), as NVMe, virtio-blk and null_blk do. scsi ends it
 * as the SCSI midlayer (scsi_end_request()), MMC (mmc_blk_mq_complete_rq())
 * and request-based dm do: blk_update_request() for all its bytes, which
 * ends the bios and so wakes the task waiting for them, then
 * __blk_mq_end_request(), which accounts and frees the request. Either
 * runs in ->complete(), reached through blk_mq_complete_request() from the
 * interrupt, with the same service time: the modes differ only in the
 * block layer's entry points, and so in what code hooked to
 * blk_mq_end_request() sees. debugfs "stats" names the mode.
 *
 * Worked numbers (nvme, one 4 KiB read at HPET tick 1000000, 10 ns per
 * tick): the draw u = 0.5 falls on the profile's 50th percentile, 68 us,
 * so the deadline is tick 1000000 + 68000 / 10 = 1006800. A 2 ms hdd read
 * issued at tick 1000100 files behind it; the interrupt at tick 1006800
 * ends the nvme read and programs tick 1000100 + 200000 = 1200100.
 *
 * DOC: Latency profiles
 *
 * A profile is a quantile table: the service time at increasing
 * probabilities, from 0 to 1. A draw takes a uniform u in [0, 1) from the
 * disk's own xorshift64* generator (seeded by seed= and the disk's index, so
 * a run is repeatable) and interpolates linearly between the two quantiles
 * around u. The tables match published figures of each class of device at
 * 4 KiB, one request outstanding, and apply to reads, writes and flushes
 * alike; a request larger than 4 KiB adds its transfer time at the
 * profile's bandwidth. fixed:<time> is one latency with no spread.
 *
 * Published figures are what an application measures (fio's completion
 * latency): they include the kernel's own IO path, the system call, block
 * layer, interrupt and wake-up, which the guest spends too. So that a read
 * timed in the guest sees the profile, stack_ns of each draw is left to the
 * guest: the device takes max(draw - stack_ns, 0). The default, 9 us, is
 * what a 4 KiB O_DIRECT read of a fixed:0 disk takes in the test bed's
 * virtual time (1 ns per instruction, no idle-state exit latency) on Linux
 * 6.12; on 6.1 it took 8 us.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/acpi.h>
#include <linux/blk-mq.h>
#include <linux/blkdev.h>
#include <linux/cpuhotplug.h>
#include <linux/ctype.h>
#include <linux/debugfs.h>
#include <linux/highmem.h>
#include <linux/hrtimer.h>
#include <linux/interrupt.h>
#include <linux/io.h>
#include <linux/irq.h>
#include <linux/kernel.h>
#include <linux/list.h>
#include <linux/math64.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/percpu.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include <linux/xarray.h>
#include <asm/hpet.h>

/*
 * Limits. Eight disks is what the test bed attaches at most. Eight CPUs is
 * CONFIG_NR_CPUS of the test kernels and the number of I/O APIC pins (GSI
 * 16-23) that QEMU's HPET may use besides the legacy ones. One second of
 * service time is beyond any device the profiles describe (an hdd's worst
 * is tens of ms). A queue depth of 64 is more than any workload here keeps
 * in flight, and keeps the sorted insertion into a CPU's list short.
 */
#define EMU_DISK_MAX		8
#define EMU_DISK_MAX_CPUS	8
#define EMU_DISK_GSI_BASE	16
#define EMU_DISK_MAX_NS		NSEC_PER_SEC
#define EMU_DISK_QUEUE_DEPTH	64
#define EMU_DISK_MAX_POINTS	12
#define EMU_DISK_NAME_LEN	32

/**
 * struct emu_disk_point - one quantile of a latency profile
 * @p: probability, in 1/100000 (0 .. 100000)
 * @ns: service time at that probability
 */
struct emu_disk_point {
	u32 p;
	u64 ns;
};

/**
 * struct emu_disk_profile - a class of device
 * @name: value in disks=
 * @points: quantiles, increasing in @p and @ns, from p = 0 to p = 100000
 * @count: number of points
 * @bytes_per_us: transfer rate for the part of a request beyond 4 KiB
 */
struct emu_disk_profile {
	const char *name;
	const struct emu_disk_point *points;
	unsigned int count;
	u32 bytes_per_us;
};

#define P(percent)	((u32)((percent) * 1000))
#define US(us)		((u64)((us) * 1000))

/*
 * nvme: 4 KiB random read, queue depth 1, on a PCIe Gen4 enterprise SSD:
 * p50 68 us, p99 82 us, p99.9 119 us and a rare millisecond tail (garbage
 * collection), the fio clat percentiles of that class of drive (Samsung
 * PM9A3 and Intel D7-P5510 product briefs give 70-80 us typical 4 KiB read
 * latency). 3 GB/s sequential.
 */
static const struct emu_disk_point emu_disk_nvme[] = {
	{ P(0), US(55) }, { P(10), US(63) }, { P(50), US(68) },
	{ P(90), US(76) }, { P(99), US(82) }, { P(99.9), US(119) },
	{ P(99.99), US(900) }, { P(100), US(2500) },
};

/*
 * sata-ssd: a SATA 6 Gb/s consumer SSD (Samsung 870 EVO class): mean about
 * 140 us at 4 KiB QD1, including the AHCI round trip, and a p99 about twice
 * NVMe's. 530 MB/s.
 */
static const struct emu_disk_point emu_disk_sata_ssd[] = {
	{ P(0), US(95) }, { P(10), US(115) }, { P(50), US(135) },
	{ P(90), US(160) }, { P(99), US(170) }, { P(99.9), US(260) },
	{ P(99.99), US(1500) }, { P(100), US(4000) },
};

/*
 * emmc: an eMMC 5.1 device in HS400 mode: about 175 us per 4 KiB random
 * read (JEDEC eMMC 5.1 class devices quote 7000-12000 random read IOPS at
 * QD>1; at QD1 the command round trip brings it to 5500-6000 IOPS).
 * 250 MB/s.
 */
static const struct emu_disk_point emu_disk_emmc[] = {
	{ P(0), US(140) }, { P(10), US(155) }, { P(50), US(172) },
	{ P(90), US(200) }, { P(99), US(260) }, { P(99.9), US(600) },
	{ P(100), US(3000) },
};

/*
 * sd: an SD card in UHS-I mode: 0.5-1.7 ms per 4 KiB random read, the range
 * the RFD's own SD-card measurement spans (its bucket table: 95.5 % of
 * reads within one 200 us bucket of the guess) and the SD Association's A1
 * class floor (1500 IOPS random read, 0.67 ms). 40 MB/s.
 */
static const struct emu_disk_point emu_disk_sd[] = {
	{ P(0), US(500) }, { P(10), US(560) }, { P(50), US(640) },
	{ P(90), US(820) }, { P(99), US(1300) }, { P(99.9), US(1700) },
	{ P(100), US(5000) },
};

/*
 * hdd: a 7200 rpm disk (8.33 ms per revolution: uniform rotational delay
 * of 0-8.3 ms) reading 4 KiB at random within a 1 GB span, where seeks
 * are short: p50 3.6 ms, p99 11.3 ms as measured with fio on such a span
 * of a desktop 7200 rpm drive. 150 MB/s.
 */
static const struct emu_disk_point emu_disk_hdd[] = {
	{ P(0), US(300) }, { P(10), US(1200) }, { P(50), US(3600) },
	{ P(90), US(7600) }, { P(99), US(11300) }, { P(100), US(14000) },
};

/*
 * hdd-full: the same disk over its full span: an average seek of 8.5 ms
 * (WD Blue/Seagate Barracuda 7200 rpm datasheets) plus the rotation, about
 * 12 ms mean, 4-25 ms.
 */
static const struct emu_disk_point emu_disk_hdd_full[] = {
	{ P(0), US(4000) }, { P(10), US(6500) }, { P(50), US(11500) },
	{ P(90), US(17500) }, { P(99), US(22500) }, { P(100), US(25000) },
};

static const struct emu_disk_profile emu_disk_profiles[] = {
	{ "nvme", emu_disk_nvme, ARRAY_SIZE(emu_disk_nvme), 3000 },
	{ "sata-ssd", emu_disk_sata_ssd, ARRAY_SIZE(emu_disk_sata_ssd), 530 },
	{ "emmc", emu_disk_emmc, ARRAY_SIZE(emu_disk_emmc), 250 },
	{ "sd", emu_disk_sd, ARRAY_SIZE(emu_disk_sd), 40 },
	{ "hdd", emu_disk_hdd, ARRAY_SIZE(emu_disk_hdd), 150 },
	{ "hdd-full", emu_disk_hdd_full, ARRAY_SIZE(emu_disk_hdd_full), 150 },
};

static char *disks;
module_param(disks, charp, 0444);
MODULE_PARM_DESC(disks,
		 "comma-separated profiles, one disk each (emud0, emud1, ...): nvme, sata-ssd, emmc, sd, hdd, hdd-full, fixed:<n>{ns,us,ms}");

static ulong seed = 1;
module_param(seed, ulong, 0444);
MODULE_PARM_DESC(seed, "seed of the latency draws (default 1)");

static int irq_cpu = -1;
module_param(irq_cpu, int, 0444);
MODULE_PARM_DESC(irq_cpu,
		 "CPU that takes every completion interrupt (default -1: the CPU that issued the request)");

static uint size_mb = 1024;
module_param(size_mb, uint, 0444);
MODULE_PARM_DESC(size_mb, "capacity of each disk in MiB (default 1024)");

static uint mem_mb = 256;
module_param(mem_mb, uint, 0444);
MODULE_PARM_DESC(mem_mb, "memory for written data, all disks together, in MiB (default 256)");

static uint stack_ns = 9000;
module_param(stack_ns, uint, 0444);
MODULE_PARM_DESC(stack_ns,
		 "part of each drawn latency spent by the guest's own IO path, not by the device (default 9000)");

static char *completion = "mq";
module_param(completion, charp, 0444);
MODULE_PARM_DESC(completion,
		 "how requests end: mq (default: blk_mq_end_request()) or scsi (blk_update_request(), then __blk_mq_end_request(), as SCSI and MMC)");

static ulong hpet_base = 0xfed00000;
module_param(hpet_base, ulong, 0444);
MODULE_PARM_DESC(hpet_base, "physical address of the HPET (default 0xfed00000)");

/**
 * struct emu_disk_stat - what one disk did, for debugfs
 * @issued: requests started
 * @completed: requests ended
 * @drawn_ns: sum of the service times drawn
 * @late_ns: sum of (interrupt time - deadline): how late the interrupt came
 * @late_max_ns: the largest of those
 */
struct emu_disk_stat {
	u64 issued;
	u64 completed;
	u64 drawn_ns;
	u64 late_ns;
	u64 late_max_ns;
};

/**
 * struct emu_disk - one emulated disk
 * @name: block device name
 * @profile: latency profile; @fixed holds the quantiles of fixed:<time>
 * @fixed: two points, p = 0 and p = 1, at the fixed latency
 * @fixed_profile: the profile that points to @fixed
 * @spec: the disks= entry, as given
 * @index: position in disks=
 * @lock: protects @rng and @stat; raw, as the interrupt takes it too
 * @rng: xorshift64* state
 * @stat: counters
 * @store_lock: serialises the page store (it allocates, so not raw)
 * @pages: written pages, indexed by sector >> PAGE_SECTORS_SHIFT
 * @tag_set: blk-mq tag set, one hardware queue per possible CPU
 * @disk: the gendisk, NULL until added
 */
struct emu_disk {
	char name[EMU_DISK_NAME_LEN];
	const struct emu_disk_profile *profile;
	struct emu_disk_point fixed[2];
	struct emu_disk_profile fixed_profile;
	char spec[EMU_DISK_NAME_LEN];
	unsigned int index;
	raw_spinlock_t lock;
	u64 rng;
	struct emu_disk_stat stat;
	spinlock_t store_lock;	/* serialises the page store */
	struct xarray pages;
	struct blk_mq_tag_set tag_set;
	struct gendisk *disk;
};

/**
 * struct emu_disk_cmd - per-request data
 * @node: entry in the completing CPU's list
 * @issue_tick: HPET counter when the request was issued
 * @deadline_tick: HPET counter at which it completes
 * @status: status to complete with
 * @cpu: the CPU whose comparator completes it
 */
struct emu_disk_cmd {
	struct list_head node;
	u64 issue_tick;
	u64 deadline_tick;
	blk_status_t status;
	int cpu;
};

/**
 * struct emu_disk_cpu - one CPU's completion interrupt
 * @lock: protects @pending and the comparator; taken from ->queue_rq() on
 *	  any CPU and from the interrupt, hence raw and with IRQs off
 * @pending: requests in flight to this CPU, earliest deadline first
 * @timer: HPET comparator number
 * @gsi: its I/O APIC pin
 * @irq: Linux interrupt number, 0 if not set up
 * @programmed_hi: the upper half of the comparator as last written
 * @hrtimer: the completion timer when the HPET cannot interrupt
 */
struct emu_disk_cpu {
	raw_spinlock_t lock;
	struct list_head pending;
	unsigned int timer;
	unsigned int gsi;
	int irq;
	u32 programmed_hi;
	struct hrtimer hrtimer;
};

/*
 * Without I/O APIC routing for the HPET's pins (a kernel booted with
 * pci=noacpi or acpi=noirq, as the reliability suite's debug kernel is in
 * real time) completions fall back to an hrtimer per CPU. The disks then
 * work, but a completion is a timer of the CPU that takes it, which every
 * predictor sees coming: good for reliability runs, not for measurement.
 * The load message and debugfs "stats" say which is in use. The timers are
 * not HRTIMER_MODE_HARD: completing a request wakes waiters under
 * spinlock_t, which PREEMPT_RT runs in the softirq-expired timer context.
 */
static bool emu_disk_hrtimers;

/* completion=, as parsed: how emu_disk_complete() ends a request. */
enum emu_disk_completion {
	EMU_DISK_COMPLETION_MQ,
	EMU_DISK_COMPLETION_SCSI,
};

static const char * const emu_disk_completion_names[] = {
	[EMU_DISK_COMPLETION_MQ] = "mq",
	[EMU_DISK_COMPLETION_SCSI] = "scsi",
};

static const char * const emu_disk_completion_calls[] = {
	[EMU_DISK_COMPLETION_MQ] = "blk_mq_end_request()",
	[EMU_DISK_COMPLETION_SCSI] = "blk_update_request(), then __blk_mq_end_request()",
};

static enum emu_disk_completion emu_disk_completion_mode;

static struct emu_disk *emu_disks[EMU_DISK_MAX];
static unsigned int emu_disk_count;
static struct emu_disk_cpu emu_disk_cpus[EMU_DISK_MAX_CPUS];
static unsigned int emu_disk_ncpus;
static void __iomem *emu_hpet;
static u32 emu_hpet_period_fs;
static u32 emu_hpet_saved_cfg;
static int emu_disk_major;
static atomic_long_t emu_disk_pages_used;
static long emu_disk_pages_max;
static struct dentry *emu_disk_debugfs;
static enum cpuhp_state emu_disk_hp_state;

static u32 emu_hpet_readl(unsigned int reg)
{
	return readl(emu_hpet + reg);
}

static void emu_hpet_writel(u32 val, unsigned int reg)
{
	writel(val, emu_hpet + reg);
}

/* The 64-bit main counter, read as two halves that did not tear. */
static u64 emu_hpet_now(void)
{
	u32 hi, lo, hi2;

	hi = emu_hpet_readl(HPET_COUNTER + 4);
	do {
		lo = emu_hpet_readl(HPET_COUNTER);
		hi2 = hi;
		hi = emu_hpet_readl(HPET_COUNTER + 4);
	} while (hi != hi2);
	return (u64)hi << 32 | lo;
}

static u64 emu_disk_ns_to_ticks(u64 ns)
{
	return div_u64(ns * 1000000, emu_hpet_period_fs);
}

static u64 emu_disk_ticks_to_ns(u64 ticks)
{
	return div_u64(ticks * emu_hpet_period_fs, 1000000);
}

/* xorshift64* (Vigna 2016): 64 bits of state, period 2^64 - 1. */
static u64 emu_disk_rand(struct emu_disk *d)
{
	d->rng ^= d->rng >> 12;
	d->rng ^= d->rng << 25;
	d->rng ^= d->rng >> 27;
	return d->rng * 0x2545F4914F6CDD1DULL;
}

/**
 * emu_disk_quantile() - service time at probability p
 * @prof: the profile
 * @p: probability, in 1/100000
 *
 * Return: the time in ns, interpolated linearly between the quantiles
 * around @p.
 */
static u64 emu_disk_quantile(const struct emu_disk_profile *prof, u32 p)
{
	unsigned int i;

	for (i = 1; i < prof->count; i++) {
		const struct emu_disk_point *a = &prof->points[i - 1];
		const struct emu_disk_point *b = &prof->points[i];

		if (p < b->p)
			return a->ns + div_u64((b->ns - a->ns) * (p - a->p),
					       b->p - a->p);
	}
	return prof->points[prof->count - 1].ns;
}

static u64 emu_disk_draw_ns(struct emu_disk *d, unsigned int bytes)
{
	u32 p = ((emu_disk_rand(d) >> 32) * 100000) >> 32;
	u64 ns = emu_disk_quantile(d->profile, p);

	if (bytes > SZ_4K && d->profile->bytes_per_us)
		ns += div_u64((u64)(bytes - SZ_4K) * 1000,
			      d->profile->bytes_per_us);
	ns = ns > stack_ns ? ns - stack_ns : 0;
	return min_t(u64, ns, EMU_DISK_MAX_NS);
}

/*
 * The page store: brd's scheme, one page per written PAGE_SIZE of the
 * disk, looked up by sector. Called under d->store_lock, so pages are
 * allocated without sleeping; a full store fails the write.
 */
static struct page *emu_disk_page(struct emu_disk *d, sector_t sector,
				  bool alloc)
{
	pgoff_t idx = sector >> PAGE_SECTORS_SHIFT;
	struct page *page = xa_load(&d->pages, idx);

	if (page || !alloc)
		return page;
	if (atomic_long_inc_return(&emu_disk_pages_used) > emu_disk_pages_max)
		goto full;
	page = alloc_page(GFP_ATOMIC | __GFP_NOWARN | __GFP_ZERO);
	if (!page)
		goto full;
	if (xa_err(xa_store(&d->pages, idx, page, GFP_ATOMIC | __GFP_NOWARN))) {
		__free_page(page);
		goto full;
	}
	return page;
full:
	atomic_long_dec(&emu_disk_pages_used);
	return NULL;
}

static blk_status_t emu_disk_copy(struct emu_disk *d, struct request *rq)
{
	bool write = op_is_write(req_op(rq));
	sector_t sector = blk_rq_pos(rq);
	struct req_iterator iter;
	struct bio_vec bv;

	rq_for_each_segment(bv, rq, iter) {
		unsigned int done = 0;

		while (done < bv.bv_len) {
			unsigned int off = (sector & (PAGE_SECTORS - 1)) << SECTOR_SHIFT;
			unsigned int n = min_t(unsigned int, bv.bv_len - done,
					       PAGE_SIZE - off);
			struct page *page = emu_disk_page(d, sector, write);
			void *buf = bvec_kmap_local(&bv) + done;

			if (write && !page) {
				kunmap_local(buf);
				pr_err_ratelimited("%s: write failed: the page store is full (mem_mb=%u)\n",
						   d->name, mem_mb);
				return BLK_STS_NOSPC;
			}
			if (write)
				memcpy_to_page(page, off, buf, n);
			else if (page)
				memcpy_from_page(buf, page, off, n);
			else
				memset(buf, 0, n);
			kunmap_local(buf);
			done += n;
			sector += n >> SECTOR_SHIFT;
		}
	}
	return BLK_STS_OK;
}

static void emu_disk_discard(struct emu_disk *d, struct request *rq)
{
	pgoff_t first = DIV_ROUND_UP_ULL(blk_rq_pos(rq), PAGE_SECTORS);
	pgoff_t end = (blk_rq_pos(rq) + blk_rq_sectors(rq)) >> PAGE_SECTORS_SHIFT;
	pgoff_t i;

	for (i = first; i < end; i++) {
		struct page *page = xa_erase(&d->pages, i);

		if (page) {
			__free_page(page);
			atomic_long_dec(&emu_disk_pages_used);
		}
	}
}

/* Write the comparator; c->lock held. */
static void emu_disk_program(struct emu_disk_cpu *c, u64 tick)
{
	u32 hi = upper_32_bits(tick);

	if (emu_disk_hrtimers) {
		u64 now = emu_hpet_now();
		u64 ns = tick > now ? emu_disk_ticks_to_ns(tick - now) : 0;

		hrtimer_start(&c->hrtimer, ns_to_ktime(ns), HRTIMER_MODE_REL);
		return;
	}

	/*
	 * QEMU rearms the comparator on each half written; the upper half
	 * changes once every 2^32 ticks (43 s), so it is written first only
	 * then, and the lower half, which arms the final value, always.
	 */
	if (hi != c->programmed_hi) {
		emu_hpet_writel(hi, HPET_Tn_CMP(c->timer) + 4);
		c->programmed_hi = hi;
	}
	emu_hpet_writel(lower_32_bits(tick), HPET_Tn_CMP(c->timer));
}

static void emu_disk_file(struct emu_disk_cpu *c, struct emu_disk_cmd *cmd)
{
	struct emu_disk_cmd *pos;
	unsigned long flags;

	raw_spin_lock_irqsave(&c->lock, flags);
	list_for_each_entry_reverse(pos, &c->pending, node) {
		if (pos->deadline_tick <= cmd->deadline_tick)
			break;
	}
	list_add(&cmd->node, &pos->node);
	if (c->pending.next == &cmd->node)
		emu_disk_program(c, cmd->deadline_tick);
	raw_spin_unlock_irqrestore(&c->lock, flags);
}

static blk_status_t emu_disk_queue_rq(struct blk_mq_hw_ctx *hctx,
				      const struct blk_mq_queue_data *bd)
{
	struct emu_disk *d = hctx->queue->queuedata;
	struct request *rq = bd->rq;
	struct emu_disk_cmd *cmd = blk_mq_rq_to_pdu(rq);
	blk_status_t status = BLK_STS_OK;
	unsigned long flags;
	u64 ns;

	blk_mq_start_request(rq);
	spin_lock_irqsave(&d->store_lock, flags);
	switch (req_op(rq)) {
	case REQ_OP_READ:
	case REQ_OP_WRITE:
		status = emu_disk_copy(d, rq);
		break;
	case REQ_OP_DISCARD:
		emu_disk_discard(d, rq);
		break;
	case REQ_OP_FLUSH:
		break;
	default:
		status = BLK_STS_NOTSUPP;
		break;
	}
	spin_unlock_irqrestore(&d->store_lock, flags);

	raw_spin_lock_irqsave(&d->lock, flags);
	ns = emu_disk_draw_ns(d, blk_rq_bytes(rq));
	d->stat.issued++;
	d->stat.drawn_ns += ns;
	raw_spin_unlock_irqrestore(&d->lock, flags);

	cmd->status = status;
	/*
	 * The CPU of the software queue the request came from: a hardware
	 * queue's cpumask can be empty (a queue mapped while its CPU was
	 * coming online, isolated CPUs), the submitting CPU never is.
	 */
	cmd->cpu = irq_cpu >= 0 ? irq_cpu : blk_mq_rq_cpu(rq);
	if ((unsigned int)cmd->cpu >= emu_disk_ncpus)
		cmd->cpu = 0;
	cmd->issue_tick = emu_hpet_now();
	cmd->deadline_tick = cmd->issue_tick + emu_disk_ns_to_ticks(ns);
	emu_disk_file(&emu_disk_cpus[cmd->cpu], cmd);
	return BLK_STS_OK;
}

static void emu_disk_complete(struct request *rq)
{
	struct emu_disk_cmd *cmd = blk_mq_rq_to_pdu(rq);

	if (emu_disk_completion_mode == EMU_DISK_COMPLETION_MQ) {
		blk_mq_end_request(rq, cmd->status);
		return;
	}
	/*
	 * scsi: the bios first, their waiters wake; then the request. All
	 * its bytes are ended at once, so none remains; were some left, the
	 * request would go back to ->queue_rq() for them, as MMC does.
	 */
	if (blk_update_request(rq, cmd->status, blk_rq_bytes(rq))) {
		blk_mq_requeue_request(rq, true);
		return;
	}
	__blk_mq_end_request(rq, cmd->status);
}

static const struct blk_mq_ops emu_disk_mq_ops = {
	.queue_rq = emu_disk_queue_rq,
	.complete = emu_disk_complete,
};

/* End every request of c that is due, in deadline order; arm the next. */
static void emu_disk_complete_due(struct emu_disk_cpu *c)
{
	struct emu_disk_cmd *cmd, *tmp;
	unsigned long flags;
	LIST_HEAD(done);
	u64 now;

	raw_spin_lock_irqsave(&c->lock, flags);
	now = emu_hpet_now();
	list_for_each_entry_safe(cmd, tmp, &c->pending, node) {
		if (cmd->deadline_tick > now) {
			emu_disk_program(c, cmd->deadline_tick);
			break;
		}
		list_move_tail(&cmd->node, &done);
	}
	raw_spin_unlock_irqrestore(&c->lock, flags);

	list_for_each_entry_safe(cmd, tmp, &done, node) {
		struct request *rq = blk_mq_rq_from_pdu(cmd);
		struct emu_disk *d = rq->q->queuedata;
		u64 late = emu_disk_ticks_to_ns(now - cmd->deadline_tick);

		list_del_init(&cmd->node);
		raw_spin_lock_irqsave(&d->lock, flags);
		d->stat.completed++;
		d->stat.late_ns += late;
		d->stat.late_max_ns = max(d->stat.late_max_ns, late);
		raw_spin_unlock_irqrestore(&d->lock, flags);
		blk_mq_complete_request(rq);
	}
}

static irqreturn_t emu_disk_interrupt(int irq, void *data)
{
	emu_disk_complete_due(data);
	return IRQ_HANDLED;
}

static enum hrtimer_restart emu_disk_hrtimer_fn(struct hrtimer *t)
{
	emu_disk_complete_due(container_of(t, struct emu_disk_cpu, hrtimer));
	return HRTIMER_NORESTART;
}

/*
 * disks= parsing. Every entry is checked before anything is set up, so a
 * bad one changes nothing and names itself.
 */
static int emu_disk_parse_time(const char *s, u64 *ns)
{
	static const struct { const char *unit; u64 mult; } units[] = {
		{ "ns", 1 }, { "us", NSEC_PER_USEC }, { "ms", NSEC_PER_MSEC },
	};
	char num[24];
	size_t len = strlen(s);
	unsigned int i;
	u64 v;

	for (i = 0; i < ARRAY_SIZE(units); i++) {
		size_t ul = strlen(units[i].unit);

		if (len <= ul || len - ul >= sizeof(num) ||
		    strcmp(s + len - ul, units[i].unit))
			continue;
		memcpy(num, s, len - ul);
		num[len - ul] = '\0';
		if (kstrtou64(num, 10, &v) || v > div64_u64(EMU_DISK_MAX_NS, units[i].mult))
			return -EINVAL;
		*ns = v * units[i].mult;
		return 0;
	}
	return -EINVAL;
}

static int emu_disk_parse_one(struct emu_disk *d, const char *spec)
{
	unsigned int i;
	u64 ns;

	if (strscpy(d->spec, spec, sizeof(d->spec)) < 0) {
		pr_err("disks=: entry '%.32s...' is too long\n", spec);
		return -EINVAL;
	}
	for (i = 0; i < ARRAY_SIZE(emu_disk_profiles); i++) {
		if (!strcmp(spec, emu_disk_profiles[i].name)) {
			d->profile = &emu_disk_profiles[i];
			return 0;
		}
	}
	if (!strncmp(spec, "fixed:", 6)) {
		if (emu_disk_parse_time(spec + 6, &ns)) {
			pr_err("disks=: '%s': expected fixed:<n>ns, fixed:<n>us or fixed:<n>ms, at most 1 s\n",
			       spec);
			return -EINVAL;
		}
		d->fixed[0] = (struct emu_disk_point){ 0, ns };
		d->fixed[1] = (struct emu_disk_point){ P(100), ns };
		d->fixed_profile = (struct emu_disk_profile){
			.name = "fixed", .points = d->fixed, .count = 2,
		};
		d->profile = &d->fixed_profile;
		return 0;
	}
	pr_err("disks=: unknown profile '%s' (nvme, sata-ssd, emmc, sd, hdd, hdd-full, fixed:<time>)\n",
	       spec);
	return -EINVAL;
}

static int emu_disk_parse(void)
{
	char *buf, *cur, *tok;
	int ret = 0;

	if (!disks || !*disks) {
		pr_err("disks=: no disk given\n");
		return -EINVAL;
	}
	buf = kstrdup(disks, GFP_KERNEL);
	if (!buf)
		return -ENOMEM;
	cur = buf;
	while ((tok = strsep(&cur, ",")) != NULL) {
		struct emu_disk *d;

		if (!*tok) {
			pr_err("disks=: empty entry in '%s'\n", disks);
			ret = -EINVAL;
			break;
		}
		if (emu_disk_count == EMU_DISK_MAX) {
			pr_err("disks=: more than %d disks\n", EMU_DISK_MAX);
			ret = -EINVAL;
			break;
		}
		d = kzalloc(sizeof(*d), GFP_KERNEL);
		if (!d) {
			ret = -ENOMEM;
			break;
		}
		raw_spin_lock_init(&d->lock);
		spin_lock_init(&d->store_lock);
		xa_init(&d->pages);
		emu_disks[emu_disk_count] = d;
		d->index = emu_disk_count++;
		ret = emu_disk_parse_one(d, tok);
		if (ret)
			break;
	}
	kfree(buf);
	return ret;
}

static int emu_disk_check_params(void)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(emu_disk_completion_names); i++) {
		if (completion && !strcmp(completion, emu_disk_completion_names[i]))
			break;
	}
	if (i == ARRAY_SIZE(emu_disk_completion_names)) {
		pr_err("completion=%s: must be mq (blk_mq_end_request()) or scsi (blk_update_request(), then __blk_mq_end_request())\n",
		       completion ?: "");
		return -EINVAL;
	}
	emu_disk_completion_mode = i;
	if (irq_cpu < -1 || irq_cpu >= (int)nr_cpu_ids) {
		pr_err("irq_cpu=%d: must be -1 or a CPU below %u\n", irq_cpu, nr_cpu_ids);
		return -EINVAL;
	}
	if (nr_cpu_ids > EMU_DISK_MAX_CPUS) {
		pr_err("%u possible CPUs: at most %d (one HPET comparator and I/O APIC pin each)\n",
		       nr_cpu_ids, EMU_DISK_MAX_CPUS);
		return -EINVAL;
	}
	if (stack_ns > 100 * NSEC_PER_USEC) {
		pr_err("stack_ns=%u: at most 100000 (the guest's IO path is a few us)\n",
		       stack_ns);
		return -EINVAL;
	}
	if (!size_mb || size_mb > SZ_1M) {
		pr_err("size_mb=%u: must be 1 .. %u\n", size_mb, SZ_1M);
		return -EINVAL;
	}
	if (!mem_mb || mem_mb > totalram_pages() / (SZ_1M / PAGE_SIZE) / 2) {
		pr_err("mem_mb=%u: must be 1 .. half the memory (%lu)\n", mem_mb,
		       totalram_pages() / (SZ_1M / PAGE_SIZE) / 2);
		return -EINVAL;
	}
	return 0;
}

/* HPET set-up: one comparator per possible CPU, edge interrupts via GSI. */
static int emu_disk_hpet_init(void)
{
	unsigned int ntimers, i;
	u32 id;

	emu_hpet = ioremap(hpet_base, HPET_MMAP_SIZE);
	if (!emu_hpet)
		return -ENOMEM;
	id = emu_hpet_readl(HPET_ID);
	emu_hpet_period_fs = emu_hpet_readl(HPET_PERIOD);
	if (id == 0 || id == ~0U || !emu_hpet_period_fs ||
	    emu_hpet_period_fs > HPET_MAX_PERIOD) {
		pr_err("no HPET at %#lx (id %#x, period %u fs)\n", hpet_base, id,
		       emu_hpet_period_fs);
		return -ENODEV;
	}
	if (emu_hpet_readl(HPET_CFG) & HPET_CFG_ENABLE) {
		pr_err("the kernel uses the HPET: boot with hpet=disable\n");
		return -EBUSY;
	}
	ntimers = ((id & HPET_ID_NUMBER) >> HPET_ID_NUMBER_SHIFT) + 1;
	emu_disk_ncpus = nr_cpu_ids;
	for (i = 0; i < emu_disk_ncpus; i++) {
		struct emu_disk_cpu *c = &emu_disk_cpus[i];

		raw_spin_lock_init(&c->lock);
		INIT_LIST_HEAD(&c->pending);
		hrtimer_init(&c->hrtimer, CLOCK_MONOTONIC, HRTIMER_MODE_REL);
		c->hrtimer.function = emu_disk_hrtimer_fn;
	}
	if (ntimers < emu_disk_ncpus) {
		pr_err("the HPET has %u comparators, %u CPUs need one each (QEMU: -global hpet.timers=%u)\n",
		       ntimers, emu_disk_ncpus, emu_disk_ncpus);
		return -ENODEV;
	}
	for (i = 0; i < emu_disk_ncpus; i++) {
		struct emu_disk_cpu *c = &emu_disk_cpus[i];
		u32 cap = emu_hpet_readl(HPET_Tn_CFG(i) + 4);

		c->timer = i;
		c->gsi = EMU_DISK_GSI_BASE + i;
		if (!(cap & BIT(c->gsi))) {
			pr_err("HPET comparator %u cannot raise GSI %u (routes %#x)\n",
			       i, c->gsi, cap);
			return -ENODEV;
		}
	}
	emu_hpet_saved_cfg = emu_hpet_readl(HPET_CFG);
	emu_hpet_writel(emu_hpet_saved_cfg & ~HPET_CFG_LEGACY, HPET_CFG);
	emu_hpet_writel((emu_hpet_saved_cfg & ~HPET_CFG_LEGACY) | HPET_CFG_ENABLE,
			HPET_CFG);
	return 0;
}

/* The CPU that takes comparator i's interrupt. */
static unsigned int emu_disk_irq_target(unsigned int i)
{
	return irq_cpu >= 0 ? irq_cpu : i;
}

/*
 * A CPU going offline takes its completion interrupt's affinity with it
 * (the kernel moves the IRQ to another CPU); give it back when it returns.
 */
static int emu_disk_cpu_online(unsigned int cpu)
{
	unsigned int i;

	for (i = 0; i < emu_disk_ncpus; i++) {
		if (emu_disk_irq_target(i) == cpu && emu_disk_cpus[i].irq > 0)
			irq_set_affinity(emu_disk_cpus[i].irq, cpumask_of(cpu));
	}
	return 0;
}

static void emu_disk_irqs_free(void)
{
	unsigned int i;

	for (i = 0; i < emu_disk_ncpus; i++) {
		struct emu_disk_cpu *c = &emu_disk_cpus[i];

		hrtimer_cancel(&c->hrtimer);
		emu_hpet_writel(0, HPET_Tn_CFG(c->timer));
		if (c->irq > 0) {
			free_irq(c->irq, c);
			acpi_unregister_gsi(c->gsi);
			c->irq = 0;
		}
	}
}

static int emu_disk_irqs_init(void)
{
	unsigned int i;
	int ret;

	for (i = 0; i < emu_disk_ncpus; i++) {
		struct emu_disk_cpu *c = &emu_disk_cpus[i];
		unsigned int target = emu_disk_irq_target(i);
		u32 cfg;

		ret = acpi_register_gsi(NULL, c->gsi, ACPI_EDGE_SENSITIVE,
					ACPI_ACTIVE_HIGH);
		if (ret < 0) {
			pr_err("cannot map GSI %u: %d\n", c->gsi, ret);
			return ret;
		}
		c->irq = ret;
		ret = request_irq(c->irq, emu_disk_interrupt, IRQF_NOBALANCING,
				  "emu_disk", c);
		if (ret) {
			pr_err("cannot request IRQ %d (GSI %u): %d%s\n", c->irq, c->gsi, ret,
			       irq_get_chip(c->irq) ? "" :
			       ": no I/O APIC routing for it (pci=noacpi or acpi=noirq?)");
			acpi_unregister_gsi(c->gsi);
			c->irq = 0;
			return ret;
		}
		if (cpu_online(target))
			irq_set_affinity(c->irq, cpumask_of(target));
		/* 64-bit one-shot comparator, edge interrupt on GSI c->gsi. */
		c->programmed_hi = upper_32_bits(emu_hpet_now());
		emu_hpet_writel(c->programmed_hi, HPET_Tn_CMP(c->timer) + 4);
		emu_hpet_writel(~0U, HPET_Tn_CMP(c->timer));
		cfg = c->gsi << HPET_TN_ROUTE_SHIFT | HPET_TN_ENABLE;
		emu_hpet_writel(cfg, HPET_Tn_CFG(c->timer));
	}
	return 0;
}

static const struct block_device_operations emu_disk_fops = {
	.owner = THIS_MODULE,
};

static int emu_disk_add(struct emu_disk *d)
{
	/*
	 * 512-byte logical and 4 KiB physical blocks, requests up to 1 MiB,
	 * discard of whole pages, a volatile write cache without FUA (flushes
	 * reach ->queue_rq()). Not rotational, whatever the profile (no
	 * BLK_FEAT_ROTATIONAL), and no entropy from the completion times,
	 * which are the profile's draws (no BLK_FEAT_ADD_RANDOM).
	 */
	struct queue_limits lim = {
		.logical_block_size = SECTOR_SIZE,
		.physical_block_size = SZ_4K,
		.max_hw_sectors = SZ_1M >> SECTOR_SHIFT,
		.max_hw_discard_sectors = UINT_MAX >> SECTOR_SHIFT,
		.discard_granularity = PAGE_SIZE,
		.features = BLK_FEAT_WRITE_CACHE,
	};
	struct gendisk *disk;
	int ret;

	/* xorshift64* must not start at 0; mix the seed and the index. */
	d->rng = (seed + 1) * 0x9E3779B97F4A7C15ULL ^ (d->index + 1);
	snprintf(d->name, sizeof(d->name), "emud%u", d->index);

	d->tag_set.ops = &emu_disk_mq_ops;
	d->tag_set.nr_hw_queues = nr_cpu_ids;
	d->tag_set.queue_depth = EMU_DISK_QUEUE_DEPTH;
	d->tag_set.numa_node = NUMA_NO_NODE;
	d->tag_set.cmd_size = sizeof(struct emu_disk_cmd);
	d->tag_set.flags = BLK_MQ_F_SHOULD_MERGE;
	d->tag_set.driver_data = d;
	ret = blk_mq_alloc_tag_set(&d->tag_set);
	if (ret)
		return ret;

	disk = blk_mq_alloc_disk(&d->tag_set, &lim, d);
	if (IS_ERR(disk)) {
		blk_mq_free_tag_set(&d->tag_set);
		return PTR_ERR(disk);
	}
	disk->major = emu_disk_major;
	disk->first_minor = d->index;
	disk->minors = 1;
	disk->fops = &emu_disk_fops;
	disk->private_data = d;
	disk->flags |= GENHD_FL_NO_PART;
	strscpy(disk->disk_name, d->name, sizeof(disk->disk_name));
	set_capacity(disk, (sector_t)size_mb << (20 - SECTOR_SHIFT));

	ret = add_disk(disk);
	if (ret) {
		put_disk(disk);
		blk_mq_free_tag_set(&d->tag_set);
		return ret;
	}
	d->disk = disk;
	return 0;
}

static void emu_disk_free_pages(struct emu_disk *d)
{
	struct page *page;
	unsigned long idx;

	xa_for_each(&d->pages, idx, page) {
		__free_page(page);
		atomic_long_dec(&emu_disk_pages_used);
	}
	xa_destroy(&d->pages);
}

static void emu_disk_remove(struct emu_disk *d)
{
	if (d->disk) {
		del_gendisk(d->disk);
		put_disk(d->disk);
		blk_mq_free_tag_set(&d->tag_set);
		d->disk = NULL;
	}
	emu_disk_free_pages(d);
}

static int emu_disk_stats_show(struct seq_file *m, void *v)
{
	unsigned int i;

	seq_printf(m, "# completions by %s\n", emu_disk_hrtimers ? "hrtimer" : "HPET interrupt");
	seq_printf(m, "# completion %s: %s\n",
		   emu_disk_completion_names[emu_disk_completion_mode],
		   emu_disk_completion_calls[emu_disk_completion_mode]);
	seq_puts(m, "disk profile issued completed drawn_mean_ns late_mean_ns late_max_ns\n");
	for (i = 0; i < emu_disk_count; i++) {
		struct emu_disk *d = emu_disks[i];
		struct emu_disk_stat s;
		unsigned long flags;

		raw_spin_lock_irqsave(&d->lock, flags);
		s = d->stat;
		raw_spin_unlock_irqrestore(&d->lock, flags);
		seq_printf(m, "%s %s %llu %llu %llu %llu %llu\n", d->name, d->spec,
			   s.issued, s.completed,
			   s.issued ? div64_u64(s.drawn_ns, s.issued) : 0,
			   s.completed ? div64_u64(s.late_ns, s.completed) : 0,
			   s.late_max_ns);
	}
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(emu_disk_stats);

/*
 * Each disk's profile as the draws use it: stack_ns, then the quantiles
 * as <probability in 1/100000>:<ns>.
 */
static int emu_disk_profiles_show(struct seq_file *m, void *v)
{
	unsigned int i, j;

	seq_puts(m, "disk profile stack_ns quantiles\n");
	for (i = 0; i < emu_disk_count; i++) {
		const struct emu_disk_profile *prof = emu_disks[i]->profile;

		seq_printf(m, "%s %s %u", emu_disks[i]->name, emu_disks[i]->spec,
			   stack_ns);
		for (j = 0; j < prof->count; j++)
			seq_printf(m, " %u:%llu", prof->points[j].p, prof->points[j].ns);
		seq_putc(m, '\n');
	}
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(emu_disk_profiles);

static void emu_disk_cleanup(void)
{
	unsigned int i;

	debugfs_remove_recursive(emu_disk_debugfs);
	for (i = 0; i < emu_disk_count; i++) {
		if (emu_disks[i])
			emu_disk_remove(emu_disks[i]);
	}
	if (emu_disk_hp_state > 0)
		cpuhp_remove_state_nocalls(emu_disk_hp_state);
	if (emu_hpet) {
		emu_disk_irqs_free();
		emu_hpet_writel(emu_hpet_saved_cfg, HPET_CFG);
		iounmap(emu_hpet);
		emu_hpet = NULL;
	}
	if (emu_disk_major > 0)
		unregister_blkdev(emu_disk_major, "emu_disk");
	for (i = 0; i < emu_disk_count; i++) {
		kfree(emu_disks[i]);
		emu_disks[i] = NULL;
	}
	emu_disk_count = 0;
}

static int __init emu_disk_init(void)
{
	unsigned int i;
	int ret;

	ret = emu_disk_check_params();
	if (!ret)
		ret = emu_disk_parse();
	if (ret)
		goto fail;
	emu_disk_pages_max = (long)mem_mb << (20 - PAGE_SHIFT);

	ret = emu_disk_hpet_init();
	if (ret)
		goto fail;
	ret = emu_disk_irqs_init();
	if (ret) {
		emu_disk_irqs_free();
		pr_warn("no HPET interrupt: completions fall back to hrtimers, which every idle predictor sees as timers (not for measurement)\n");
		emu_disk_hrtimers = true;
	}
	ret = cpuhp_setup_state_nocalls(CPUHP_AP_ONLINE_DYN, "block/emu_disk:online",
					emu_disk_cpu_online, NULL);
	if (ret < 0)
		goto fail;
	emu_disk_hp_state = ret;

	ret = register_blkdev(0, "emu_disk");
	if (ret < 0)
		goto fail;
	emu_disk_major = ret;
	for (i = 0; i < emu_disk_count; i++) {
		ret = emu_disk_add(emu_disks[i]);
		if (ret) {
			pr_err("cannot add disk %u: %d\n", i, ret);
			goto fail;
		}
	}
	emu_disk_debugfs = debugfs_create_dir("emu_disk", NULL);
	debugfs_create_file("stats", 0444, emu_disk_debugfs, NULL, &emu_disk_stats_fops);
	debugfs_create_file("profiles", 0444, emu_disk_debugfs, NULL,
			    &emu_disk_profiles_fops);
	pr_info("%u disks (%s), HPET period %u fs, completions by %s on %s, ended by %s\n",
		emu_disk_count, disks, emu_hpet_period_fs,
		emu_disk_hrtimers ? "hrtimer" : "HPET interrupt",
		irq_cpu >= 0 ? "one CPU" : "the issuing CPU",
		emu_disk_completion_calls[emu_disk_completion_mode]);
	return 0;
fail:
	emu_disk_cleanup();
	return ret;
}

static void __exit emu_disk_exit(void)
{
	emu_disk_cleanup();
}

module_init(emu_disk_init);
module_exit(emu_disk_exit);
MODULE_DESCRIPTION("Emulated disks completing on HPET interrupts in the guest's clock");
MODULE_LICENSE("GPL");
