package org.poollab.bench.deciding;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.stream.Collectors;

import org.poollab.bench.results.EngineLoad;
import org.poollab.bench.results.Interval;
import org.poollab.bench.results.LateStarts;
import org.poollab.bench.results.Point;
import org.poollab.bench.text.Durations;
import org.poollab.bench.text.Failures;

/**
 * What a {@link Cell} says in words, for the tables, the answer card and the
 * recommendation: why it shows something other than its figures, how it failed, why its
 * latency is understated. The cell holds the facts; the sentences are made here, where
 * the report is rendered.
 */
public final class CellText {

	private CellText() {
	}

	/**
	 * Why the cell shows {@link #instead()}, in full: each dead repeat's outcome, or what
	 * failed to prove the pool size.
	 */
	public static String insteadReason(Cell cell) {
		String where = "pool " + cell.poolLabel() + " at " + cell.rateRps() + " rps";
		if (cell.died()) {
			boolean allDied = cell.deaths().size() == cell.points().size();
			return where + ": " + cell.deaths()
				.stream()
				.map((point) -> ((cell.points().size() > 1) ? "repeat " + point.repeat() + ": " : "") + point.outcome())
				.collect(Collectors.joining("; "))
					+ (allDied ? ". Its figures in the detail table cover the window up to the death."
							: ". Its figures are those of the repeats that ran to the end.");
		}
		List<String> outcomes = cell.points().stream().filter((point) -> !point.ok()).map(Point::outcome).toList();
		return where + ": "
				+ (outcomes.isEmpty() ? "HikariCP's connections.max gauge did not match the pool size"
						: String.join("; ", outcomes))
				+ "; the figures are in the detail table, but cannot be attributed to this pool size";
	}

	/**
	 * Short form for sentences, e.g. {@code died (OutOfMemoryError: Java heap space)}.
	 */
	public static String deathSummary(Cell cell) {
		List<Point> deaths = cell.deaths();
		String causes = deaths.stream()
			.map((point) -> Fate.causeOfDeath(point.outcome()))
			.distinct()
			.collect(Collectors.joining("; "));
		String repeats = (cell.points().size() > 1)
				? " in " + deaths.size() + " of " + cell.points().size() + " repeats" : "";
		return "died" + repeats + " (" + causes + ")";
	}

	/** E.g. {@code 503: 120 too-many-clients; java.net.SocketTimeoutException: 3}. */
	public static String failures(Cell cell) {
		return Failures.describe(cell.failureCauses(), cell.refusals());
	}

	/**
	 * Why this cell's latency is understated, if it is: late starts, else catching up.
	 */
	public static Optional<String> latencyCaveat(Cell cell) {
		return lateStartCaveat(cell).or(() -> catchUpCaveat(cell));
	}

	/** Late starts long enough to understate the latency; empty when not. */
	public static Optional<String> lateStartCaveat(Cell cell) {
		return LateStarts.late(cell.generator().startLagP99Ms()) ? Optional.of(String.format(Locale.ROOT,
				"the load generator fell behind by up to %s ms (late starts p99): latency understated",
				Durations.ms(cell.generator().startLagP99Ms()))) : Optional.empty();
	}

	/**
	 * What each remote engine sent and how late (JMeter's distributed mode), per repeat,
	 * e.g. {@code 127.0.0.4:1099 sent 30.0 rps, late p99 2 ms}; empty for load from one
	 * local JMeter.
	 */
	public static Optional<String> engines(Cell cell) {
		List<String> repeats = cell.points()
			.stream()
			.filter((point) -> !point.engines().isEmpty())
			.map((point) -> ((cell.points().size() > 1) ? "repeat " + point.repeat() + ": " : "")
					+ EngineLoad.describe(point.engines()))
			.toList();
		return repeats.isEmpty() ? Optional.empty() : Optional.of("per engine: " + String.join("; ", repeats));
	}

	/** More than 105 % of the target sent; empty when not. */
	public static Optional<String> catchUpCaveat(Cell cell) {
		return cell.caughtUp() ? Optional.of(String.format(Locale.ROOT,
				"%.0f rps sent for %d offered: the load generator fell behind and caught up, so requests went out "
						+ "late and their latency is understated",
				cell.requests().achievedRps(), cell.rateRps())) : Optional.empty();
	}

	/** Why the cell did not sustain its rate, for the tables; empty when it did. */
	public static String shortfall(Cell cell) {
		List<String> reasons = new ArrayList<>();
		if (cell.died()) {
			reasons.add("instance " + deathSummary(cell));
		}
		else if (!cell.verified()) {
			reasons.add("pool not verified");
		}
		if (cell.pool().timeouts() > 0) {
			reasons.add(cell.pool().timeouts() + " pool timeouts");
		}
		if (cell.requests().errorPercent() > Cell.MAX_ERROR_PERCENT) {
			String failures = failures(cell);
			reasons.add(String.format(Locale.ROOT, "%.2f %% errors", cell.requests().errorPercent())
					+ (failures.isEmpty() ? "" : " (" + failures + ")"));
		}
		if (!cell.metTheObjective()) {
			reasons.add(String.format(Locale.ROOT, "p99 %.0f ms above the %.0f ms objective", cell.latency().p99Ms(),
					cell.p99ObjectiveMs()));
		}
		if (!cell.achievedTheRate()) {
			reasons.add(String.format(Locale.ROOT, "achieved %.0f of %d rps", cell.requests().achievedRps(),
					cell.rateRps()));
		}
		List<Point> saturated = cell.saturatedBehindGenerator();
		if (!saturated.isEmpty()) {
			reasons.add(((cell.points().size() > 1) ? saturated.size() + " of " + cell.points().size() + " repeats: "
					: "")
					+ "the load generator fell behind while the instances themselves saw saturation (their own p99 up to "
					+ Durations.ms(saturated.stream().mapToDouble(Point::serverP99Ms).max().getAsDouble()) + " ms)");
		}
		return String.join(", ", reasons);
	}

	/** {@code " [5–9]"}: a 95 % interval after its figure. */
	public static String interval(Interval interval) {
		return Durations.interval(interval.lowMs(), interval.highMs());
	}

}
