// SPDX-License-Identifier: GPL-2.0
/*
 * emu_idle - an emulated CPU idle platform for virtual machines
 *
 * A QEMU guest has no idle states worth choosing between: the vCPU either
 * polls or executes HLT, and HLT costs the same whatever the guest intended.
 * A prediction of the idle duration therefore cannot be judged in a guest.
 * This driver gives every CPU a table of idle states copied from real
 * hardware (see the profiles below) and makes the two quantities that a
 * wrong choice costs observable:
 *
 * Wake-up latency. Entering any state other than POLL halts the vCPU with
 * HLT; when an interrupt wakes it, the driver busy-waits for the state's
 * exit latency, with interrupts disabled, before it returns to the idle
 * loop. A too-deep state thus delays the woken task by the exit latency, as
 * on the hardware the table comes from. The emulation can be switched off
 * at run time (emulate_exit_latency=0) to measure the bare guest.
 *
 * Energy. Each CPU accounts, per state, the number of entries, the time
 * spent in the state (the residency, measured around the state's ->enter()
 * callback, exit latency included, like the "time" attribute in sysfs) and
 * the modelled energy
 *
 *	E = residency * P(state) + entries * Et(state)
 *
 * where P is the state's power and Et the energy of one entry and exit.
 * Et is not listed in any table, but it follows from the definition of the
 * target residency (Documentation/admin-guide/pm/cpuidle.rst): it is the
 * shortest time in state k for which k saves more energy than state k-1.
 * At that break-even residency R(k) both choices cost the same:
 *
 *	Et(k) + R(k) * P(k) = Et(k-1) + R(k) * P(k-1)
 *	Et(k) = Et(k-1) + R(k) * (P(k-1) - P(k)),	Et(0) = 0
 *
 * so the table's own residencies and powers fix the transition costs and the
 * model is consistent with what the table tells the governor. Worked numbers
 * for the Skylake client profile: Et(C1) = 2 us * (1000 - 400) mW = 1200 nJ,
 * Et(C1E) = 1200 nJ + 20 us * (400 - 250) mW = 4200 nJ, and so on up to
 * Et(C10) = 89200 nJ. A 300 us stay in C6 then costs
 * 33200 nJ + 300 us * 30 mW = 42200 nJ, in C3 19200 nJ + 300 us * 100 mW =
 * 49200 nJ: C6 is the better choice, as its 200 us target residency says.
 *
 * Units: us * mW = nJ. Residencies are accumulated in ns and energies in pJ
 * (ns * mW), so no precision is lost per entry; debugfs shows nJ.
 *
 * Interfaces (debugfs, under /sys/kernel/debug/emu_idle/):
 *	states	the table: index, name, exit_us, residency_us, power_mw,
 *		transition_nj
 *	energy	one line per possible CPU and state: cpu, state index, name,
 *		entries, residency_ns, energy_nj; counters only grow
 *	reset	writing "1" zeroes every counter of every CPU
 *
 * Calling convention (v6.12 drivers/cpuidle/cpuidle.c:cpuidle_enter_state()):
 * ->enter() is called with interrupts disabled and must return with them
 * disabled (the core WARNs "leaked IRQ state" otherwise, and the guest runs
 * with panic_on_warn). The core tells RCU that the CPU is idle
 * (ct_cpuidle_enter()) around ->enter() unless the state has
 * CPUIDLE_FLAG_RCU_IDLE; every state here has it, and the callbacks, which
 * are __cpuidle (noinstr), do it themselves around the idle instruction
 * only, as drivers/acpi/processor_idle.c's acpi_idle_enter_bm() does. The
 * clock reads and the accounting thus run while RCU watches, inside
 * instrumentation_begin()/end(); between ct_cpuidle_enter() and
 * ct_cpuidle_exit() there are only raw_ irq helpers, HLT and, for POLL, the
 * core's poll_idle(), which is noinstr, enables interrupts with the raw_
 * helper and returns with them disabled. The exit-latency busy-wait comes
 * after ct_cpuidle_exit(), interrupts still disabled.
 * call_cpuidle() has cleared TIF_POLLING_NRFLAG and checked need_resched()
 * with interrupts disabled, so a remote wake-up sends an IPI and HLT, which
 * enables interrupts atomically with halting (STI; HLT), cannot miss it.
 * No state sets CPUIDLE_FLAG_TIMER_STOP: the emulated local APIC timer keeps
 * running in HLT, and the guest may have no broadcast timer.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cpu.h>
#include <linux/cpuidle.h>
#include <linux/ctype.h>
#include <linux/debugfs.h>
#include <linux/delay.h>
#include <linux/init.h>
#include <linux/irqflags.h>
#include <linux/kernel.h>
#include <linux/math64.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/percpu.h>
#include <linux/sched/clock.h>
#include <linux/sched/idle.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/smp.h>
#include <linux/string.h>
#include <linux/uaccess.h>

/*
 * Limits of a state description. 100 ms of exit latency is several times
 * the deepest state of any table in the 6.12 tree (17 ms of entry plus exit
 * latency in the i.MX93 DT, 10 ms in intel_idle's Atom tables), and the
 * driver busy-waits that long on every wake-up. One second of target
 * residency is beyond any idle period a tickless CPU predicts with
 * confidence. 100 W is more than one core of any CPU the profiles describe
 * draws; with it the energy of one CPU accumulated in pJ takes
 * 2^64 / (1e5 mW * 1e9 ns/s) = 51 hours to wrap.
 */
#define EMU_IDLE_EXIT_MAX_US		100000
#define EMU_IDLE_RESIDENCY_MAX_US	1000000
#define EMU_IDLE_POWER_MAX_MW		100000

/**
 * struct emu_idle_state_desc - one idle state of a profile
 * @name: state name, shown in sysfs
 * @exit_us: worst-case wake-up latency (cpuidle's exit_latency)
 * @residency_us: target residency (break-even time, entry included)
 * @power_mw: power drawn while in the state
 */
struct emu_idle_state_desc {
	const char *name;
	u32 exit_us;
	u32 residency_us;
	u32 power_mw;
};

/**
 * struct emu_idle_profile - a platform's idle-state table
 * @name: value of the profile= parameter
 * @states: the states, shallowest first; a state named "POLL" is the
 *	    cpuidle core's polling state and may only be the first one
 * @count: number of states
 */
struct emu_idle_profile {
	const char *name;
	const struct emu_idle_state_desc *states;
	unsigned int count;
};

/*
 * Power figures: neither intel_idle nor the device trees give any, and Intel
 * does not publish per-core power per C-state. The figures below are
 * assumptions of this model, chosen only to be plausible in magnitude and
 * strictly decreasing with depth: POLL runs the core at its active power
 * (1 W per core), C1 gates the clocks (400 mW), C1E also drops to the lowest
 * voltage (250 mW), C3 stops the PLLs and flushes L1/L2 (100 mW), C6 power
 * gates the core (30 mW) and the package states C7s..C10 remove a growing
 * share of the uncore (20, 10, 5, 2 mW per core).
 */

/*
 * x86-client: Intel Skylake client, the exit latencies and target
 * residencies of skl_cstates[] in drivers/idle/intel_idle.c (Linux 6.12).
 */
static const struct emu_idle_state_desc emu_idle_skl[] = {
	{ "POLL",	0,	0,	1000 },
	{ "C1",		2,	2,	400 },
	{ "C1E",	10,	20,	250 },
	{ "C3",		70,	100,	100 },
	{ "C6",		85,	200,	30 },
	{ "C7s",	124,	800,	20 },
	{ "C8",		200,	800,	10 },
	{ "C9",		480,	5000,	5 },
	{ "C10",	890,	5000,	2 },
};

/*
 * x86-server: Intel Skylake-X / Cascade Lake server, skx_cstates[] in
 * drivers/idle/intel_idle.c (Linux 6.12). Powers as for x86-client.
 */
static const struct emu_idle_state_desc emu_idle_skx[] = {
	{ "POLL",	0,	0,	1000 },
	{ "C1",		2,	2,	400 },
	{ "C1E",	10,	20,	250 },
	{ "C6",		133,	600,	30 },
};

/*
 * arm-mobile: Rockchip RK3399 (big.LITTLE, 4 Cortex-A53 + 2 Cortex-A72),
 * the idle-states node of arch/arm64/boot/dts/rockchip/rk3399-base.dtsi
 * (Linux 6.12, included by rk3399.dtsi), used by both clusters. State 0
 * is WFI with exit latency and residency 1 us, as
 * drivers/cpuidle/cpuidle-psci.c sets it. Like
 * drivers/cpuidle/dt_idle_states.c, the exit latency is entry-latency-us +
 * exit-latency-us: cpu-sleep 120 + 250 = 370 us (min-residency 900 us),
 * cluster-sleep 400 + 500 = 900 us (min-residency 2000 us). Powers are
 * assumptions (no DT gives idle power): WFI clock-gates a core that keeps
 * its voltage (60 mW), cpu-sleep powers the core off (10 mW), cluster-sleep
 * also the L2 and the cluster logic (2 mW per core).
 */
static const struct emu_idle_state_desc emu_idle_rk3399[] = {
	{ "WFI",		1,	1,	60 },
	{ "cpu-sleep",		370,	900,	10 },
	{ "cluster-sleep",	900,	2000,	2 },
};

static const struct emu_idle_profile emu_idle_profiles[] = {
	{ "x86-client", emu_idle_skl, ARRAY_SIZE(emu_idle_skl) },
	{ "x86-server", emu_idle_skx, ARRAY_SIZE(emu_idle_skx) },
	{ "arm-mobile", emu_idle_rk3399, ARRAY_SIZE(emu_idle_rk3399) },
};

static char *profile;
module_param(profile, charp, 0444);
MODULE_PARM_DESC(profile,
		 "state table: x86-client (default), x86-server, arm-mobile, custom (needs states=)");

static char *states;
module_param(states, charp, 0444);
MODULE_PARM_DESC(states,
		 "custom table, shallowest first: name:exit_us:residency_us:power_mw,...");

static bool emulate_exit_latency = true;
module_param(emulate_exit_latency, bool, 0644);
MODULE_PARM_DESC(emulate_exit_latency,
		 "busy-wait for the state's exit latency on every wake-up (default: Y)");

/**
 * struct emu_idle_state - a state of the running table
 * @name: state name
 * @exit_us: exit latency
 * @residency_us: target residency
 * @power_mw: power in the state
 * @exit_ns: exit latency busy-waited for on wake-up
 * @transition_pj: energy of one entry and exit, Et in the header comment
 */
struct emu_idle_state {
	char name[CPUIDLE_NAME_LEN];
	u32 exit_us;
	u32 residency_us;
	u32 power_mw;
	u64 exit_ns;
	u64 transition_pj;
};

static struct emu_idle_state emu_idle_table[CPUIDLE_STATE_MAX];
static unsigned int emu_idle_count;
static const char *emu_idle_profile_name;

/**
 * struct emu_idle_stat - energy accounting of one state on one CPU
 * @entries: number of ->enter() calls
 * @residency_ns: time spent in ->enter()
 * @energy_pj: modelled energy, residency_ns * power_mw + entries * Et
 *
 * Written only by the owning CPU with interrupts disabled (from the idle
 * path, or from the reset IPI), read locklessly by debugfs.
 */
struct emu_idle_stat {
	u64 entries;
	u64 residency_ns;
	u64 energy_pj;
};

struct emu_idle_cpu {
	struct emu_idle_stat state[CPUIDLE_STATE_MAX];
};

static DEFINE_PER_CPU(struct emu_idle_cpu, emu_idle_stats);

/* The core's polling callback, wrapped to account POLL like other states. */
static int (*emu_idle_poll_enter)(struct cpuidle_device *dev,
				  struct cpuidle_driver *drv, int index);

/*
 * No .owner: cpuidle_register_device() would take a reference on it for
 * every CPU and the module could never be removed. Removal instead waits,
 * after cpuidle_unregister(), for every CPU to leave the callbacks below:
 * a CPU halted or polling in them is RCU-idle (between ct_cpuidle_enter()
 * and ct_cpuidle_exit()), and synchronize_rcu() does not wait for it.
 */
static struct cpuidle_driver emu_idle_driver = {
	.name = "emu_idle",
};

static DEFINE_PER_CPU(int, emu_idle_inside);
static bool emu_idle_dying;

static struct dentry *emu_idle_debugfs;

/* Called with interrupts disabled on the CPU being accounted. */
static __cpuidle void emu_idle_account(int index, u64 residency_ns)
{
	struct emu_idle_stat *st = this_cpu_ptr(&emu_idle_stats.state[index]);
	const struct emu_idle_state *s = &emu_idle_table[index];

	WRITE_ONCE(st->entries, st->entries + 1);
	WRITE_ONCE(st->residency_ns, st->residency_ns + residency_ns);
	WRITE_ONCE(st->energy_pj, st->energy_pj +
		   residency_ns * s->power_mw + s->transition_pj);
}

/*
 * The states' ->enter(), with CPUIDLE_FLAG_RCU_IDLE: RCU is told the CPU
 * is idle only around HLT (see "Calling convention" above).
 */
static __cpuidle int emu_idle_enter(struct cpuidle_device *dev,
				    struct cpuidle_driver *drv, int index)
{
	u64 start_ns, wake_ns;

	instrumentation_begin();
	start_ns = local_clock();
	this_cpu_write(emu_idle_inside, 1);
	if (!need_resched()) {
		ct_cpuidle_enter();
		/* STI; HLT: the wake-up interrupt is handled before we go on. */
		raw_safe_halt();
		raw_local_irq_disable();
		ct_cpuidle_exit();

		/*
		 * The hardware would only now resume executing: make the
		 * woken task wait for the exit latency, interrupts still off
		 * as the CPU could not take any before it has woken up.
		 */
		if (READ_ONCE(emulate_exit_latency)) {
			wake_ns = local_clock();
			while (local_clock() - wake_ns < emu_idle_table[index].exit_ns &&
			       !READ_ONCE(emu_idle_dying))
				cpu_relax();
		}
	}

	emu_idle_account(index, local_clock() - start_ns);
	/* Pairs with the acquire in emu_idle_exit(): accounting is done. */
	smp_store_release(this_cpu_ptr(&emu_idle_inside), 0);
	instrumentation_end();
	return index;
}

/*
 * POLL: the core's poll_idle(), RCU-idle like every state (the core would
 * have made it so without CPUIDLE_FLAG_RCU_IDLE), timed and accounted from
 * outside. poll_idle() returns with interrupts disabled.
 */
static __cpuidle int emu_idle_poll(struct cpuidle_device *dev,
				   struct cpuidle_driver *drv, int index)
{
	u64 start_ns;
	int ret;

	instrumentation_begin();
	start_ns = local_clock();
	this_cpu_write(emu_idle_inside, 1);
	ct_cpuidle_enter();
	ret = emu_idle_poll_enter(dev, drv, index);
	raw_local_irq_disable();
	ct_cpuidle_exit();
	emu_idle_account(index, local_clock() - start_ns);
	/* Pairs with the acquire in emu_idle_exit(). */
	smp_store_release(this_cpu_ptr(&emu_idle_inside), 0);
	instrumentation_end();
	return ret;
}

static int __init emu_idle_add_state(const char *where, const char *name,
				     u32 exit_us, u32 residency_us,
				     u32 power_mw)
{
	unsigned int i = emu_idle_count;
	struct emu_idle_state *s = &emu_idle_table[i];
	const struct emu_idle_state *prev = i ? s - 1 : NULL;
	size_t len = strlen(name);
	size_t k;

	if (i >= CPUIDLE_STATE_MAX) {
		pr_err("%s: more than %d states\n", where, CPUIDLE_STATE_MAX);
		return -EINVAL;
	}
	if (!len || len >= CPUIDLE_NAME_LEN) {
		pr_err("%s: state %u: name \"%s\" must have 1 to %d characters\n",
		       where, i, name, CPUIDLE_NAME_LEN - 1);
		return -EINVAL;
	}
	for (k = 0; k < len; k++) {
		if (!isalnum(name[k]) && !strchr("-_.", name[k])) {
			pr_err("%s: state %u: name \"%s\" may only hold letters, digits, '-', '_' and '.'\n",
			       where, i, name);
			return -EINVAL;
		}
	}
	if (exit_us > EMU_IDLE_EXIT_MAX_US) {
		pr_err("%s: state %s: exit latency %u us above the limit of %d us\n",
		       where, name, exit_us, EMU_IDLE_EXIT_MAX_US);
		return -EINVAL;
	}
	if (residency_us > EMU_IDLE_RESIDENCY_MAX_US) {
		pr_err("%s: state %s: target residency %u us above the limit of %d us\n",
		       where, name, residency_us, EMU_IDLE_RESIDENCY_MAX_US);
		return -EINVAL;
	}
	if (power_mw > EMU_IDLE_POWER_MAX_MW) {
		pr_err("%s: state %s: power %u mW above the limit of %d mW\n",
		       where, name, power_mw, EMU_IDLE_POWER_MAX_MW);
		return -EINVAL;
	}
	if (!strcmp(name, "POLL") && (i || exit_us || residency_us)) {
		pr_err("%s: POLL must be state 0 with exit latency and residency 0\n",
		       where);
		return -EINVAL;
	}
	if (prev && exit_us <= prev->exit_us) {
		pr_err("%s: state %s: exit latency %u us not above %u us of the shallower state %s\n",
		       where, name, exit_us, prev->exit_us, prev->name);
		return -EINVAL;
	}
	if (prev && residency_us < prev->residency_us) {
		pr_err("%s: state %s: target residency %u us below %u us of the shallower state %s\n",
		       where, name, residency_us, prev->residency_us,
		       prev->name);
		return -EINVAL;
	}
	if (prev && power_mw > prev->power_mw) {
		pr_err("%s: state %s: power %u mW above %u mW of the shallower state %s\n",
		       where, name, power_mw, prev->power_mw, prev->name);
		return -EINVAL;
	}

	strscpy(s->name, name, sizeof(s->name));
	s->exit_us = exit_us;
	s->residency_us = residency_us;
	s->power_mw = power_mw;
	s->exit_ns = (u64)exit_us * NSEC_PER_USEC;
	/* Et(k) = Et(k-1) + R(k) * (P(k-1) - P(k)), us * mW = nJ = 1000 pJ */
	s->transition_pj = prev ? prev->transition_pj +
		(u64)residency_us * (prev->power_mw - power_mw) * 1000 : 0;
	emu_idle_count++;
	return 0;
}

static int __init emu_idle_parse_u32(const char *entry, const char *what,
				     const char *field, u32 *val)
{
	if (!field || kstrtou32(field, 10, val)) {
		pr_err("states=: \"%s\": %s missing or not a decimal number\n",
		       entry, what);
		return -EINVAL;
	}
	return 0;
}

/* Parse states= ("name:exit_us:residency_us:power_mw,...") into the table. */
static int __init emu_idle_parse_states(const char *list)
{
	char *buf, *cur, *entry, *name;
	u32 exit_us, residency_us, power_mw;
	char copy[64];
	int ret = 0;

	if (!*list) {
		pr_err("states=: empty list\n");
		return -EINVAL;
	}
	buf = kstrdup(list, GFP_KERNEL);
	if (!buf)
		return -ENOMEM;

	cur = buf;
	while ((entry = strsep(&cur, ",")) != NULL) {
		char *f = entry;

		strscpy(copy, entry, sizeof(copy));
		name = strsep(&f, ":");
		ret = emu_idle_parse_u32(copy, "exit_us", strsep(&f, ":"),
					 &exit_us);
		if (!ret)
			ret = emu_idle_parse_u32(copy, "residency_us",
						 strsep(&f, ":"),
						 &residency_us);
		if (!ret)
			ret = emu_idle_parse_u32(copy, "power_mw",
						 strsep(&f, ":"), &power_mw);
		if (!ret && f) {
			pr_err("states=: \"%s\": more than 4 fields (name:exit_us:residency_us:power_mw)\n",
			       copy);
			ret = -EINVAL;
		}
		if (!ret)
			ret = emu_idle_add_state("states=", name, exit_us,
						 residency_us, power_mw);
		if (ret)
			break;
	}
	kfree(buf);
	return ret;
}

static int __init emu_idle_build_table(void)
{
	const struct emu_idle_profile *p;
	unsigned int i;
	int ret;

	if (states) {
		if (profile && strcmp(profile, "custom")) {
			pr_err("states= needs profile=custom or no profile, not profile=%s\n",
			       profile);
			return -EINVAL;
		}
		emu_idle_profile_name = "custom";
		return emu_idle_parse_states(states);
	}
	if (!profile)
		profile = "x86-client";
	if (!strcmp(profile, "custom")) {
		pr_err("profile=custom needs states=\n");
		return -EINVAL;
	}
	for (p = emu_idle_profiles;
	     p < emu_idle_profiles + ARRAY_SIZE(emu_idle_profiles); p++) {
		if (strcmp(profile, p->name))
			continue;
		emu_idle_profile_name = p->name;
		for (i = 0; i < p->count; i++) {
			ret = emu_idle_add_state(p->name, p->states[i].name,
						 p->states[i].exit_us,
						 p->states[i].residency_us,
						 p->states[i].power_mw);
			if (ret)
				return ret;
		}
		return 0;
	}
	pr_err("unknown profile \"%s\" (known: x86-client, x86-server, arm-mobile, custom)\n",
	       profile);
	return -EINVAL;
}

static void __init emu_idle_fill_driver(void)
{
	struct cpuidle_driver *drv = &emu_idle_driver;
	unsigned int i = 0;

	if (!strcmp(emu_idle_table[0].name, "POLL")) {
		cpuidle_poll_state_init(drv);
		emu_idle_poll_enter = drv->states[0].enter;
		drv->states[0].enter = emu_idle_poll;
		drv->states[0].flags |= CPUIDLE_FLAG_RCU_IDLE;
		drv->states[0].power_usage = emu_idle_table[0].power_mw;
		i = 1;
	}
	for (; i < emu_idle_count; i++) {
		struct cpuidle_state *cs = &drv->states[i];
		const struct emu_idle_state *s = &emu_idle_table[i];

		strscpy(cs->name, s->name, sizeof(cs->name));
		snprintf(cs->desc, sizeof(cs->desc), "HLT, %u us exit emulated",
			 s->exit_us);
		cs->exit_latency = s->exit_us;
		cs->target_residency = s->residency_us;
		cs->power_usage = s->power_mw;
		cs->flags = CPUIDLE_FLAG_RCU_IDLE;
		cs->enter = emu_idle_enter;
	}
	drv->state_count = emu_idle_count;
	drv->safe_state_index = 0;
}

static int emu_idle_states_show(struct seq_file *m, void *v)
{
	unsigned int i;

	seq_printf(m, "# profile %s\n", emu_idle_profile_name);
	seq_puts(m, "# index name exit_us residency_us power_mw transition_nj\n");
	for (i = 0; i < emu_idle_count; i++) {
		const struct emu_idle_state *s = &emu_idle_table[i];

		seq_printf(m, "%u %s %u %u %u %llu\n", i, s->name, s->exit_us,
			   s->residency_us, s->power_mw,
			   div_u64(s->transition_pj, 1000));
	}
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(emu_idle_states);

static int emu_idle_energy_show(struct seq_file *m, void *v)
{
	unsigned int cpu, i;

	seq_puts(m, "# cpu state name entries residency_ns energy_nj\n");
	for_each_possible_cpu(cpu) {
		struct emu_idle_cpu *c = per_cpu_ptr(&emu_idle_stats, cpu);

		for (i = 0; i < emu_idle_count; i++) {
			const struct emu_idle_stat *st = &c->state[i];

			seq_printf(m, "%u %u %s %llu %llu %llu\n", cpu, i,
				   emu_idle_table[i].name,
				   READ_ONCE(st->entries),
				   READ_ONCE(st->residency_ns),
				   div_u64(READ_ONCE(st->energy_pj), 1000));
		}
	}
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(emu_idle_energy);

static void emu_idle_zero(struct emu_idle_cpu *c)
{
	unsigned int i;

	for (i = 0; i < CPUIDLE_STATE_MAX; i++) {
		WRITE_ONCE(c->state[i].entries, 0);
		WRITE_ONCE(c->state[i].residency_ns, 0);
		WRITE_ONCE(c->state[i].energy_pj, 0);
	}
}

/* Runs on the CPU owning the counters, interrupts disabled: no idle update
 * can interleave. An idle period in progress is charged after the reset.
 */
static void emu_idle_reset_local(void *unused)
{
	emu_idle_zero(this_cpu_ptr(&emu_idle_stats));
}

static ssize_t emu_idle_reset_write(struct file *file, const char __user *ubuf,
				    size_t count, loff_t *ppos)
{
	unsigned int cpu;
	bool val;
	int ret;

	ret = kstrtobool_from_user(ubuf, count, &val);
	if (ret)
		return ret;
	if (!val)
		return -EINVAL;

	cpus_read_lock();
	for_each_possible_cpu(cpu) {
		/* An offline CPU runs no idle loop: nothing races. */
		if (cpu_online(cpu))
			smp_call_function_single(cpu, emu_idle_reset_local,
						 NULL, 1);
		else
			emu_idle_zero(per_cpu_ptr(&emu_idle_stats, cpu));
	}
	cpus_read_unlock();
	return count;
}

static const struct file_operations emu_idle_reset_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.write = emu_idle_reset_write,
	.llseek = noop_llseek,
};

static int __init emu_idle_init(void)
{
	int ret;

	ret = emu_idle_build_table();
	if (ret)
		return ret;
	emu_idle_fill_driver();

	/* Registers the driver and a device for every possible CPU. */
	ret = cpuidle_register(&emu_idle_driver, NULL);
	if (ret) {
		pr_err("cpuidle_register() failed: %d\n", ret);
		return ret;
	}

	emu_idle_debugfs = debugfs_create_dir("emu_idle", NULL);
	debugfs_create_file("states", 0444, emu_idle_debugfs, NULL,
			    &emu_idle_states_fops);
	debugfs_create_file("energy", 0444, emu_idle_debugfs, NULL,
			    &emu_idle_energy_fops);
	debugfs_create_file("reset", 0200, emu_idle_debugfs, NULL,
			    &emu_idle_reset_fops);

	pr_info("profile %s, %u states, exit latency emulation %s\n",
		emu_idle_profile_name, emu_idle_count,
		emulate_exit_latency ? "on" : "off");
	return 0;
}
module_init(emu_idle_init);

static void __exit emu_idle_exit(void)
{
	unsigned int cpu;

	debugfs_remove_recursive(emu_idle_debugfs);
	/* Cut short any exit-latency wait, then stop new entries. */
	WRITE_ONCE(emu_idle_dying, true);
	cpuidle_unregister(&emu_idle_driver);
	/*
	 * cpuidle_unregister() woke every idle CPU; one that was RCU-idle
	 * in a callback may still be in it. Wait until each has
	 * left; 1 ms then covers the few instructions after the store.
	 */
	for_each_possible_cpu(cpu)
		/* Pairs with the release at the end of the callbacks. */
		while (smp_load_acquire(per_cpu_ptr(&emu_idle_inside, cpu)))
			usleep_range(100, 200);
	usleep_range(1000, 2000);
}
module_exit(emu_idle_exit);

MODULE_DESCRIPTION("Emulated CPU idle states with exit latency and energy model");
MODULE_LICENSE("GPL");
