package org.poollab.bench.grid;

import java.time.Duration;
import java.util.List;

import org.jspecify.annotations.Nullable;

import org.poollab.bench.results.EmulatedHold;
import org.poollab.bench.results.RequestThreads;
import org.poollab.bench.results.Stack;
import org.poollab.vendor.DatabaseVendor;

/**
 * A {@link Grid} built by name: each value named where it is given, the rest at the
 * preset's ({@link Preset#INSTANCES} instances, one repeat, the preset's request threads,
 * no emulated hold). {@link Grid#builder(Preset)} hands it out.
 */
public final class GridBuilder {

	private final Preset preset;

	private List<Topology> topologies;

	private int instances = Preset.INSTANCES;

	private List<Integer> poolSizes;

	private List<Integer> rates;

	private Duration duration;

	private Duration warmup;

	private Duration topologyWarmup;

	private int repeats = 1;

	private Arrivals arrivals;

	private int instanceCpus;

	private String instanceHeap;

	private List<Stack> stacks;

	private List<RequestThreads> threads;

	private Workload workload;

	private boolean acquireCost;

	private List<DatabaseVendor> vendors;

	private @Nullable EmulatedHold hold;

	GridBuilder(Preset preset) {
		this.preset = preset;
		this.topologies = preset.topologies();
		this.poolSizes = preset.poolSizes();
		this.rates = preset.rates();
		this.duration = preset.duration();
		this.warmup = preset.warmup();
		this.topologyWarmup = preset.topologyWarmup();
		this.arrivals = preset.arrivals();
		this.instanceCpus = preset.instanceCpus();
		this.instanceHeap = preset.instanceHeap();
		this.stacks = preset.stacks();
		this.threads = ThreadModel.requestThreads(preset.threads(), preset.tomcatThreads());
		this.workload = preset.workload();
		this.acquireCost = preset.acquireCost();
		this.vendors = preset.vendors();
	}

	public GridBuilder topologies(List<Topology> topologies) {
		this.topologies = topologies;
		return this;
	}

	public GridBuilder instances(int instances) {
		this.instances = instances;
		return this;
	}

	public GridBuilder poolSizes(List<Integer> poolSizes) {
		this.poolSizes = poolSizes;
		return this;
	}

	public GridBuilder rates(List<Integer> rates) {
		this.rates = rates;
		return this;
	}

	public GridBuilder duration(Duration duration) {
		this.duration = duration;
		return this;
	}

	public GridBuilder warmup(Duration warmup) {
		this.warmup = warmup;
		return this;
	}

	public GridBuilder topologyWarmup(Duration topologyWarmup) {
		this.topologyWarmup = topologyWarmup;
		return this;
	}

	public GridBuilder repeats(int repeats) {
		this.repeats = repeats;
		return this;
	}

	public GridBuilder arrivals(Arrivals arrivals) {
		this.arrivals = arrivals;
		return this;
	}

	public GridBuilder instanceCpus(int instanceCpus) {
		this.instanceCpus = instanceCpus;
		return this;
	}

	public GridBuilder instanceHeap(String instanceHeap) {
		this.instanceHeap = instanceHeap;
		return this;
	}

	public GridBuilder stacks(List<Stack> stacks) {
		this.stacks = stacks;
		return this;
	}

	public GridBuilder threads(List<RequestThreads> threads) {
		this.threads = threads;
		return this;
	}

	public GridBuilder workload(Workload workload) {
		this.workload = workload;
		return this;
	}

	public GridBuilder acquireCost(boolean acquireCost) {
		this.acquireCost = acquireCost;
		return this;
	}

	public GridBuilder vendors(List<DatabaseVendor> vendors) {
		this.vendors = vendors;
		return this;
	}

	public GridBuilder hold(@Nullable EmulatedHold hold) {
		this.hold = hold;
		return this;
	}

	public Grid build() {
		return new Grid(this.preset, this.topologies, this.instances, this.poolSizes, this.rates, this.duration,
				this.warmup, this.topologyWarmup, this.repeats, this.arrivals, this.instanceCpus, this.instanceHeap,
				this.stacks, this.threads, this.workload, this.acquireCost, this.vendors, this.hold);
	}

}
