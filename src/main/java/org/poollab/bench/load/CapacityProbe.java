package org.poollab.bench.load;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import org.jspecify.annotations.Nullable;

import org.poollab.bench.deploy.Deployment;
import org.poollab.bench.deploy.Instance;
import org.poollab.bench.grid.Arrivals;
import org.poollab.bench.lab.ChildProcesses;
import org.poollab.bench.text.Durations;
import org.poollab.bench.results.Capacity;
import org.poollab.bench.results.EmulatedHold;
import org.poollab.bench.results.LateStarts;
import org.poollab.bench.results.Pool;
import org.poollab.bench.telemetry.LoadWindow;
import org.poollab.bench.telemetry.PoolWindow;
import org.poollab.bench.telemetry.ServerLatencyWindow;
import org.poollab.bench.telemetry.Telemetry;

/**
 * What a warm deployment carries on this machine, at its largest pool and with the asked
 * hold: one short JMeter run through a few total rates, lowest first, each judged on
 * three things, and the highest that passed all three is the capacity.
 * <ul>
 * <li>the instances' measured hold stays within {@link #HOLD_TOLERANCE} of the asked (a
 * starved CPU stretches every sleep and every statement: the multi topology on a slower
 * 2-core box measured 38.7 ms for an asked 15);</li>
 * <li>JMeter stays on its schedule (late starts and rate sent, {@link GeneratorCheck}'s
 * limits): JMeter shares the cores, and near its edge it sends in bursts that queue the
 * pool;</li>
 * <li>the slowest instance's own p99 stays within {@link #SETTLED_FACTOR} or
 * {@link #SETTLED_MS} of the lowest step's: a box that carries the rate adds little to
 * what the lightest load sees.</li>
 * </ul>
 * The rates are {@link #STEP_SHARES} of the grid's highest: a factor of two apart, so the
 * capacity says directly which of the time scales 1, 2, 4 and 8 the box carries (see
 * {@code SlowMotion}). Arrivals are even whatever the grid's, so that JMeter's schedule
 * can be checked request by request. The lowest step also measures the part of a request
 * slow motion does not stretch: its mean latency minus its measured hold.
 */
public final class CapacityProbe {

	/**
	 * The measured hold may differ from the asked by this share (the console's warning
	 * too).
	 */
	public static final double HOLD_TOLERANCE = 0.10;

	/**
	 * The slowest instance's p99 at a step may be this many times the lowest step's...
	 */
	static final double SETTLED_FACTOR = 1.5;

	/**
	 * ...or this many milliseconds above it, whichever is more: the agreement the lab
	 * asks of two independent measurements of one latency, as slow motion is held to k =
	 * 1 ("within 1.5x or 5 ms", src/site/markdown/slow-motion.md).
	 */
	static final double SETTLED_MS = 5;

	/** The steps as shares of the grid's highest total rate, lowest first. */
	static final List<Double> STEP_SHARES = List.of(0.25, 0.5, 1.0, 2.0);

	/**
	 * Load before each step's window: the queues find a new rate's level within a second.
	 */
	static final Duration SETTLE = Duration.ofSeconds(1);

	/** Each step's measured window. */
	static final Duration WINDOW = Duration.ofSeconds(3);

	/**
	 * A rise to the first step: the deployment is warm, but a fresh JMeter sends late for
	 * its first seconds whatever the rate (its own JIT; the first probe here, with a 1 s
	 * rise, judged JMeter 61 ms late at 50 rps).
	 */
	static final Duration RAMP = Duration.ofSeconds(4);

	private final JMeter jmeter;

	private final Path directory;

	private final ChildProcesses processes;

	private final PrintStream out;

	/**
	 * @param jmeter the generator
	 * @param directory where the probe's JTL and log go
	 * @param processes stops JMeter on Ctrl-C
	 * @param out the console
	 */
	public CapacityProbe(JMeter jmeter, Path directory, ChildProcesses processes, PrintStream out) {
		this.jmeter = jmeter;
		this.directory = directory;
		this.processes = processes;
		this.out = out;
	}

	/** The probe's total rates for a grid whose highest total rate is given. */
	public static List<Integer> rates(int highestRateRps) {
		List<Integer> rates = new ArrayList<>();
		for (double share : STEP_SHARES) {
			int rate = Math.max(1, (int) Math.round(share * highestRateRps));
			if (!rates.contains(rate)) {
				rates.add(rate);
			}
		}
		return rates;
	}

	/** How long the probe's schedule runs, JMeter's start not counted. */
	public static Duration length(int highestRateRps) {
		return RAMP.plus(SETTLE.plus(WINDOW).multipliedBy(rates(highestRateRps).size()));
	}

	/**
	 * Runs the probe on a warm deployment at its largest pool.
	 * @param label the deployment's label
	 * @param highestRateRps the grid's highest total rate
	 * @param hold what every instance emulates; {@code null} for no hold
	 * @return the capacity, its time scale not yet chosen (1)
	 */
	public Capacity measure(Deployment deployment, String label, int highestRateRps, @Nullable EmulatedHold hold)
			throws IOException, InterruptedException {
		Capacity measured = probe(deployment, label, label, highestRateRps, hold);
		Capacity.Step lowest = measured.steps().get(0);
		if (!lowest.held()) {
			// One 3 s step decides whether a topology runs at all: a JMeter a
			// millisecond over its late-start limit there is no verdict on the box.
			this.out.printf("  not even %d rps held (%s): one short step is no verdict; measuring once more...%n",
					lowest.rateRps(), lowest.failed());
			measured = probe(deployment, label, label + "-again", highestRateRps, hold);
		}
		this.out.println("  " + measured.describe());
		return measured;
	}

	/**
	 * One run of the probe.
	 * @param files what its JTL and log are named after
	 */
	private Capacity probe(Deployment deployment, String label, String files, int highestRateRps,
			@Nullable EmulatedHold hold) throws IOException, InterruptedException {
		List<Integer> rates = rates(highestRateRps);
		List<JMeter.Phase> phases = rates.stream().map((rate) -> new JMeter.Phase(rate, SETTLE.plus(WINDOW))).toList();
		JMeter.Schedule schedule = new JMeter.Schedule(RAMP, phases, Arrivals.EVEN);
		this.out.printf("  measuring what this deployment carries: %s rps, %s each, at its largest pool...%n", rates,
				Durations.human(SETTLE.plus(WINDOW)));
		Files.createDirectories(this.directory);
		Path jtl = this.directory.resolve(files + "-capacity.jtl");
		JMeterRun run = this.jmeter.start(deployment.targets(), schedule, false, jtl,
				this.directory.resolve(files + "-capacity.log"), this.processes);
		Recorded recorded = follow(run, schedule, deployment);
		List<LoadWindow.Sample> samples = Files.exists(jtl) ? LoadWindow.readSamples(jtl) : List.of();
		List<Capacity.Step> steps = steps(rates, schedule, recorded, samples, deployment.instances(),
				(hold != null) ? hold.askedMeanMs() : null);
		Integer capacity = null;
		for (Capacity.Step step : steps) {
			if (step.held()) {
				capacity = step.rateRps();
			}
		}
		Capacity.Step lowest = steps.get(0);
		double overhead = (lowest.holdMeanMs() != null) ? Math.max(0,
				lowest.clientMeanMs() - lowest.holdMeanMs() * ((hold != null) ? hold.usesPerRequest() : 1)) : 0;
		return new Capacity(label, capacity, steps, overhead, 1, "");
	}

	/** What the telemetry saw while JMeter ran the probe. */
	private record Recorded(long originMs, List<Telemetry.Scrape> scrapes) {
	}

	/** Scrapes every instance at each step's window edges, then ends the run. */
	private static Recorded follow(JMeterRun run, JMeter.Schedule schedule, Deployment deployment)
			throws IOException, InterruptedException {
		try (Telemetry telemetry = new Telemetry(deployment.instances(), deployment.pgbouncer(), run.handle())) {
			long originMs = run.origin();
			for (Duration start : schedule.phaseStarts()) {
				WarmUp.sleepUntil(originMs + start.plus(SETTLE).toMillis() - LoadRun.EDGE_SCRAPE_LEAD.toMillis());
				telemetry.scrapeNow();
			}
			WarmUp.sleepUntil(originMs + schedule.length().toMillis());
			telemetry.scrapeNow();
			run.await(telemetry::idle);
			return new Recorded(originMs, telemetry.scrapes());
		}
		finally {
			if (run.handle().isAlive()) {
				run.stop();
			}
		}
	}

	/** Each step judged, lowest first, up to the first that failed. */
	private static List<Capacity.Step> steps(List<Integer> rates, JMeter.Schedule schedule, Recorded recorded,
			List<LoadWindow.Sample> samples, List<Instance> instances, @Nullable Double askedMeanMs) {
		List<Integer> ports = instances.stream().map(Instance::port).toList();
		List<Capacity.Step> steps = new ArrayList<>();
		List<Duration> starts = schedule.phaseStarts();
		for (int i = 0; i < rates.size(); i++) {
			long phaseStartMs = recorded.originMs() + starts.get(i).toMillis();
			long startMs = phaseStartMs + SETTLE.toMillis();
			long endMs = startMs + WINDOW.toMillis();
			LoadWindow window = LoadWindow.of(samples, startMs, endMs, rates.get(i), phaseStartMs);
			Pool pool = PoolWindow.summarize(recorded.scrapes(), ports.size(), startMs, endMs, List.of());
			double slowest = WarmUp.slowest(ServerLatencyWindow.summarize(recorded.scrapes(), ports, startMs, endMs));
			Observed observed = new Observed(rates.get(i), window.achievedRps(), window.startLagP99Ms(),
					pool.holdMeanMs(), pool.holdDrawnMeanMs(), slowest, window.latency().meanMs());
			// The lightest p99 seen so far: a first step still shaking off JMeter's start
			// reads
			// higher than the next (39 then 28 ms, three instances here), and would let a
			// stretched step pass.
			double baseline = steps.stream()
				.mapToDouble(Capacity.Step::slowestP99Ms)
				.filter((p99) -> p99 >= 0)
				.min()
				.orElse(slowest);
			Capacity.Step step = judge(observed, askedMeanMs, Math.min(baseline, (slowest >= 0) ? slowest : baseline));
			steps.add(step);
			if (!step.held()) {
				break;
			}
		}
		return steps;
	}

	/**
	 * One step's figures.
	 *
	 * @param holdMeanMs the instances' measured hold mean; {@code null} when none
	 * measured
	 * @param drawnMeanMs the mean of the holds the instances drew in the step;
	 * {@code null} when they report none
	 */
	record Observed(int rateRps, double sentRps, double lateP99Ms, @Nullable Double holdMeanMs,
			@Nullable Double drawnMeanMs, double slowestP99Ms, double clientMeanMs) {
	}

	/**
	 * One step's verdict. The measured hold is judged against the mean of the holds drawn
	 * in the step where the instances report it: a step lasts a few seconds, and a hold
	 * whose tail carries its mean is drawn a few per cent long or short over so few uses;
	 * held against its draws, the hold says whether the box kept up. Against the asked
	 * mean where nothing reports the draws.
	 * @param askedHoldMs the asked mean hold; {@code null}: no waiting hold, not checked
	 * @param baselineP99Ms the lowest step's slowest p99 (this one's, for the lowest)
	 */
	static Capacity.Step judge(Observed observed, @Nullable Double askedHoldMs, double baselineP99Ms) {
		int rateRps = observed.rateRps();
		double sentRps = observed.sentRps();
		double lateP99Ms = observed.lateP99Ms();
		Double holdMeanMs = observed.holdMeanMs();
		double slowestP99Ms = observed.slowestP99Ms();
		List<String> failed = new ArrayList<>();
		if (askedHoldMs != null && askedHoldMs > 0) {
			if (holdMeanMs == null) {
				failed.add("no hold measured");
			}
			else {
				Double drawnMeanMs = observed.drawnMeanMs();
				double expectedMs = (drawnMeanMs != null) ? drawnMeanMs : askedHoldMs;
				if (Math.abs(holdMeanMs - expectedMs) > HOLD_TOLERANCE * expectedMs) {
					failed.add(String.format(Locale.ROOT, "hold %.1f ms for %.1f %s (more than %.0f %% off)",
							holdMeanMs, expectedMs, (drawnMeanMs != null) ? "drawn" : "asked", 100 * HOLD_TOLERANCE));
				}
			}
		}
		if (LateStarts.late(lateP99Ms)) {
			failed.add(String.format(Locale.ROOT, "JMeter late (p99 %.0f ms, limit %.0f)", lateP99Ms,
					LateStarts.LIMIT_MS));
		}
		if (Math.abs(sentRps - rateRps) > GeneratorCheck.RATE_TOLERANCE * rateRps) {
			failed.add(String.format(Locale.ROOT, "JMeter sent %.0f rps", sentRps));
		}
		if (slowestP99Ms < 0) {
			failed.add("an instance gave no latency");
		}
		else if (slowestP99Ms > Math.max(SETTLED_FACTOR * baselineP99Ms, baselineP99Ms + SETTLED_MS)) {
			failed.add(String.format(Locale.ROOT, "instance p99 %.1f ms against %.1f at the lowest rate", slowestP99Ms,
					baselineP99Ms));
		}
		return new Capacity.Step(rateRps, sentRps, lateP99Ms, holdMeanMs, slowestP99Ms, observed.clientMeanMs(),
				String.join(", ", failed));
	}

}
