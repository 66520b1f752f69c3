package org.poollab.bench.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

import org.poollab.bench.deciding.Cell;
import org.poollab.bench.report.Table.Entry;
import org.poollab.bench.report.Table.Row;
import org.poollab.bench.results.Limits;
import org.poollab.bench.results.Stack;
import org.poollab.bench.text.Durations;
import org.poollab.vendor.DatabaseVendor;

import static org.poollab.bench.report.SideBySide.change;
import static org.poollab.bench.report.SideBySide.p99;
import static org.poollab.bench.report.SideBySide.poolText;
import static org.poollab.bench.report.SideBySide.refusals;
import static org.poollab.bench.report.SideBySide.sameCell;
import static org.poollab.bench.report.SideBySide.sustained;

/**
 * The default database (PostgreSQL) vs another, e.g. MariaDB, side by side: for each
 * deployment swept on both (same topology, stack and request threads), every pool size
 * and rate measured on both, what the same request cost on each, and what each database's
 * recommended pool and wait became. The two servers ran one after the other on the same
 * host, never at once.
 *
 * @param base the deployment's section on the default database
 * @param other the same deployment's section on the other database
 */
record VendorComparison(Section base, Section other) {

	/**
	 * One comparison per deployment that ran on the default database and another, for
	 * each other.
	 */
	static List<VendorComparison> of(List<Section> sections) {
		List<VendorComparison> comparisons = new ArrayList<>();
		for (Section other : sections) {
			Limits limits = other.grid().limits();
			if (limits.vendor().isDefault()) {
				continue;
			}
			sections.stream()
				.filter((base) -> base.grid().topology().equals(other.grid().topology()) && base.grid()
					.limits()
					.equals(new Limits(limits.cpus(), limits.heap(), limits.tomcatThreads(), limits.virtualThreads(),
							limits.stack(), DatabaseVendor.DEFAULT)))
				.findFirst()
				.ifPresent((base) -> comparisons.add(new VendorComparison(base, other)));
		}
		return comparisons;
	}

	/** E.g. {@code PostgreSQL vs MariaDB}. */
	String heading() {
		return product(this.base) + " vs " + product(this.other);
	}

	private static String product(Section section) {
		return section.grid().limits().vendor().product();
	}

	/** The side-by-side table, its notes saying what each database's block became. */
	Table table() {
		List<Row> rows = new ArrayList<>();
		for (Cell after : this.other.grid().cells()) {
			Optional<Cell> same = sameCell(this.base, after);
			if (same.isEmpty()) {
				continue;
			}
			Cell before = same.get();
			rows.add(new Row(List.of(Entry.of(after.poolLabel()), Entry.of(String.valueOf(after.rateRps())),
					Entry.of(change(throughput(before), throughput(after))), Entry.of(change(p99(before), p99(after))),
					Entry.of(change(refusals(before), refusals(after))),
					Entry.of(change(String.valueOf(before.pool().peakPending()),
							String.valueOf(after.pool().peakPending()))),
					Entry.of(change(Durations.ms(before.pool().acquireP99Ms()),
							Durations.ms(after.pool().acquireP99Ms()))),
					Entry.of(change(sustained(before), sustained(after)))), false));
		}
		return new Table(heading() + ": " + this.other.grid().topology() + withoutVendor(this.other.grid().limits()),
				List.of("Pool", "Rate (rps)", "Throughput (rps)", "p99 (ms)", "503s by reason", "Peak pending",
						"Acquire p99 (ms)", "Sustained"),
				rows, 1, 7, notes());
	}

	/** The stack and threads both sections ran, e.g. {@code  (virtual threads)}. */
	private static String withoutVendor(Limits limits) {
		String describe = limits.threads().describe();
		String stack = (limits.stack() != Stack.JDBC) ? limits.stack().name() : "";
		String parts = String.join(", ", List.of(stack, describe).stream().filter((part) -> !part.isEmpty()).toList());
		return parts.isEmpty() ? "" : " (" + parts + ")";
	}

	private List<String> notes() {
		List<String> notes = new ArrayList<>();
		String key = this.base.grid().poolSizeKey();
		String base = product(this.base);
		String other = product(this.other);
		notes.add("Each cell reads " + base + " → " + other + ", at the same pool size (" + key
				+ "; none: a new connection "
				+ "per request) and the same offered rate, on the same service, threads and instances. Throughput is "
				+ "the successful responses per second. Each database is the lab's embedded server (or the one "
				+ "named by URL), started for its own deployments and stopped before the other started, on the same "
				+ "host; the service runs the same statement on both, with each vendor's driver and migrations.");
		notes.add(String.format(Locale.ROOT,
				"Recommended: %s → %s %s, connection-timeout %d ms; %s → %s %s, connection-timeout "
						+ "%d ms (the same rule: 4× the slowest successful request at a sustained point, at least "
						+ "500 ms). Each database's block is in recommended-application.yml.",
				base, key, poolText(this.base), RecommendedYaml.connectionTimeoutMs(this.base), other, key,
				poolText(this.other), RecommendedYaml.connectionTimeoutMs(this.other)));
		return notes;
	}

	private static String throughput(Cell cell) {
		return String.format(Locale.ROOT, "%.0f", cell.requests().throughputRps());
	}

}
