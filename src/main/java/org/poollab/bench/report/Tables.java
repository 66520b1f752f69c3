package org.poollab.bench.report;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.ToDoubleFunction;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.jspecify.annotations.Nullable;

import org.poollab.bench.deciding.Cell;
import org.poollab.bench.deciding.CellText;
import org.poollab.bench.deciding.Fate;
import org.poollab.bench.deciding.Recommendation;
import org.poollab.bench.deciding.TopologyGrid;
import org.poollab.bench.report.Table.Entry;
import org.poollab.bench.report.Table.Row;
import org.poollab.bench.results.Interval;
import org.poollab.bench.results.LateStarts;
import org.poollab.bench.results.Point;
import org.poollab.bench.results.SweepResults;
import org.poollab.bench.text.Durations;

/**
 * The tables both reports show, built from a topology's grid; the cross-checks table,
 * which reads no grid, is {@link CrossChecksTable}.
 */
final class Tables {

	/** Said under every table with peak pending or peak active. */
	static final String PEAKS_NOTE = "peak pending / peak active: the highest value in samples of "
			+ "/actuator/prometheus taken every " + SweepResults.SCRAPE_INTERVAL.toMillis()
			+ " ms on each instance; a burst between two samples is not seen, "
			+ "so 0 pending means none was seen waiting, not that the pool never ran dry.";

	static final String RATES_NOTE = "sent (rps): the offered load JMeter really sent in the window; "
			+ "throughput (ok/s): successful responses per second. Sent above 105 % of the target means the "
			+ "generator had fallen behind and was catching up.";

	static final String LATE_STARTS_NOTE = "late starts p99: how late JMeter sent the 99th percentile request "
			+ "against its even schedule (the worst repeat); a wait before sending is invisible in latency, so "
			+ "above " + Durations.ms(LateStarts.LIMIT_MS) + " ms the latency is marked as understated. "
			+ "–: not measured (random arrivals, remote engines, results before 2026-11-23).";

	static final String SERVER_P99_NOTE = "server p99: the slowest instance's own p99 of the same successful "
			+ "requests (Spring's http.server.requests timer, MVC's or WebFlux's, read like acquire p99 as the upper bound of its "
			+ "histogram bucket), beside the load generator's p99 in the table above. It leaves out the network, "
			+ "the load balancer, Tomcat's accept queue and any wait before JMeter sent the request: a client p99 "
			+ "far above it, with late starts, measured the load generator. –: not recorded (older results, or "
			+ "an instance missing a scrape on one side of the window).";

	private Tables() {
	}

	/** The paper's shape (Tables I–IV): pool sizes down, rates across. */
	static Table latencyGrid(TopologyGrid grid, Recommendation recommendation, String caption,
			ToDoubleFunction<Cell> latencyMs) {
		return latencyGrid(grid, recommendation, caption, latencyMs, (cell) -> Optional.empty());
	}

	/**
	 * {@link #latencyGrid(TopologyGrid, Recommendation, String, ToDoubleFunction)} with
	 * each figure's 95 % interval beside it: {@code 6 [5–9]}.
	 */
	static Table latencyGrid(TopologyGrid grid, Recommendation recommendation, String caption,
			ToDoubleFunction<Cell> latencyMs, Function<Cell, Optional<Interval>> interval) {
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
				entries.add(cell.map((measured) -> latencyEntry(measured, latencyMs, interval))
					.orElseGet(() -> notMeasured(grid.excludedAt(poolSize, rateRps))));
			}
			rows.add(new Row(entries, isRecommended(recommendation, poolSize)));
		}
		return new Table(caption, header, rows, 1, header.size());
	}

	private static Entry latencyEntry(Cell cell, ToDoubleFunction<Cell> latencyMs,
			Function<Cell, Optional<Interval>> interval) {
		Optional<String> instead = cell.instead();
		if (instead.isPresent()) {
			return new Entry(instead.get(), null, cell.died() ? CellText.shortfall(cell) : null,
					CellText.insteadReason(cell));
		}
		String figure = Durations.ms(latencyMs.applyAsDouble(cell))
				+ interval.apply(cell).map(CellText::interval).orElse("");
		return new Entry(figure, null, cell.sustained() ? null : CellText.shortfall(cell),
				CellText.latencyCaveat(cell).orElse(null));
	}

	/** A gap in the grid: what the lab failed to do there, when it tried. */
	private static Entry notMeasured(List<Point> failed) {
		if (failed.isEmpty()) {
			return Entry.of("–");
		}
		boolean generatorBound = failed.stream().allMatch((point) -> Fate.of(point) == Fate.GENERATOR_BOUND);
		return Entry.of(generatorBound ? "generator-bound" : "–")
			.withFootnote("not measured: " + failed.stream()
				.map((point) -> "repeat " + point.repeat() + ": " + point.outcome())
				.collect(Collectors.joining("; ")));
	}

	/** Everything measured per cell, one row per (pool size, rate). */
	static List<Table> detail(TopologyGrid grid, Recommendation recommendation, Path runDir, AcquireBuckets buckets) {
		boolean pgbouncer = grid.cells().stream().anyMatch((cell) -> cell.pgbouncer() != null);
		boolean dashboards = grid.cells().stream().anyMatch((cell) -> dashboard(cell, runDir).isPresent());
		List<String> header = new ArrayList<>(List.of("pool", "rate (rps)", "p50 (ms)", "p95 (ms)", "p99.9 (ms)",
				"server p99 (ms)", "sent (rps)", "throughput (ok/s)", "errors (%)", "acquire p99 (ms)", "peak pending",
				"peak active", "late starts p99 (ms)", "JMeter CPU (cores)"));
		if (pgbouncer) {
			// After the HikariCP figures (of the instances' client pools): pgbouncer's
			// own.
			header.addAll(List.of("pgbouncer peak busy", "pgbouncer peak waiting", "pgbouncer max wait (ms)"));
		}
		int numericTo = header.size();
		header.addAll(List.of("failures by cause", "pool verified"));
		// Columns that would say the same in every row go into the caption.
		if (grid.hasRepeats()) {
			header.add("repeats");
		}
		if (dashboards) {
			header.add("dashboard");
		}
		// Last, where a long reason has the room it needs.
		header.add("outcome");
		List<Row> rows = new ArrayList<>();
		for (Cell cell : grid.cells()) {
			List<Entry> entries = new ArrayList<>(figures(cell, buckets));
			if (pgbouncer) {
				entries.addAll(pgBouncerFigures(cell.pgbouncer()));
			}
			entries.add(Entry.of(failures(cell)));
			entries.add(verified(cell));
			if (grid.hasRepeats()) {
				entries.add(Entry.of(String.valueOf(cell.repeats().size())));
			}
			if (dashboards) {
				entries.add(dashboard(cell, runDir).orElse(Entry.of("–")));
			}
			entries.add(outcome(cell));
			rows.add(new Row(entries, isRecommended(recommendation, cell.poolSize())));
		}
		String loadBalancer = grid.cells().isEmpty() ? "none" : grid.cells().get(0).loadBalancer();
		String caption = "Per point, load balancer: " + loadBalancer + (grid.hasRepeats()
				? " (medians across repeats; errors, timeouts and refusals summed; late starts: the worst repeat)"
				: "");
		return halves(new Table(caption, header, rows, 0, numericTo), grid, buckets);
	}

	/**
	 * The detail table as two tables, each narrow enough for a laptop's screen, both
	 * keyed by pool and rate: latency and load, then the pool.
	 */
	private static List<Table> halves(Table all, TopologyGrid grid, AcquireBuckets buckets) {
		List<String> load = new ArrayList<>(List.of("pool", "rate (rps)", "p50 (ms)", "p95 (ms)", "p99.9 (ms)",
				"server p99 (ms)", "sent (rps)", "throughput (ok/s)", "errors (%)", "late starts p99 (ms)",
				"JMeter CPU (cores)", "repeats", "outcome"));
		List<String> pool = new ArrayList<>(List.of("pool", "rate (rps)", "acquire p99 (ms)", "peak pending",
				"peak active", "pgbouncer peak busy", "pgbouncer peak waiting", "pgbouncer max wait (ms)",
				"failures by cause", "pool verified", "dashboard"));
		return List.of(
				all.columns(all.caption() + ": latency and load", load,
						List.of(RATES_NOTE, SERVER_P99_NOTE, LATE_STARTS_NOTE)),
				all.columns("Per point, the pool" + (grid.hasRepeats() ? " (medians across repeats)" : ""), pool,
						List.of(buckets.note(), PEAKS_NOTE)));
	}

	/** A cell's figures, from its pool and rate to the load generator's CPU. */
	private static List<Entry> figures(Cell cell, AcquireBuckets buckets) {
		Cell.Latency latency = cell.latency();
		Cell.Requests requests = cell.requests();
		List<Entry> entries = new ArrayList<>();
		entries.add(Entry.of(cell.poolLabel()));
		entries.add(Entry.of(String.valueOf(cell.rateRps())));
		entries.add(Entry.of(Durations.ms(latency.p50Ms()) + latency.p50Interval().map(CellText::interval).orElse("")));
		entries.add(Entry.of(Durations.ms(latency.p95Ms())));
		entries.add(Entry.of(Durations.ms(latency.p999Ms())));
		entries.add(Entry.of((latency.serverP99Ms() >= 0) ? Durations.ms(latency.serverP99Ms()) : "–"));
		Entry sent = Entry.warned(String.format(Locale.ROOT, "%.0f", requests.achievedRps()),
				cell.achievedTheRate() ? null : "below 95 % of the target rate");
		entries.add(sent.withFootnote(CellText.catchUpCaveat(cell).orElse(null)));
		entries.add(Entry.of(String.format(Locale.ROOT, "%.0f", requests.throughputRps())));
		entries.add(Entry.warned(String.format(Locale.ROOT, "%.2f", requests.errorPercent()),
				(requests.errorPercent() > Cell.MAX_ERROR_PERCENT) ? "above 0.1 %" : null));
		entries.add(Entry.of(buckets.format(cell)));
		entries.add(Entry.of(String.valueOf(cell.pool().peakPending())));
		entries.add(Entry.of(String.valueOf(cell.pool().peakActive())));
		entries.add(lateStarts(cell));
		entries.add(Entry.of(String.format(Locale.ROOT, "%.2f", cell.generator().cpuCores())));
		return entries;
	}

	/** pgbouncer's own figures; dashes for a cell measured without it. */
	private static List<Entry> pgBouncerFigures(Cell.@Nullable PgBouncerFigures figures) {
		return List.of(Entry.of((figures != null) ? String.valueOf(figures.peakServerActive()) : "–"),
				Entry.of((figures != null) ? String.valueOf(figures.peakClientsWaiting()) : "–"),
				Entry.of((figures != null) ? Durations.ms(figures.maxWaitMs()) : "–"));
	}

	private static Entry verified(Cell cell) {
		return Entry.warned(cell.verified() ? "yes" : "no",
				cell.verified() ? null
						: (cell.pgbouncer() != null)
								? "pgbouncer's pool_size or the instances' connections.max did not match"
								: "HikariCP's connections.max gauge did not match the pool size");
	}

	private static Entry outcome(Cell cell) {
		if (cell.died()) {
			return Entry.warned("instance " + CellText.deathSummary(cell), CellText.shortfall(cell))
				.withFootnote(CellText.insteadReason(cell));
		}
		if (!cell.verified()) {
			return Entry.warned("pool not verified", CellText.shortfall(cell))
				.withFootnote(CellText.insteadReason(cell));
		}
		return cell.sustained() ? Entry.of("ok")
				: Entry.warned("not sustained: " + CellText.shortfall(cell), CellText.shortfall(cell));
	}

	private static Entry lateStarts(Cell cell) {
		String note = Stream.of(CellText.lateStartCaveat(cell), CellText.engines(cell))
			.flatMap(Optional::stream)
			.collect(Collectors.joining("; "));
		return Entry.of((cell.generator().startLagP99Ms() < 0) ? "–" : Durations.ms(cell.generator().startLagP99Ms()))
			.withFootnote(note.isEmpty() ? null : note);
	}

	/**
	 * E.g.
	 * {@code 503: 4 pool-timeout, 120 too-many-clients; java.net.SocketTimeoutException: 3}.
	 */
	private static String failures(Cell cell) {
		String failures = CellText.failures(cell);
		return failures.isEmpty() ? "–" : failures;
	}

	/** Points left out, with the reason the sweep gave. */
	static Table excluded(TopologyGrid grid) {
		List<Row> rows = new ArrayList<>();
		for (Point point : grid.excluded()) {
			rows.add(new Row(List.of(Entry.of(SweepResults.poolLabel(point.poolSize())),
					Entry.of(String.valueOf(point.rateRps())), Entry.of(String.valueOf(point.repeat())),
					Entry.of(point.outcome())), false));
		}
		return new Table("Points left out (the lab failed to measure them, or the load generator fell behind)",
				List.of("pool", "rate (rps)", "repeat", "outcome"), rows, 0, 3);
	}

	static boolean isRecommended(Recommendation recommendation, int poolSize) {
		return recommendation.poolSize().isPresent() && recommendation.poolSize().getAsInt() == poolSize;
	}

	/** Dashboard name the sweep uses for one repeat of a point. */
	static String dashboardDirectory(Cell cell, int repeat) {
		return "dashboards/" + cell.topology() + "-pool" + cell.poolLabel() + "-rate" + cell.rateRps() + "-rep" + repeat
				+ "/index.html";
	}

	private static Optional<Entry> dashboard(Cell cell, Path runDir) {
		// A table cell carries one link: with repeats, the first repeat that has a
		// dashboard stands for the cell, and says which repeat it is.
		for (int repeat : cell.repeats()) {
			String relative = dashboardDirectory(cell, repeat);
			if (runDir != null && Files.isRegularFile(runDir.resolve(relative))) {
				return Optional.of(new Entry((cell.repeats().size() == 1) ? "dashboard" : "repeat " + repeat, relative,
						null, null));
			}
		}
		return Optional.empty();
	}

}
