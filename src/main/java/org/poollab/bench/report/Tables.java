package org.poollab.bench.report;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.ToDoubleFunction;

import org.poollab.bench.SweepResults;
import org.poollab.bench.SweepResults.Point;
import org.poollab.bench.report.Recommendation.CrossChecks;
import org.poollab.bench.report.Table.Entry;
import org.poollab.bench.report.Table.Row;

/** The tables both reports show, built from a topology's grid. */
final class Tables {

	private Tables() {
	}

	/** The paper's shape (Tables I–IV): pool sizes down, rates across. */
	static Table latencyGrid(Grid grid, Recommendation recommendation, String caption,
			ToDoubleFunction<Cell> latencyMs) {
		List<String> header = new ArrayList<>();
		header.add("pool \\ rate");
		for (int rateRps : grid.ratesRps()) {
			header.add(rateRps + " rps");
		}
		List<Row> rows = new ArrayList<>();
		for (int poolSize : grid.poolSizes()) {
			List<Entry> entries = new ArrayList<>();
			entries.add(Entry.of(SweepResults.poolLabel(poolSize)));
			for (int rateRps : grid.ratesRps()) {
				Optional<Cell> cell = grid.cell(poolSize, rateRps);
				entries.add(cell.map((measured) -> new Entry(Recommender.ms(latencyMs.applyAsDouble(measured)), null,
						measured.sustained() ? null : measured.shortfall()))
					.orElse(Entry.of("–")));
			}
			rows.add(new Row(entries, isRecommended(recommendation, poolSize)));
		}
		return new Table(caption, header, rows, 1, header.size());
	}

	/** Everything measured per cell, one row per (pool size, rate). */
	static Table detail(Grid grid, Recommendation recommendation, Path runDir) {
		boolean pgbouncer = grid.cells().stream().anyMatch((cell) -> cell.pgbouncer() != null);
		List<String> header = new ArrayList<>(List.of("pool", "rate (rps)", "p50 (ms)", "p95 (ms)", "p99.9 (ms)",
				"achieved (rps)", "errors (%)", "acquire p99 (ms)", "peak pending", "peak active", "pool verified",
				"load balancer", "repeats", "outcome", "dashboard"));
		if (pgbouncer) {
			// After the HikariCP figures (of the instances' client pools): pgbouncer's
			// own.
			header.addAll(10, List.of("pgbouncer peak busy", "pgbouncer peak waiting", "pgbouncer max wait (ms)"));
		}
		List<Row> rows = new ArrayList<>();
		for (Cell cell : grid.cells()) {
			List<Entry> entries = new ArrayList<>();
			entries.add(Entry.of(cell.poolLabel()));
			entries.add(Entry.of(String.valueOf(cell.rateRps())));
			entries.add(Entry.of(Recommender.ms(cell.p50Ms())));
			entries.add(Entry.of(Recommender.ms(cell.p95Ms())));
			entries.add(Entry.of(Recommender.ms(cell.p999Ms())));
			entries.add(new Entry(String.format(Locale.ROOT, "%.0f", cell.achievedRps()), null,
					cell.achievedTheRate() ? null : "below 95 % of the target rate"));
			entries.add(new Entry(String.format(Locale.ROOT, "%.2f", cell.errorPercent()), null,
					(cell.errorPercent() > Cell.MAX_ERROR_PERCENT) ? "above 0.1 %" : null));
			entries.add(Entry.of(Recommender.ms(cell.acquireP99Ms())));
			entries.add(Entry.of(String.valueOf(cell.peakPending())));
			entries.add(Entry.of(String.valueOf(cell.peakActive())));
			if (pgbouncer) {
				Cell.PgBouncerFigures figures = cell.pgbouncer();
				entries.add(Entry.of((figures != null) ? String.valueOf(figures.peakServerActive()) : "–"));
				entries.add(Entry.of((figures != null) ? String.valueOf(figures.peakClientsWaiting()) : "–"));
				entries.add(Entry.of((figures != null) ? Recommender.ms(figures.maxWaitMs()) : "–"));
			}
			entries.add(new Entry(cell.verified() ? "yes" : "no", null,
					cell.verified() ? null
							: (cell.pgbouncer() != null)
									? "pgbouncer's pool_size or the instances' connections.max did not match"
									: "HikariCP's connections.max gauge did not match the pool size"));
			entries.add(Entry.of(cell.loadBalancer()));
			entries.add(Entry.of(String.valueOf(cell.repeats().size())));
			entries.add(cell.sustained() ? Entry.of("ok")
					: new Entry("ok, not sustained: " + cell.shortfall(), null, cell.shortfall()));
			entries.add(dashboards(cell, runDir));
			rows.add(new Row(entries, isRecommended(recommendation, cell.poolSize())));
		}
		String caption = "Per point"
				+ (grid.hasRepeats() ? " (medians across repeats; errors and timeouts summed)" : "");
		return new Table(caption, header, rows, 0, pgbouncer ? 13 : 10);
	}

	/** Little's law and HikariCP's formulas next to the measured answer. */
	static Table crossChecks(Recommendation recommendation, boolean behindPgBouncer) {
		CrossChecks checks = recommendation.crossChecks();
		List<Row> rows = new ArrayList<>();
		if (!Double.isNaN(checks.littleBusyFleet())) {
			rows.add(row("Little's law: connections busy",
					String.format(Locale.ROOT, "%.2f fleet-wide, %.2f per instance", checks.littleBusyFleet(),
							checks.littleBusyPerInstance()),
					String.format(Locale.ROOT,
							"%.0f rps achieved × %.2f ms mean connection hold (hikaricp.connections.usage) / 1000"
									+ "; divided by %d instance(s). The pool must exceed this, with room for bursts. A lower bound: HikariCP records each hold in whole milliseconds, so sub-millisecond holds count as 0.",
							checks.littleRateRps(), checks.littleUsageMeanMs(), checks.instances())));
		}
		rows.add(row("HikariCP starting formula", String.valueOf(checks.hikariStartingPoolSize()),
				"core_count × 2 + effective_spindle_count = " + checks.cpuCores() + " × 2 + 0; the database shares "
						+ "this host, and spindles count 0 because its data sits on SSD / in memory. A starting "
						+ "point to test, not an answer."));
		rows.add(row("Deadlock floor", String.valueOf(checks.deadlockFloor()),
				"Tn × (Cm − 1) + 1 with Cm = 1 (one connection per request): any pool of at least 1 cannot "
						+ "deadlock on itself."));
		if (behindPgBouncer) {
			rows.add(row("Fleet budget", "≤ " + checks.fleetBudgetPerInstance() + " for pgbouncer's pool",
					"pgbouncer's one pool ≤ max_connections " + checks.maxConnections() + " − reserved "
							+ checks.reservedConnections() + "; the instances' pools connect to pgbouncer."));
		}
		else {
			rows.add(row("Fleet budget", "≤ " + checks.fleetBudgetPerInstance() + " per instance",
					checks.instances() + " instance(s) × pool ≤ max_connections " + checks.maxConnections()
							+ " − reserved " + checks.reservedConnections() + "."));
		}
		return new Table("Cross-checks", List.of("check", "value", "how it is derived"), rows, 0, 0);
	}

	/** Points left out, with the reason the sweep gave. */
	static Table excluded(Grid grid) {
		List<Row> rows = new ArrayList<>();
		for (Point point : grid.excluded()) {
			rows.add(new Row(List.of(Entry.of(SweepResults.poolLabel(point.poolSize())),
					Entry.of(String.valueOf(point.rateRps())), Entry.of(String.valueOf(point.repeat())),
					Entry.of(point.outcome())), false));
		}
		return new Table("Points left out (outcome not ok)", List.of("pool", "rate (rps)", "repeat", "outcome"), rows,
				0, 3);
	}

	static boolean isRecommended(Recommendation recommendation, int poolSize) {
		return recommendation.poolSize().isPresent() && recommendation.poolSize().getAsInt() == poolSize;
	}

	/** Dashboard name the sweep uses for one repeat of a point. */
	static String dashboardDirectory(Cell cell, int repeat) {
		return "dashboards/" + cell.topology() + "-pool" + cell.poolLabel() + "-rate" + cell.rateRps() + "-rep" + repeat
				+ "/index.html";
	}

	private static Entry dashboards(Cell cell, Path runDir) {
		// A table cell carries one link: with repeats, the first repeat that has a
		// dashboard
		// stands for the cell, and says which repeat it is.
		for (int repeat : cell.repeats()) {
			String relative = dashboardDirectory(cell, repeat);
			if (runDir != null && Files.isRegularFile(runDir.resolve(relative))) {
				return new Entry((cell.repeats().size() == 1) ? "dashboard" : "repeat " + repeat, relative, null);
			}
		}
		return Entry.of("–");
	}

	private static Row row(String check, String value, String derivation) {
		return new Row(List.of(Entry.of(check), Entry.of(value), Entry.of(derivation)), false);
	}

}
