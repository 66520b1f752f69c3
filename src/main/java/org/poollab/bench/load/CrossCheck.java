package org.poollab.bench.load;

import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.poollab.bench.grid.Arrivals;
import org.poollab.bench.grid.TimeScale;
import org.poollab.bench.lab.ChildProcesses;
import org.poollab.bench.lab.LabFailureException;
import org.poollab.bench.lab.LabPaths;
import org.poollab.bench.results.CrossCheckResult;
import org.poollab.bench.results.Latency;
import org.poollab.bench.text.Durations;

/**
 * A second opinion on JMeter from outside the lab's load path ({@code bench.crossCheck}):
 * right after a JMeter run, every point it measured is measured again on the same
 * deployment, at the same pool size and rate, by the lab's own open-loop generator
 * ({@code org.poollab.crosscheck.OpenLoopCheck}, a separate JVM: one thread, non-blocking
 * sockets, each request sent at its scheduled time whatever earlier ones did, latency
 * from the intended send time). The two agree when p50 and p99 each
 * {@link CrossCheckResult#agree agree}. On two shared cores JMeter's own CPU is part of
 * what it measures; where they disagree, the point's server-side p99 says whether the
 * service was slower beside JMeter or JMeter added its own delay.
 */
public final class CrossCheck {

	/** The check's JVM: C1 only, so the JIT's own CPU stays out of the figures. */
	private static final List<String> JVM_OPTIONS = List.of("-XX:TieredStopAtLevel=1", "-Xmx256m", "-Xss512k");

	/** How long a request may take before the check counts it as an error. */
	private static final Duration TIMEOUT = Duration.ofSeconds(10);

	private CrossCheck() {
	}

	/** {@link CrossCheckResult#agree}. */
	static boolean agrees(double aMs, double bMs) {
		return CrossCheckResult.agree(aMs, bMs);
	}

	/** Whether the check's p50 and p99 both agree with JMeter's. */
	static boolean agrees(Latency jmeter, double checkP50Ms, double checkP99Ms) {
		return agrees(jmeter.p50Ms(), checkP50Ms) && agrees(jmeter.p99Ms(), checkP99Ms);
	}

	/**
	 * What the check sends: a point's load again.
	 *
	 * @param urls the deployment's entry URLs, taken in turn
	 * @param rateRps the point's rate as the lab sends it (÷ k in slow motion)
	 * @param arrivals even or random
	 * @param warmup sent first, not counted
	 * @param window measured
	 */
	public record Load(List<String> urls, double rateRps, Arrivals arrivals, Duration warmup, Duration window) {

		/**
		 * A point's load again at the lab's rate and window: the team's rate ÷ k, the
		 * window as long as the point's ({@link TimeScale#labWindow}).
		 */
		public static Load of(List<String> urls, int teamRateRps, TimeScale scale, Arrivals arrivals, Duration warmup,
				Duration teamWindow) {
			return new Load(urls, scale.labRateRps(teamRateRps), arrivals, warmup,
					scale.labWindow(teamWindow, teamRateRps));
		}

	}

	/**
	 * Runs the check once and waits for it.
	 * @param paths the build (java, classpath)
	 * @param load what it sends
	 * @param log the check's output
	 * @param processes stops it on Ctrl-C
	 * @param jmeter JMeter's latency of the point, to compare with
	 * @return the check's figures
	 */
	public static CrossCheckResult run(LabPaths paths, Load load, Path log, ChildProcesses processes, Latency jmeter)
			throws IOException, InterruptedException {
		List<String> command = new ArrayList<>();
		command.add(paths.java());
		command.addAll(JVM_OPTIONS);
		command.addAll(List.of("-cp", paths.serviceClasspath(), "org.poollab.crosscheck.OpenLoopCheck",
				"--url=" + String.join(",", load.urls()),
				"--rate=" + BigDecimal.valueOf(load.rateRps()).stripTrailingZeros().toPlainString(),
				"--duration=" + millis(load.window()), "--warmup=" + millis(load.warmup()),
				"--arrivals=" + load.arrivals().name().toLowerCase(Locale.ROOT), "--timeout=" + millis(TIMEOUT)));
		Process process = processes.start("cross-check",
				new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()));
		Duration limit = load.warmup().plus(load.window()).plus(TIMEOUT).plus(Duration.ofSeconds(30));
		try {
			if (!process.waitFor(limit.toMillis(), TimeUnit.MILLISECONDS)) {
				throw new LabFailureException(
						"The cross-check did not end within %s; its output: %s".formatted(Durations.human(limit), log));
			}
		}
		finally {
			processes.stop(process.toHandle());
		}
		String result = Files.readAllLines(log)
			.stream()
			.filter((line) -> line.startsWith("result "))
			.reduce((first, second) -> second)
			.orElseThrow(() -> new LabFailureException("The cross-check ended (exit code %d) without a result; see %s"
				.formatted(process.exitValue(), log)));
		return parse(result, jmeter);
	}

	/** Its {@code result key=value ...} line. */
	static CrossCheckResult parse(String resultLine, Latency jmeter) {
		Map<String, String> values = new HashMap<>();
		for (String pair : resultLine.substring("result ".length()).trim().split("\\s+")) {
			int equals = pair.indexOf('=');
			values.put(pair.substring(0, equals), pair.substring(equals + 1));
		}
		double p50 = number(values, "p50_ms");
		double p99 = number(values, "p99_ms");
		double seconds = number(values, "duration_s");
		return new CrossCheckResult(p50, p99, number(values, "send_lag_p99_ms"), number(values, "sent") / seconds,
				(long) number(values, "errors"), number(values, "cpu_cores"), agrees(jmeter, p50, p99));
	}

	private static double number(Map<String, String> values, String key) {
		String value = values.get(key);
		if (value == null) {
			throw new LabFailureException("The cross-check's result line has no " + key);
		}
		return Double.parseDouble(value);
	}

	private static String millis(Duration duration) {
		return duration.toMillis() + "ms";
	}

}
