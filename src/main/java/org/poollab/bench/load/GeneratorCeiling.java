package org.poollab.bench.load;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.OptionalInt;

import org.poollab.bench.deploy.Deployment;
import org.poollab.bench.deploy.Instance;
import org.poollab.bench.grid.Arrivals;
import org.poollab.bench.lab.ChildProcesses;
import org.poollab.bench.results.Point;
import org.poollab.bench.results.Pool;
import org.poollab.bench.telemetry.LoadWindow;
import org.poollab.bench.text.Durations;

/**
 * The load generator's own ceiling on this machine: the highest rate JMeter holds (late
 * starts and rate sent within {@link GeneratorCheck}'s limits) against a request that
 * does no work, on one warm instance, before the grid. A grid rate above it will likely
 * be generator-bound: the lab says so before it spends the time.
 */
public final class GeneratorCeiling {

	/**
	 * Each step: time to settle after the step, then the window. A fresh JMeter's first
	 * seconds are late whatever the rate (its own JIT), so the run first rises over
	 * {@link #RAMP} to the first step.
	 */
	private static final Duration SETTLE = Duration.ofSeconds(2);

	private static final Duration RAMP = Duration.ofSeconds(5);

	private static final Duration WINDOW = Duration.ofSeconds(2);

	/**
	 * A grid whose highest rate is at most a fifth of the first step is not worth the
	 * ceiling's run (about 13 s with JMeter's start): JMeter's ceiling on a 2-core box is
	 * thousands of rps (measurements page), and each point's own check (late starts, rate
	 * sent) still guards every point.
	 */
	private static final int NOT_WORTH_MEASURING_FRACTION = 5;

	private GeneratorCeiling() {
	}

	/**
	 * Whether the grid's highest rate comes near enough to the first step for the ceiling
	 * to say anything.
	 * @param highestGridRateRps the grid's highest rate
	 */
	public static boolean worthMeasuring(int highestGridRateRps) {
		return (long) highestGridRateRps * NOT_WORTH_MEASURING_FRACTION > steps(highestGridRateRps).get(0);
	}

	/**
	 * The console's line when the ceiling is not measured.
	 * @param highestGridRateRps the grid's highest rate
	 */
	public static String notMeasured(int highestGridRateRps) {
		return "  JMeter's ceiling here: not measured: the grid's highest rate (%d rps) is at most 1/%d of its first step (%d rps); each point's own check (late starts, rate sent) still applies."
			.formatted(highestGridRateRps, NOT_WORTH_MEASURING_FRACTION, steps(highestGridRateRps).get(0));
	}

	/**
	 * The console's line about the ceiling: what it is, and which grid rates are above
	 * it.
	 * @param ceilingRps what {@link #measure} found
	 * @param gridRates the grid's rates
	 */
	public static String describe(OptionalInt ceilingRps, List<Integer> gridRates) {
		int highest = gridRates.stream().mapToInt(Integer::intValue).max().orElseThrow();
		List<Integer> above = gridRates.stream()
			.filter((rate) -> ceilingRps.isEmpty() || rate > ceilingRps.getAsInt())
			.toList();
		List<Integer> steps = steps(highest);
		String ceiling;
		if (ceilingRps.isEmpty()) {
			ceiling = "below " + steps.get(0) + " rps, the lowest step tried";
		}
		else if (ceilingRps.getAsInt() == steps.get(steps.size() - 1)) {
			ceiling = "at least " + ceilingRps.getAsInt() + " rps, the highest step tried";
		}
		else {
			ceiling = ceilingRps.getAsInt() + " rps";
		}
		return "  JMeter's ceiling here: %s.%s".formatted(ceiling, above.isEmpty()
				? " Every grid rate is below it; beside a service doing real work on the same cores JMeter may hold less, which each point's own check (late starts, rate sent) shows."
				: " Grid rate(s) " + above
						+ " rps are above it: expect those points to be generator-bound (re-measured once, then left out of every verdict).");
	}

	/**
	 * Steps from 500 rps up to one and a half times the grid's highest rate.
	 * @return the highest step held (the ceiling is at least that; when it is the last
	 * step, higher was not tried), empty when not even the first was
	 */
	public static OptionalInt measure(JMeter jmeter, Instance instance, int highestGridRateRps, Path directory,
			ChildProcesses processes, PrintStream out) throws IOException, InterruptedException {
		List<Integer> rates = steps(highestGridRateRps);
		Path targets = directory.resolve("ceiling-targets.csv");
		Files.writeString(targets, "127.0.0.1," + instance.port() + "\n");
		List<JMeter.Phase> phases = rates.stream().map((rate) -> new JMeter.Phase(rate, SETTLE.plus(WINDOW))).toList();
		JMeter.Schedule schedule = new JMeter.Schedule(RAMP, phases, Arrivals.EVEN);
		out.printf(
				"Measuring the load generator's ceiling on this machine: JMeter at %s rps against GET /ping (no work) on instance %d, %s...%n",
				rates, instance.port(), Durations.human(schedule.length()));
		Path jtl = directory.resolve("generator-ceiling.jtl");
		JMeterRun run = jmeter.start(targets, schedule, true, "/ping", jtl, directory.resolve("generator-ceiling.log"),
				processes);
		long originMs = run.await();
		List<LoadWindow.Sample> samples = LoadWindow.readSamples(jtl);
		List<Duration> starts = schedule.phaseStarts();
		OptionalInt ceiling = OptionalInt.empty();
		List<String> steps = new ArrayList<>();
		for (int i = 0; i < rates.size(); i++) {
			long phaseStartMs = originMs + starts.get(i).toMillis();
			long windowStartMs = phaseStartMs + SETTLE.toMillis();
			LoadWindow window = LoadWindow.of(samples, windowStartMs, windowStartMs + WINDOW.toMillis(), rates.get(i),
					phaseStartMs);
			boolean held = GeneratorCheck.verdict(asPoint(rates.get(i), window)).isEmpty();
			steps.add(String.format(Locale.ROOT, "%d rps: sent %.0f, late p99 %.0f ms%s", rates.get(i),
					window.achievedRps(), window.startLagP99Ms(), held ? "" : " (not held)"));
			if (!held) {
				break;
			}
			ceiling = OptionalInt.of(rates.get(i));
		}
		out.println("  " + String.join("; ", steps));
		return ceiling;
	}

	/**
	 * Steps of 500 rps (wider for high grids, at most eight steps) up to 1.5 x the grid's
	 * highest rate.
	 */
	public static List<Integer> steps(int highestGridRateRps) {
		List<Integer> rates = new ArrayList<>();
		int top = Math.max(500, (int) Math.ceil(1.5 * highestGridRateRps / 500.0) * 500);
		int step = Math.max(500, (int) Math.ceil(top / 8.0 / 500.0) * 500);
		for (int rate = step; rate <= top; rate += step) {
			rates.add(rate);
		}
		return rates;
	}

	/** The window in the shape {@link GeneratorCheck} judges. */
	private static Point asPoint(int rateRps, LoadWindow window) {
		return Point.builder()
			.topology("ceiling")
			.loadBalancer(Deployment.NONE)
			.rateRps(rateRps)
			.arrivals(Arrivals.EVEN.label())
			.warmupSeconds(SETTLE.toSeconds())
			.durationSeconds(WINDOW.toSeconds())
			.requests(window.requests())
			.latency(window.latency())
			.pool(new Pool(List.of(), 0, 0, 0, 0, 0, 0))
			.startLagP99Ms(window.startLagP99Ms())
			.build();
	}

}
