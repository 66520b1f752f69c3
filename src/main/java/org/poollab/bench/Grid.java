package org.poollab.bench;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The points a sweep will measure: the preset with any explicit setting laid over it.
 * Points run topology by topology, then Tomcat thread count by thread count (instances
 * start once per topology and thread count and are resized between pool sizes); within a
 * deployment the sweep runs them in rounds, one per repeat, each round one JMeter run
 * through every pool size at every rate ({@code Sweep.rounds}).
 *
 * @param instanceCpus CPUs each instance is pinned to, 0 for no pinning
 * @param instanceHeap each instance's {@code -Xmx}
 * @param tomcatThreads {@code server.tomcat.threads.max} values; {@code [0]} when not set
 * (Tomcat's default)
 */
record Grid(Preset preset, List<Topology> topologies, int instances, List<Integer> poolSizes, List<Integer> rates,
		Duration duration, Duration warmup, Duration topologyWarmup, int repeats, Arrivals arrivals, int instanceCpus,
		String instanceHeap, List<Integer> tomcatThreads, Workload workload, boolean acquireCost) {

	static Grid of(BenchProperties properties) {
		Preset preset = Preset.named(properties.preset());
		List<Integer> poolSizes = (properties.poolSizes() != null)
				? properties.poolSizes().stream().map(Grid::poolSize).toList() : null;
		return new Grid(preset, distinct(orDefault(properties.topologies(), preset.topologies())),
				Objects.requireNonNullElse(properties.instances(), Preset.INSTANCES),
				distinct(orDefault(poolSizes, preset.poolSizes())),
				distinct(orDefault(properties.rates(), preset.rates())),
				Objects.requireNonNullElse(properties.duration(), preset.duration()),
				Objects.requireNonNullElse(properties.warmup(), preset.warmup()),
				Objects.requireNonNullElse(properties.topologyWarmup(), preset.topologyWarmup()),
				Objects.requireNonNullElse(properties.repeats(), 1),
				Objects.requireNonNullElse(properties.arrivals(), preset.arrivals()),
				Objects.requireNonNullElse(properties.instanceCpus(), preset.instanceCpus()),
				Objects.requireNonNullElse(properties.instanceHeap(), preset.instanceHeap()),
				distinct(orDefault(properties.tomcatThreads(), preset.tomcatThreads())),
				Objects.requireNonNullElse(properties.workload(), preset.workload()),
				Objects.requireNonNullElse(properties.acquireCost(), preset.acquireCost()));
	}

	/**
	 * The grid the confirmation run loads with: Poisson arrivals (a production fleet's
	 * traffic is not evenly spaced), a window of its own length, one repeat.
	 * @param window the confirmation's measured window
	 */
	Grid forConfirmation(Duration window) {
		return new Grid(this.preset, this.topologies, this.instances, this.poolSizes, this.rates, window, this.warmup,
				this.topologyWarmup, 1, Arrivals.RANDOM, this.instanceCpus, this.instanceHeap, this.tomcatThreads,
				this.workload, false);
	}

	/** {@code none} or a whole number, already validated by {@link BenchProperties}. */
	private static int poolSize(String value) {
		return value.trim().equalsIgnoreCase("none") ? SweepResults.NO_POOL : Integer.parseInt(value.trim());
	}

	/**
	 * Every instance's HikariCP pool in the pgbouncer topology, where the swept value is
	 * pgbouncer's pool: as large as the largest pgbouncer pool swept, so that pgbouncer's
	 * pool is the only limit.
	 */
	int pgbouncerClientPoolSize() {
		return Math.max(1, largestPoolSize());
	}

	/**
	 * Pool sizes a topology sweeps: pgbouncer always pools, so it has no {@code none}.
	 */
	List<Integer> poolSizesOf(Topology topology) {
		return (topology == Topology.PGBOUNCER)
				? this.poolSizes.stream().filter((size) -> size != SweepResults.NO_POOL).toList() : this.poolSizes;
	}

	/** What every instance started for points with that Tomcat thread count runs with. */
	SweepResults.Limits limits(int tomcatThreads) {
		return new SweepResults.Limits(this.instanceCpus, this.instanceHeap, tomcatThreads);
	}

	int instancesOf(Topology topology) {
		return (topology == Topology.SINGLE) ? 1 : this.instances;
	}

	int largestPoolSize() {
		return this.poolSizes.stream().mapToInt(Integer::intValue).max().orElseThrow();
	}

	List<Planned> points() {
		List<Planned> points = new ArrayList<>();
		for (Topology topology : this.topologies) {
			for (int tomcatThreads : this.tomcatThreads) {
				for (int poolSize : poolSizesOf(topology)) {
					for (int rate : this.rates) {
						for (int repeat = 1; repeat <= this.repeats; repeat++) {
							points.add(new Planned(topology, instancesOf(topology), tomcatThreads, poolSize, rate,
									repeat));
						}
					}
				}
			}
		}
		return points;
	}

	private static <T> List<T> orDefault(List<T> values, List<T> defaults) {
		return (values == null || values.isEmpty()) ? defaults : values;
	}

	private static <T> List<T> distinct(List<T> values) {
		return values.stream().distinct().toList();
	}

	/**
	 * One point to measure.
	 *
	 * @param tomcatThreads {@code server.tomcat.threads.max}, 0 for Tomcat's default
	 */
	record Planned(Topology topology, int instances, int tomcatThreads, int poolSize, int rateRps, int repeat) {

		String id() {
			return "%s-pool%s-rate%d-rep%d".formatted(deploymentLabel(), SweepResults.poolLabel(this.poolSize),
					this.rateRps, this.repeat);
		}

		boolean pooled() {
			return this.poolSize != SweepResults.NO_POOL;
		}

		/**
		 * The instances this point runs on: {@code single}, or {@code single-tomcat50}.
		 */
		String deploymentLabel() {
			return this.topology.label() + ((this.tomcatThreads > 0) ? "-tomcat" + this.tomcatThreads : "");
		}

	}

}
