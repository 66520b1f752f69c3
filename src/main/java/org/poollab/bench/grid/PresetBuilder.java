package org.poollab.bench.grid;

import java.time.Duration;
import java.util.Arrays;
import java.util.List;

import org.jspecify.annotations.Nullable;

import org.poollab.bench.results.Stack;
import org.poollab.vendor.DatabaseVendor;
import org.poollab.service.hold.HoldTime;

/**
 * A {@link Preset} built by name: each setting named where it is given, the rest at its
 * default (2 s of load before each window, the read workload, no pinning, the default
 * heap, Tomcat's default threads, platform threads, the JDBC service, no acquire-cost
 * benchmark, evenly spaced arrivals, the embedded PostgreSQL, no emulated hold, no
 * database CPU).
 */
final class PresetBuilder {

	static PresetBuilder named(String name) {
		return new PresetBuilder(name);
	}

	private final String name;

	private List<Topology> topologies = List.of();

	private List<Integer> poolSizes = List.of();

	private List<Integer> rates = List.of();

	private int repeats = 1;

	private Duration duration = Duration.ZERO;

	/**
	 * Below 2000 rps a fresh JMeter settles within 0.5 s (see Preset's 3 s at 2000 rps).
	 */
	private Duration warmup = Duration.ofSeconds(2);

	private Duration topologyWarmup = Duration.ZERO;

	private Workload workload = Workload.READ;

	private int instanceCpus;

	private String instanceHeap = Preset.DEFAULT_HEAP;

	private List<Integer> tomcatThreads = List.of(0);

	private List<ThreadModel> threads = List.of(ThreadModel.PLATFORM);

	private List<Stack> stacks = List.of(Stack.JDBC);

	private boolean acquireCost;

	private Arrivals arrivals = Arrivals.EVEN;

	private List<DatabaseVendor> vendors = List.of(DatabaseVendor.DEFAULT);

	private @Nullable HoldTime hold;

	private @Nullable Double cpuHoldMs;

	private PresetBuilder(String name) {
		this.name = name;
	}

	PresetBuilder topologies(List<Topology> topologies) {
		this.topologies = topologies;
		return this;
	}

	PresetBuilder poolSizes(List<Integer> poolSizes) {
		this.poolSizes = poolSizes;
		return this;
	}

	PresetBuilder rates(List<Integer> rates) {
		this.rates = rates;
		return this;
	}

	PresetBuilder duration(Duration duration) {
		this.duration = duration;
		return this;
	}

	PresetBuilder warmup(Duration warmup) {
		this.warmup = warmup;
		return this;
	}

	PresetBuilder topologyWarmup(Duration topologyWarmup) {
		this.topologyWarmup = topologyWarmup;
		return this;
	}

	PresetBuilder workload(Workload workload) {
		this.workload = workload;
		return this;
	}

	PresetBuilder instanceCpus(int instanceCpus) {
		this.instanceCpus = instanceCpus;
		return this;
	}

	PresetBuilder instanceHeap(String instanceHeap) {
		this.instanceHeap = instanceHeap;
		return this;
	}

	PresetBuilder tomcatThreads(List<Integer> tomcatThreads) {
		this.tomcatThreads = tomcatThreads;
		return this;
	}

	PresetBuilder threads(List<ThreadModel> threads) {
		this.threads = threads;
		return this;
	}

	PresetBuilder stacks(List<Stack> stacks) {
		this.stacks = stacks;
		return this;
	}

	PresetBuilder acquireCost() {
		this.acquireCost = true;
		return this;
	}

	PresetBuilder arrivals(Arrivals arrivals) {
		this.arrivals = arrivals;
		return this;
	}

	/**
	 * The vendors by name, as {@code bench.database.vendor} takes them: a preset's list
	 * is data, not a branch on a vendor.
	 */
	PresetBuilder vendors(String... names) {
		this.vendors = Arrays.stream(names).map(DatabaseVendor::named).toList();
		return this;
	}

	PresetBuilder hold(HoldTime hold) {
		this.hold = hold;
		return this;
	}

	PresetBuilder repeats(int repeats) {
		this.repeats = repeats;
		return this;
	}

	PresetBuilder cpuHoldMs(double cpuHoldMs) {
		this.cpuHoldMs = cpuHoldMs;
		return this;
	}

	Preset build() {
		return new Preset(this.name, this.topologies, this.poolSizes, this.rates, this.duration, this.warmup,
				this.topologyWarmup, this.workload, this.instanceCpus, this.instanceHeap, this.tomcatThreads,
				this.threads, this.stacks, this.acquireCost, this.arrivals, this.vendors, this.hold, this.cpuHoldMs,
				this.repeats);
	}

}
