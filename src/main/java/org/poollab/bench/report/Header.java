package org.poollab.bench.report;

import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;
import java.util.stream.Collectors;

import org.jspecify.annotations.Nullable;

import org.poollab.bench.deciding.DatabaseHost;
import org.poollab.bench.deciding.Recommendation;
import org.poollab.bench.results.Capacity;
import org.poollab.bench.results.DatabaseFacts;
import org.poollab.bench.results.Host;
import org.poollab.bench.results.Point;
import org.poollab.bench.results.SweepResults;
import org.poollab.bench.results.Timing;
import org.poollab.bench.results.WarmUpRecord;
import org.poollab.bench.text.Durations;

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
						+ "measured window. Workload: %s. Host: %d cores, load from %s.%s %s.",
				results.preset(), STARTED.format(results.startedAt()), points.size(),
				(repeats > 1) ? repeats + " runs of each" : "one run of each", timing(results.timing()),
				distinct(points, Header::arrivals), distinct(points, (point) -> seconds(point.warmupSeconds())),
				distinct(points, (point) -> seconds(point.durationSeconds())),
				(results.workload() != null) ? results.workload() : "read (GET /roles)", host.cpuCores(),
				host.loadGenerator(), capacities(host), databases(results.databases()));
	}

	/**
	 * What each topology's deployment carried on this machine and the time scale it ran
	 * at: where it is not 1, every latency in the report is in the team's time, mapped
	 * back from the slow-motion run.
	 */
	private static String capacities(Host host) {
		StringBuilder text = new StringBuilder();
		for (Capacity capacity : host.capacities()) {
			text.append(" The ").append(capacity.describe()).append('.');
		}
		return text.toString();
	}

	/**
	 * Each database the sweep ran on: one, or several one after the other (each vendor's
	 * deployments on its own).
	 */
	private static String databases(List<DatabaseFacts> databases) {
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

	/** Where the run's time went, when it was recorded (older results lack it). */
	private static String timing(@Nullable Timing timing) {
		if (timing == null) {
			return "";
		}
		StringBuilder text = new StringBuilder(
				String.format(Locale.ROOT, " The run took %s; %.0f %% of it in measured windows, %.0f %% under load.",
						Durations.human(timing.wallSeconds()), timing.measuredPercent(), timing.loadPercent()));
		for (WarmUpRecord warmUp : timing.warmUps()) {
			text.append(' ').append(warmUp.sentence());
		}
		return text.toString();
	}

	private static String seconds(double seconds) {
		return Durations.ms(seconds) + " s";
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
	public static String headline(Recommendation recommendation) {
		String provisional = recommendation.probability().isPresent()
				? String.format(Locale.ROOT, " (picked in %.0f %% of redrawn decisions)",
						100 * recommendation.probability().getAsDouble())
				: recommendation.provisional() ? " (provisional)" : "";
		return switch (recommendation.verdict()) {
			case CHOSEN -> recommendation.poolSizeKey() + " " + recommendation.poolSize().getAsInt() + provisional;
			case FLAT ->
				"no knee found: " + recommendation.poolSize().getAsInt() + " suggested, not measured" + provisional;
			case SATURATED -> "no conclusion: every pool size saturated";
			case REFUTED -> "no conclusion: the confirmation runs refuted every pool the rule could choose";
			case SINGLE_POOL_SIZE -> "no conclusion: one pool size measured";
			case UNVERIFIED -> "no conclusion: pool sizes not verified";
			case NO_DATA -> "no conclusion: no usable points";
		};
	}

}
