package org.poollab.bench.grid;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.jspecify.annotations.Nullable;

import org.poollab.bench.results.EmulatedHold;
import org.poollab.bench.results.Limits;
import org.poollab.bench.results.RequestThreads;
import org.poollab.bench.results.Stack;
import org.poollab.bench.results.SweepResults;
import org.poollab.vendor.DatabaseVendor;

/**
 * The points a sweep will measure: the preset with any explicit setting laid over it.
 * Points run database by database (each vendor's server is started once, runs all its
 * deployments and is stopped before the next starts: never two at once), then topology by
 * topology, then stack by stack (the JDBC service, then its reactive twin), then request
 * threads by request threads (Tomcat's thread counts, then virtual threads; the JDBC
 * stack only); instances start once per topology, stack and request threads and are
 * resized between pool sizes; within a deployment the sweep runs them in rounds, one per
 * repeat, each round one JMeter run through every pool size at every rate
 * ({@code LoadRun.rounds}).
 *
 * @param instanceCpus CPUs each instance is pinned to, 0 for no pinning
 * @param instanceHeap each instance's {@code -Xmx}
 * @param threads what runs the requests: Tomcat's platform threads per
 * {@code server.tomcat.threads.max} value, virtual threads; {@code [Tomcat's default]}
 * when neither is set; the JDBC stack's only
 * @param stacks which services answer: the JDBC one and/or its reactive twin
 * @param vendors the databases the instances run on, in the order they are started
 * @param hold the connection hold every instance emulates on each request; {@code null}
 * for none
 */
public record Grid(Preset preset, List<Topology> topologies, int instances, List<Integer> poolSizes,
		List<Integer> rates, Duration duration, Duration warmup, Duration topologyWarmup, int repeats,
		Arrivals arrivals, int instanceCpus, String instanceHeap, List<Stack> stacks, List<RequestThreads> threads,
		Workload workload, boolean acquireCost, List<DatabaseVendor> vendors, @Nullable EmulatedHold hold) {

	/**
	 * @param preset the preset the values not given come from
	 * @return a builder holding the preset's grid
	 */
	public static GridBuilder builder(Preset preset) {
		return new GridBuilder(preset);
	}

	/**
	 * The grid the confirmation run loads with: Poisson arrivals (a production fleet's
	 * traffic is not evenly spaced), a window of its own length, one repeat.
	 * @param window the confirmation's measured window
	 */
	public Grid forConfirmation(Duration window) {
		return new Grid(this.preset, this.topologies, this.instances, this.poolSizes, this.rates, window, this.warmup,
				this.topologyWarmup, 1, Arrivals.RANDOM, this.instanceCpus, this.instanceHeap, this.stacks,
				this.threads, this.workload, false, this.vendors, this.hold);
	}

	/**
	 * The same grid at other rates: the {@code contention} preset's, once the database's
	 * CPU ceiling is measured ({@link ContentionRates}).
	 */
	public Grid withRates(List<Integer> ratesRps) {
		return new Grid(this.preset, this.topologies, this.instances, this.poolSizes, List.copyOf(ratesRps),
				this.duration, this.warmup, this.topologyWarmup, this.repeats, this.arrivals, this.instanceCpus,
				this.instanceHeap, this.stacks, this.threads, this.workload, this.acquireCost, this.vendors, this.hold);
	}

	/**
	 * Every instance's HikariCP pool in the pgbouncer topology, where the swept value is
	 * pgbouncer's pool: as large as the largest pgbouncer pool swept, so that pgbouncer's
	 * pool is the only limit.
	 */
	public int pgbouncerClientPoolSize() {
		return Math.max(1, largestPoolSize());
	}

	/**
	 * Pool sizes a topology sweeps: pgbouncer always pools, so it has no {@code none}.
	 */
	public List<Integer> poolSizesOf(Topology topology) {
		return (topology == Topology.PGBOUNCER)
				? this.poolSizes.stream().filter((size) -> size != SweepResults.NO_POOL).toList() : this.poolSizes;
	}

	/** What every instance started for points with these request threads runs with. */
	public Limits limits(RequestThreads threads) {
		return limits(Stack.JDBC, threads);
	}

	/**
	 * What every instance started for points of this stack and request threads runs with.
	 */
	public Limits limits(Stack stack, RequestThreads threads) {
		return limits(this.vendors.get(0), stack, threads);
	}

	/**
	 * What every instance started for points on this database, stack and request threads
	 * runs with.
	 */
	public Limits limits(DatabaseVendor vendor, Stack stack, RequestThreads threads) {
		return new Limits(this.instanceCpus, this.instanceHeap, vendor, stack, threads).withHold(this.hold);
	}

	/**
	 * The request threads a stack's points run on: the swept ones for the JDBC service;
	 * the reactive twin has one kind (Reactor Netty's event loop), recorded as Tomcat's
	 * default, which no label or description shows.
	 */
	public List<RequestThreads> threadsOf(Stack stack) {
		return (stack == Stack.JDBC) ? this.threads : List.of(RequestThreads.TOMCAT_DEFAULT);
	}

	/**
	 * Whether any point runs on virtual threads: the instances then need a JVM of Java 21
	 * or later.
	 */
	public boolean virtualThreads() {
		return this.threads.stream().anyMatch(RequestThreads::virtual);
	}

	public int instancesOf(Topology topology) {
		return (topology == Topology.SINGLE) ? 1 : this.instances;
	}

	public int largestPoolSize() {
		return this.poolSizes.stream().mapToInt(Integer::intValue).max().orElseThrow();
	}

	public List<Planned> points() {
		List<Planned> points = new ArrayList<>();
		for (DatabaseVendor vendor : this.vendors) {
			for (Topology topology : this.topologies) {
				for (Stack stack : this.stacks) {
					for (RequestThreads threads : threadsOf(stack)) {
						for (int poolSize : poolSizesOf(topology)) {
							for (int rate : this.rates) {
								for (int repeat = 1; repeat <= this.repeats; repeat++) {
									points.add(new Planned(topology, instancesOf(topology), vendor, stack, threads,
											poolSize, rate, repeat));
								}
							}
						}
					}
				}
			}
		}
		return points;
	}

	/**
	 * One point to measure.
	 *
	 * @param vendor the database it runs on
	 * @param stack which service answers
	 * @param threads what runs the requests
	 */
	public record Planned(Topology topology, int instances, DatabaseVendor vendor, Stack stack, RequestThreads threads,
			int poolSize, int rateRps, int repeat) {

		/** A point on PostgreSQL. */
		public Planned(Topology topology, int instances, Stack stack, RequestThreads threads, int poolSize, int rateRps,
				int repeat) {
			this(topology, instances, DatabaseVendor.DEFAULT, stack, threads, poolSize, rateRps, repeat);
		}

		/** A point of the JDBC service on PostgreSQL. */
		public Planned(Topology topology, int instances, RequestThreads threads, int poolSize, int rateRps,
				int repeat) {
			this(topology, instances, Stack.JDBC, threads, poolSize, rateRps, repeat);
		}

		public String id() {
			return "%s-pool%s-rate%d-rep%d".formatted(deploymentLabel(), SweepResults.poolLabel(this.poolSize),
					this.rateRps, this.repeat);
		}

		public boolean pooled() {
			return this.poolSize != SweepResults.NO_POOL;
		}

		/**
		 * The instances this point runs on: {@code single}, {@code single-mariadb},
		 * {@code single-r2dbc}, {@code single-tomcat50} or {@code single-virtual}.
		 */
		public String deploymentLabel() {
			return this.topology.label() + Limits.labelSuffix(this.vendor, this.stack, this.threads);
		}

	}

}
