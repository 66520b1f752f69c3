package org.poollab.bench.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

import org.poollab.bench.deciding.Cell;
import org.poollab.bench.text.Durations;
import org.poollab.service.system.Refusals;

/**
 * What the comparison views ({@link ThreadComparison}, {@link StackComparison},
 * {@link VendorComparison}) share: one section's cell beside another's at the same pool
 * size and rate, each entry written {@code before → after}.
 */
final class SideBySide {

	private SideBySide() {
	}

	/**
	 * One side-by-side table with the heading and HTML class it is shown under.
	 *
	 * @param heading e.g. {@code JDBC vs R2DBC}
	 * @param cssClass the report's section class, e.g. {@code stacks}
	 * @param table the table
	 */
	record View(String heading, String cssClass, Table table) {
	}

	/**
	 * Every side-by-side view of the sections, in the order the reports show them: thread
	 * models, stacks, database vendors.
	 */
	static List<View> views(List<Section> sections) {
		List<View> views = new ArrayList<>();
		ThreadComparison.of(sections)
			.forEach((comparison) -> views.add(new View("Platform vs virtual threads", "threads", comparison.table())));
		StackComparison.of(sections)
			.forEach((comparison) -> views.add(new View("JDBC vs R2DBC", "stacks", comparison.table())));
		VendorComparison.of(sections)
			.forEach((comparison) -> views.add(new View(comparison.heading(), "vendors", comparison.table())));
		return views;
	}

	/** The other section's cell measured at the same pool size and rate. */
	static Optional<Cell> sameCell(Section other, Cell cell) {
		return other.grid()
			.cells()
			.stream()
			.filter((candidate) -> candidate.poolSize() == cell.poolSize() && candidate.rateRps() == cell.rateRps())
			.findFirst();
	}

	static String change(String before, String after) {
		return before + " → " + after;
	}

	/**
	 * The cell's p99, {@code died} when an instance died in it, {@code –} with no
	 * success.
	 */
	static String p99(Cell cell) {
		if (cell.died()) {
			return "died";
		}
		return (cell.requests().throughputRps() > 0) ? Durations.ms(cell.latency().p99Ms()) : "–";
	}

	/** E.g. {@code none}, or {@code 120 pool-timeout, 3 too-many-clients}. */
	static String refusals(Cell cell) {
		List<String> counted = Refusals.Reason.tags()
			.stream()
			.filter((tag) -> cell.refused(tag) > 0)
			.map((tag) -> cell.refused(tag) + " " + tag)
			.toList();
		return counted.isEmpty() ? "none" : String.join(", ", counted);
	}

	static String sustained(Cell cell) {
		return cell.sustained() ? "yes" : "no";
	}

	/**
	 * The section's recommended pool size, or why there is none and what the block writes
	 * instead.
	 */
	static String poolText(Section section) {
		if (section.recommendation().poolSize().isPresent()) {
			return String.valueOf(section.recommendation().poolSize().getAsInt());
		}
		OptionalLong written = RecommendedYaml.poolSize(section);
		String source = (section.written().littleFloor() > 0)
				? "HikariCP's starting formula raised to carry the busiest point's load"
				: "HikariCP's starting formula";
		return "none measured" + (written.isPresent()
				? " (the block's " + written.getAsLong() + " is " + source + ", not measured)" : "");
	}

}
