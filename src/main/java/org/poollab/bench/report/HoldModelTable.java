package org.poollab.bench.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalDouble;

import org.jspecify.annotations.Nullable;

import org.poollab.bench.deciding.Cell;
import org.poollab.bench.deciding.TopologyGrid;
import org.poollab.bench.report.Table.Entry;
import org.poollab.bench.report.Table.Row;
import org.poollab.bench.results.EmulatedHold;
import org.poollab.bench.results.Limits;
import org.poollab.bench.results.QueuePrediction;
import org.poollab.bench.text.Durations;

/**
 * Each cell's connection hold, asked and measured, and the queueing model's p99 from the
 * measured hold and rate beside the measured p99, with where they disagree. The model is
 * judged where it should hold: cells that sustained their rate at a predicted utilisation
 * below {@link #JUDGED_BELOW_UTILISATION}; near saturation Erlang C's tail is steep and a
 * few percent of rate or hold move it by multiples.
 */
public final class HoldModelTable {

	/** The model and the measurement agree within this ratio ... */
	static final double AGREE_RATIO = 1.5;

	/** ... or within this many milliseconds. */
	static final double AGREE_MS = 5;

	/**
	 * From this predicted utilisation a pool queues enough for the wait to matter: the
	 * judged cells from here up test the model, those below only its base.
	 */
	static final double BUSY_FROM_UTILISATION = 0.5;

	/** Cells predicted busier than this are shown but not judged. */
	static final double JUDGED_BELOW_UTILISATION = 0.85;

	/** A measured hold this far from the asked mean (or p99 below) is said. */
	static final double HOLD_MEAN_TOLERANCE = 0.10;

	static final double HOLD_P99_TOLERANCE = 0.25;

	private HoldModelTable() {
	}

	/**
	 * One line for the console: the measured hold's range and whether the model agreed,
	 * when any cell timed its hold.
	 */
	public static Optional<String> summary(TopologyGrid grid) {
		return of(grid)
			.map((table) -> "Queueing model beside the measurement: " + table.notes().get(table.notes().size() - 1));
	}

	/** The table, when any cell timed its hold. */
	static Optional<Table> of(TopologyGrid grid) {
		if (grid.cells().stream().noneMatch((cell) -> cell.pool().holdMeanMs().isPresent())) {
			return Optional.empty();
		}
		EmulatedHold asked = grid.limits().hold();
		List<String> header = List.of("pool", "rate (rps)", "hold mean (ms)", "hold p99 (ms)", "utilisation (model)",
				"model p99 (ms)", "measured p99 (ms)", "model vs measured");
		List<Row> rows = new ArrayList<>();
		List<String> disagreements = new ArrayList<>();
		int judged = 0;
		int busyJudged = 0;
		for (Cell cell : grid.cells()) {
			if (!cell.pooled()) {
				continue;
			}
			Optional<QueuePrediction> model = cell.model();
			String verdict = verdict(cell, model);
			if (verdict.startsWith("agree") || verdict.startsWith("disagree")) {
				judged++;
				if (model.get().utilisation() >= BUSY_FROM_UTILISATION) {
					busyJudged++;
				}
			}
			if (verdict.startsWith("disagree")) {
				disagreements.add("pool %s at %d rps: model %s ms, measured %s ms".formatted(cell.poolLabel(),
						cell.rateRps(), Durations.ms(model.get().stableP99Ms()), Durations.ms(cell.latency().p99Ms())));
			}
			String modelP99 = model.map((m) -> m.stable() ? Durations.ms(m.stableP99Ms()) : "no steady state")
				.orElse("–");
			rows.add(new Row(List.of(Entry.of(cell.poolLabel()), Entry.of(String.valueOf(cell.rateRps())),
					holdEntry(cell.pool().holdMeanMs(), (asked != null) ? asked.askedMeanMs() : null,
							HOLD_MEAN_TOLERANCE),
					holdEntry(cell.pool().holdP99Ms(), (asked != null) ? asked.askedP99Ms() : null, HOLD_P99_TOLERANCE),
					Entry.of(model.map((m) -> String.format(Locale.ROOT, "%.2f", m.utilisation())).orElse("–")),
					Entry.of(modelP99), Entry.of(Durations.ms(cell.latency().p99Ms())), Entry.of(verdict)), false));
		}
		List<String> notes = new ArrayList<>();
		notes.add(((asked != null)
				? "Asked: " + asked.describe() + ", from " + asked.source().replaceAll("\\s*\\R\\s*", "; ") + ". "
				: "No hold was emulated: each request held its connection for its own statements. ") + measuredBy(grid)
				+ "; a mean more than 10 % off the asked, or a p99 more than 25 % off an asked p99, is marked †; the p99 is read off the timer's histogram, interpolated within a bucket up to a third wide.");
		notes.add("Model: Erlang C with the Allen–Cunneen correction, given each cell's measured hold (its "
				+ "variability from the lognormal through the measured mean and p99) and sent rate per instance "
				+ "(times the connection uses per request, where a request takes more than one), "
				+ "arrivals per instance as its balancer deals them (round robin: Poisson gaps become Erlang); its "
				+ "p99 is that of the sum of a request's time without waiting (lognormal through the p50 and p99 "
				+ "measured with the pool that had the lowest p99 at that rate, never one past the knee) and the "
				+ "predicted wait. Judged where a cell sustained its rate at a " + "predicted utilisation below "
				+ JUDGED_BELOW_UTILISATION + ": agreeing within " + AGREE_RATIO + "x or " + Durations.ms(AGREE_MS)
				+ " ms.");
		notes.add((disagreements.isEmpty()
				? "The model agreed with the measurement at all %d judged cell(s)".formatted(judged)
				: "The model disagreed at %d of %d judged cell(s): %s".formatted(disagreements.size(), judged,
						String.join("; ", disagreements)))
				+ "; %d of them at a predicted utilisation from %s to %s, where a pool queues.".formatted(busyJudged,
						BUSY_FROM_UTILISATION, JUDGED_BELOW_UTILISATION));
		return Optional.of(new Table("Connection hold and the queueing model", header, rows, 2, 7, notes));
	}

	/**
	 * {@code agree} or {@code disagree (measured 2.1x the model)} where judged; else why
	 * not.
	 */
	static String verdict(Cell cell, Optional<QueuePrediction> model) {
		if (model.isEmpty()) {
			return "no model (no base at this rate)";
		}
		QueuePrediction m = model.get();
		if (!m.stable()) {
			return cell.sustained() ? "model: no steady state, measured sustained" : "both: not sustained";
		}
		if (!cell.sustained()) {
			return "not sustained; not judged";
		}
		if (m.utilisation() >= JUDGED_BELOW_UTILISATION) {
			return "utilisation ≥ " + JUDGED_BELOW_UTILISATION + "; not judged";
		}
		double predicted = m.stableP99Ms();
		double measured = cell.latency().p99Ms();
		if (Math.abs(predicted - measured) <= AGREE_MS
				|| Math.max(predicted, measured) <= AGREE_RATIO * Math.min(predicted, measured)) {
			return "agree";
		}
		return (measured > predicted)
				? String.format(Locale.ROOT, "disagree (measured %.1fx the model)", measured / predicted)
				: String.format(Locale.ROOT, "disagree (model %.1fx the measured)", predicted / measured);
	}

	private static Entry holdEntry(OptionalDouble measuredMs, @Nullable Double askedMs, double tolerance) {
		if (measuredMs.isEmpty()) {
			return Entry.of("–");
		}
		String text = Durations.ms(measuredMs.getAsDouble());
		if (askedMs != null && Math.abs(measuredMs.getAsDouble() - askedMs) > tolerance * askedMs) {
			return Entry.warned(text, "%s ms measured against %s ms asked".formatted(text, Durations.ms(askedMs)));
		}
		return Entry.of(text);
	}

	/**
	 * Who timed the holds: the lab's services time every hold themselves; a deployment
	 * the lab did not start ({@code bench.target=external}) is read from its own timer
	 * where it has the lab's, else from HikariCP's usage timer, which records whole
	 * milliseconds.
	 */
	static String measuredBy(TopologyGrid grid) {
		String lab = "every request's hold, checkout to return, timed by each instance on a nanosecond clock (lab.connection.hold)";
		if (!Limits.AS_DEPLOYED.equals(grid.limits().heap())) {
			return "Measured: " + lab;
		}
		return "Measured: on instances the lab did not start, " + lab
				+ " where the service has that timer (the lab's own), else the app's own hikaricp_connections_usage_seconds "
				+ "(HikariCP's usage timer, checkout to return, each hold rounded down to whole milliseconds)";
	}

}
