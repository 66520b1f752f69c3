package org.poollab.crosscheck;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What one run does, from {@code --key=value} arguments.
 *
 * @param urls the targets, taken in turn (round robin)
 * @param rateRps requests per second, over all targets
 * @param duration how long the measured part sends
 * @param warmup how long it sends before, without counting
 * @param arrivals evenly spaced or Poisson
 * @param seed the Poisson schedule's seed, so that runs are repeatable
 * @param timeout how long a request may take before it counts as an error
 * @param slice the length of the per-slice p99 lines, or zero for none
 * @param maxConnections the most connections open at once; a request due when all are
 * busy counts as an error
 */
record Settings(List<String> urls, double rateRps, Duration duration, Duration warmup, Arrivals arrivals, long seed,
		Duration timeout, Duration slice, int maxConnections) {

	static final String USAGE = "--url=http://127.0.0.1:18080/roles[,...] --rate=2000 --duration=20s --warmup=5s --arrivals=even|random --seed=42 --timeout=10s --slices=5s --max-connections=512";

	enum Arrivals {

		/** Evenly spaced, like Vegeta and wrk2. */
		EVEN,

		/** Poisson: exponential gaps with the given mean. */
		RANDOM

	}

	Settings {
		require(!urls.isEmpty(), "--url is required");
		require(rateRps > 0 && rateRps <= 100_000, "--rate=%s: must be above 0 and at most 100000 rps", rateRps);
		require(!duration.isNegative() && !duration.isZero(), "--duration=%s: must be above 0", duration);
		require(!warmup.isNegative(), "--warmup=%s: must not be negative", warmup);
		require(!timeout.isNegative() && !timeout.isZero(), "--timeout=%s: must be above 0", timeout);
		require(!slice.isNegative(), "--slices=%s: must not be negative", slice);
		require(maxConnections >= 1 && maxConnections <= 10_000, "--max-connections=%d: must be 1 to 10000",
				maxConnections);
		urls = List.copyOf(urls);
	}

	/**
	 * Parses {@code --key=value} arguments; {@code --url} may be repeated or
	 * comma-separated.
	 * @throws IllegalArgumentException naming the argument and the allowed values
	 */
	static Settings parse(String... args) {
		Map<String, String> values = new LinkedHashMap<>();
		List<String> urls = new ArrayList<>();
		for (String arg : args) {
			int equals = arg.indexOf('=');
			if (!arg.startsWith("--") || equals < 0) {
				throw new IllegalArgumentException("%s: expected --key=value; usage: %s".formatted(arg, USAGE));
			}
			String key = arg.substring(2, equals);
			String value = arg.substring(equals + 1).trim();
			if (key.equals("url")) {
				for (String url : value.split(",")) {
					if (!url.isBlank()) {
						urls.add(url.trim());
					}
				}
			}
			else if (List.of("rate", "duration", "warmup", "arrivals", "seed", "timeout", "slices", "max-connections")
				.contains(key)) {
				values.put(key, value);
			}
			else {
				throw new IllegalArgumentException("--%s: unknown option; usage: %s".formatted(key, USAGE));
			}
		}
		String arrivals = values.getOrDefault("arrivals", "even");
		require(arrivals.equals("even") || arrivals.equals("random"), "--arrivals=%s: must be even or random",
				arrivals);
		return new Settings(urls, number("rate", values.getOrDefault("rate", "2000")),
				duration("duration", values.getOrDefault("duration", "20s")),
				duration("warmup", values.getOrDefault("warmup", "5s")),
				Arrivals.valueOf(arrivals.toUpperCase(Locale.ROOT)),
				(long) number("seed", values.getOrDefault("seed", "42")),
				duration("timeout", values.getOrDefault("timeout", "10s")),
				duration("slices", values.getOrDefault("slices", "0s")),
				(int) number("max-connections", values.getOrDefault("max-connections", "512")));
	}

	/** The targets, each checked to be on loopback. */
	List<Target> targets() {
		return this.urls.stream().map(Target::of).toList();
	}

	Schedule schedule() {
		return (this.arrivals == Arrivals.EVEN) ? Schedule.even(this.rateRps)
				: Schedule.poisson(this.rateRps, this.seed);
	}

	String describe() {
		return "%s rps %s arrivals, warm-up %s, measured %s, timeout %s, at most %d connections".formatted(
				OpenLoopCheck.decimal(this.rateRps), this.arrivals.name().toLowerCase(Locale.ROOT),
				seconds(this.warmup), seconds(this.duration), seconds(this.timeout), this.maxConnections);
	}

	static String seconds(Duration duration) {
		return OpenLoopCheck.decimal(duration.toNanos() / 1e9) + " s";
	}

	private static double number(String key, String value) {
		try {
			return Double.parseDouble(value);
		}
		catch (NumberFormatException ex) {
			throw new IllegalArgumentException("--%s=%s: not a number".formatted(key, value));
		}
	}

	/** {@code 20s}, {@code 500ms}, {@code 2m} or plain seconds. */
	static Duration duration(String key, String value) {
		String text = value.toLowerCase(Locale.ROOT);
		try {
			if (text.endsWith("ms")) {
				return Duration.ofNanos(Math.round(Double.parseDouble(text.substring(0, text.length() - 2)) * 1e6));
			}
			if (text.endsWith("s")) {
				return Duration.ofNanos(Math.round(Double.parseDouble(text.substring(0, text.length() - 1)) * 1e9));
			}
			if (text.endsWith("m")) {
				return Duration.ofNanos(Math.round(Double.parseDouble(text.substring(0, text.length() - 1)) * 60e9));
			}
			return Duration.ofNanos(Math.round(Double.parseDouble(text) * 1e9));
		}
		catch (NumberFormatException ex) {
			throw new IllegalArgumentException("--%s=%s: not a duration (e.g. 20s, 500ms, 2m)".formatted(key, value));
		}
	}

	private static void require(boolean condition, String message, Object... arguments) {
		if (!condition) {
			throw new IllegalArgumentException(message.formatted(arguments));
		}
	}

}
