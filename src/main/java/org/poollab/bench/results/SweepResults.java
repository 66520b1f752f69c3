package org.poollab.bench.results;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import org.jspecify.annotations.Nullable;

/**
 * What one sweep measured: the contract between the sweep (which writes
 * {@code results.json}) and the report (which reads it). Latencies are in milliseconds
 * and cover successful requests only; failures are counted apart so saturation is not
 * averaged into the latency figures. Its parts ({@link Point}, {@link Host},
 * {@link Timing}, ...) are records of their own in this package.
 *
 * @param startedAt when the sweep started
 * @param preset the preset the grid came from ({@code quick}, {@code paper},
 * {@code full}, ...)
 * @param host the machine the sweep ran on
 * @param database the database the instances shared, the first one when the sweep ran on
 * several vendors (one at a time)
 * @param p99ObjectiveMs the p99 a point must stay at or below to count as sustaining its
 * rate (0: no objective)
 * @param workload what each request did, e.g. {@code read (GET /roles)}; absent in
 * results written before the write workload existed, which were reads
 * @param points one entry per measured point, in the order they ran
 * @param timing where the sweep's time went; {@code null} until it ends, and in results
 * written before it was recorded
 * @param confirmations each topology's recommended block run as pasted (one entry per
 * topology that had one); empty when none ran (older results,
 * {@code bench.confirmation=0})
 * @param slo the SLO search, when {@code bench.targetRps} asked one (its probes' windows
 * are inside it, not in {@code points}, which stay the grid's); null for a grid
 * @param databases every database the sweep ran on, in the order they were started (a
 * point's {@code limits.vendor} says which it ran on); just {@code database} in results
 * written before the lab swept vendors
 * @param connectionsPerRequest Cm, the connections one request of the team's app holds at
 * once ({@code bench.connectionsPerRequest}): it raises HikariCP's deadlock floor under
 * the pool written, not what was measured (the lab's service holds one); 1 in results
 * written before it was recorded
 */
public record SweepResults(Instant startedAt, String preset, Host host, DatabaseFacts database, double p99ObjectiveMs,
		String workload, List<Point> points, @Nullable Timing timing, List<Confirmation> confirmations,
		@Nullable SloSearch slo, List<DatabaseFacts> databases, int connectionsPerRequest) {

	/**
	 * {@link #connectionsPerRequest()} where nothing set it: one connection per request,
	 * as in results written before the grid sweep carried the setting.
	 */
	public static final int ONE_CONNECTION_PER_REQUEST = 1;

	public SweepResults {
		confirmations = (confirmations != null) ? List.copyOf(confirmations) : List.of();
		databases = (databases != null && !databases.isEmpty()) ? List.copyOf(databases) : List.of(database);
		connectionsPerRequest = Math.max(ONE_CONNECTION_PER_REQUEST, connectionsPerRequest);
	}

	/**
	 * A sweep still running on its first database, or results written before timing,
	 * confirmations and SLO searches were recorded; the {@code with...} methods add them.
	 */
	public SweepResults(Instant startedAt, String preset, Host host, DatabaseFacts database, double p99ObjectiveMs,
			String workload, List<Point> points) {
		this(startedAt, preset, host, database, p99ObjectiveMs, workload, points, null, List.of(), null,
				List.of(database), ONE_CONNECTION_PER_REQUEST);
	}

	/**
	 * The same results with the queueing model's prediction beside every point
	 * ({@link Predictions}): only {@link ResultsStore} attaches them, as it writes or
	 * reads results, so every consumer reads the same.
	 * @return the copy
	 */
	SweepResults withPredictions() {
		return new SweepResults(this.startedAt, this.preset, this.host, this.database, this.p99ObjectiveMs,
				this.workload, Predictions.attached(this.points), this.timing, this.confirmations, this.slo,
				this.databases, this.connectionsPerRequest);
	}

	/**
	 * The same results with the confirmation runs.
	 * @param runs one per topology confirmed
	 * @return the copy
	 */
	public SweepResults withConfirmations(List<Confirmation> runs) {
		return new SweepResults(this.startedAt, this.preset, this.host, this.database, this.p99ObjectiveMs,
				this.workload, this.points, this.timing, runs, this.slo, this.databases, this.connectionsPerRequest);
	}

	/**
	 * The same results with what was measured of the host.
	 * @param measuredHost the host
	 * @return the copy
	 */
	public SweepResults withHost(Host measuredHost) {
		return new SweepResults(this.startedAt, this.preset, measuredHost, this.database, this.p99ObjectiveMs,
				this.workload, this.points, this.timing, this.confirmations, this.slo, this.databases,
				this.connectionsPerRequest);
	}

	/**
	 * The same results with the sweep's time account.
	 * @param spent where the time went
	 * @return the copy
	 */
	public SweepResults withTiming(Timing spent) {
		return new SweepResults(this.startedAt, this.preset, this.host, this.database, this.p99ObjectiveMs,
				this.workload, this.points, spent, this.confirmations, this.slo, this.databases,
				this.connectionsPerRequest);
	}

	/**
	 * The same results with an SLO search's path and answer.
	 * @param search the search
	 * @return the copy
	 */
	public SweepResults withSlo(SloSearch search) {
		return new SweepResults(this.startedAt, this.preset, this.host, this.database, this.p99ObjectiveMs,
				this.workload, this.points, this.timing, this.confirmations, search, this.databases,
				this.connectionsPerRequest);
	}

	/**
	 * The same results for requests that hold this many connections at once.
	 * @param perRequest Cm
	 * @return the copy
	 */
	public SweepResults withConnectionsPerRequest(int perRequest) {
		return new SweepResults(this.startedAt, this.preset, this.host, this.database, this.p99ObjectiveMs,
				this.workload, this.points, this.timing, this.confirmations, this.slo, this.databases, perRequest);
	}

	/**
	 * The same results with one more database the sweep started (the next vendor's).
	 * @param next the database
	 * @return the copy
	 */
	public SweepResults withDatabase(DatabaseFacts next) {
		List<DatabaseFacts> all = new ArrayList<>(this.databases);
		all.add(next);
		return new SweepResults(this.startedAt, this.preset, this.host, this.database, this.p99ObjectiveMs,
				this.workload, this.points, this.timing, this.confirmations, this.slo, all, this.connectionsPerRequest);
	}

	/**
	 * The database points with these limits ran on: the one of their vendor (the first
	 * when none matches, as in results written before the lab swept vendors).
	 * @param limits a point's or a grid's limits
	 * @return the database
	 */
	public DatabaseFacts databaseOf(Limits limits) {
		return this.databases.stream()
			.filter((one) -> one.labVendor() == limits.vendor())
			.findFirst()
			.orElse(this.database);
	}

	/** Whether the sweep ran on more than one database. */
	public boolean severalDatabases() {
		return this.databases.size() > 1;
	}

	/**
	 * Every measured window: the grid's points, an SLO search's probes and every
	 * confirmation's window (both, for one measured again).
	 */
	public List<Point> measuredWindows() {
		List<Point> windows = new ArrayList<>(this.points);
		if (this.slo != null) {
			this.slo.path().forEach((probe) -> windows.addAll(probe.repeats()));
		}
		this.confirmations.forEach((run) -> {
			if (run.coldTail() != null) {
				windows.add(run.coldTail());
			}
			windows.add(run.point());
		});
		return windows;
	}

	/**
	 * The swept pool size as the report shows it: {@code none} for {@link #NO_POOL}.
	 * @param poolSize a point's pool size
	 * @return the label
	 */
	public static String poolLabel(int poolSize) {
		return (poolSize == NO_POOL) ? "none" : String.valueOf(poolSize);
	}

	/**
	 * How often the lab scrapes every instance's {@code /actuator/prometheus} while a
	 * window runs: the resolution of every pool figure (peak active, peak pending).
	 */
	public static final Duration SCRAPE_INTERVAL = Duration.ofMillis(500);

	/**
	 * The pool size of a point without a pool: every request opens and closes its own
	 * connection ({@code bench.poolSizes=none}).
	 */
	public static final int NO_POOL = 0;

}
