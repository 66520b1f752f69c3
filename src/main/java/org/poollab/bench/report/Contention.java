package org.poollab.bench.report;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalInt;

import org.poollab.bench.deciding.Cell;
import org.poollab.bench.deciding.CellText;
import org.poollab.bench.deciding.Decision;
import org.poollab.bench.deciding.TopologyGrid;
import org.poollab.bench.grid.ContentionRates;
import org.poollab.bench.model.Usl;
import org.poollab.bench.report.Table.Entry;
import org.poollab.bench.report.Table.Row;
import org.poollab.bench.results.CpuCeiling;
import org.poollab.bench.results.EmulatedHold;
import org.poollab.bench.results.Point;
import org.poollab.bench.text.Durations;

/**
 * Both sides of the knee where requests cost the database CPU ({@code bench.holdCpu}):
 * per pool size, p50, p99, throughput and the database's CPU per request, the queueing
 * model's p99 for the small side, the Universal Scalability Law fitted through the
 * throughput at the highest rate against the fleet's connections (pool × instances) with
 * its N* = √((1 − α) / β), and what the largest pool lost, or did not, to the pool
 * nearest the database's cores. Present only for a grid with a CPU hold.
 *
 * @param grid the topology's grid
 * @param cpuMs the database CPU each request was asked to cost
 * @param databaseCores the cores of the database's machine, where known
 * @param usl the fit at {@link #uslRateRps}, where three pool sizes or more were measured
 * @param uslRateRps the rate the fit is at
 * @param ceiling what the database's CPU carried here before the grid, whose rates are
 * shares of it ({@code contention} preset); empty where it was not measured
 */
record Contention(TopologyGrid grid, double cpuMs, OptionalInt databaseCores, Optional<Usl> usl, int uslRateRps,
		Optional<CpuCeiling> ceiling) {

	static Optional<Contention> of(TopologyGrid grid, OptionalInt databaseCores) {
		return of(grid, databaseCores, Optional.empty());
	}

	static Optional<Contention> of(TopologyGrid grid, OptionalInt databaseCores, Optional<CpuCeiling> ceiling) {
		EmulatedHold hold = grid.limits().hold();
		if (hold == null || hold.cpuMs() == null || grid.cells().stream().noneMatch(Cell::pooled)) {
			return Optional.empty();
		}
		int rate = grid.cells().stream().mapToInt(Cell::rateRps).max().orElseThrow();
		List<Usl.Sample> samples = grid.cells()
			.stream()
			.filter(Cell::pooled)
			.filter((cell) -> cell.rateRps() == rate)
			.map((cell) -> new Usl.Sample(cell.poolSize() * grid.instances(), cell.requests().throughputRps()))
			.toList();
		Optional<Usl> usl = Optional.empty();
		if (samples.stream().mapToInt(Usl.Sample::connections).distinct().count() >= 3) {
			try {
				usl = Optional.of(Usl.fit(samples));
			}
			catch (RuntimeException ex) {
				// No convergence: the table says there is no fit.
			}
		}
		return Optional.of(new Contention(grid, hold.cpuMs(), databaseCores, usl, rate, ceiling));
	}

	/** N* as the report writes it, connections across the fleet. */
	String peak() {
		if (this.usl.isEmpty()) {
			return "not fitted";
		}
		return peakConnections().map((peak) -> String.format(Locale.ROOT, "%.0f connections", peak))
			.orElse("none: no contention measured (" + (throughputFell() ? "the fit's beta cannot be told from 0"
					: "no larger pool delivered measurably less than the best") + ")");
	}

	/**
	 * N* where the measurement backs it ({@link Usl#measuredPeak}), in connections across
	 * the fleet.
	 */
	Optional<Double> peakConnections() {
		List<Cell> atRate = atRate();
		double peak = Usl.measuredPeak(samples(atRate), atRate.stream().mapToDouble(Contention::seconds).toArray());
		return Double.isFinite(peak) ? Optional.of(peak) : Optional.empty();
	}

	/**
	 * Whether a pool larger than the one with the best throughput at the fit's rate
	 * delivered measurably less ({@link Usl#throughputFell}). In an open model the
	 * throughput follows the rate sent, and a fit through it alone finds a peak in noise.
	 */
	boolean throughputFell() {
		List<Cell> atRate = atRate();
		return !atRate.isEmpty()
				&& Usl.throughputFell(samples(atRate), atRate.stream().mapToDouble(Contention::seconds).toArray());
	}

	private List<Cell> atRate() {
		return this.grid.cells()
			.stream()
			.filter(Cell::pooled)
			.filter(Cell::considered)
			.filter((cell) -> cell.rateRps() == this.uslRateRps)
			.toList();
	}

	private List<Usl.Sample> samples(List<Cell> cells) {
		return cells.stream()
			.map((cell) -> new Usl.Sample(cell.poolSize() * this.grid.instances(), cell.requests().throughputRps()))
			.toList();
	}

	private static double seconds(Cell cell) {
		return cell.points().stream().mapToDouble(Point::durationSeconds).sum();
	}

	Table table() {
		List<String> header = List.of("pool", "connections", "rate (rps)", "p50 (ms)", "p99 (ms)", "throughput (ok/s)",
				"database CPU (ms per request)", "database CPU (cores)", "hold mean (ms)", "model p99 (ms)");
		List<Row> rows = new ArrayList<>();
		List<Cell> cells = this.grid.cells()
			.stream()
			.filter(Cell::pooled)
			.sorted(Comparator.comparingInt(Cell::rateRps).thenComparingInt(Cell::poolSize))
			.toList();
		for (Cell cell : cells) {
			rows.add(new Row(List.of(Entry.of(cell.poolLabel()),
					Entry.of(String.valueOf(cell.poolSize() * this.grid.instances())),
					Entry.of(String.valueOf(cell.rateRps())), Entry.of(Durations.ms(cell.latency().p50Ms())),
					Entry.of(Durations.ms(cell.latency().p99Ms())
							+ cell.latency().p99Interval().map(CellText::interval).orElse("")
							+ (cell.sustained() ? "" : " †")),
					Entry.of(String.format(Locale.ROOT, "%.0f", cell.requests().throughputRps())),
					Entry.of(cell
						.medianOf((point) -> point.databaseCpuMsPerRequest().isPresent()
								? point.databaseCpuMsPerRequest().getAsDouble() : null)
						.stream()
						.mapToObj((ms) -> String.format(Locale.ROOT, "%.2f", ms))
						.findFirst()
						.orElse("not measured")),
					Entry.of(cell.medianOf(Point::databaseCpuCores)
						.stream()
						.mapToObj((cores) -> String.format(Locale.ROOT, "%.2f", cores))
						.findFirst()
						.orElse("not measured")),
					Entry.of(cell.pool()
						.holdMeanMs()
						.stream()
						.mapToObj((ms) -> String.format(Locale.ROOT, "%.2f", ms))
						.findFirst()
						.orElse("–")),
					Entry.of(cell.model()
						.map((model) -> model.stable() ? Durations.ms(model.stableP99Ms()) : "no steady state")
						.orElse("–"))),
					false));
		}
		List<String> notes = new ArrayList<>();
		notes.add(String.format(Locale.ROOT,
				"Every request cost the database %s ms of CPU (calibrated as each instance started) and waited for nothing else; "
						+ "the database's CPU is its processes' user + system time over the window (/proc), "
						+ "\"not measured\" where the lab could not read it (a database on another host). † did not sustain its rate.",
				Durations.ms(this.cpuMs)));
		this.ceiling.ifPresent((measured) -> notes.add(String.format(Locale.ROOT,
				"The rates are %.2f and %.2f of what the database's CPU carried here before the grid (ContentionRates): %s.",
				ContentionRates.LOW_SHARE, ContentionRates.HIGH_SHARE, measured.describe())));
		notes.add("Model p99: the queueing model (Erlang C) from the cell's measured hold, which knows nothing of "
				+ "the database's cores: it speaks for the small side, where requests queue for a connection.");
		notes.add(uslNote());
		verdict().ifPresent(notes::add);
		return new Table("Contention for the database's CPU", header, rows, 1, 9, notes);
	}

	private String uslNote() {
		if (this.usl.isEmpty()) {
			return "Universal Scalability Law: not fitted (fewer than three pool sizes at " + this.uslRateRps
					+ " rps, or no convergence).";
		}
		Usl fit = this.usl.get();
		return String.format(Locale.ROOT,
				"Universal Scalability Law through the throughput at %d rps against the fleet's connections: "
						+ "λ %.0f/s, α %.4f, β %.6f, N* = √((1 − α) / β): %s. In an open model the throughput "
						+ "cannot exceed the rate sent, so N* is finite only where more connections delivered less.",
				this.uslRateRps, fit.lambda(), fit.alpha(), fit.beta(), peak());
	}

	/**
	 * The largest pool against the pool nearest the database's cores, at the highest rate
	 * both ran: p50, p99 (measurably worse where the 95 % interval of the difference
	 * excludes 0 and it is beyond a tenth of the objective, as the decision judges) and
	 * throughput.
	 */
	Optional<String> verdict() {
		int cores = this.databaseCores.orElse(0);
		if (cores <= 0) {
			return Optional.empty();
		}
		int[] rates = this.grid.ratesRps();
		for (int i = rates.length - 1; i >= 0; i--) {
			int rate = rates[i];
			List<Cell> atRate = this.grid.cells()
				.stream()
				.filter(Cell::pooled)
				.filter((cell) -> cell.rateRps() == rate)
				.toList();
			Optional<Cell> largest = atRate.stream().max(Comparator.comparingInt(Cell::poolSize));
			Optional<Cell> nearest = atRate.stream()
				.min(Comparator.comparingInt((Cell cell) -> Math.abs(cell.poolSize() * this.grid.instances() - cores))
					.thenComparingInt(Cell::poolSize));
			if (largest.isEmpty() || nearest.isEmpty() || largest.get() == nearest.get()
					|| !nearest.get().sustained()) {
				continue;
			}
			return Optional.of(compare(largest.get(), nearest.get(), rate, cores));
		}
		return Optional.empty();
	}

	private String compare(Cell large, Cell near, int rate, int cores) {
		int instances = this.grid.instances();
		String p99Verdict;
		if (!large.sustained()) {
			p99Verdict = "it did not sustain the rate (" + CellText.shortfall(large) + ")";
		}
		else if (large.latency().p99StandardErrorMs().isPresent() && near.latency().p99StandardErrorMs().isPresent()) {
			boolean same = !Decision.measurablySlower(large, near) && !Decision.measurablySlower(near, large);
			p99Verdict = same ? "no measurable difference in p99" : (large.latency().p99Ms() > near.latency().p99Ms()
					? "measurably worse in p99" : "measurably better in p99");
		}
		else {
			p99Verdict = "p99 without intervals, not judged";
		}
		return String.format(Locale.ROOT,
				"At %d rps the largest pool, %s (%d connection(s)), against pool %s (%d connection(s), nearest the "
						+ "database's %d cores): p50 %s vs %s ms (%s), p99 %s vs %s ms (%s), throughput %.0f vs %.0f ok/s (%s); %s.",
				rate, large.poolLabel(), large.poolSize() * instances, near.poolLabel(), near.poolSize() * instances,
				cores, Durations.ms(large.latency().p50Ms()), Durations.ms(near.latency().p50Ms()),
				percent(large.latency().p50Ms(), near.latency().p50Ms()),
				Durations.ms(large.latency().p99Ms())
						+ large.latency().p99Interval().map(CellText::interval).orElse(""),
				Durations.ms(near.latency().p99Ms()) + near.latency().p99Interval().map(CellText::interval).orElse(""),
				percent(large.latency().p99Ms(), near.latency().p99Ms()), large.requests().throughputRps(),
				near.requests().throughputRps(),
				percent(large.requests().throughputRps(), near.requests().throughputRps()), p99Verdict);
	}

	private static String percent(double value, double reference) {
		return (reference > 0) ? String.format(Locale.ROOT, "%+.0f %%", 100 * (value / reference - 1)) : "–";
	}

	/**
	 * The throughput against the fleet's connections with the fitted curve, for the HTML
	 * report; empty without a fit.
	 */
	Optional<String> svg(String id) {
		if (this.usl.isEmpty()) {
			return Optional.empty();
		}
		Usl fit = this.usl.get();
		int instances = this.grid.instances();
		List<double[]> measured = this.grid.cells()
			.stream()
			.filter(Cell::pooled)
			.filter((cell) -> cell.rateRps() == this.uslRateRps)
			.map((cell) -> new double[] { cell.poolSize() * instances, cell.requests().throughputRps() })
			.toList();
		int largest = (int) measured.stream().mapToDouble((point) -> point[0]).max().orElse(1);
		return Optional.of(SloChart.svg(id, "connections (pool × instances)", "throughput (ok/s)", largest,
				fit::throughput, measured, new SloChart.Marks(Double.NaN, peakConnections().orElse(Double.NaN))));
	}

}
