package org.poollab.bench.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import org.poollab.bench.deciding.Recommendation.CrossChecks;
import org.poollab.bench.deciding.Recommendation;
import org.poollab.bench.deciding.Recommender;
import org.poollab.bench.report.Table.Entry;
import org.poollab.bench.report.Table.Row;

/**
 * The cross-checks table: Little's law and HikariCP's formulas next to the measured
 * answer, each with how it is derived. Apart from {@link Tables}, whose tables are the
 * grid's figures: this one reads only the recommendation's {@link CrossChecks}.
 */
final class CrossChecksTable {

	private CrossChecksTable() {
	}

	/** Little's law and HikariCP's formulas next to the measured answer. */
	static Table of(Recommendation recommendation, boolean behindPgBouncer) {
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
		rows.add(startingFormula(checks));
		rows.add(deadlockFloor(checks));
		rows.add(fleetBudget(checks, behindPgBouncer));
		return new Table("Cross-checks", List.of("check", "value", "how it is derived"), rows, 0, 0);
	}

	/**
	 * HikariCP's starting formula, or why it cannot be given: the database host's cores
	 * are unknown.
	 */
	private static Row startingFormula(CrossChecks checks) {
		if (checks.hikariStartingPoolSize().isPresent()) {
			int formula = checks.hikariStartingPoolSize().getAsInt();
			return row("HikariCP starting formula",
					(checks.instances() == 1) ? formula + " for the whole database"
							: String.format(Locale.ROOT, "%d for the whole database (%.1f per instance)", formula,
									(double) formula / checks.instances()),
					"core_count × 2 + effective_spindle_count = " + checks.cpuCores() + " × 2 + 0: connections the "
							+ "database serves well at once, shared by every instance; the database "
							+ "shares this host, and spindles count 0 because its data sits on SSD / in memory. "
							+ "A starting point to test, not an answer.");
		}
		else {
			return row("HikariCP starting formula", "unknown",
					"core_count × 2 + effective_spindle_count counts the database host's cores; the database ran "
							+ "on " + checks.databaseHost() + ", whose cores the lab cannot see (this machine's "
							+ checks.cpuCores() + " say nothing about it).");
		}
	}

	/** The smallest pool that cannot deadlock on itself. */
	private static Row deadlockFloor(CrossChecks checks) {
		int cm = checks.connectionsPerRequest();
		String cmSet = "Cm = " + cm + " from bench.connectionsPerRequest";
		String measured = (cm > 1) ? " Cm describes the team's app: the lab's service holds one connection at a "
				+ "time, so Cm raises the floor under the pool written, not what was measured." : "";
		if (checks.requestThreads() == CrossChecks.NO_THREAD_CAP) {
			return row("Deadlock floor", checks.deadlockFloor() + " (Tn unbounded, " + cmSet + ")",
					"With virtual threads, or on the reactive twin's event loop, nothing caps an instance's concurrent "
							+ "requests (Tn), so no pool size keeps "
							+ "requests that hold more than one connection at once (Cm > 1) from deadlocking on the "
							+ "pool; with Cm = 1 any pool of at least 1 cannot deadlock on itself." + measured);
		}
		else {
			return row("Deadlock floor",
					checks.deadlockFloor() + " (Tn = " + checks.requestThreads() + ", " + cmSet + ")",
					"Tn × (Cm − 1) + 1 = " + checks.requestThreads() + " × (" + cm
							+ " − 1) + 1, with Tn the request threads of an instance (Tomcat's "
							+ ((checks.requestThreads() == Recommender.DEFAULT_REQUEST_THREADS) ? "default" : "setting")
							+ ") and Cm the connections one request holds at once: a smaller pool can deadlock when "
							+ "every thread holds Cm − 1 connections and waits for one more (with Cm = 1 any pool of "
							+ "at least 1 cannot)." + measured);
		}
	}

	/**
	 * What the database's max_connections leaves each instance's pool, or pgbouncer's.
	 */
	private static Row fleetBudget(CrossChecks checks, boolean behindPgBouncer) {
		if (!checks.budgetKnown()) {
			return row("Fleet budget", "not checked",
					"no bench.database.url: the lab did not read the external deployment's max_connections; "
							+ checks.instances() + " instance(s) × pool must fit it.");
		}
		else if (behindPgBouncer) {
			return row("Fleet budget", "≤ " + checks.fleetBudgetPerInstance() + " for pgbouncer's pool",
					"pgbouncer's one pool ≤ max_connections " + checks.maxConnections() + " − reserved "
							+ checks.reservedConnections() + "; the instances' pools connect to pgbouncer.");
		}
		else {
			return row("Fleet budget", "≤ " + checks.fleetBudgetPerInstance() + " per instance",
					checks.instances() + " instance(s) × pool ≤ max_connections " + checks.maxConnections()
							+ " − reserved " + checks.reservedConnections() + ".");
		}
	}

	private static Row row(String check, String value, String derivation) {
		return new Row(List.of(Entry.of(check), Entry.of(value), Entry.of(derivation)), false);
	}

}
