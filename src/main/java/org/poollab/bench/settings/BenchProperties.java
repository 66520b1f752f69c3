package org.poollab.bench.settings;

import java.nio.file.Path;
import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.stream.Collectors;

import jakarta.validation.Valid;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import org.hibernate.validator.constraints.time.DurationMax;
import org.hibernate.validator.constraints.time.DurationMin;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.boot.convert.DurationUnit;

import org.poollab.bench.deploy.ExternalTarget;
import org.poollab.bench.deploy.ResizeCredential;
import org.poollab.bench.grid.Arrivals;
import org.poollab.bench.grid.HoldTimeFrom;
import org.poollab.bench.grid.Preset;
import org.poollab.bench.grid.Question;
import org.poollab.bench.grid.Requests;
import org.poollab.bench.grid.ThreadModel;
import org.poollab.bench.grid.TimeScale;
import org.poollab.bench.grid.TimeScaleSetting;
import org.poollab.bench.grid.Topology;
import org.poollab.bench.grid.Workload;
import org.poollab.bench.lab.BenchSettingException;
import org.poollab.bench.load.RemoteEngines;
import org.poollab.bench.results.Stack;
import org.poollab.service.hold.CpuHold;
import org.poollab.service.hold.HoldPlace;
import org.poollab.service.hold.HoldTime;
import org.poollab.vendor.DatabaseVendor;

/**
 * The sweep's settings, from {@code -Dbench.*}, grouped by what they mean. The names stay
 * flat ({@code bench.rates}, not {@code bench.axes.rates}): every group is bound from the
 * one {@code bench} prefix and takes the names it has ({@link BenchBinder}). Unset grid
 * values come from the preset. Everything is checked before anything starts, and a
 * {@code bench.*} property that is none of these is refused rather than ignored. Each
 * setting's default, allowed values and description, as refusals and the options page say
 * them, are in {@link BenchSetting}; a test holds them to the annotations here.
 *
 * @param axes what the grid sweeps
 * @param load how each point is loaded and measured
 * @param engines the remote JMeter engines the load may come from
 * @param deployment what the lab starts: the database and the service's instances
 * @param hold the connection hold every instance emulates
 * @param slo the team's own question, an SLO search instead of a grid
 * @param targetMode a deployment the lab did not start, swept as deployed
 * @param deciding how the answer is judged and made sure of
 * @param run what the run does besides the grid, and where it writes
 */
public record BenchProperties(Axes axes, Load load, Engines engines, Deployment deployment, Hold hold, Slo slo,
		TargetMode targetMode, Deciding deciding, Run run) {

	/** 1 to 1000, or {@code none}: no pool. */
	static final String POOL_SIZE = "(?i)none|[1-9][0-9]{0,2}|1000";

	/**
	 * 64m to 8192m, or 1g to 8g: a heap a service instance can start with and this lab's
	 * machines can hold.
	 */
	static final String HEAP_SIZE = "(6[4-9]|[7-9][0-9]|[1-9][0-9]{2}|[1-7][0-9]{3}|80[0-9]{2}|81[0-8][0-9]|819[0-2])[mM]"
			+ "|[1-8][gG]";

	/**
	 * What the grid sweeps; each list unset comes from the preset.
	 *
	 * @param preset named grid, one of {@link Preset#ALL}
	 * @param topologies single, multi and/or pgbouncer
	 * @param instances service instances in the multi topology
	 * @param poolSizes {@code maximum-pool-size} values to sweep, {@code none} for no
	 * pool (every request opens its own connection); pgbouncer's pool size in the
	 * pgbouncer topology
	 * @param rates target request rates (whole fleet), requests per second
	 * @param repeats how often each point runs
	 * @param tomcatThreads {@code server.tomcat.threads.max} values to sweep, a dimension
	 * between topology and pool size; unset: Tomcat's default (200), not a dimension
	 * @param threads what runs the service's requests, {@code platform} (Tomcat's
	 * threads) and/or {@code virtual} (a virtual thread per request, Java 21 or later): a
	 * dimension beside {@code tomcatThreads}, which sizes the platform ones
	 * @param stack which services answer the load, {@code jdbc} (Spring MVC, HikariCP)
	 * and/or {@code r2dbc} (the reactive twin: WebFlux, r2dbc-pool), a dimension between
	 * topology and request threads (which size the JDBC service's only)
	 */
	public record Axes(@DefaultValue("full") @Pattern(regexp = Preset.NAMES_PATTERN) String preset,
			@Nullable List<Topology> topologies, @Min(1) @Max(16) @Nullable Integer instances,
			@Nullable List<@NotNull @Pattern(regexp = POOL_SIZE) String> poolSizes,
			@Nullable List<@NotNull @Min(1) @Max(100_000) Integer> rates, @Min(1) @Max(100) @Nullable Integer repeats,
			@Nullable List<@NotNull @Min(1) @Max(10_000) Integer> tomcatThreads, @Nullable List<ThreadModel> threads,
			@Nullable List<Stack> stack) {
	}

	/**
	 * How each point is loaded and measured; unset values come from the preset.
	 *
	 * @param duration measured window per point (plain numbers are seconds)
	 * @param warmup load before the first window of each round (one JMeter run), not
	 * measured; later windows of the round follow 1 s after a step in rate, 2 s after a
	 * resize
	 * @param topologyWarmup the longest load after a topology starts, before its first
	 * point (JIT warm-up): rising to the grid's highest rate, then held until every
	 * instance's own p99 settles (three 5 s slices within 20 % or 1 ms), or this long
	 * @param workload read ({@code GET /roles}) or write (100 rows inserted per request)
	 * @param arrivals even or random (Poisson) arrivals
	 * @param crossCheck measure every point a second time, right after JMeter, with the
	 * lab's independent open-loop generator, and record both (read workload only)
	 * @param timeScale slow motion ({@link TimeScale}): {@code auto}, the capacity
	 * probe's k per topology, or a whole number k for every topology (1 forbids it); read
	 * through {@link #timeScaleSetting()}
	 */
	public record Load(
			@DurationUnit(ChronoUnit.SECONDS) @DurationMin(millis = 1) @DurationMax(
					hours = 1) @Nullable Duration duration,
			@DurationUnit(ChronoUnit.SECONDS) @DurationMin(millis = 0) @DurationMax(
					hours = 1) @Nullable Duration warmup,
			@DurationUnit(ChronoUnit.SECONDS) @DurationMin(millis = 0) @DurationMax(
					hours = 1) @Nullable Duration topologyWarmup,
			@Nullable Workload workload, @Nullable Arrivals arrivals, @DefaultValue("false") boolean crossCheck,
			@DefaultValue("auto") @Pattern(regexp = TimeScaleSetting.PATTERN) String timeScale) {

		/**
		 * {@code bench.timeScale}, parsed; a fixed k above 1 where nothing may run in
		 * slow motion is refused by {@link GridSettings} and {@link TargetSettings}.
		 */
		public TimeScaleSetting timeScaleSetting() {
			return TimeScaleSetting.parse(this.timeScale);
		}

	}

	/**
	 * The JMeter servers the load may come from, in JMeter's distributed mode, checked as
	 * a whole by {@link BenchProperties#remoteEngineSettings()}.
	 *
	 * @param remoteEngines {@code host:port} of JMeter servers to generate the load from
	 * (empty: JMeter runs here)
	 * @param remoteEnginesSsl whether the lab talks to the remote engines over RMI with
	 * SSL; unset: it does ({@code false} for engines started with
	 * {@code server.rmi.ssl.disable=true})
	 * @param rmiKeystore the keystore the lab and its remote engines share for RMI over
	 * SSL; unset: {@code rmi_keystore.jks} in the build directory; made where named when
	 * missing
	 * @param maxClockSkew the most a remote engine's clock may be off the lab's, checked
	 * before anything starts; unset: {@link RemoteEngines#DEFAULT_MAX_CLOCK_SKEW}
	 */
	public record Engines(@Nullable List<@Pattern(regexp = "[A-Za-z0-9.\\-]+:[0-9]{1,5}") String> remoteEngines,
			@Nullable Boolean remoteEnginesSsl, @Nullable Path rmiKeystore,
			@DurationMin(millis = 1) @DurationMax(seconds = 1) @Nullable Duration maxClockSkew) {
	}

	/**
	 * What the lab starts: the database and the service's instances.
	 *
	 * @param database the databases' vendors ({@code bench.database.vendor}, a dimension
	 * of the grid: each vendor's embedded server in turn) and an existing server by URL
	 * instead of the embedded one
	 * @param loadBalancer auto, nginx or client
	 * @param basePort first port the lab listens on (load balancer; instances follow)
	 * @param instanceCpus CPUs per instance: each instance is pinned to that many cores
	 * ({@code taskset}) and told so ({@code -XX:ActiveProcessorCount}); unset: not pinned
	 * @param instanceHeap each instance's {@code -Xmx} ({@link #HEAP_SIZE}); unset: the
	 * preset's
	 * @param serviceJavaHome the JDK the service instances run on; unset: the lab's own,
	 * or with virtual threads on a lab JVM older than Java 21, the newest Java 21+ JDK
	 * installed in the usual places (the console and the report say which)
	 */
	public record Deployment(@Valid @DefaultValue SweepDatabase database,
			@DefaultValue("auto") LoadBalancerChoice loadBalancer,
			@DefaultValue("18080") @Min(1024) @Max(65_000) int basePort,
			@Min(1) @Max(1024) @Nullable Integer instanceCpus,
			@Pattern(regexp = HEAP_SIZE) @Nullable String instanceHeap, @Nullable Path serviceJavaHome) {
	}

	/**
	 * The connection hold every instance emulates on each request, in the request's
	 * transaction ({@link HoldSettings}); unset: the preset's.
	 *
	 * @param holdTime a mean (every request holds it), or a mean and a p99 (drawn per
	 * request from the lognormal through both, {@link HoldTime})
	 * @param holdPlace where the emulated hold's time goes: {@code database} (the
	 * database waits, {@code pg_sleep}; the default) or {@code application} (the
	 * request's thread sleeps holding the connection)
	 * @param holdTimeFrom a file or http(s) URL of a Prometheus exposition (a service's
	 * {@code /actuator/prometheus}) to read the hold from ({@link HoldTimeFrom}), instead
	 * of {@code bench.holdTime}
	 * @param holdTimeFromWindow how far apart {@code bench.holdTimeFrom}'s two scrapes of
	 * a URL are, e.g. {@code 60s}, or {@code lifetime} for one scrape (totals since
	 * start); unset: {@link HoldTimeFrom#DEFAULT_WINDOW}
	 * @param holdTimeFromUri the {@code uri} label whose requests count the connection
	 * uses per request by; unset: every request but the actuator's
	 * @param holdCpu database CPU each request's transaction also costs, besides any
	 * waiting hold ({@code lab.hold.cpu}, {@link CpuHold}: calibrated against the
	 * database as each instance starts)
	 */
	public record Hold(
			@Nullable List<@NotNull @DurationMin(nanos = 100_000) @DurationMax(seconds = 60) Duration> holdTime,
			@Nullable HoldPlace holdPlace, @Nullable String holdTimeFrom, @Nullable String holdTimeFromWindow,
			@Nullable String holdTimeFromUri,
			@Nullable @DurationMin(nanos = 100_000) @DurationMax(seconds = 1) Duration holdCpu) {
	}

	/**
	 * The team's own question ({@link Question}), checked by {@link QuestionSettings}.
	 *
	 * @param targetRps the fleet's peak rate: asks the lab the team's own question (an
	 * SLO search) instead of sweeping a grid
	 * @param replicas replicas in production (default: {@code bench.instances})
	 * @param maxReplicas the autoscaler's ceiling (default: {@code bench.replicas})
	 * @param surge extra replicas during a rolling deploy: a share ({@code 25%}, rounded
	 * up, Kubernetes' default) or a number
	 * @param otherConnections connections other clients (Flyway, admin, monitoring) hold
	 * on the database
	 * @param connectionsPerRequest connections one request holds at once (Cm)
	 */
	public record Slo(@Min(1) @Max(10_000_000) @Nullable Integer targetRps,
			@Min(1) @Max(1000) @Nullable Integer replicas, @Min(1) @Max(1000) @Nullable Integer maxReplicas,
			@DefaultValue("25%") @Pattern(regexp = Question.SURGE_PATTERN) String surge,
			@DefaultValue("5") @Min(0) @Max(100_000) int otherConnections,
			@DefaultValue("1") @Min(1) @Max(100) int connectionsPerRequest) {
	}

	/**
	 * Who deploys what the load goes to, and target mode's own settings, checked by
	 * {@link TargetSettings}.
	 *
	 * @param target {@code lab} (the lab deploys the service) or {@code external}: sweep
	 * a deployment the lab did not start ({@link ExternalTarget}), which starts no
	 * service and no database
	 * @param targets with {@code external}: the URL(s) the load goes to,
	 * {@code http://host:port}, one load balancer's or each instance's (round robin)
	 * @param actuators with {@code external}: each instance's actuator base URL, e.g.
	 * {@code http://127.0.0.2:8081/actuator}
	 * @param resizeCommand with {@code external}: a shell command line that redeploys the
	 * fleet at {@code {poolSize}}; unset: the service's resize endpoint, with the token
	 * from {@link ResizeCredential#ENVIRONMENT_VARIABLE} when it asks for one
	 * @param resizeTimeout the longest a resize of an external deployment may take,
	 * command and wait until every instance reports the new size
	 * @param allowRemoteTargets let targets and actuators be beyond this machine's
	 * loopback (the lab then loads a service elsewhere: yours to load)
	 * @param requests with {@code external}: the team's own requests, each
	 * {@code METHOD /path}, optionally {@code @file} (a body) and {@code ; weight}, or
	 * {@code plan:FILE}, the HTTP samplers of the team's JMeter plan ({@link Requests});
	 * unset: the workload's
	 * @param poolName with {@code external}: the HikariCP pool swept, by its {@code pool}
	 * tag; unset: the only one, or the first by name
	 */
	public record TargetMode(@DefaultValue("lab") Target target, @Nullable List<@NotNull String> targets,
			@Nullable List<@NotNull String> actuators, @Nullable String resizeCommand,
			@DefaultValue("10m") @DurationUnit(ChronoUnit.SECONDS) @DurationMin(seconds = 1) @DurationMax(
					hours = 1) Duration resizeTimeout,
			@DefaultValue("false") boolean allowRemoteTargets, @Nullable List<@NotNull String> requests,
			@Nullable String poolName) {
	}

	/** Who deploys what the load goes to. */
	public enum Target {

		/** The lab starts the service (and the database) itself. */
		LAB,

		/** A deployment the lab did not start ({@link ExternalTarget}). */
		EXTERNAL

	}

	/**
	 * How the answer is judged and made sure of.
	 *
	 * @param p99Objective the p99 a point must stay within to count as sustaining its
	 * rate in the recommendation (a rate carried with seconds of queueing is saturation)
	 * @param confirmation the measured window of the confirmation run: after the grid,
	 * each topology's recommended block is started as pasted and loaded with Poisson
	 * arrivals at the rate its pool size was chosen at for this long; {@code 0} skips it
	 * @param adaptiveCap the most time per topology spent measuring again the cells that
	 * decide an unsettled decision (picked less often than 80 % when redone on drawn
	 * p99s); {@code 0} turns adaptive effort off
	 */
	public record Deciding(
			@DefaultValue("100ms") @DurationMin(millis = 1) @DurationMax(minutes = 10) Duration p99Objective,
			@DefaultValue("20s") @DurationUnit(ChronoUnit.SECONDS) @DurationMin(millis = 0) @DurationMax(
					minutes = 10) Duration confirmation,
			@DefaultValue("90s") @DurationUnit(ChronoUnit.SECONDS) @DurationMin(millis = 0) @DurationMax(
					hours = 1) Duration adaptiveCap) {
	}

	/**
	 * What the run does besides the grid, and where it writes.
	 *
	 * @param serve {@code single} or {@code multi}: start that deployment and keep it
	 * running until Ctrl-C instead of sweeping
	 * @param acquireCost also run the pooled vs unpooled acquire-cost benchmark into the
	 * run (after Vlad Mihalcea, "The anatomy of Connection Pooling"); unset: the preset's
	 * @param outputDirectory where runs are written
	 * @param buildDirectory Maven's target directory (JMeter and the runtime classpath)
	 */
	public record Run(@Nullable Topology serve, @Nullable Boolean acquireCost,
			@DefaultValue("target/bench") Path outputDirectory, @DefaultValue("target") Path buildDirectory) {
	}

	/** {@code bench.database.*}. */
	public SweepDatabase database() {
		return this.deployment.database();
	}

	/**
	 * The databases the grid runs on, one at a time: {@code bench.database.vendor} when
	 * set, else the URL's vendor, else the preset's (PostgreSQL but for {@code mysql}).
	 * @throws BenchSettingException when several vendors are set beside one URL, or one
	 * that contradicts it
	 */
	List<DatabaseVendor> vendors() {
		SweepDatabase database = database();
		if (database.vendor() != null && !database.vendor().isEmpty() || database.configured()) {
			return database.vendors();
		}
		return Preset.named(this.axes.preset()).vendors();
	}

	/** {@code the database}, or with several {@code one of the databases}. */
	String theDatabase() {
		return (vendors().size() > 1) ? "one of the databases" : "the database";
	}

	/** Where the vendors came from, for a message. */
	String describeVendor() {
		SweepDatabase database = database();
		return (database.vendor() == null || database.vendor().isEmpty()) && !database.configured()
				? "bench.preset=" + this.axes.preset() : database.describeVendor();
	}

	/** {@link #vendors()} as messages name them, e.g. {@code PostgreSQL and MariaDB}. */
	String products() {
		return vendors().stream().map(DatabaseVendor::product).collect(Collectors.joining(" and "));
	}

	/**
	 * {@code bench.remoteEngines} and how the lab talks to them, checked as a whole; no
	 * engine is asked anything yet ({@link RemoteEngines#check}).
	 */
	public RemoteEngines remoteEngineSettings() {
		return RemoteEngines.of(this.engines.remoteEngines(), this.engines.remoteEnginesSsl(),
				this.engines.rmiKeystore(), this.engines.maxClockSkew(), this.run.buildDirectory());
	}

}
