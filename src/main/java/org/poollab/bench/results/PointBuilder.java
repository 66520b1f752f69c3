package org.poollab.bench.results;

import java.util.List;
import java.util.Map;
import java.util.Objects;

import org.jspecify.annotations.Nullable;

/**
 * Builds a {@link Point} by name: a point has 25 figures, too many to fill by position.
 * Its own file so that {@link Point} holds what a point is and this what making one
 * takes; {@link Point#builder()} and {@link Point#toBuilder()} hand it out.
 */
public final class PointBuilder {

	private @Nullable String topology;

	private int instances = 1;

	private String loadBalancer = Point.NO_LOAD_BALANCER;

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

	private @Nullable PgBouncerFacts pgbouncer;

	private Double startLagP99Ms = -1.0;

	private List<EngineLoad> engines = List.of();

	private Map<String, Long> refusals = Map.of();

	private List<ServerLatency> serverLatency = List.of();

	private @Nullable Double databaseCpuCores;

	private @Nullable CrossCheckResult crossCheck;

	private List<Second> seconds = List.of();

	private @Nullable QueuePrediction model;

	private int timeScale = 1;

	private double overheadMs;

	private @Nullable Latency labLatency;

	PointBuilder() {
	}

	/** A builder holding a point's figures, to change some of them. */
	PointBuilder(Point point) {
		this.topology = point.topology();
		this.instances = point.instances();
		this.loadBalancer = point.loadBalancer();
		this.poolSize = point.poolSize();
		this.rateRps = point.rateRps();
		this.arrivals = point.arrivals();
		this.repeat = point.repeat();
		this.warmupSeconds = point.warmupSeconds();
		this.durationSeconds = point.durationSeconds();
		this.achievedRps = point.achievedRps();
		this.samples = point.samples();
		this.errors = point.errors();
		this.statusCounts = point.statusCounts();
		this.latency = point.latency();
		this.failedMaxMs = point.failedMaxMs();
		this.pool = point.pool();
		this.loadGeneratorCpuCores = point.loadGeneratorCpuCores();
		this.outcome = point.outcome();
		this.model = point.model();
		this.limits = point.limits();
		this.pgbouncer = point.pgbouncer();
		this.startLagP99Ms = point.startLagP99Ms();
		this.engines = point.engines();
		this.refusals = point.refusals();
		this.serverLatency = point.serverLatency();
		this.databaseCpuCores = point.databaseCpuCores();
		this.crossCheck = point.crossCheck();
		this.seconds = point.seconds();
		this.timeScale = point.timeScale();
		this.overheadMs = point.overheadMs();
		this.labLatency = point.labLatency();
	}

	public PointBuilder topology(String topology) {
		this.topology = topology;
		return this;
	}

	public PointBuilder instances(int instances) {
		this.instances = instances;
		return this;
	}

	public PointBuilder loadBalancer(String loadBalancer) {
		this.loadBalancer = loadBalancer;
		return this;
	}

	public PointBuilder poolSize(int poolSize) {
		this.poolSize = poolSize;
		return this;
	}

	public PointBuilder rateRps(int rateRps) {
		this.rateRps = rateRps;
		return this;
	}

	public PointBuilder arrivals(String arrivals) {
		this.arrivals = arrivals;
		return this;
	}

	public PointBuilder repeat(int repeat) {
		this.repeat = repeat;
		return this;
	}

	public PointBuilder warmupSeconds(double warmupSeconds) {
		this.warmupSeconds = warmupSeconds;
		return this;
	}

	public PointBuilder durationSeconds(double durationSeconds) {
		this.durationSeconds = durationSeconds;
		return this;
	}

	public PointBuilder achievedRps(double achievedRps) {
		this.achievedRps = achievedRps;
		return this;
	}

	public PointBuilder samples(long samples) {
		this.samples = samples;
		return this;
	}

	public PointBuilder errors(long errors) {
		this.errors = errors;
		return this;
	}

	public PointBuilder statusCounts(Map<String, Long> statusCounts) {
		this.statusCounts = statusCounts;
		return this;
	}

	/**
	 * The requests' figures at once: achieved rate, samples, errors, status counts,
	 * slowest failure.
	 */
	public PointBuilder requests(Point.Requests requests) {
		this.achievedRps = requests.achievedRps();
		this.samples = requests.samples();
		this.errors = requests.errors();
		this.statusCounts = requests.statusCounts();
		this.failedMaxMs = requests.failedMaxMs();
		return this;
	}

	public PointBuilder latency(Latency latency) {
		this.latency = latency;
		return this;
	}

	public PointBuilder failedMaxMs(double failedMaxMs) {
		this.failedMaxMs = failedMaxMs;
		return this;
	}

	public PointBuilder pool(Pool pool) {
		this.pool = pool;
		return this;
	}

	public PointBuilder loadGeneratorCpuCores(double loadGeneratorCpuCores) {
		this.loadGeneratorCpuCores = loadGeneratorCpuCores;
		return this;
	}

	public PointBuilder model(@Nullable QueuePrediction model) {
		this.model = model;
		return this;
	}

	public PointBuilder outcome(String outcome) {
		this.outcome = outcome;
		return this;
	}

	public PointBuilder limits(Limits limits) {
		this.limits = limits;
		return this;
	}

	public PointBuilder pgbouncer(@Nullable PgBouncerFacts pgbouncer) {
		this.pgbouncer = pgbouncer;
		return this;
	}

	public PointBuilder startLagP99Ms(Double startLagP99Ms) {
		this.startLagP99Ms = startLagP99Ms;
		return this;
	}

	public PointBuilder engines(List<EngineLoad> engines) {
		this.engines = engines;
		return this;
	}

	public PointBuilder refusals(Map<String, Long> refusals) {
		this.refusals = refusals;
		return this;
	}

	public PointBuilder databaseCpuCores(@Nullable Double databaseCpuCores) {
		this.databaseCpuCores = databaseCpuCores;
		return this;
	}

	public PointBuilder serverLatency(List<ServerLatency> serverLatency) {
		this.serverLatency = serverLatency;
		return this;
	}

	public PointBuilder crossCheck(@Nullable CrossCheckResult crossCheck) {
		this.crossCheck = crossCheck;
		return this;
	}

	public PointBuilder seconds(List<Second> seconds) {
		this.seconds = seconds;
		return this;
	}

	/**
	 * Slow motion's k and the overhead it left unstretched, and the client latency as
	 * measured before the mapping to the team's time.
	 */
	public PointBuilder timeScale(int timeScale, double overheadMs, @Nullable Latency labLatency) {
		this.timeScale = timeScale;
		this.overheadMs = overheadMs;
		this.labLatency = labLatency;
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
		return new Point(this.topology, this.instances, this.loadBalancer, this.poolSize, this.rateRps, this.arrivals,
				this.repeat, new Point.Window(this.warmupSeconds, this.durationSeconds),
				new Point.Requests(this.achievedRps, this.samples, this.errors, this.statusCounts, this.failedMaxMs),
				this.latency, this.pool,
				new Point.Generator(this.loadGeneratorCpuCores, this.startLagP99Ms, this.engines),
				new Point.ServerSide(this.refusals, this.serverLatency, this.databaseCpuCores), this.limits,
				this.pgbouncer, this.crossCheck, this.seconds, this.outcome, this.model, this.timeScale,
				this.overheadMs, this.labLatency);
	}

}
