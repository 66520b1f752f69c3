package org.poollab.bench.report;

import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;
import java.util.stream.Collectors;

import org.poollab.bench.results.Database;
import org.poollab.bench.results.Host;
import org.poollab.bench.results.Point;
import org.poollab.bench.results.SweepResults;
import org.poollab.bench.results.Timing;
import org.poollab.bench.results.WarmUpRecord;

/** The lines both reports open with: what ran where, and the one-line answer. */
public final class Header {

	/** To the second: a reader compares runs by their start, not by nanoseconds. */
	private static final DateTimeFormatter STARTED = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss 'UTC'")
		.withZone(ZoneOffset.UTC);

	private Header() {
	}

	static String describe(SweepResults results) {
		Host host = results.host();
		List<Point> points = results.points();
		int repeats = points.stream().mapToInt(Point::repeat).max().orElse(1);
		return String.format(Locale.ROOT,
				"Preset `%s`, started %s, %d points (%s).%s Arrivals: %s. Each point: %s of warm-up, then a %s "
						+ "measured window. Workload: %s. Host: %d cores, load from %s. %s.",
				results.preset(), STARTED.format(results.startedAt()), points.size(),
				(repeats > 1) ? repeats + " runs of each" : "one run of each", timing(results.timing()),
				distinct(points, Header::arrivals), distinct(points, (point) -> seconds(point.warmupSeconds())),
				distinct(points, (point) -> seconds(point.durationSeconds())),
				(results.workload() != null) ? results.workload() : "read (GET /roles)", host.cpuCores(),
				host.loadGenerator(), databases(results.databases()));
	}

	/**
	 * Each database the sweep ran on: one, or several one after the other (each vendor's
	 * deployments on its own).
	 */
	private static String databases(List<Database> databases) {
		String each = databases.stream()
			.map((database) -> database.budgetKnown()
					? String.format(Locale.ROOT, "%s %s %s (max_connections %d, %d reserved), %s", database.kind(),
							database.vendor(), database.version(), database.maxConnections(),
							database.reservedConnections(), DatabaseHost.of(database).describe())
					: String.format(Locale.ROOT, "%s, %s: its max_connections was not read", database.vendor(),
							database.kind()))
			.collect(Collectors.joining("; then "));
		return ((databases.size() > 1) ? "Databases, one at a time: " : "Database: ") + each;
	}

	private static String arrivals(Point point) {
		if (point.arrivals() == null) {
			return "not recorded";
		}
		return switch (point.arrivals()) {
			case "even" -> "even (evenly spaced, like the paper's Vegeta)";
			case "random" -> "random (Poisson: expect a higher p99 than with even arrivals)";
			default -> point.arrivals();
		};
	}

	/** Where the run's time went, when it was recorded (results since 2026-11-23). */
	private static String timing(Timing timing) {
		if (timing == null) {
			return "";
		}
		StringBuilder text = new StringBuilder(
				String.format(Locale.ROOT, " The run took %s; %.0f %% of it in measured windows, %.0f %% under load.",
						Durations.human(timing.wallSeconds()), timing.measuredPercent(), timing.loadPercent()));
		for (WarmUpRecord warmUp : timing.warmUps()) {
			text.append(' ').append(warmUp(warmUp));
		}
		return text.toString();
	}

	/**
	 * One warm-up in a sentence, for the report's header and the console alike: how it
	 * ended, after how long, and the slowest instance's own p99 per slice.
	 * @param warmUp the record
	 * @return e.g. "Warm-up of single up to 2000 rps, 35s: settled (slowest instance's
	 * own p99 per 5 s: 880 → 11.6 → 5.4 → 6 ms)."
	 */
	public static String warmUp(WarmUpRecord warmUp) {
		return String.format(Locale.ROOT,
				"Warm-up of %s up to %d rps, %s: %s (slowest instance's own p99 per %d s: %s).", warmUp.deployment(),
				warmUp.rateRps(), Durations.human(warmUp.seconds()), switch (warmUp.end()) {
					case SETTLED -> "settled";
					case OVERLOADED -> "NOT settled, stopped early: the instances were drowning (an instance did not "
							+ "answer, or p99 above %dx the objective twice)".formatted(WarmUpRecord.OVERLOAD_FACTOR);
					case LIMIT -> "NOT settled (bench.topologyWarmup reached)";
				}, warmUp.sliceSeconds(),
				warmUp.serverP99sMs().isEmpty() ? "no full slice"
						: warmUp.serverP99sMs()
							.stream()
							.map((p99) -> (p99 < 0) ? "?" : Recommender.ms(p99))
							.collect(Collectors.joining(" → ")) + " ms");
	}

	private static String seconds(double seconds) {
		return Recommender.ms(seconds) + " s";
	}

	private static String distinct(List<Point> points, Function<Point, String> value) {
		return points.stream().map(value).distinct().collect(Collectors.joining(" / "));
	}

	/**
	 * The report's title, naming the pools it sized: HikariCP's, r2dbc-pool's or both.
	 */
	static String title(List<Section> sections) {
		boolean reactive = sections.stream().anyMatch(RecommendedYaml::reactive);
		boolean jdbc = sections.stream().anyMatch((section) -> !RecommendedYaml.reactive(section));
		return (reactive ? (jdbc ? "HikariCP and r2dbc-pool" : "r2dbc-pool") : "HikariCP") + " pool-sizing report";
	}

	/** The answer in a few words: a pool size, or why there is none. */
	static String headline(Recommendation recommendation) {
		String provisional = recommendation.probability().isPresent()
				? String.format(Locale.ROOT, " (picked in %.0f %% of redrawn decisions)",
						100 * recommendation.probability().getAsDouble())
				: recommendation.provisional() ? " (provisional)" : "";
		return switch (recommendation.verdict()) {
			case CHOSEN -> recommendation.poolSizeKey() + " " + recommendation.poolSize().getAsInt() + provisional;
			case FLAT ->
				"no knee found: " + recommendation.poolSize().getAsInt() + " suggested, not measured" + provisional;
			case SATURATED -> "no conclusion: every pool size saturated";
			case SINGLE_POOL_SIZE -> "no conclusion: one pool size measured";
			case UNVERIFIED -> "no conclusion: pool sizes not verified";
			case NO_DATA -> "no conclusion: no usable points";
		};
	}

}
