package org.poollab.bench.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;

import org.jspecify.annotations.Nullable;

import org.poollab.bench.deciding.Cell;
import org.poollab.bench.report.Table.Entry;
import org.poollab.bench.report.Table.Row;
import org.poollab.bench.results.Point;
import org.poollab.bench.text.Durations;

import static org.poollab.bench.report.SideBySide.change;
import static org.poollab.bench.report.SideBySide.p99;
import static org.poollab.bench.report.SideBySide.poolText;
import static org.poollab.bench.report.SideBySide.refusals;
import static org.poollab.bench.report.SideBySide.sameCell;
import static org.poollab.bench.report.SideBySide.sustained;

/**
 * Platform vs virtual threads, side by side: for each topology swept with both, every
 * pool size and rate measured with both, what changed when Tomcat's thread cap went away
 * (p99, 503s by reason, the pool's queue, the acquire time, pinned virtual threads), and
 * what the recommended pool and {@code connection-timeout} became.
 *
 * @param platform the topology's section on Tomcat's platform threads
 * @param virtual the same topology's section on virtual threads
 */
record ThreadComparison(Section platform, Section virtual) {

	/**
	 * One comparison per topology that ran both thread models (on Tomcat's default thread
	 * count when the sweep varied it too).
	 */
	static List<ThreadComparison> of(List<Section> sections) {
		List<ThreadComparison> comparisons = new ArrayList<>();
		for (Section virtual : sections) {
			if (!virtual.grid().limits().virtualThreads()) {
				continue;
			}
			sections.stream()
				.filter((platform) -> !platform.grid().limits().virtualThreads()
						&& platform.grid().limits().stack() == virtual.grid().limits().stack()
						&& platform.grid().limits().vendor() == virtual.grid().limits().vendor()
						&& platform.grid().topology().equals(virtual.grid().topology())
						&& platform.grid().limits().cpus() == virtual.grid().limits().cpus()
						&& platform.grid().limits().heap().equals(virtual.grid().limits().heap()))
				.min((a, b) -> Boolean.compare(a.grid().limits().tomcatThreads() != 0,
						b.grid().limits().tomcatThreads() != 0))
				.ifPresent((platform) -> comparisons.add(new ThreadComparison(platform, virtual)));
		}
		return comparisons;
	}

	/** The side-by-side table, its notes saying what the recommendation became. */
	Table table() {
		List<Row> rows = new ArrayList<>();
		for (Cell virtualCell : this.virtual.grid().cells()) {
			Optional<Cell> platformCell = sameCell(this.platform, virtualCell);
			if (platformCell.isEmpty()) {
				continue;
			}
			Cell before = platformCell.get();
			rows.add(new Row(
					List.of(Entry.of(virtualCell.poolLabel()), Entry.of(String.valueOf(virtualCell.rateRps())),
							Entry.of(change(p99(before), p99(virtualCell))),
							Entry.of(change(refusals(before), refusals(virtualCell))),
							Entry.of(change(String.valueOf(before.pool().peakPending()),
									String.valueOf(virtualCell.pool().peakPending()))),
							Entry.of(change(Durations.ms(before.pool().acquireP99Ms()),
									Durations.ms(virtualCell.pool().acquireP99Ms()))),
							Entry.of(change(sustained(before), sustained(virtualCell))), Entry.of(pinned(virtualCell))),
					false));
		}
		return new Table(
				"Platform vs virtual threads: " + this.virtual.grid().topology() + " (" + platformName(this.platform)
						+ " → virtual threads)",
				List.of("Pool", "Rate (rps)", "p99 (ms)", "503s by reason", "Peak pending", "Acquire p99 (ms)",
						"Sustained", "Pinned (virtual)"),
				rows, 1, 7, notes());
	}

	private List<String> notes() {
		List<String> notes = new ArrayList<>();
		notes.add("Each cell reads platform → virtual. With virtual threads Tomcat no longer caps the requests an "
				+ "instance serves at once (" + platformName(this.platform) + " did): every request that arrives "
				+ "waits inside HikariCP, so peak pending is the pool's whole queue, and connection-timeout alone "
				+ "decides who gets a 503 (pool-timeout). The 503s are the instances' own counts over the window "
				+ "(to within a scrape): a request that started in the window and was refused connection-timeout "
				+ "later, after it, is counted by the load generator only (the detail tables' errors).");
		notes.add(String.format(Locale.ROOT,
				"Recommended: %s → pool %s, connection-timeout %d ms; virtual threads → pool %s, connection-timeout "
						+ "%d ms. Both timeouts follow the same rule (4× the slowest successful request at a sustained "
						+ "point, at least HikariCP's 10 s floor: it also sets the driver's login timeout). With virtual threads it is the only bound on a request's wait, so "
						+ "do not raise it above what a client waits for an answer: a longer one only lets the queue "
						+ "grow.",
				platformName(this.platform), poolText(this.platform),
				RecommendedYaml.connectionTimeoutMs(this.platform), poolText(this.virtual),
				RecommendedYaml.connectionTimeoutMs(this.virtual)));
		notes.add(pinnedNote());
		return notes;
	}

	/** What JFR saw of pinned virtual threads over the measured windows. */
	private String pinnedNote() {
		List<Point> points = this.virtual.grid().cells().stream().flatMap((cell) -> cell.points().stream()).toList();
		if (points.isEmpty()) {
			return "Pinned virtual threads: not counted, as no point on virtual threads measured the service "
					+ "(see the detail table for why).";
		}
		List<@Nullable Long> counts = pinnedEvents(points);
		long missing = counts.stream().filter(Objects::isNull).count();
		long total = counts.stream().filter(Objects::nonNull).mapToLong(Long::longValue).sum();
		if (missing == points.size()) {
			return "Pinned virtual threads: not recorded (no scrape reached an instance, or the results were "
					+ "written before the lab counted them).";
		}
		return "Pinned virtual threads in the measured windows: " + total + " over " + (points.size() - missing)
				+ " window(s)" + ((missing > 0) ? " (" + missing + " more had no scrape to count them: –)" : "")
				+ " (JFR jdk.VirtualThreadPinned, no threshold; each instance's log shows the stack of the first "
				+ "pin of each kind)."
				+ ((total == 0) ? " Nothing on the request path held a carrier thread while it waited."
						: " A pinned request holds one of the carrier threads (as many as cores) while it waits: "
								+ "the virtual-thread figures above are of the pinning as much as of the pool.");
	}

	private static String platformName(Section section) {
		return section.grid().limits().threads().name();
	}

	private static String pinned(Cell cell) {
		List<@Nullable Long> counts = pinnedEvents(cell.points());
		return counts.stream().anyMatch(Objects::isNull) ? "–"
				: String.valueOf(counts.stream().mapToLong(Long::longValue).sum());
	}

	/** Each point's pinned virtual threads, null where no scrape counted them. */
	private static List<@Nullable Long> pinnedEvents(List<Point> points) {
		return points.stream().map((point) -> point.pool().pinnedEvents()).toList();
	}

}
