package org.poollab.bench.grid;

import java.time.Duration;
import java.util.List;
import java.util.Locale;

import org.jspecify.annotations.Nullable;

import org.poollab.bench.results.Stack;
import org.poollab.bench.results.SweepResults;
import org.poollab.vendor.DatabaseVendor;
import org.poollab.service.hold.HoldTime;

/**
 * Named grids, each reproducing a source text's experiment (src/site/markdown/presets.md)
 * or a size of sweep. Explicit {@code bench.*} settings override single values of a
 * preset.
 *
 * @param topologies topologies swept
 * @param poolSizes pool sizes swept; {@link SweepResults#NO_POOL} is the {@code none} row
 * @param rates target rates, requests per second
 * @param duration measured window per point
 * @param warmup load before each window, not measured
 * @param topologyWarmup the longest load after a deployment starts, not measured (JIT):
 * it ends earlier once the instances' own latency settles ({@link WarmUp})
 * @param workload what each request does
 * @param instanceCpus CPUs each instance is pinned to, 0 for no pinning
 * @param instanceHeap each instance's {@code -Xmx}
 * @param tomcatThreads {@code server.tomcat.threads.max} values, {@code [0]} for Tomcat's
 * default without making it a dimension
 * @param threads what runs the requests: platform threads, virtual threads or both
 * @param stacks which services answer: the JDBC one, its reactive twin or both
 * @param acquireCost whether the sweep also runs the pooled vs unpooled acquire-cost
 * benchmark (after Vlad Mihalcea, "The anatomy of Connection Pooling") and reports it
 * @param arrivals how the load's requests are spaced: {@code even} as in the source
 * texts' set-ups, {@code random} (Poisson) where the answer is to be pasted and confirmed
 * @param vendors the embedded databases the grid runs on, one after the other, when
 * neither {@code bench.database.vendor} nor {@code bench.database.url} says
 * @param hold the connection hold every instance emulates unless {@code bench.holdTime}
 * or {@code bench.holdTimeFrom} says; {@code null}: none, the request's own statement
 * only
 * @param cpuHoldMs the database CPU each request also costs unless {@code bench.holdCpu}
 * says, milliseconds; {@code null}: none
 * @param repeats how often each point runs unless {@code bench.repeats} says
 */
public record Preset(String name, List<Topology> topologies, List<Integer> poolSizes, List<Integer> rates,
		Duration duration, Duration warmup, Duration topologyWarmup, Workload workload, int instanceCpus,
		String instanceHeap, List<Integer> tomcatThreads, List<ThreadModel> threads, List<Stack> stacks,
		boolean acquireCost, Arrivals arrivals, List<DatabaseVendor> vendors, @Nullable HoldTime hold,
		@Nullable Double cpuHoldMs, int repeats) {

	static final List<Topology> TOPOLOGIES = List.of(Topology.SINGLE, Topology.MULTI);

	public static final int INSTANCES = 3;

	/**
	 * Each instance's {@code -Xmx} unless a preset or {@code bench.instanceHeap} says.
	 */
	static final String DEFAULT_HEAP = "512m";

	/**
	 * Load before a round's first window where rates reach 2000 rps: a fresh JMeter JVM
	 * sends its requests up to ~300 ms late for the first 1.5-2.5 s at 2000 rps (measured
	 * here from the JTLs' start lag), and the latency of those seconds is the
	 * generator's, not the service's. At 1000 rps and below it settles within 0.5 s, and
	 * 2 s is enough. One JMeter runs a whole round, so this is paid once per round.
	 */
	private static final Duration WARMUP_AT_2000_RPS = Duration.ofSeconds(3);

	/**
	 * The connection hold of the default preset: 15 ms, a short transaction of a few
	 * statements against a database in another availability zone of the same region, each
	 * a round trip of one to a few milliseconds ("single-digit millisecond latency"
	 * between zones: AWS, "Regions and Availability Zones",
	 * https://aws.amazon.com/about-aws/global-infrastructure/regions_az/). A team with
	 * its own figure gives {@code bench.holdTime} or {@code bench.holdTimeFrom}.
	 */
	public static final HoldTime TYPICAL_HOLD = new HoldTime(15, null);

	/** A minute or two: both topologies, two pool sizes, one modest rate. */
	static final Preset QUICK = PresetBuilder.named("quick")
		.topologies(TOPOLOGIES)
		.poolSizes(List.of(1, 5))
		.rates(List.of(200))
		.duration(Duration.ofSeconds(3))
		.topologyWarmup(Duration.ofSeconds(5))
		.build();

	/**
	 * The JOIV paper "A Study of Database Connection Pool in Microservice Architecture"
	 * (Nor Sobri et al., 2022): one vs three instances, pools 1, 5, 10, rates 500, 1000,
	 * 2000 rps, 5 s each, every instance limited to 1 CPU and 128 MB.
	 */
	static final Preset PAPER = PresetBuilder.named("paper")
		.topologies(TOPOLOGIES)
		.poolSizes(List.of(1, 5, 10))
		.rates(List.of(500, 1000, 2000))
		.duration(Duration.ofSeconds(5))
		.warmup(WARMUP_AT_2000_RPS)
		.topologyWarmup(Duration.ofSeconds(45))
		.instanceCpus(1)
		.instanceHeap("128m")
		.build();

	/**
	 * The default: every request holds its connection {@link #TYPICAL_HOLD} (the database
	 * waits, {@code pg_sleep}), pools 1, 2, 5, 10 and 50 at 200 and 400 rps with Poisson
	 * arrivals, one instance and three, 8 s windows. With that hold the queueing model
	 * puts the knee inside the grid for both topologies at 400 rps: one instance keeps 6
	 * connections busy on average (Little's law), so pools 1, 2 and 5 cannot keep up and
	 * 10 and 50 can; each of three instances keeps 2 busy, so 1 and 2 cannot and 5, 10
	 * and 50 can (PresetTests checks this against the model). At 200 rps the knee moves
	 * down. The pools just below each knee are at or past saturation rather than merely
	 * slower, so the answer does not move with a few milliseconds of noise. Poisson,
	 * because the confirmation loads the pasted block with Poisson arrivals (a fleet's
	 * traffic is not evenly spaced). 400 rps, because at 600 rps (10 ms holds) three
	 * fresh instances beside JMeter on a 2-core box did not settle in their warm-up and
	 * the confirmation of the answer measured the box, not the pool
	 * (src/site/markdown/measurements.md).
	 */
	public static final Preset FULL = PresetBuilder.named("full")
		.topologies(TOPOLOGIES)
		.poolSizes(List.of(1, 2, 5, 10, 50))
		.rates(List.of(200, 400))
		.duration(Duration.ofSeconds(8))
		.topologyWarmup(Duration.ofSeconds(45))
		.arrivals(Arrivals.RANDOM)
		.hold(TYPICAL_HOLD)
		.build();

	/**
	 * The blog post "Sizing connection pool" (limvik, 2023): one instance with Tomcat's
	 * 200 threads, pools 5, 10, 12, 16, 32 and 200. The blog drove a closed model to the
	 * maximum throughput; an open model finds it by offering more than the service can
	 * carry, so the top rate is above this box's ceiling (about 2,500 rps) and the
	 * achieved rate is the throughput.
	 */
	static final Preset BLOG = PresetBuilder.named("blog")
		.topologies(List.of(Topology.SINGLE))
		.poolSizes(List.of(5, 10, 12, 16, 32, 200))
		.rates(List.of(1000, 2000, 3000))
		.duration(Duration.ofSeconds(5))
		.warmup(WARMUP_AT_2000_RPS)
		.topologyWarmup(Duration.ofSeconds(45))
		.tomcatThreads(List.of(200))
		.build();

	/**
	 * No pool vs a pool: the write-heavy request of Kamal, "Configuring Connection
	 * Pooling with Spring R2DBC" (100 rows inserted per request) with no pool and with
	 * HikariCP pools of 5 and 10, the same sizes as pgbouncer pools (as in "Improve
	 * database performance with connection pooling", Stack Overflow blog, 2020) when
	 * pgbouncer is installed, and the acquire-cost benchmark of Vlad Mihalcea, "The
	 * anatomy of Connection Pooling".
	 */
	static final Preset POOLING = PresetBuilder.named("pooling")
		.topologies(List.of(Topology.SINGLE, Topology.PGBOUNCER))
		.poolSizes(List.of(SweepResults.NO_POOL, 5, 10))
		.rates(List.of(100, 200, 400))
		.duration(Duration.ofSeconds(5))
		.topologyWarmup(Duration.ofSeconds(30))
		.workload(Workload.WRITE)
		.acquireCost()
		.build();

	/**
	 * Platform vs virtual threads ({@code spring.threads.virtual.enabled}): one instance
	 * on Tomcat's 200 platform threads and on virtual threads, pools 1, 2, 5 and 20, at a
	 * rate the instance carries (300 rps) and one beyond it on this 2-core box (1200 rps;
	 * FACTS: JMeter's sending stays on time here), with Poisson arrivals. Beyond
	 * capacity, platform threads queue in Tomcat (at most 200 requests reach the pool)
	 * while with virtual threads every request waits inside HikariCP, where
	 * {@code connection-timeout} decides who gets a 503.
	 */
	static final Preset THREADS = PresetBuilder.named("threads")
		.topologies(List.of(Topology.SINGLE))
		.poolSizes(List.of(1, 2, 5, 20))
		.rates(List.of(300, 1200))
		.duration(Duration.ofSeconds(6))
		.topologyWarmup(Duration.ofSeconds(30))
		.threads(List.of(ThreadModel.PLATFORM, ThreadModel.VIRTUAL))
		.arrivals(Arrivals.RANDOM)
		.build();

	/**
	 * The SLO search, asked by {@code bench.targetRps} (any preset with it set searches;
	 * this one only gives it its windows): one instance at the rate a replica carries
	 * with one replica down, Poisson arrivals, 10 s windows (7,500 samples at 750 rps),
	 * the pool sizes chosen as it goes. Its rates come from the question, so it has none
	 * of its own, and without {@code bench.targetRps} it is refused.
	 */
	public static final Preset SLO = PresetBuilder.named("slo")
		.topologies(List.of(Topology.SINGLE))
		.poolSizes(List.of())
		.rates(List.of())
		.duration(Duration.ofSeconds(10))
		.topologyWarmup(Duration.ofSeconds(45))
		.arrivals(Arrivals.RANDOM)
		.build();

	/**
	 * The JDBC service vs its reactive twin, after Kamal Mahmud, "Configuring Connection
	 * Pooling with Spring R2DBC" (2022): the article's write-heavy request (100 rows
	 * inserted per request) without a pool and with pools of 10 and the article's 100 and
	 * 200 (it found 100 several times faster than none, and warned that 200 would not be
	 * faster still), on each stack at the {@code pooling} preset's rates.
	 */
	static final Preset REACTIVE = PresetBuilder.named("reactive")
		.topologies(List.of(Topology.SINGLE))
		.poolSizes(List.of(SweepResults.NO_POOL, 10, 100, 200))
		.rates(List.of(100, 200, 400))
		.duration(Duration.ofSeconds(5))
		.topologyWarmup(Duration.ofSeconds(30))
		.workload(Workload.WRITE)
		.stacks(List.of(Stack.JDBC, Stack.R2DBC))
		.build();

	/**
	 * PostgreSQL vs MariaDB: the same read request on one instance, pools 1, 2, 5, 10 and
	 * 20 at 250 and 500 rps with Poisson arrivals (the default preset's rates, which one
	 * instance carries on the 2-core box), 6 s windows, first on the embedded PostgreSQL,
	 * then, once it has stopped, on the embedded MariaDB. The blog post "Sizing
	 * connection pool" (limvik, 2023), whose experiment the {@code blog} preset
	 * reproduces on PostgreSQL, ran its service on MySQL (8.0.35, with MySQL Connector/J
	 * 8.1.0, as its set-up says); MariaDB, which speaks MySQL's protocol and which the
	 * lab can embed, stands in for it.
	 */
	static final Preset MYSQL = PresetBuilder.named("mysql")
		.topologies(List.of(Topology.SINGLE))
		.poolSizes(List.of(1, 2, 5, 10, 20))
		.rates(List.of(250, 500))
		.duration(Duration.ofSeconds(6))
		.topologyWarmup(Duration.ofSeconds(30))
		.arrivals(Arrivals.RANDOM)
		.vendors("postgresql", "mariadb")
		.build();

	/**
	 * The other side of the knee: every request costs the database
	 * {@link #CONTENTION_CPU_MS} ms of CPU and nothing else, so that connections beyond
	 * the database's cores only queue for its CPU. Pools from 1 to 64 per instance, one
	 * instance and three, with Poisson arrivals. Its rates here, 140 and 180 rps, are
	 * what it was designed at on a 2-core box; on the lab's own database the sweep
	 * replaces them by shares of what the database's CPU carries on the box it runs on
	 * ({@link ContentionRates}), unless {@code bench.rates} says. Pool 1 cannot carry the
	 * higher rate on 2 cores or more (one connection serves at most 1000 / 5.x ms), so
	 * the small side fails as it should; whether the large side loses is the question the
	 * preset asks.
	 * <p>
	 * Why 5 ms at under 200 rps, not 2 ms at 300-400 rps (the first design): the database
	 * gets the same CPU to burn, but the service JVMs, nginx and JMeter, whose cost is
	 * per request, take less than half as much of the same 2 cores. At 2 ms and 400 rps
	 * the box ran at its edge and no answer repeated (src/site/markdown/measurements.md,
	 * the contention runs at 2 ms, with what 5 ms showed).
	 * <p>
	 * Two repeats of 6 s windows and pools 1, 2, 4 and 64: two repeats give each cell an
	 * interval across runs (Cell.Latency#p99Interval), not only within its window, and
	 * end the one-run-per-point provisional, within the preset's 15 minutes.
	 */
	public static final Preset CONTENTION = PresetBuilder.named("contention")
		.topologies(TOPOLOGIES)
		.poolSizes(List.of(1, 2, 4, 64))
		.rates(List.of(140, 180))
		.repeats(2)
		.duration(Duration.ofSeconds(6))
		.topologyWarmup(Duration.ofSeconds(30))
		.arrivals(Arrivals.RANDOM)
		.cpuHoldMs(Preset.CONTENTION_CPU_MS)
		.build();

	/** The database CPU each request costs in the {@code contention} preset, ms. */
	public static final double CONTENTION_CPU_MS = 5.0;

	public static final List<Preset> ALL = List.of(QUICK, PAPER, FULL, BLOG, POOLING, THREADS, REACTIVE, MYSQL, SLO,
			CONTENTION);

	/**
	 * What {@code bench.preset} accepts: the names of {@link #ALL}, any case. A
	 * constraint needs a constant; PresetTests checks it against {@link #ALL}.
	 */
	public static final String NAMES_PATTERN = "(?i)quick|paper|full|blog|pooling|threads|reactive|mysql|slo|contention";

	/**
	 * The preset of that name, for {@code bench.preset}.
	 * @param name a preset's name, any case
	 * @return the preset
	 * @throws IllegalArgumentException when there is none of that name
	 */
	public static Preset named(String name) {
		return ALL.stream()
			.filter((preset) -> preset.name.equalsIgnoreCase(name.trim()))
			.findFirst()
			.orElseThrow(() -> new IllegalArgumentException("no preset " + name));
	}

	public static String names() {
		return String.join(", ", ALL.stream().map(Preset::name).toList());
	}

	public String label() {
		return this.name.toLowerCase(Locale.ROOT);
	}

}
