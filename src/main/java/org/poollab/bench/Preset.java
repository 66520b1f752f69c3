package org.poollab.bench;

import java.time.Duration;
import java.util.List;

/**
 * Named grids. Explicit {@code bench.*} settings override single values of a preset.
 */
enum Preset {

	/** A minute or two: both topologies, two pool sizes, one modest rate. */
	QUICK(List.of(1, 5), List.of(200), Duration.ofSeconds(3), Duration.ofSeconds(2), Duration.ofSeconds(5)),

	/**
	 * The JOIV paper (../shared/seeds/000): one vs three instances, pools 1, 5, 10, rates
	 * 500, 1000, 2000 rps, 5 s each.
	 */
	PAPER(List.of(1, 5, 10), List.of(500, 1000, 2000), Duration.ofSeconds(5), Duration.ofSeconds(2),
			Duration.ofSeconds(15)),

	/** The default: a wider pool range at the paper's rates, 10 s windows. */
	FULL(List.of(1, 2, 5, 10, 20, 50), List.of(500, 1000, 2000), Duration.ofSeconds(10), Duration.ofSeconds(3),
			Duration.ofSeconds(20));

	static final List<Topology> TOPOLOGIES = List.of(Topology.SINGLE, Topology.MULTI);

	static final int INSTANCES = 3;

	final List<Integer> poolSizes;

	final List<Integer> rates;

	final Duration duration;

	final Duration warmup;

	final Duration topologyWarmup;

	Preset(List<Integer> poolSizes, List<Integer> rates, Duration duration, Duration warmup, Duration topologyWarmup) {
		this.poolSizes = poolSizes;
		this.rates = rates;
		this.duration = duration;
		this.warmup = warmup;
		this.topologyWarmup = topologyWarmup;
	}

	String label() {
		return name().toLowerCase(java.util.Locale.ROOT);
	}

}
