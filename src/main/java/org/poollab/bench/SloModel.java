package org.poollab.bench;

import java.sql.SQLException;
import java.util.Locale;

import org.jspecify.annotations.Nullable;

import org.poollab.bench.deciding.Cell;
import org.poollab.bench.grid.Arrivals;
import org.poollab.bench.load.DatabaseScaling;
import org.poollab.bench.model.Fleet;
import org.poollab.bench.model.QueueModel;
import org.poollab.bench.results.Point;
import org.poollab.bench.results.SloSearch;

/**
 * The evidence behind the SLO search's model ({@link SloRun}): the database driven alone
 * (its scalability and the hold of the service's transaction with nothing around it) and
 * the queue model of one instance fitted from that and from what the search measured at
 * its largest pool.
 */
final class SloModel {

	/** The most connections the scaling measurement opens at once. */
	static final int MOST_SCALING_CONNECTIONS = 64;

	private SloModel() {
	}

	/**
	 * The database alone, while the first instance idles (its Flyway made the schema):
	 * its scalability and the hold time of the service's transaction with nothing around
	 * it. A failure costs the model, not the search.
	 */
	static SloSearch.@Nullable Scaling measureScaling(SweepContext sweep, Fleet fleet) {
		int most = Math.min(MOST_SCALING_CONNECTIONS, fleet.budget());
		sweep.out()
			.printf("Measuring how the database scales: the service's transaction back to back on 1 to %d connections...%n",
					most);
		try {
			SloSearch.Scaling scaling = DatabaseScaling.measure(sweep.database(), most, sweep.out(),
					(sweep.grid().hold() != null) ? sweep.grid().hold().cpuMs() : null);
			sweep.out()
				.printf(Locale.ROOT,
						"  USL fit: alpha %.4f, beta %.6f, peak concurrency N* %s; hold %.3f ms (cv² %.2f)%n",
						scaling.usl().alpha(), scaling.usl().beta(),
						Double.isInfinite(scaling.peakConnections()) ? "none: no contention measured"
								: String.format(Locale.ROOT, "%.0f", scaling.peakConnections()),
						scaling.holdMeanMs(), scaling.holdCv2());
			return scaling;
		}
		catch (SQLException | RuntimeException ex) {
			sweep.out().println("  not measured, the report will have no USL fit: " + ex.getMessage());
			return null;
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return null;
		}
	}

	/**
	 * The queue model at this rate. Its hold time is Little's law on the largest pool's
	 * windows, where no request waited: the connections busy on average (the mean of the
	 * instance's active gauge over the window's scrapes) over the requests per second it
	 * answered; no whole-millisecond rounding. It is held between two bounds: at least
	 * the database's own nanosecond timing of the service's transaction on one connection
	 * and HikariCP's usage timer (each hold rounded down to whole milliseconds, so its
	 * mean is a lower bound), at most that timer's mean plus 1 ms (what rounding down can
	 * hide). The gauge broke the upper bound in a run here (1.27 ms against 0.185 + 1): a
	 * scrape is read while it makes the instance busy, so it may catch more connections
	 * in use than the window's average. The variability is the database's timing's
	 * (exponential without it); the base p50 and p99 are the largest pool's.
	 */
	static SloSearch.@Nullable Model fit(SloSearch.Probe largest, SloSearch.@Nullable Scaling scaling, int rate,
			Arrivals arrivals) {
		double arrivalCv2 = (arrivals == Arrivals.RANDOM) ? 1 : 0;
		double usageMs = largest.repeats()
			.stream()
			.mapToDouble((Point point) -> point.pool().usageMeanMs())
			.max()
			.orElse(0);
		double aloneMs = (scaling != null) ? scaling.holdMeanMs() : 0;
		double busy = largest.repeats()
			.stream()
			.filter((point) -> point.pool().meanActive() != null)
			.mapToDouble((point) -> point.pool().meanActive())
			.average()
			.orElse(0);
		double answeredRps = largest.repeats().stream().mapToDouble(Point::throughputRps).average().orElse(0);
		double littleMs = (busy > 0 && answeredRps > 0) ? 1000 * busy / answeredRps : 0;
		double lowerMs = Math.max(usageMs, aloneMs);
		double upperMs = (usageMs > 0 || littleMs > 0) ? usageMs + 1 : Double.POSITIVE_INFINITY;
		double holdMs = (littleMs > 0) ? Math.min(upperMs, Math.max(lowerMs, littleMs)) : lowerMs;
		if (holdMs <= 0) {
			return null;
		}
		double cv2 = (scaling != null) ? scaling.holdCv2() : 1;
		String little = (littleMs <= 0) ? "the larger of two lower bounds (the active gauge gave nothing)" : String
			.format(Locale.ROOT,
					"Little's law on the largest pool's windows (%.3f connections busy on average / %.0f requests/s = %.3f ms)%s",
					busy, answeredRps, littleMs,
					(holdMs != littleMs)
							? String.format(Locale.ROOT, ", held to the bounds [%.3f, %.3f] ms", lowerMs, upperMs)
							: "");
		String source = String.format(Locale.ROOT,
				"%s; the bounds: the database's own timing on one connection (%s) and HikariCP's usage timer under load (%.3f ms, whole milliseconds rounded down, so at most 1 ms short)",
				little, (scaling != null) ? String.format(Locale.ROOT, "%.3f ms", aloneMs) : "not measured", usageMs);
		// The base's p50 beside its p99 (the median over the repeats, as the probe's p99
		// is): the search's model is then ResponseTime's, as the grid's is.
		double baseP50Ms = Cell.of(largest.repeats(), 0).latency().p50Ms();
		return new SloSearch.Model(
				new QueueModel(rate, holdMs, cv2, arrivalCv2, largest.p99Ms(), (baseP50Ms > 0) ? baseP50Ms : null),
				source);
	}

}
