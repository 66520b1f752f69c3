package org.poollab.bench.load;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;
import java.util.stream.Collectors;

import org.poollab.bench.deploy.Deployment;
import org.poollab.bench.deploy.Instance;
import org.poollab.bench.deploy.PgBouncer;
import org.poollab.bench.grid.Arrivals;
import org.poollab.bench.grid.Grid;
import org.poollab.bench.grid.Grid.Planned;
import org.poollab.bench.lab.ChildProcesses;
import org.poollab.bench.lab.LabFailureException;
import org.poollab.bench.results.Point;
import org.poollab.bench.results.Pool;
import org.poollab.bench.results.SweepResults;
import org.poollab.bench.telemetry.LoadWindow;
import org.poollab.bench.telemetry.PoolWindow;
import org.poollab.bench.telemetry.ServerLatencyWindow;
import org.poollab.bench.telemetry.Telemetry;

/**
 * Several points on one running deployment under one JMeter run: a schedule of
 * constant-rate phases, one per point, each a settling stretch and then the measured
 * window. The lab resizes the pools at each phase's start, while the load runs, and cuts
 * every window out of the run's samples by timestamp. One warm generator for many points
 * instead of a fresh JVM per point: a fresh JMeter sends late for its first seconds at
 * 2000 rps (measured here), which then fell into every point. Kept whole: the schedule,
 * the resizes during the run and the windows cut from its samples are one run's timeline.
 *
 * @param grid what every point shares (warm-up, window, arrivals)
 * @param jmeter the generator
 * @param out the console
 */
public record LoadRun(Grid grid, JMeter jmeter, PrintStream out) {

	/**
	 * Load between two windows of one run: after a step in rate, the service's queues and
	 * JMeter's thread count find their new level within a second (measured from the JTLs'
	 * start lag); a resize adds its own settling.
	 */
	public static final Duration SETTLE = Duration.ofSeconds(1);

	/**
	 * How long before a window's start the lab scrapes every instance: a scrape takes a
	 * few milliseconds, and must have read the counters before the window begins.
	 */
	static final Duration EDGE_SCRAPE_LEAD = Duration.ofMillis(50);

	/** Extra settling after the pools were resized: a shrink evicts connections. */
	static final Duration RESIZE_SETTLE = Duration.ofSeconds(1);

	/**
	 * A deployment's points as JMeter runs: one per repeat and rate (repeats outermost,
	 * so drift hits every pool size alike; rates lowest first), each through every pool
	 * size largest first, so a drowning small pool comes last. A run never changes its
	 * rate: a generator that falls behind at one rate catches up in bursts in the phases
	 * after it (measured: a 2000 rps phase JMeter could not hold sent 1,004 rps into the
	 * next pool's 500 rps window), so a rate it cannot hold must not share a run with one
	 * it can.
	 */
	public static List<List<Planned>> rounds(List<Planned> points) {
		Comparator<Planned> order = Comparator.comparingInt(Planned::repeat)
			.thenComparingInt(Planned::rateRps)
			.thenComparing(Comparator.comparingInt(Planned::poolSize).reversed());
		Map<List<Integer>, List<Planned>> runs = points.stream()
			.sorted(order)
			.collect(Collectors.groupingBy((point) -> List.of(point.repeat(), point.rateRps()), LinkedHashMap::new,
					Collectors.toList()));
		return List.copyOf(runs.values());
	}

	/**
	 * One point's stretch of the schedule.
	 *
	 * @param point the point
	 * @param settle load before the window, not measured
	 * @param start the phase's start from the schedule's origin
	 */
	public record Segment(Planned point, Duration settle, Duration window, Duration start) {

		public Duration windowStart() {
			return this.start.plus(this.settle);
		}

		public Duration end() {
			return windowStart().plus(this.window);
		}

	}

	/**
	 * What a run measured.
	 *
	 * @param measured the points measured, in the order they ran
	 * @param leftover points not reached because an instance died before their phase
	 */
	public record Result(List<Point> measured, List<Planned> leftover) {
	}

	/** Lays the points out one after the other, the first after the run's warm-up. */
	public List<Segment> segments(List<Planned> points, int currentPoolSize) {
		return segments(this.grid, points, currentPoolSize);
	}

	/** The same layout, without a generator: for planning (Progress). */
	public static List<Segment> segments(Grid grid, List<Planned> points, int currentPoolSize) {
		List<Segment> segments = new ArrayList<>();
		Duration start = Duration.ZERO;
		int pool = currentPoolSize;
		for (Planned point : points) {
			Duration settle = segments.isEmpty() ? grid.warmup() : SETTLE;
			if (point.poolSize() != pool) {
				settle = settle.plus(RESIZE_SETTLE);
				pool = point.poolSize();
			}
			// The Open Model Thread Group counts whole seconds.
			settle = Duration.ofSeconds(Math.max(1, JMeter.Schedule.seconds(settle)));
			Duration window = Duration.ofSeconds(JMeter.Schedule.seconds(grid.duration()));
			Segment segment = new Segment(point, settle, window, start);
			segments.add(segment);
			start = segment.end();
		}
		return segments;
	}

	/**
	 * Runs the points on the deployment: resizes the pools on the schedule, stops early
	 * when an instance dies (the point running then is a death; later ones are left
	 * over).
	 */
	public Result measure(List<Planned> points, Deployment deployment, Path directory, String runId,
			ChildProcesses processes) throws IOException, InterruptedException {
		List<Segment> segments = segments(points, deployment.poolSize());
		if (points.get(0).poolSize() != deployment.poolSize()) {
			// An instance dead already (e.g. killed by its warm-up) is found below, at
			// the first segment, and that point is its death.
			resizeUnlessDead(deployment, points.get(0).poolSize());
		}
		JMeter.Schedule schedule = new JMeter.Schedule(Duration.ZERO, segments.stream()
			.map((segment) -> new JMeter.Phase(segment.point().rateRps(), segment.settle().plus(segment.window())))
			.toList(), this.grid.arrivals());
		Path jtl = directory.resolve(runId + ".jtl");
		JMeterRun run = this.jmeter.start(deployment.targets(), schedule, false, jtl, directory.resolve(runId + ".log"),
				processes);
		int diedIn = -1; // the segment during which an instance was seen dead
		List<Telemetry.Scrape> scrapes;
		List<Telemetry.CpuSample> cpu;
		List<Telemetry.CpuSample> databaseCpu;
		List<PgBouncer.Sample> pgbouncerSamples;
		long originMs;
		try (Telemetry telemetry = new Telemetry(deployment.instances(), deployment.pgbouncer(), run.handle(),
				deployment::databaseCpuNanos)) {
			originMs = run.origin();
			for (int i = 0; i < segments.size(); i++) {
				Segment segment = segments.get(i);
				if (!sleepUntil(originMs + segment.start().toMillis(), deployment)) {
					diedIn = Math.max(0, i - 1);
					break;
				}
				if (i > 0) {
					telemetry.scrapeNow(); // the previous window's end
				}
				if (segment.point().poolSize() != deployment.poolSize()
						&& !resizeUnlessDead(deployment, segment.point().poolSize())) {
					diedIn = i;
					break;
				}
				if (sleepUntil(originMs + segment.windowStart().toMillis() - EDGE_SCRAPE_LEAD.toMillis(), deployment)) {
					telemetry.scrapeNow(); // this window's start
				}
			}
			if (diedIn < 0 && !sleepUntil(originMs + segments.get(segments.size() - 1).end().toMillis(), deployment)) {
				diedIn = segments.size() - 1;
			}
			telemetry.scrapeNow(); // the last window's end
			if (diedIn >= 0) {
				run.stop();
			}
			else {
				run.await(telemetry::idle);
			}
			scrapes = telemetry.scrapes();
			cpu = telemetry.cpu();
			databaseCpu = telemetry.databaseCpu();
			pgbouncerSamples = telemetry.pgbouncer();
		}
		Telemetry.write(scrapes, directory.resolve(runId + "-pool.csv"));
		// Stopped at once for an instance that died before the first request, JMeter may
		// not even have opened its results file.
		List<LoadWindow.Sample> samples = (diedIn >= 0 && !Files.exists(jtl)) ? List.of() : LoadWindow.readSamples(jtl);
		if (samples.isEmpty() && diedIn < 0) {
			throw new LabFailureException("JMeter recorded no samples in " + jtl);
		}
		int last = (diedIn >= 0) ? diedIn : segments.size() - 1;
		List<Point> measured = new ArrayList<>();
		for (int i = 0; i <= last; i++) {
			measured.add(point(segments.get(i), originMs, samples, scrapes, cpu, databaseCpu, pgbouncerSamples,
					deployment, i == diedIn));
		}
		// Every window in JMeter's own CSV shape, for the dashboards of the points that
		// decide (Dashboards).
		for (int i = 0; i <= last; i++) {
			Segment segment = segments.get(i);
			Planned planned = segment.point();
			Dashboards.writeSlice(samples, originMs + segment.windowStart().toMillis(),
					originMs + segment.end().toMillis(), this.grid.workload().label(),
					directory.resolve(Dashboards.WINDOWS)
						.resolve(runId)
						.resolve(Dashboards.sliceName(planned.topology().label(),
								SweepResults.poolLabel(planned.poolSize()), planned.rateRps(), planned.repeat())));
		}
		List<Planned> leftover = new ArrayList<>();
		for (int i = last + 1; i < segments.size(); i++) {
			leftover.add(segments.get(i).point());
		}
		return new Result(measured, leftover);
	}

	/**
	 * Resizes the pools; an instance that refuses the resize because it has died (its
	 * process exits moments after its sockets close) is a death, not a lab failure.
	 * @return false when an instance died
	 */
	private static boolean resizeUnlessDead(Deployment deployment, int poolSize)
			throws IOException, InterruptedException {
		return resizeUnlessDead(() -> deployment.resize(poolSize), () -> !deployment.deadInstances().isEmpty(),
				DEATH_GRACE);
	}

	/** A resize that can fail on the wire. */
	@FunctionalInterface
	interface Resize {

		void run() throws IOException, InterruptedException;

	}

	/**
	 * The rule of {@link #resizeUnlessDead(Deployment, int)}: a failed resize is a death
	 * when an instance is seen dead within {@code grace}, else the failure it was.
	 */
	static boolean resizeUnlessDead(Resize resize, BooleanSupplier anyDead, Duration grace)
			throws IOException, InterruptedException {
		try {
			resize.run();
			return true;
		}
		catch (IOException ex) {
			long deadlineMs = System.currentTimeMillis() + grace.toMillis();
			while (!anyDead.getAsBoolean() && System.currentTimeMillis() < deadlineMs) {
				Thread.sleep(50);
			}
			if (!anyDead.getAsBoolean()) {
				throw ex;
			}
			return false;
		}
	}

	/** How long a process whose sockets closed may take to be seen exited. */
	private static final Duration DEATH_GRACE = Duration.ofSeconds(2);

	/**
	 * Sleeps until the time, watching for dead instances.
	 * @return false when an instance died first
	 */
	private static boolean sleepUntil(long epochMs, Deployment deployment) throws InterruptedException {
		while (System.currentTimeMillis() < epochMs) {
			if (!deployment.deadInstances().isEmpty()) {
				return false;
			}
			Thread.sleep(Math.min(100, Math.max(1, epochMs - System.currentTimeMillis())));
		}
		return deployment.deadInstances().isEmpty();
	}

	private Point point(Segment segment, long originMs, List<LoadWindow.Sample> samples, List<Telemetry.Scrape> scrapes,
			List<Telemetry.CpuSample> cpu, List<Telemetry.CpuSample> databaseCpu,
			List<PgBouncer.Sample> pgbouncerSamples, Deployment deployment, boolean died) {
		Planned planned = segment.point();
		long phaseStartMs = originMs + segment.start().toMillis();
		long startMs = originMs + segment.windowStart().toMillis();
		long endMs = originMs + segment.end().toMillis();
		boolean even = this.grid.arrivals() == Arrivals.EVEN;
		boolean evenSchedule = even && !this.jmeter.distributed();
		LoadWindow window = LoadWindow.of(samples, startMs, endMs, evenSchedule ? planned.rateRps() : 0, phaseStartMs);
		// Remote engines each run the plan at their share of the rate: their requests are
		// told apart and each is judged against its own schedule.
		LoadWindow.Engines engines = this.jmeter.distributed()
				? LoadWindow.engines(samples, this.jmeter.engines(), startMs, endMs,
						even ? planned.rateRps() / this.jmeter.engines().size() : 0, phaseStartMs)
				: new LoadWindow.Engines(List.of(), window.startLagP99Ms());
		Pool pool = PoolWindow.summarize(scrapes, deployment.instances().size(), startMs, endMs);
		Point measured = Point.builder()
			.topology(planned.topology().label())
			.instances(planned.instances())
			.loadBalancer(deployment.loadBalancer())
			.poolSize(planned.poolSize())
			.rateRps(planned.rateRps())
			.arrivals(this.grid.arrivals().label())
			.repeat(planned.repeat())
			.warmupSeconds(seconds(segment.settle()))
			.durationSeconds(seconds(segment.window()))
			.requests(window.requests())
			.latency(window.latency())
			.pool(pool)
			.loadGeneratorCpuCores(PoolWindow.cpuCores(cpu, startMs, endMs))
			.databaseCpuCores(databaseCpu.isEmpty() ? null : PoolWindow.cpuCores(databaseCpu, startMs, endMs))
			.limits(this.grid.limits(planned.vendor(), planned.stack(), planned.threads()))
			.pgbouncer((deployment.pgbouncer() != null)
					? PgBouncer.summarize(pgbouncerSamples, this.grid.pgbouncerClientPoolSize(), startMs, endMs) : null)
			.startLagP99Ms(engines.startLagP99Ms())
			.engines(engines.loads())
			.refusals(PoolWindow.refusals(scrapes, deployment.instances().size(), startMs, endMs))
			.serverLatency(ServerLatencyWindow.summarize(scrapes,
					deployment.instances().stream().map(Instance::port).toList(), startMs, endMs))
			.seconds(LoadWindow.seconds(samples, startMs, endMs, scrapes))
			.build();
		if (window.samples() == 0 && !died) {
			return measured.withOutcome("no request started in the measured window (see the run's JTL)");
		}
		return measured.withOutcome(outcome(measured, deployment, died));
	}

	/**
	 * Outcome prefix of a point whose instance was ended from outside
	 * ({@link Instance#killedFromOutside()}): not a result of the load, so the point is
	 * measured again on fresh instances, and left out of every verdict if that fails too.
	 */
	public static final String KILLED_FROM_OUTSIDE = "killed from outside";

	static String outcome(Point point, Deployment deployment, boolean died) {
		List<Instance> dead = deployment.deadInstances();
		if (died && !dead.isEmpty() && dead.stream().allMatch(Instance::killedFromOutside)) {
			return "%s: instance(s) on port(s) %s ended by a signal (%s) with no cause in their log; not a result of the load"
				.formatted(KILLED_FROM_OUTSIDE, dead.stream().map(Instance::port).toList(),
						String.join("; ", dead.stream().map(Instance::deathCause).toList()));
		}
		if (died && !dead.isEmpty()) {
			return "instance(s) on port(s) %s died during the point (%s)".formatted(
					dead.stream().map(Instance::port).toList(),
					String.join("; ", dead.stream().map(Instance::deathCause).toList()));
		}
		if (deployment.pgbouncer() != null && !deployment.pgbouncer().isAlive()) {
			return "pgbouncer died during the point";
		}
		if (!point.verified()) {
			if (point.pgbouncer() != null) {
				return "pool not verified: pgbouncer reported pool_size %d and the instances maximum-pool-size %s, expected %d and %d"
					.formatted(point.pgbouncer().observedPoolSize(), point.pool().observedMax(), point.poolSize(),
							point.pgbouncer().clientPoolSize());
			}
			return "pool not verified: %d instance(s) reported maximum-pool-size %s, expected %s from each of %d (0: no HikariCP pool, -1: changed during the window)"
				.formatted(point.pool().observedMax().size(), point.pool().observedMax(), point.poolSize(),
						point.instances());
		}
		return GeneratorCheck.verdict(point).orElse("ok");
	}

	private static double seconds(Duration duration) {
		return duration.toMillis() / 1000.0;
	}

}
