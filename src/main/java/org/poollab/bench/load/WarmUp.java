package org.poollab.bench.load;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.poollab.bench.deploy.Deployment;
import org.poollab.bench.deploy.Instance;
import org.poollab.bench.grid.Arrivals;
import org.poollab.bench.grid.TimeScale;
import org.poollab.bench.lab.ChildProcesses;
import org.poollab.bench.results.ServerLatency;
import org.poollab.bench.results.WarmUpRecord;
import org.poollab.bench.telemetry.ServerLatencyWindow;
import org.poollab.bench.telemetry.Telemetry;
import org.poollab.bench.text.Durations;

/**
 * Warms a fresh deployment until its instances' own latency has settled, and shows that
 * it did. A fixed warm-up is either too short or wasted: one instance hit with 2000 rps
 * by a lean open-loop generator on a 2-core machine served p99 880 ms from the intended
 * send in its first 20 s, then 11.6, 5.4, 6.0, 4.9, 4.8 ms (OpenLoopCheck, 20 s slices;
 * src/site/markdown/measurements.md, cross-checking). So the load steps up through the
 * grid's rates to the highest and is held there while every instance is scraped at the
 * end of each {@link #SLICE}; the warm-up ends when the slowest instance's server-side
 * p99 ({@code http.server.requests}, the same figure the points record) of
 * {@link #SETTLED_SLICES} top-rate slices in a row agrees within {@link #TOLERANCE} (or
 * {@link #TOLERANCE_MS}) and the last is within the p99 objective ({@link #settled}),
 * when the instances are drowning ({@link #overloaded}), or at the grid's
 * {@code bench.topologyWarmup}, whichever comes first, and says which.
 */
public final class WarmUp {

	/** How often the instances' latency is looked at. */
	static final Duration SLICE = Duration.ofSeconds(5);

	/** Two slices within this fraction of each other count as settled... */
	static final double TOLERANCE = 0.2;

	/**
	 * ...or within this many milliseconds: {@code http.server.requests} buckets are ~10 %
	 * apart around 1–10 ms, so finer differences are the histogram's, not the service's.
	 */
	static final double TOLERANCE_MS = 1;

	/**
	 * A slice whose p99 is this many times the objective, twice in a row, ends the
	 * warm-up as overloaded: the paper preset's 1-CPU, 128 MB instance died of
	 * {@code OutOfMemoryError} in a 45 s warm-up at 2000 rps from a JMeter that fell
	 * behind and sent in bursts (measured), and such a slice warms nothing.
	 */
	static final int OVERLOAD_FACTOR = WarmUpRecord.OVERLOAD_FACTOR;

	/** How long each of the grid's lower rates is held on the way up. */
	static final Duration LOWER_STEP = Duration.ofSeconds(10);

	/** The longest ramp from nothing to the warm-up's rate. */
	static final Duration RAMP = Duration.ofSeconds(5);

	private final JMeter jmeter;

	private final Path directory;

	private final ChildProcesses processes;

	private final PrintStream out;

	/**
	 * @param jmeter the generator
	 * @param directory where the warm-up's JTL and log go
	 * @param processes stops JMeter on Ctrl-C
	 * @param out the console
	 */
	public WarmUp(JMeter jmeter, Path directory, ChildProcesses processes, PrintStream out) {
		this.jmeter = jmeter;
		this.directory = directory;
		this.processes = processes;
		this.out = out;
	}

	/**
	 * Whether the instances are drowning at the warm-up's rate: an instance that did not
	 * answer its scrape in the last slice, or two slices in a row above
	 * {@link #OVERLOAD_FACTOR} times the objective.
	 */
	static boolean overloaded(List<Double> p99sMs, double objectiveMs) {
		if (p99sMs.isEmpty()) {
			return false;
		}
		double last = p99sMs.get(p99sMs.size() - 1);
		if (last < 0) {
			return true;
		}
		double limit = OVERLOAD_FACTOR * objectiveMs;
		return p99sMs.size() >= 2 && last > limit && p99sMs.get(p99sMs.size() - 2) > limit;
	}

	/** Top-rate slices that must agree before the latency counts as settled. */
	static final int SETTLED_SLICES = 3;

	/**
	 * Whether a series of per-slice p99s (full-rate slices only) has settled: its last
	 * {@link #SETTLED_SLICES} within {@link #TOLERANCE} or {@link #TOLERANCE_MS} of each
	 * other, and the last within the p99 objective. Two slices were not enough: three
	 * instances behind nginx gave 14.0 and 14.0 ms (one histogram bucket) at 1000 rps,
	 * and then 1.7 ms in the windows that followed, so the first window measured a JIT
	 * still at work (measured with the cross-check:
	 * src/site/markdown/measurements-archive.md, the cross-check that disagreed). Without
	 * the objective's bound a saturated instance "settles": two slices at 537 ms fell
	 * into the same bucket (measured at 2000 rps).
	 * @param objectiveMs the sweep's p99 objective
	 */
	static boolean settled(List<Double> p99sMs, double objectiveMs) {
		if (p99sMs.size() < SETTLED_SLICES) {
			return false;
		}
		List<Double> last = p99sMs.subList(p99sMs.size() - SETTLED_SLICES, p99sMs.size());
		double lowest = last.stream().mapToDouble(Double::doubleValue).min().getAsDouble();
		double highest = last.stream().mapToDouble(Double::doubleValue).max().getAsDouble();
		if (lowest < 0 || last.get(last.size() - 1) > objectiveMs) {
			return false;
		}
		return highest - lowest <= Math.max(TOLERANCE_MS, TOLERANCE * highest);
	}

	/**
	 * What a warm-up steps through and how long it may take.
	 *
	 * @param rates the grid's rates, stepped through up to the highest
	 * @param most the longest warm-up ({@code bench.topologyWarmup})
	 * @param objective the sweep's p99 objective: a slower slice is not settled
	 * @param arrivals even or random
	 * @param scale slow motion: the lab sends each rate ÷ k, and the instances' p99s are
	 * judged against the objective in the team's time ({@link TimeScale#NONE} for none)
	 */
	public record Plan(List<Integer> rates, Duration most, Duration objective, Arrivals arrivals, TimeScale scale) {

		/** A warm-up at the team's own time. */
		public Plan(List<Integer> rates, Duration most, Duration objective, Arrivals arrivals) {
			this(rates, most, objective, arrivals, TimeScale.NONE);
		}

	}

	/**
	 * Runs the warm-up, stepping up through the grid's rates: each lower rate for
	 * {@link #LOWER_STEP}, then the highest until the latency settles. One JMeter
	 * schedule; it is stopped once the latency settled or the instances drown. Straight
	 * to 2000 rps, the paper preset's 1-CPU, 128 MB instance died of
	 * {@code OutOfMemoryError} in every warm-up (measured twice); stepping up, its JIT is
	 * warm before the top rate, and a top rate it cannot carry is left within a slice.
	 * @param label the deployment's label, for files and the record
	 * @return what it saw
	 */
	public WarmUpRecord run(Deployment deployment, String label, Plan plan) throws IOException, InterruptedException {
		Steps steps = Steps.of(plan.rates(), plan.most());
		this.out.printf(
				"  warming up: rising to %d rps in %s, then %s, held until every instance's own p99 settles (at most %s; not measured%s)%n",
				steps.rates().get(0), Durations.human(steps.ramp()),
				(steps.rates().size() > 1)
						? "stepping up every %s to %d rps".formatted(Durations.human(steps.lower()), steps.top())
						: "at that rate",
				Durations.human(plan.most()),
				plan.scale().slowed() ? "; rates ÷ " + plan.scale().factor() + " in slow motion" : "");
		Files.createDirectories(this.directory);
		JMeterRun run = this.jmeter.start(deployment.targets(),
				new JMeter.Schedule(steps.ramp(), steps.phases(plan.scale()), plan.arrivals()), true,
				this.directory.resolve(label + "-warmup.jtl"), this.directory.resolve(label + "-warmup.log"),
				this.processes);
		List<Integer> ports = deployment.instances().stream().map(Instance::port).toList();
		Watched watched;
		try (Telemetry telemetry = new Telemetry(deployment.instances(), deployment.pgbouncer(), run.handle())) {
			watched = watch(run, telemetry, ports, steps, plan.objective(), plan.scale());
		}
		finally {
			if (run.handle().isAlive()) {
				run.stop();
			}
		}
		double seconds = Math.min(plan.most().toMillis(), watched.endMs() - watched.originMs()) / 1000.0;
		WarmUpRecord record = new WarmUpRecord(label, steps.top(), seconds, SLICE.toSeconds(), watched.end(),
				List.copyOf(watched.slices()));
		this.out.println("  " + record.sentence());
		return record;
	}

	/**
	 * The warm-up's schedule: a ramp, each lower rate for {@code lower}, the top rate for
	 * the rest of {@code most}.
	 *
	 * @param rates the distinct rates, lowest first
	 */
	private record Steps(List<Integer> rates, Duration ramp, Duration lower, Duration most) {

		static Steps of(List<Integer> gridRates, Duration most) {
			List<Integer> rates = gridRates.stream().distinct().sorted().toList();
			Duration ramp = (most.compareTo(RAMP.multipliedBy(2)) < 0) ? most.dividedBy(2) : RAMP;
			Duration lower = most.minus(ramp).dividedBy(rates.size());
			lower = (lower.compareTo(LOWER_STEP) < 0) ? lower : LOWER_STEP;
			return new Steps(rates, ramp, lower, most);
		}

		int top() {
			return this.rates.get(this.rates.size() - 1);
		}

		Duration topLength() {
			return this.most.minus(this.ramp).minus(this.lower.multipliedBy(this.rates.size() - 1));
		}

		/** The phases at the lab's rates. */
		List<JMeter.Phase> phases(TimeScale scale) {
			List<JMeter.Phase> phases = new ArrayList<>();
			for (int rate : this.rates.subList(0, this.rates.size() - 1)) {
				phases.add(new JMeter.Phase(scale.labRateRps(rate), this.lower));
			}
			phases.add(new JMeter.Phase(scale.labRateRps(top()), topLength()));
			return phases;
		}

	}

	/**
	 * What watching the warm-up saw.
	 *
	 * @param slices the slowest instance's p99 of each slice
	 */
	private record Watched(WarmUpRecord.End end, List<Double> slices, long originMs, long endMs) {
	}

	/**
	 * Scrapes every instance at the end of each slice until the latency settles, the
	 * instances drown or the warm-up's time is up.
	 */
	private static Watched watch(JMeterRun run, Telemetry telemetry, List<Integer> ports, Steps steps,
			Duration objective, TimeScale scale) throws IOException, InterruptedException {
		long originMs = run.origin();
		long topStartMs = originMs + steps.most().minus(steps.topLength()).toMillis();
		long mostEndMs = originMs + steps.most().toMillis();
		long sliceStartMs = originMs + steps.ramp().toMillis();
		List<Double> slices = new ArrayList<>();
		List<Double> atTop = new ArrayList<>();
		WarmUpRecord.End end = WarmUpRecord.End.LIMIT;
		telemetry.scrapeNow();
		while (sliceStartMs + SLICE.toMillis() <= mostEndMs && run.handle().isAlive()) {
			long sliceEndMs = sliceStartMs + SLICE.toMillis();
			sleepUntil(sliceEndMs);
			telemetry.scrapeNow();
			// In the team's time, as the objective is (-1, an instance without figures,
			// stays -1).
			double p99 = scale
				.teamMs(slowest(ServerLatencyWindow.summarize(telemetry.scrapes(), ports, sliceStartMs, sliceEndMs)));
			slices.add(p99);
			if (sliceStartMs >= topStartMs) {
				atTop.add(p99);
			}
			sliceStartMs = sliceEndMs;
			if (settled(atTop, objective.toMillis())) {
				end = WarmUpRecord.End.SETTLED;
				break;
			}
			if (overloaded(slices, objective.toMillis())) {
				end = WarmUpRecord.End.OVERLOADED;
				break;
			}
		}
		if (end == WarmUpRecord.End.LIMIT) {
			sleepUntil(mostEndMs); // the rest, shorter than a slice
		}
		return new Watched(end, slices, originMs, System.currentTimeMillis());
	}

	/** The slowest instance's p99, -1 when an instance gave no figures. */
	static double slowest(List<ServerLatency> latencies) {
		double slowest = -1;
		for (ServerLatency latency : latencies) {
			if (latency.p99Ms() < 0) {
				return -1; // an instance without figures: not settled
			}
			slowest = Math.max(slowest, latency.p99Ms());
		}
		return slowest;
	}

	static void sleepUntil(long epochMs) throws InterruptedException {
		long waitMs = epochMs - System.currentTimeMillis();
		if (waitMs > 0) {
			Thread.sleep(waitMs);
		}
	}

}
