package org.poollab.bench.results;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.jspecify.annotations.Nullable;

/**
 * One measured point: a topology, pool size and rate held for the measured window. Kept
 * whole at about 300 lines: its four groups ({@link Window}, {@link Requests},
 * {@link Generator}, {@link ServerSide}) are its JSON shape and its accessors read
 * through them, so they belong with it; how a point is made is {@link PointBuilder}.
 *
 * @param topology {@code single}, {@code multi} or {@code pgbouncer}
 * @param instances service instances behind the load balancer
 * @param loadBalancer {@code none}, {@code nginx} or {@code client-round-robin}
 * @param poolSize the {@code maximum-pool-size} each instance ran with;
 * {@link SweepResults#NO_POOL} (0) when every request opened its own connection; in the
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
 * @param limits what each instance JVM was limited to; results written before limits were
 * recorded read as {@link Limits#DEFAULTS}, what every instance ran with then
 * @param pgbouncer what pgbouncer reported, for the {@code pgbouncer} topology (whose
 * {@code poolSize} is pgbouncer's pool size); {@code null} for the others
 * @param crossCheck the same point measured again by an independent open-loop generator
 * ({@code bench.crossCheck}); {@code null} when not asked for
 * @param seconds the window second by second (requests sent, successful, their p99, the
 * most requests pending for a connection on any instance); empty in results written
 * before it was recorded
 * @param outcome {@code ok}, or what went wrong with this point
 * @param model the queueing model's prediction from the point's measured hold and rate,
 * beside its measured p99; null where there is none (no pool, no hold measured, or no
 * base at its rate yet)
 * @param timeScale k of slow motion: the lab sent {@code rateRps} ÷ k with every hold and
 * {@code connection-timeout} × k, and every figure here but the window's seconds, the
 * counts and the generator's start lag is mapped back to the team's time
 * ({@code load/TeamTime}); 1 for none, and in results written before slow motion
 * @param overheadMs the per-request time slow motion does not stretch, which the mapping
 * keeps: {@code team = overhead + (lab − overhead) ÷ k}; 0 at k = 1
 * @param labLatency the client latency as the lab measured it, before the mapping;
 * {@code null} at k = 1 (it is {@code latency})
 */
public record Point(String topology, int instances, String loadBalancer, int poolSize, int rateRps, String arrivals,
		int repeat, Window window, Requests requests, Latency latency, Pool pool, Generator generator,
		ServerSide server, Limits limits, @Nullable PgBouncerFacts pgbouncer, @Nullable CrossCheckResult crossCheck,
		List<Second> seconds, String outcome, @Nullable QueuePrediction model, Integer timeScale, Double overheadMs,
		@Nullable Latency labLatency) {

	/**
	 * The topology with the request threads when they are not Tomcat's default, e.g.
	 * {@code single}, {@code single-tomcat50} or {@code single-virtual}: the deployment
	 * the point ran on, as the sweep labels it.
	 */
	public String deployment() {
		return this.topology + this.limits.labelSuffix();
	}

	/** The load balancer of a point whose load went to its instances directly. */
	public static final String NO_LOAD_BALANCER = "none";

	/** How JMeter's response code begins for a request that got no HTTP response. */
	static final String NO_HTTP_RESPONSE = "Non HTTP response code: ";

	public Point {
		limits = (limits != null) ? limits : Limits.DEFAULTS;
		generator = (generator != null) ? generator : new Generator(0, -1.0, List.of());
		server = (server != null) ? server : new ServerSide(Map.of(), List.of());
		seconds = (seconds != null) ? List.copyOf(seconds) : List.of();
		// results.json written before slow motion has neither (boxed, as Jackson gives
		// a missing number as null): the team's time.
		timeScale = (timeScale != null) ? Math.max(1, timeScale) : 1;
		overheadMs = (overheadMs != null) ? overheadMs : 0.0;
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
	 * @param startLagP99Ms how late requests left it against their even schedule, 99th
	 * percentile: latency cannot show a wait that happened before the request was sent;
	 * with remote engines, over every engine's requests, each against its own schedule;
	 * -1 when unknown (random arrivals; remote engines in results written before it was
	 * recorded)
	 * @param engines what each remote engine sent, in the order of
	 * {@code bench.remoteEngines}; empty for JMeter here and in older results
	 */
	public record Generator(double cpuCores, Double startLagP99Ms, List<EngineLoad> engines) {

		public Generator {
			startLagP99Ms = (startLagP99Ms != null) ? startLagP99Ms : -1.0;
			engines = (engines != null) ? List.copyOf(engines) : List.of();
		}

	}

	/**
	 * What the instances themselves saw.
	 *
	 * @param refusals their 503s in the window by reason ({@code too-many-clients},
	 * {@code pool-timeout}, {@code database-unavailable}), as they counted them; empty
	 * when not recorded
	 * @param latency each instance's own latency of the same requests, a second opinion
	 * on JMeter's: one entry per instance, in the order they were started; empty in
	 * results written before it was recorded
	 * @param databaseCpuCores the CPU the database's processes used during the window, in
	 * cores (the embedded server's, read from {@code /proc}); {@code null} where it was
	 * not measured (an external database, results written before it was recorded)
	 */
	public record ServerSide(Map<String, Long> refusals, List<ServerLatency> latency,
			@Nullable Double databaseCpuCores) {

		public ServerSide(Map<String, Long> refusals, List<ServerLatency> latency) {
			this(refusals, latency, null);
		}

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

	/** What each remote engine sent; empty for JMeter here. */
	public List<EngineLoad> engines() {
		return this.generator.engines();
	}

	public Map<String, Long> refusals() {
		return this.server.refusals();
	}

	public List<ServerLatency> serverLatency() {
		return this.server.latency();
	}

	/** The database's CPU in the window, cores; {@code null}: not measured. */
	public @Nullable Double databaseCpuCores() {
		return this.server.databaseCpuCores();
	}

	/**
	 * The database's CPU per successful request in the window, milliseconds; empty where
	 * it was not measured or nothing succeeded.
	 */
	public java.util.OptionalDouble databaseCpuMsPerRequest() {
		Double cores = databaseCpuCores();
		double succeededPerSecond = (this.samples() > 0 && durationSeconds() > 0)
				? (samples() - errors()) / durationSeconds() : 0;
		if (cores == null || !(succeededPerSecond > 0)) {
			return java.util.OptionalDouble.empty();
		}
		return java.util.OptionalDouble.of(cores * 1000 / succeededPerSecond);
	}

	/**
	 * Whether the point proved it measured the pool it claims: every instance was scraped
	 * in the window and its HikariCP pool had the point's size throughout, or for
	 * {@code none} no instance had a HikariCP pool at all; behind pgbouncer, pgbouncer's
	 * pool had the point's size and the instances' HikariCP pools the size they were
	 * given.
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
	 * How far the count of a window may fall from the rate by chance alone, as a share of
	 * it: random (Poisson) arrivals scatter the count by its square root, and three
	 * standard deviations cover all but 0.3 % of windows; even arrivals send exactly the
	 * rate (0). The count is the lab's: in slow motion the window held the rate ÷ k per
	 * second (its seconds are the lab's).
	 */
	public double arrivalScatter() {
		if (!"random".equals(this.arrivals)) {
			return 0;
		}
		return 3 / Math.sqrt(Math.max(1, (double) this.rateRps / this.timeScale * durationSeconds()));
	}

	/** Whether the point ran in slow motion. */
	public boolean slowed() {
		return this.timeScale > 1;
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
	public Point withCrossCheck(CrossCheckResult check) {
		return toBuilder().crossCheck(check).build();
	}

	/**
	 * The same point with the queueing model's prediction beside it.
	 * @param prediction the prediction, or null for none
	 * @return the copy
	 */
	public Point withModel(@Nullable QueuePrediction prediction) {
		return toBuilder().model(prediction).build();
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
	 * A point built by name, for the lab's own measurements and for tests: a point has 25
	 * figures, too many to fill by position.
	 * @return a builder with the defaults of a plain point (one instance, no load
	 * balancer, even arrivals, repeat 1, outcome {@code ok}, nothing optional)
	 */
	public static PointBuilder builder() {
		return new PointBuilder();
	}

	/**
	 * A builder holding this point's figures, to change some of them.
	 * @return the builder
	 */
	public PointBuilder toBuilder() {
		return new PointBuilder(this);
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
	 * HTTP response (a timeout, a refused or reset connection) the exception JMeter names
	 * in its response code, e.g. {@code java.net.SocketTimeoutException}.
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
	 * Successful responses per second of the window: what the service delivered, where
	 * {@link #achievedRps()} is what was offered to it.
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
