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
import org.poollab.bench.grid.Grid;
import org.poollab.bench.grid.Grid.Planned;
import org.poollab.bench.grid.TimeScale;
import org.poollab.bench.lab.ChildProcesses;
import org.poollab.bench.results.Point;
import org.poollab.bench.telemetry.LoadWindow;
import org.poollab.bench.telemetry.PoolWindow;
import org.poollab.bench.telemetry.Telemetry;

/**
 * Several points on one running deployment under one JMeter run: a schedule of
 * constant-rate phases, one per point, each a settling stretch and then the measured
 * window. The lab resizes the pools at each phase's start, while the load runs, and cuts
 * every window out of the run's samples by timestamp. One warm generator for many points
 * instead of a fresh JVM per point: a fresh JMeter sends late for its first seconds at
 * 2000 rps (measured here), which then fell into every point. The windows are cut out of
 * what the run recorded by {@link RunWindows}.
 *
 * @param grid what every point shares (warm-up, window, arrivals)
 * @param scale slow motion: JMeter sends each point's rate ÷ k, windows grow where they
 * would hold too few requests ({@link TimeScale#labWindow}), and each window's point is
 * mapped back to the team's time ({@link TeamTime}); {@link TimeScale#NONE} for none
 * @param jmeter the generator
 * @param out the console
 */
public record LoadRun(Grid grid, TimeScale scale, JMeter jmeter, PrintStream out) {

	/** Points at the team's own time. */
	public LoadRun(Grid grid, JMeter jmeter, PrintStream out) {
		this(grid, TimeScale.NONE, jmeter, out);
	}

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
		return segments(this.grid, this.scale, points, currentPoolSize);
	}

	/**
	 * The same layout at the team's time, without a generator: for planning (Progress).
	 */
	public static List<Segment> segments(Grid grid, List<Planned> points, int currentPoolSize) {
		return segments(grid, TimeScale.NONE, points, currentPoolSize);
	}

	/**
	 * The same layout in slow motion: each window as long as the lab needs at the point's
	 * rate ({@link TimeScale#labWindow}); the settling stretches are not scaled.
	 */
	public static List<Segment> segments(Grid grid, TimeScale scale, List<Planned> points, int currentPoolSize) {
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
			Duration window = Duration
				.ofSeconds(JMeter.Schedule.seconds(scale.labWindow(grid.duration(), point.rateRps())));
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
		Path jtl = directory.resolve(runId + ".jtl");
		JMeterRun run = this.jmeter.start(deployment.targets(), schedule(segments), false, jtl,
				directory.resolve(runId + ".log"), processes);
		Recording recording = follow(segments, deployment, run);
		Telemetry.write(recording.scrapes(), directory.resolve(runId + "-pool.csv"));
		int diedIn = recording.diedIn();
		// Stopped at once for an instance that died before the first request, JMeter may
		// not even have opened its results file. A JMeter that began its test only after
		// the schedule had passed (5 s from loading the plan to starting happens beside
		// two other test JVMs on a slow 2-core machine) recorded nothing either:
		// each window is then one in which no request started, judged as such
		// (GeneratorCheck: 0 rps sent, generator-bound, measured once more), not a lab
		// failure that ends the sweep. Its log is in the run's load directory.
		// A JMeter that wrote no results file at all is broken, and readSamples says so.
		List<LoadWindow.Sample> samples = (diedIn >= 0 && !Files.exists(jtl)) ? List.of() : LoadWindow.readSamples(jtl);
		int last = (diedIn >= 0) ? diedIn : segments.size() - 1;
		RunWindows windows = new RunWindows(this.grid, this.jmeter, this.scale);
		List<Point> measured = new ArrayList<>();
		for (int i = 0; i <= last; i++) {
			measured.add(windows.point(segments.get(i), recording.resizedAtMs(i), recording, samples, deployment,
					i == diedIn));
		}
		windows.writeSlices(segments.subList(0, last + 1), recording.originMs(), samples,
				directory.resolve(Dashboards.WINDOWS).resolve(runId));
		List<Planned> leftover = new ArrayList<>();
		for (int i = last + 1; i < segments.size(); i++) {
			leftover.add(segments.get(i).point());
		}
		return new Result(measured, leftover);
	}

	/** The run's schedule: one constant-rate phase per segment. */
	private JMeter.Schedule schedule(List<Segment> segments) {
		return new JMeter.Schedule(Duration.ZERO,
				segments.stream()
					.map((segment) -> new JMeter.Phase(this.scale.labRateRps(segment.point().rateRps()),
							segment.settle().plus(segment.window())))
					.toList(),
				this.grid.arrivals())
			.slowed(this.scale.factor());
	}

	/**
	 * What the telemetry recorded while the run followed its schedule.
	 *
	 * @param originMs the schedule's origin, every segment's times are from it
	 * @param diedIn the segment during which an instance was seen dead, -1 when none died
	 * @param resizedAtMs by segment reached, {@link Deployment#resizedAtMs()} after that
	 * segment's resize: what {@link PoolWindow} waits out
	 */
	record Recording(long originMs, int diedIn, List<Telemetry.Scrape> scrapes, List<Telemetry.CpuSample> cpu,
			List<Telemetry.CpuSample> databaseCpu, List<PgBouncer.Sample> pgbouncer, List<List<Long>> resizedAtMs) {

		/**
		 * The instances' last resizes as of a segment (the last one reached for later).
		 */
		List<Long> resizedAtMs(int segment) {
			return this.resizedAtMs.isEmpty() ? List.of()
					: this.resizedAtMs.get(Math.min(segment, this.resizedAtMs.size() - 1));
		}

	}

	/**
	 * Follows the run's schedule with the telemetry on, and ends the run: at once when an
	 * instance died, else once the generator went idle.
	 */
	private static Recording follow(List<Segment> segments, Deployment deployment, JMeterRun run)
			throws IOException, InterruptedException {
		try (Telemetry telemetry = new Telemetry(deployment.instances(), deployment.pgbouncer(), run.handle(),
				deployment::databaseCpuNanos)) {
			long originMs = run.origin();
			List<List<Long>> resizedAtMs = new ArrayList<>();
			int diedIn = followSchedule(segments, originMs, deployment, telemetry, resizedAtMs);
			telemetry.scrapeNow(); // the last window's end
			if (diedIn >= 0) {
				run.stop();
			}
			else {
				run.await(telemetry::idle);
			}
			return new Recording(originMs, diedIn, telemetry.scrapes(), telemetry.cpu(), telemetry.databaseCpu(),
					telemetry.pgbouncer(), List.copyOf(resizedAtMs));
		}
	}

	/**
	 * Scrapes at every window's edges and resizes the pools at each phase's start.
	 * @param resizedAtMs filled with the instances' last resizes as of each segment
	 * reached
	 * @return the segment during which an instance was seen dead, -1 when none died
	 */
	private static int followSchedule(List<Segment> segments, long originMs, Deployment deployment, Telemetry telemetry,
			List<List<Long>> resizedAtMs) throws IOException, InterruptedException {
		for (int i = 0; i < segments.size(); i++) {
			Segment segment = segments.get(i);
			if (!sleepUntil(originMs + segment.start().toMillis(), deployment)) {
				return Math.max(0, i - 1);
			}
			if (i > 0) {
				telemetry.scrapeNow(); // the previous window's end
			}
			if (segment.point().poolSize() != deployment.poolSize()
					&& !resizeUnlessDead(deployment, segment.point().poolSize())) {
				return i;
			}
			resizedAtMs.add(deployment.resizedAtMs());
			if (sleepUntil(originMs + segment.windowStart().toMillis() - EDGE_SCRAPE_LEAD.toMillis(), deployment)) {
				telemetry.scrapeNow(); // this window's start
			}
		}
		if (!sleepUntil(originMs + segments.get(segments.size() - 1).end().toMillis(), deployment)) {
			return segments.size() - 1;
		}
		return -1;
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

	/**
	 * Outcome prefix of a point whose instance was ended from outside
	 * ({@link Instance#killedFromOutside()}): not a result of the load, so the point is
	 * measured again on fresh instances, and left out of every verdict if that fails too.
	 */
	public static final String KILLED_FROM_OUTSIDE = "killed from outside";

}
