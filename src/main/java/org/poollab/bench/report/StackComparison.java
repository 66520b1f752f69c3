package org.poollab.bench.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

import org.poollab.bench.deciding.Cell;
import org.poollab.bench.report.Table.Entry;
import org.poollab.bench.report.Table.Row;
import org.poollab.bench.results.Stack;
import org.poollab.bench.text.Durations;

import static org.poollab.bench.report.SideBySide.change;
import static org.poollab.bench.report.SideBySide.p99;
import static org.poollab.bench.report.SideBySide.poolText;
import static org.poollab.bench.report.SideBySide.refusals;
import static org.poollab.bench.report.SideBySide.sameCell;
import static org.poollab.bench.report.SideBySide.sustained;

/**
 * The JDBC service vs its reactive twin, side by side: for each topology swept with both
 * stacks, every pool size (no pool too) and rate measured on both, what the same request
 * cost on HikariCP and on r2dbc-pool, and what each stack's recommended pool and wait
 * became.
 *
 * @param jdbc the topology's section on the JDBC service (Tomcat's default threads)
 * @param r2dbc the same topology's section on the reactive twin
 */
record StackComparison(Section jdbc, Section r2dbc) {

	/**
	 * One comparison per topology that ran both stacks, against the JDBC service on
	 * Tomcat's default platform threads (the stack as most teams run it) when the sweep
	 * varied its threads too.
	 */
	static List<StackComparison> of(List<Section> sections) {
		List<StackComparison> comparisons = new ArrayList<>();
		for (Section r2dbc : sections) {
			if (r2dbc.grid().limits().stack() != Stack.R2DBC) {
				continue;
			}
			sections.stream()
				.filter((jdbc) -> jdbc.grid().limits().stack() == Stack.JDBC && !jdbc.grid().limits().virtualThreads()
						&& jdbc.grid().limits().tomcatThreads() == 0
						&& jdbc.grid().limits().vendor() == r2dbc.grid().limits().vendor()
						&& jdbc.grid().topology().equals(r2dbc.grid().topology())
						&& jdbc.grid().limits().cpus() == r2dbc.grid().limits().cpus()
						&& jdbc.grid().limits().heap().equals(r2dbc.grid().limits().heap()))
				.findFirst()
				.ifPresent((jdbc) -> comparisons.add(new StackComparison(jdbc, r2dbc)));
		}
		return comparisons;
	}

	/** The side-by-side table, its notes saying what each stack's block became. */
	Table table() {
		List<Row> rows = new ArrayList<>();
		for (Cell reactive : this.r2dbc.grid().cells()) {
			Optional<Cell> blocking = sameCell(this.jdbc, reactive);
			if (blocking.isEmpty()) {
				continue;
			}
			Cell before = blocking.get();
			rows.add(new Row(List.of(Entry.of(reactive.poolLabel()), Entry.of(String.valueOf(reactive.rateRps())),
					Entry.of(change(throughput(before), throughput(reactive))),
					Entry.of(change(p99(before), p99(reactive))),
					Entry.of(change(refusals(before), refusals(reactive))),
					Entry.of(change(String.valueOf(before.pool().peakPending()),
							String.valueOf(reactive.pool().peakPending()))),
					Entry.of(change(Durations.ms(before.pool().acquireP99Ms()),
							Durations.ms(reactive.pool().acquireP99Ms()))),
					Entry.of(change(sustained(before), sustained(reactive)))), false));
		}
		return new Table(
				"JDBC vs R2DBC: " + this.r2dbc.grid().topology() + " (" + Stack.JDBC.title() + " → "
						+ Stack.R2DBC.title() + ")",
				List.of("Pool", "Rate (rps)", "Throughput (rps)", "p99 (ms)", "503s by reason", "Peak pending",
						"Acquire p99 (ms)", "Sustained"),
				rows, 1, 7, notes());
	}

	private List<String> notes() {
		List<String> notes = new ArrayList<>();
		notes.add("Each cell reads JDBC → R2DBC, at the same pool size (HikariCP's maximum-pool-size, r2dbc-pool's "
				+ "max-size; none: a new connection per request on both) and the same offered rate. Throughput is "
				+ "the successful responses per second. The two services share the schema, the seed data and the "
				+ "statements: GET /roles runs in a read-only transaction on the JDBC service (BEGIN, SELECT, "
				+ "COMMIT) and in auto-commit on the twin (one round trip); the write workload's 100 rows go in one "
				+ "transaction on both, as multi-row INSERTs (pgjdbc rewrites the JDBC service's batch, the twin "
				+ "writes the statement itself). Acquire p99 is HikariCP's own timer on the JDBC side "
				+ "and the twin's timer around r2dbc-pool's acquire on the other (r2dbc-pool has none); peak pending "
				+ "is HikariCP's waiting threads against r2dbc-pool's pending acquires.");
		notes.add(String.format(Locale.ROOT,
				"Recommended: JDBC → maximum-pool-size %s, connection-timeout %d ms; R2DBC → max-size %s, "
						+ "max-acquire-time %d ms (the same rule: 4× the slowest successful request at a sustained "
						+ "point, at least 500 ms, and for HikariCP at least 10 s, since it also sets the driver's "
						+ "login timeout). Each stack's block is in recommended-application.yml.",
				poolText(this.jdbc), RecommendedYaml.connectionTimeoutMs(this.jdbc), poolText(this.r2dbc),
				RecommendedYaml.connectionTimeoutMs(this.r2dbc)));
		return notes;
	}

	private static String throughput(Cell cell) {
		return String.format(Locale.ROOT, "%.0f", cell.requests().throughputRps());
	}

}
