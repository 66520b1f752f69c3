package org.poollab.bench.results;

import java.time.Duration;
import java.time.Instant;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

import org.jspecify.annotations.Nullable;

/**
 * What one sweep measured: the contract between the sweep (which writes
 * {@code results.json}) and the report (which reads it). Latencies are in milliseconds
 * and cover successful requests only; failures are counted apart so saturation is not
 * averaged into the latency figures.
 *
 * @param startedAt when the sweep started
 * @param preset the preset the grid came from ({@code quick}, {@code paper},
 * {@code full}, ...)
 * @param host the machine the sweep ran on
 * @param database the PostgreSQL the instances shared
 * @param p99ObjectiveMs the p99 a point must stay at or below to count as sustaining its
 * rate (0: no objective)
 * @param workload what each request did, e.g. {@code read (GET /roles)}; absent in
 * results written before the write workload existed, which were reads
 * @param points one entry per measured point, in the order they ran
 * @param timing where the sweep's time went; {@code null} until it ends, and in results
 * written before it was recorded
 * @param confirmations each topology's recommended block run as pasted (one entry per
 * topology that had one); empty when none ran (older results,
 * {@code bench.confirmation=0})
 */
public record SweepResults(Instant startedAt, String preset, Host host, Database database, double p99ObjectiveMs,
		String workload, List<Point> points, @Nullable Timing timing, List<Confirmation> confirmations) {

	public SweepResults {
		confirmations = (confirmations != null) ? List.copyOf(confirmations) : List.of();
	}

	/** Results without confirmation runs. */
	public SweepResults(Instant startedAt, String preset, Host host, Database database, double p99ObjectiveMs,
			String workload, List<Point> points, @Nullable Timing timing) {
		this(startedAt, preset, host, database, p99ObjectiveMs, workload, points, timing, List.of());
	}

	/** A sweep still running, or results written before timing was recorded. */
	public SweepResults(Instant startedAt, String preset, Host host, Database database, double p99ObjectiveMs,
			String workload, List<Point> points) {
		this(startedAt, preset, host, database, p99ObjectiveMs, workload, points, null);
	}

	/**
	 * The same results with the confirmation runs.
	 * @param runs one per topology confirmed
	 * @return the copy
	 */
	public SweepResults withConfirmations(List<Confirmation> runs) {
		return new SweepResults(this.startedAt, this.preset, this.host, this.database, this.p99ObjectiveMs,
				this.workload, this.points, this.timing, runs);
	}

	/**
	 * Adaptive effort on one topology: its decision was not settled (the decision redone
	 * on drawn p99s picked the choice less often than 80 %), so the cells that decide it
	 * were measured again, a round at a time.
	 *
	 * @param topology the topology
	 * @param rateRps the deciding rate
	 * @param pools the pool sizes measured again
	 * @param rounds extra rounds run
	 * @param seconds wall time they took
	 * @param probabilityBefore how often the choice was picked before
	 * @param probabilityAfter how often the (possibly new) choice was picked after
	 * @param end why it stopped: {@code settled}, {@code cap} (bench.adaptiveCap spent),
	 * {@code rounds} (the most rounds it runs) or {@code died} (an instance died)
	 */
	public record Settling(String topology, int rateRps, List<Integer> pools, int rounds, double seconds,
			double probabilityBefore, double probabilityAfter, String end) {

		/**
		 * Said when adaptive effort leaves fewer than two pool sizes to compare (a new
		 * repeat failed), so the decision has nothing to redraw: by the console and the
		 * answer card alike.
		 */
		public static final String NOT_REDRAWN = "fewer than two pool sizes were left to compare at the deciding rate, so the choice was not redrawn";

	}

	/**
	 * A topology started afresh with exactly the recommended
	 * {@code spring.datasource.hikari.*} block (read from a file, as a user pastes it),
	 * then loaded with Poisson arrivals at the rate the pool size was chosen at.
	 *
	 * @param topology the topology, e.g. {@code multi}
	 * @param block the YAML the instances were started with, byte for byte
	 * @param settings the block's {@code spring.datasource.hikari.*} settings as parsed
	 * from it, by key (e.g. {@code connection-timeout} to {@code 500})
	 * @param mismatches every difference between {@code settings} and what each instance
	 * reported through its actuator once started; empty when they all matched
	 * @param point the measured window: rate, arrivals, latency, status counts, outcome
	 */
	public record Confirmation(String topology, String block, Map<String, String> settings, List<String> mismatches,
			Point point) {

		public Confirmation {
			settings = Collections.unmodifiableMap(new LinkedHashMap<>(settings));
			mismatches = List.copyOf(mismatches);
		}

	}

	/**
	 * The same results with what was measured of the host.
	 * @param measuredHost the host
	 * @return the copy
	 */
	public SweepResults withHost(Host measuredHost) {
		return new SweepResults(this.startedAt, this.preset, measuredHost, this.database, this.p99ObjectiveMs,
				this.workload, this.points, this.timing, this.confirmations);
	}

	/**
	 * The same results with the sweep's time account.
	 * @param spent where the time went
	 * @return the copy
	 */
	public SweepResults withTiming(Timing spent) {
		return new SweepResults(this.startedAt, this.preset, this.host, this.database, this.p99ObjectiveMs,
				this.workload, this.points, spent, this.confirmations);
	}

	/**
	 * Where a sweep's wall time went, from its start (settings checked) to its last
	 * point. What is not load went to starting the database and the instances, JMeter's
	 * start and its wait for requests in flight, and resizing pools.
	 *
	 * @param wallSeconds from the sweep's start to the end of its last point
	 * @param measuredSeconds the measured windows together
	 * @param pointWarmupSeconds the unmeasured load before each window together
	 * @param topologyWarmupSeconds the unmeasured load after each deployment started
	 * @param warmUps each fresh deployment's warm-up, in the order they ran; empty in
	 * results written before they were recorded
	 */
	public record Timing(double wallSeconds, double measuredSeconds, double pointWarmupSeconds,
			double topologyWarmupSeconds, List<WarmUpRecord> warmUps, List<Settling> settling) {

		public Timing {
			warmUps = (warmUps != null) ? List.copyOf(warmUps) : List.of();
			settling = (settling != null) ? List.copyOf(settling) : List.of();
		}

		/** A time account without adaptive effort. */
		public Timing(double wallSeconds, double measuredSeconds, double pointWarmupSeconds,
				double topologyWarmupSeconds, List<WarmUpRecord> warmUps) {
			this(wallSeconds, measuredSeconds, pointWarmupSeconds, topologyWarmupSeconds, warmUps, List.of());
		}

		public double measuredPercent() {
			return (this.wallSeconds > 0) ? 100 * this.measuredSeconds / this.wallSeconds : 0;
		}

		/** The time the service was under load, warm-ups included. */
		public double loadSeconds() {
			return this.measuredSeconds + this.pointWarmupSeconds + this.topologyWarmupSeconds;
		}

		/** The share of wall time the service was under load, warm-ups included. */
		public double loadPercent() {
			return (this.wallSeconds > 0) ? 100 * loadSeconds() / this.wallSeconds : 0;
		}

	}

	/**
	 * A fresh deployment's warm-up: load at {@code rateRps} (after a ramp) until the
	 * slowest instance's own p99 ({@code http.server.requests}) of one slice was within
	 * 20 % or 1 ms of the slice before, or until {@code bench.topologyWarmup}.
	 *
	 * @param deployment the deployment's label, e.g. {@code single}
	 * @param rateRps the rate held
	 * @param seconds how long the load ran, ramp included
	 * @param sliceSeconds how long each slice was
	 * @param end how it ended
	 * @param serverP99sMs the slowest instance's p99 in each slice after the ramp, -1
	 * where an instance had no figures
	 */
	public record WarmUpRecord(String deployment, int rateRps, double seconds, long sliceSeconds, End end,
			List<Double> serverP99sMs) {

		/**
		 * A slice this many times the p99 objective, twice in a row, ends a warm-up as
		 * {@link End#OVERLOADED}.
		 */
		public static final int OVERLOAD_FACTOR = 10;

		/** How a warm-up ended. */
		public enum End {

			/** The slowest instance's p99 settled at the top rate. */
			SETTLED,

			/**
			 * Stopped early: an instance did not answer, or its p99 was above
			 * {@link #OVERLOAD_FACTOR} times the objective twice in a row.
			 */
			OVERLOADED,

			/** {@code bench.topologyWarmup} reached. */
			LIMIT

		}

		public boolean settled() {
			return this.end == End.SETTLED;
		}

	}

	/**
	 * @param cpuCores processors the JVM sees
	 * @param loadGenerator how the load was generated, e.g.
	 * {@code JMeter 5.6.3 OpenModelThreadGroup}
	 * @param generatorCeilingRps the highest rate the load generator held on this machine
	 * against a request that does no work (late starts p99 within the limit, rate within
	 * 3 %), measured before the grid; {@code null} when not measured (older results,
	 * remote engines)
	 */
	public record Host(int cpuCores, String loadGenerator, @Nullable Integer generatorCeilingRps) {

		/** A host whose generator ceiling was not measured. */
		public Host(int cpuCores, String loadGenerator) {
			this(cpuCores, loadGenerator, null);
		}

		/**
		 * The same host with the generator's measured ceiling.
		 * @param ceilingRps the ceiling
		 * @return the copy
		 */
		public Host withGeneratorCeiling(int ceilingRps) {
			return new Host(this.cpuCores, this.loadGenerator, ceilingRps);
		}

	}

	/**
	 * @param kind {@code embedded} (started by the lab) or {@code external}
	 * @param url JDBC URL without credentials
	 * @param version server version string
	 * @param maxConnections the server's {@code max_connections}
	 * @param reservedConnections slots regular users cannot take
	 * ({@code superuser_reserved_connections} + {@code reserved_connections})
	 */
	public record Database(String kind, String url, String version, int maxConnections, int reservedConnections) {
	}

	/**
	 * One measured point: a topology, pool size and rate held for the measured window.
	 *
	 * @param topology {@code single}, {@code multi} or {@code pgbouncer}
	 * @param instances service instances behind the load balancer
	 * @param loadBalancer {@code none}, {@code nginx} or {@code client-round-robin}
	 * @param poolSize the {@code maximum-pool-size} each instance ran with;
	 * {@link #NO_POOL} (0) when every request opened its own connection; in the
	 * {@code pgbouncer} topology, pgbouncer's pool size
	 * @param rateRps target arrival rate, requests per second, for the whole fleet
	 * @param arrivals {@code even} or {@code random} (Poisson) arrivals
	 * @param repeat 1-based repetition of this point
	 * @param window how long the point was loaded before and in its window
	 * @param requests what the requests that started in the window came to
	 * @param latency successful requests' latency distribution
	 * @param pool what the instances' HikariCP pools reported during the window
	 * @param generator how the load generator kept up
	 * @param server what the instances themselves saw
	 * @param limits what each instance JVM was limited to; results written before limits
	 * were recorded read as {@link Limits#DEFAULTS}, what every instance ran with then
	 * @param pgbouncer what pgbouncer reported, for the {@code pgbouncer} topology (whose
	 * {@code poolSize} is pgbouncer's pool size); {@code null} for the others
	 * @param crossCheck the same point measured again by an independent open-loop
	 * generator ({@code bench.crossCheck}); {@code null} when not asked for
	 * @param seconds the window second by second (requests sent, successful, their p99,
	 * the most requests pending for a connection on any instance); empty in results
	 * written before it was recorded
	 * @param outcome {@code ok}, or what went wrong with this point
	 */
	public record Point(String topology, int instances, String loadBalancer, int poolSize, int rateRps, String arrivals,
			int repeat, Window window, Requests requests, Latency latency, Pool pool, Generator generator,
			ServerSide server, Limits limits, @Nullable PgBouncer pgbouncer, @Nullable CrossCheck crossCheck,
			List<Second> seconds, String outcome) {

		/** The load balancer of a point whose load went to its instances directly. */
		public static final String NO_LOAD_BALANCER = "none";

		/** How JMeter's response code begins for a request that got no HTTP response. */
		static final String NO_HTTP_RESPONSE = "Non HTTP response code: ";

		public Point {
			limits = (limits != null) ? limits : Limits.DEFAULTS;
			generator = (generator != null) ? generator : new Generator(0, -1.0);
			server = (server != null) ? server : new ServerSide(Map.of(), List.of());
			seconds = (seconds != null) ? List.copyOf(seconds) : List.of();
		}

		/**
		 * How long a point was loaded.
		 *
		 * @param warmupSeconds load applied before the window, not measured
		 * @param durationSeconds the measured window
		 */
		public record Window(double warmupSeconds, double durationSeconds) {
		}

		/**
		 * The requests that started in the window.
		 *
		 * @param achievedRps how many per second
		 * @param samples how many (success + failure)
		 * @param errors how many failed (non-2xx or no response)
		 * @param statusCounts responses by HTTP status (or JMeter's text for no response)
		 * @param failedMaxMs the slowest failed request, 0 when none failed
		 */
		public record Requests(double achievedRps, long samples, long errors, Map<String, Long> statusCounts,
				double failedMaxMs) {

			public Requests {
				statusCounts = (statusCounts != null) ? statusCounts : Map.of();
			}

		}

		/**
		 * How the load generator kept up.
		 *
		 * @param cpuCores CPU it used during the window, in cores
		 * @param startLagP99Ms how late requests left it against their even schedule,
		 * 99th percentile: latency cannot show a wait that happened before the request
		 * was sent; -1 when unknown (random arrivals, remote engines, older results)
		 */
		public record Generator(double cpuCores, Double startLagP99Ms) {

			public Generator {
				startLagP99Ms = (startLagP99Ms != null) ? startLagP99Ms : -1.0;
			}

		}

		/**
		 * What the instances themselves saw.
		 *
		 * @param refusals their 503s in the window by reason ({@code too-many-clients},
		 * {@code pool-timeout}, {@code database-unavailable}), as they counted them;
		 * empty when not recorded
		 * @param latency each instance's own latency of the same requests, a second
		 * opinion on JMeter's: one entry per instance, in the order they were started;
		 * empty in results written before it was recorded
		 */
		public record ServerSide(Map<String, Long> refusals, List<ServerLatency> latency) {

			public ServerSide {
				refusals = (refusals != null) ? Map.copyOf(refusals) : Map.of();
				latency = (latency != null) ? List.copyOf(latency) : List.of();
			}

		}

		public double warmupSeconds() {
			return this.window.warmupSeconds();
		}

		public double durationSeconds() {
			return this.window.durationSeconds();
		}

		public double achievedRps() {
			return this.requests.achievedRps();
		}

		public long samples() {
			return this.requests.samples();
		}

		public long errors() {
			return this.requests.errors();
		}

		public Map<String, Long> statusCounts() {
			return this.requests.statusCounts();
		}

		public double failedMaxMs() {
			return this.requests.failedMaxMs();
		}

		public double loadGeneratorCpuCores() {
			return this.generator.cpuCores();
		}

		public Double startLagP99Ms() {
			return this.generator.startLagP99Ms();
		}

		public Map<String, Long> refusals() {
			return this.server.refusals();
		}

		public List<ServerLatency> serverLatency() {
			return this.server.latency();
		}

		/**
		 * Whether the point proved it measured the pool it claims: every instance was
		 * scraped in the window and its HikariCP pool had the point's size throughout, or
		 * for {@code none} no instance had a HikariCP pool at all; behind pgbouncer,
		 * pgbouncer's pool had the point's size and the instances' HikariCP pools the
		 * size they were given.
		 */
		public boolean verified() {
			if (this.pool.observedMax().size() != this.instances) {
				return false; // an instance the telemetry did not reach proves nothing
			}
			if (this.pgbouncer != null) {
				return this.pgbouncer.observedPoolSize() == this.poolSize
						&& this.pool.verified(this.pgbouncer.clientPoolSize());
			}
			return this.pool.verified(this.poolSize);
		}

		/**
		 * How far the count of a window may fall from the rate by chance alone, as a
		 * share of it: random (Poisson) arrivals scatter the count by its square root,
		 * and three standard deviations cover all but 0.3 % of windows; even arrivals
		 * send exactly the rate (0).
		 */
		public double arrivalScatter() {
			if (!"random".equals(this.arrivals)) {
				return 0;
			}
			return 3 / Math.sqrt(Math.max(1, this.rateRps * durationSeconds()));
		}

		/**
		 * The same point with another outcome.
		 * @param newOutcome what happened
		 * @return the copy
		 */
		public Point withOutcome(String newOutcome) {
			return toBuilder().outcome(newOutcome).build();
		}

		/**
		 * The same point with other latency figures.
		 * @param newLatency the figures
		 * @return the copy
		 */
		public Point withLatency(Latency newLatency) {
			return toBuilder().latency(newLatency).build();
		}

		/**
		 * The same point with an independent generator's figures beside JMeter's.
		 * @param check what the independent generator measured
		 * @return the copy
		 */
		public Point withCrossCheck(CrossCheck check) {
			return toBuilder().crossCheck(check).build();
		}

		/**
		 * The same point with its window second by second.
		 * @param window the seconds
		 * @return the copy
		 */
		public Point withSeconds(List<Second> window) {
			return toBuilder().seconds(window).build();
		}

		/**
		 * A point built by name, for the lab's own measurements and for tests: a point
		 * has 25 figures, too many to fill by position.
		 * @return a builder with the defaults of a plain point (one instance, no load
		 * balancer, even arrivals, repeat 1, outcome {@code ok}, nothing optional)
		 */
		public static Builder builder() {
			return new Builder();
		}

		/**
		 * A builder holding this point's figures, to change some of them.
		 * @return the builder
		 */
		public Builder toBuilder() {
			Builder builder = new Builder();
			builder.topology = this.topology;
			builder.instances = this.instances;
			builder.loadBalancer = this.loadBalancer;
			builder.poolSize = this.poolSize;
			builder.rateRps = this.rateRps;
			builder.arrivals = this.arrivals;
			builder.repeat = this.repeat;
			builder.warmupSeconds = warmupSeconds();
			builder.durationSeconds = durationSeconds();
			builder.achievedRps = achievedRps();
			builder.samples = samples();
			builder.errors = errors();
			builder.statusCounts = statusCounts();
			builder.latency = this.latency;
			builder.failedMaxMs = failedMaxMs();
			builder.pool = this.pool;
			builder.loadGeneratorCpuCores = loadGeneratorCpuCores();
			builder.outcome = this.outcome;
			builder.limits = this.limits;
			builder.pgbouncer = this.pgbouncer;
			builder.startLagP99Ms = startLagP99Ms();
			builder.refusals = refusals();
			builder.serverLatency = serverLatency();
			builder.crossCheck = this.crossCheck;
			builder.seconds = this.seconds;
			return builder;
		}

		/** Builds a {@link Point} by name. */
		public static final class Builder {

			private @Nullable String topology;

			private int instances = 1;

			private String loadBalancer = NO_LOAD_BALANCER;

			private int poolSize;

			private int rateRps;

			private String arrivals = "even";

			private int repeat = 1;

			private double warmupSeconds;

			private double durationSeconds;

			private double achievedRps;

			private long samples;

			private long errors;

			private Map<String, Long> statusCounts = Map.of();

			private @Nullable Latency latency;

			private double failedMaxMs;

			private @Nullable Pool pool;

			private double loadGeneratorCpuCores;

			private String outcome = "ok";

			private Limits limits = Limits.DEFAULTS;

			private @Nullable PgBouncer pgbouncer;

			private Double startLagP99Ms = -1.0;

			private Map<String, Long> refusals = Map.of();

			private List<ServerLatency> serverLatency = List.of();

			private @Nullable CrossCheck crossCheck;

			private List<Second> seconds = List.of();

			private Builder() {
			}

			public Builder topology(String topology) {
				this.topology = topology;
				return this;
			}

			public Builder instances(int instances) {
				this.instances = instances;
				return this;
			}

			public Builder loadBalancer(String loadBalancer) {
				this.loadBalancer = loadBalancer;
				return this;
			}

			public Builder poolSize(int poolSize) {
				this.poolSize = poolSize;
				return this;
			}

			public Builder rateRps(int rateRps) {
				this.rateRps = rateRps;
				return this;
			}

			public Builder arrivals(String arrivals) {
				this.arrivals = arrivals;
				return this;
			}

			public Builder repeat(int repeat) {
				this.repeat = repeat;
				return this;
			}

			public Builder warmupSeconds(double warmupSeconds) {
				this.warmupSeconds = warmupSeconds;
				return this;
			}

			public Builder durationSeconds(double durationSeconds) {
				this.durationSeconds = durationSeconds;
				return this;
			}

			public Builder achievedRps(double achievedRps) {
				this.achievedRps = achievedRps;
				return this;
			}

			public Builder samples(long samples) {
				this.samples = samples;
				return this;
			}

			public Builder errors(long errors) {
				this.errors = errors;
				return this;
			}

			public Builder statusCounts(Map<String, Long> statusCounts) {
				this.statusCounts = statusCounts;
				return this;
			}

			/**
			 * The requests' figures at once: achieved rate, samples, errors, status
			 * counts, slowest failure.
			 */
			public Builder requests(Requests requests) {
				this.achievedRps = requests.achievedRps();
				this.samples = requests.samples();
				this.errors = requests.errors();
				this.statusCounts = requests.statusCounts();
				this.failedMaxMs = requests.failedMaxMs();
				return this;
			}

			public Builder latency(Latency latency) {
				this.latency = latency;
				return this;
			}

			public Builder failedMaxMs(double failedMaxMs) {
				this.failedMaxMs = failedMaxMs;
				return this;
			}

			public Builder pool(Pool pool) {
				this.pool = pool;
				return this;
			}

			public Builder loadGeneratorCpuCores(double loadGeneratorCpuCores) {
				this.loadGeneratorCpuCores = loadGeneratorCpuCores;
				return this;
			}

			public Builder outcome(String outcome) {
				this.outcome = outcome;
				return this;
			}

			public Builder limits(Limits limits) {
				this.limits = limits;
				return this;
			}

			public Builder pgbouncer(@Nullable PgBouncer pgbouncer) {
				this.pgbouncer = pgbouncer;
				return this;
			}

			public Builder startLagP99Ms(Double startLagP99Ms) {
				this.startLagP99Ms = startLagP99Ms;
				return this;
			}

			public Builder refusals(Map<String, Long> refusals) {
				this.refusals = refusals;
				return this;
			}

			public Builder serverLatency(List<ServerLatency> serverLatency) {
				this.serverLatency = serverLatency;
				return this;
			}

			public Builder crossCheck(@Nullable CrossCheck crossCheck) {
				this.crossCheck = crossCheck;
				return this;
			}

			public Builder seconds(List<Second> seconds) {
				this.seconds = seconds;
				return this;
			}

			/**
			 * @return the point
			 * @throws NullPointerException when the topology, latency or pool is missing
			 */
			public Point build() {
				Objects.requireNonNull(this.topology, "a point needs its topology");
				Objects.requireNonNull(this.latency, "a point needs its latency");
				Objects.requireNonNull(this.pool, "a point needs its pool figures");
				return new Point(this.topology, this.instances, this.loadBalancer, this.poolSize, this.rateRps,
						this.arrivals, this.repeat, new Window(this.warmupSeconds, this.durationSeconds),
						new Requests(this.achievedRps, this.samples, this.errors, this.statusCounts, this.failedMaxMs),
						this.latency, this.pool, new Generator(this.loadGeneratorCpuCores, this.startLagP99Ms),
						new ServerSide(this.refusals, this.serverLatency), this.limits, this.pgbouncer, this.crossCheck,
						this.seconds, this.outcome);
			}

		}

		/**
		 * The slowest instance's own p50, of the instances with figures.
		 * @return milliseconds, the upper bound of a bucket; -1 when no instance has one
		 */
		public double serverP50Ms() {
			return serverLatency().stream().mapToDouble(ServerLatency::p50Ms).max().orElse(-1);
		}

		/**
		 * The slowest instance's own p99, of the instances with figures.
		 * @return milliseconds, the upper bound of a bucket; -1 when no instance has one
		 */
		public double serverP99Ms() {
			return serverLatency().stream().mapToDouble(ServerLatency::p99Ms).max().orElse(-1);
		}

		public double errorPercent() {
			return (samples() != 0) ? 100.0 * errors() / samples() : 0;
		}

		/**
		 * Failed requests by cause: every status but a 2xx, and for a request that got no
		 * HTTP response (a timeout, a refused or reset connection) the exception JMeter
		 * names in its response code, e.g. {@code java.net.SocketTimeoutException}.
		 * @return the counts by cause, empty when nothing failed
		 */
		public Map<String, Long> failureCauses() {
			Map<String, Long> causes = new TreeMap<>();
			statusCounts().forEach((code, count) -> {
				if (!code.startsWith("2")) {
					causes.merge(code.startsWith(NO_HTTP_RESPONSE) ? code.substring(NO_HTTP_RESPONSE.length()) : code,
							count, Long::sum);
				}
			});
			return causes;
		}

		/**
		 * Successful responses per second of the window: what the service delivered,
		 * where {@link #achievedRps()} is what was offered to it.
		 */
		public double throughputRps() {
			return (durationSeconds() > 0) ? (samples() - errors()) / durationSeconds() : 0;
		}

		/** Refusals the instances gave for this reason in the window. */
		public long refused(String reason) {
			return refusals().getOrDefault(reason, 0L);
		}

		public boolean ok() {
			return "ok".equals(this.outcome);
		}

	}

	/**
	 * The swept pool size as the report shows it: {@code none} for {@link #NO_POOL}.
	 * @param poolSize a point's pool size
	 * @return the label
	 */
	public static String poolLabel(int poolSize) {
		return (poolSize == NO_POOL) ? "none" : String.valueOf(poolSize);
	}

	/**
	 * How often the lab scrapes every instance's {@code /actuator/prometheus} while a
	 * window runs: the resolution of every pool figure (peak active, peak pending).
	 */
	public static final Duration SCRAPE_INTERVAL = Duration.ofMillis(500);

	/**
	 * The pool size of a point without a pool: every request opens and closes its own
	 * connection ({@code bench.poolSizes=none}).
	 */
	public static final int NO_POOL = 0;

	/**
	 * pgbouncer's view of a point of the {@code pgbouncer} topology, from its admin
	 * console ({@code SHOW DATABASES}, {@code SHOW POOLS}) during the measured window.
	 *
	 * @param observedPoolSize pgbouncer's {@code pool_size} for the database; must equal
	 * the point's pool size
	 * @param clientPoolSize every instance's HikariCP {@code maximum-pool-size} (its
	 * connections go to pgbouncer, not to PostgreSQL)
	 * @param peakServerConnections most server connections (to PostgreSQL) seen at once
	 * @param peakServerActive most server connections busy with a transaction at once
	 * @param peakClientsWaiting most client connections waiting for a server connection
	 * @param maxWaitMs longest a client had waited, as pgbouncer reported it
	 * @param samples admin-console reads inside the window
	 */
	public record PgBouncer(int observedPoolSize, int clientPoolSize, int peakServerConnections, int peakServerActive,
			int peakClientsWaiting, double maxWaitMs, int samples) {

		/**
		 * How many pools ask the database for connections: behind pgbouncer only its one
		 * pool reaches PostgreSQL, whatever the instances; otherwise each instance's.
		 * @param throughPgBouncer whether the instances connect through pgbouncer
		 * @param instances the service instances
		 * @return the pools that share the database's connections
		 */
		public static int poolsAtTheDatabase(boolean throughPgBouncer, int instances) {
			return throughPgBouncer ? 1 : instances;
		}

	}

	/**
	 * What each instance JVM of a point was limited to: the paper ran every instance with
	 * 1 CPU and 128 MB.
	 *
	 * @param cpus CPUs each instance was pinned to ({@code taskset} and
	 * {@code -XX:ActiveProcessorCount}); 0: not pinned, all of the host's
	 * @param heap the instance's {@code -Xmx}, e.g. {@code 512m}
	 * @param tomcatThreads {@code server.tomcat.threads.max}; 0: not set, Tomcat's
	 * default (200)
	 */
	public record Limits(int cpus, String heap, int tomcatThreads) {

		/** Without {@code bench.instance*} and {@code bench.tomcatThreads}. */
		public static final Limits DEFAULTS = new Limits(0, "512m", 0);

		/** Short form for the console and the report, e.g. {@code 1 CPU, heap 128m}. */
		public String describe() {
			String cpus = switch (this.cpus) {
				case 0 -> "all CPUs";
				case 1 -> "1 CPU";
				default -> this.cpus + " CPUs";
			};
			return cpus + ", heap " + this.heap
					+ ((this.tomcatThreads > 0) ? ", " + this.tomcatThreads + " Tomcat threads" : "");
		}

	}

	/**
	 * One instance's own latency of the requests the load generator timed: Spring MVC's
	 * {@code http.server.requests} timer, successful (2xx) requests to the workload's URI
	 * only, like {@link Latency}. It is the difference of the timer's histogram between
	 * the instance's last scrape at or before the window's start and its first at or
	 * after the window's end, so it covers the window to within one scrape interval (500
	 * ms) on either side and counts requests as they completed, where the load generator
	 * counts them as they started. The instance's clock starts when a Tomcat thread takes
	 * the request: time in the network, the load balancer and Tomcat's accept queue is
	 * only in the load generator's latency, and so is a wait before the request was sent
	 * (see {@link Point#startLagP99Ms()}).
	 * <p>
	 * Percentiles are bucket-resolution: the upper bound of the Micrometer histogram
	 * bucket the percentile falls in, not interpolated, so an over-estimate by at most
	 * the bucket's width (the service's buckets run from 0.25 ms to 10 s, each at most a
	 * third wider than the one below; beyond 10 s reads as 10 s). Every figure is -1 when
	 * the instance lacks a scrape on one side of the window (it died, or did not answer
	 * in time): absent, not estimated.
	 *
	 * @param port the instance's HTTP port (its HikariCP pool is {@code roles-<port>})
	 * @param requests successful requests it completed in the window; -1 when absent
	 * @param p50Ms median, bucket upper bound; -1 when absent or no request
	 * @param p99Ms 99th percentile, bucket upper bound; -1 when absent or no request
	 * @param maxMs upper bound of the highest bucket holding a request; -1 when absent or
	 * no request
	 */
	public record ServerLatency(int port, long requests, double p50Ms, double p99Ms, double maxMs) {

		/**
		 * An instance without a scrape on one side of the window.
		 * @param port the instance's HTTP port
		 * @return its figures, all -1
		 */
		public static ServerLatency absent(int port) {
			return new ServerLatency(port, -1, -1, -1, -1);
		}

	}

	/**
	 * One second of a measured window, as the generator saw it and the pools' gauges.
	 *
	 * @param second from the window's start, 0 first
	 * @param sent requests started in that second
	 * @param ok those that succeeded
	 * @param p99Ms their p99 (0 when none succeeded)
	 * @param pendingPeak the most requests waiting for a connection on any one instance
	 * in that second's scrapes (every 500 ms), -1 when no scrape fell in it
	 */
	public record Second(int second, long sent, long ok, double p99Ms, int pendingPeak) {
	}

	/**
	 * A point measured a second time, right after JMeter's window, on the same deployment
	 * at the same pool size and rate, by the lab's independent open-loop generator
	 * ({@code org.poollab.crosscheck.OpenLoopCheck}): latency from each request's
	 * intended send time, microsecond resolution.
	 *
	 * @param p50Ms median
	 * @param p99Ms 99th percentile
	 * @param sendLagP99Ms how late its sends were, 99th percentile
	 * @param sentRps the rate it sent in its window
	 * @param errors requests without a 2xx answer (timeouts included)
	 * @param cpuCores its own process CPU over the run
	 * @param agrees whether its p50 and p99 are both within 1.5x or 3 ms (whichever is
	 * larger) of JMeter's
	 */
	public record CrossCheck(double p50Ms, double p99Ms, double sendLagP99Ms, double sentRps, long errors,
			double cpuCores, boolean agrees) {
	}

	/**
	 * Percentiles from the raw samples (HdrHistogram); JMeter records whole milliseconds.
	 *
	 * @param p50Interval the median's 95 % interval; {@code null} in results written
	 * before intervals were recorded, or for too few samples
	 * @param p99Interval the 99th percentile's 95 % interval, likewise
	 */
	public record Latency(double meanMs, double p50Ms, double p95Ms, double p99Ms, double p999Ms, double maxMs,
			@Nullable Interval p50Interval, @Nullable Interval p99Interval) {

		/** Figures without intervals (results written before they were recorded). */
		public Latency(double meanMs, double p50Ms, double p95Ms, double p99Ms, double p999Ms, double maxMs) {
			this(meanMs, p50Ms, p95Ms, p99Ms, p999Ms, maxMs, null, null);
		}

	}

	/**
	 * A 95 % confidence interval of a percentile, from the window's samples by a block
	 * bootstrap (see {@code BlockBootstrap}).
	 *
	 * @param lowMs lower bound
	 * @param highMs upper bound
	 */
	public record Interval(double lowMs, double highMs) {
	}

	/**
	 * HikariCP telemetry scraped from every instance's {@code /actuator/prometheus}
	 * during the measured window.
	 *
	 * @param observedMax {@code hikaricp.connections.max} per instance scraped in the
	 * window (-1: it changed during the window); each must equal the point's pool size,
	 * which proves the point measured what it claims
	 * @param peakActive highest {@code hikaricp.connections.active} seen on any one
	 * instance
	 * @param peakPending highest {@code hikaricp.connections.pending} seen on any one
	 * instance
	 * @param acquireP99Ms 99th percentile of {@code hikaricp.connections.acquire} over
	 * the window, all instances together (upper bound of the histogram bucket)
	 * @param usageMeanMs mean time a connection was held
	 * ({@code hikaricp.connections.usage})
	 * @param timeouts connection-acquire timeouts ({@code hikaricp.connections.timeout})
	 * @param telemetrySamples scrapes per instance that the figures rest on
	 */
	public record Pool(List<Integer> observedMax, int peakActive, int peakPending, double acquireP99Ms,
			double usageMeanMs, long timeouts, int telemetrySamples) {

		/**
		 * Every instance reported {@code poolSize} as its HikariCP maximum; for
		 * {@link SweepResults#NO_POOL}, every instance was scraped and none reported a
		 * HikariCP pool (its gauges read 0, which a HikariCP pool never reports).
		 * @param poolSize the size the point claims
		 * @return whether the telemetry proves it
		 */
		public boolean verified(int poolSize) {
			return !this.observedMax.isEmpty() && this.observedMax.stream().allMatch((max) -> max == poolSize);
		}

	}

}
