package org.poollab.bench.deciding;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.OptionalInt;

import org.jspecify.annotations.Nullable;

/**
 * What the sweep says about one topology's {@code maximum-pool-size}, in words a reader
 * can act on, with the evidence that backs or questions it.
 *
 * @param topology the topology this is about, e.g. {@code multi}
 * @param verdict what kind of answer the grid supports
 * @param poolSize the recommended {@code maximum-pool-size} per instance; empty when the
 * grid cannot support one
 * @param decidingRateRps the rate the choice was made at: the highest rate some pool size
 * sustained; empty when none did
 * @param summary one or two sentences stating the answer and why
 * @param caveats what a careful reader should know before trusting it
 * @param crossChecks the textbook estimates to hold the measured answer against
 * @param provisional whether the answer rests on one run per point
 * @param basis how the pool size was arrived at, in a line (for the YAML's comment);
 * empty when the grid supports no pool size
 * @param indistinguishable the pool sizes indistinguishable from the best at the deciding
 * rate, smallest first; empty when the verdict did not come from intervals
 * @param unsettled the pool sizes neither shown equivalent to the best nor told apart
 * from it, which more repeats may settle
 * @param picks how often the decision redone on drawn p99s picked each pool size (0 to
 * 1); empty when the verdict did not come from intervals
 */
public record Recommendation(String topology, String poolSizeKey, Verdict verdict, OptionalInt poolSize,
		OptionalInt decidingRateRps, String summary, List<String> caveats, CrossChecks crossChecks, boolean provisional,
		String basis, List<Integer> indistinguishable, List<Integer> unsettled, Map<Integer, Double> picks) {

	public Recommendation {
		indistinguishable = List.copyOf(indistinguishable);
		unsettled = List.copyOf(unsettled);
		picks = Collections.unmodifiableMap(new LinkedHashMap<>(picks));
	}

	/** The rule, as the report states it. */
	public static final String RULE = "Take the highest rate that at least one pool size sustains "
			+ "(no instance died, errors \u2264 0.1 %, achieved \u2265 95 % of the target rate, p99 at or below "
			+ "the sweep's p99 objective (bench.p99Objective), no connection-acquire timeouts, pool size verified "
			+ "from the pool's own gauge, HikariCP's or r2dbc-pool's). At that rate, when every p99 carries its 95 % interval: the pool sizes "
			+ "indistinguishable from the best are those shown equivalent to it, the 90 % interval of the "
			+ "difference lying within the equivalence margin (20 % of the p99 objective, but at most the "
			+ "best p99 itself and at least 2 ms; two one-sided tests); a pool neither shown equivalent nor told apart is "
			+ "not settled and the pool that measured better stands; recommend the smallest of them that sustained "
			+ "the rate in every repeat, with its p99 clear of the objective (below it by more than its 95 % "
			+ "half-width and more than 10 % of the objective; the largest pool measured included) or with every "
			+ "larger pool sustaining the rate too: a larger pool that "
			+ "fails or is slower never rules out a smaller one that holds the objective clearly (past the knee the "
			+ "curve can rise again), while a hold too close to the objective counts only when every larger pool held "
			+ "as well (when none of them meets this, the same choice among the pools that do); the rate taken is the highest at which some pool meets this, when any does. Leave out cells whose latency is "
			+ "understated (the generator fell behind) on every path, and pool sizes their confirmation run refuted "
			+ "(the block started as pasted missed the objective or answered 503 under Poisson arrivals), and a rate "
			+ "at which two pool sizes were refuted, even when no other rate is left (then no answer), and say how often the decision, redone on p99s drawn from "
			+ "the intervals, picks each pool. Results without intervals: among the pool sizes that sustain it, "
			+ "recommend the smallest whose p99 is within the noise margin of the best p99: 10 % or 1 ms, whichever is larger, "
			+ "or with repeats the largest spread of p99 between repeats at that rate when it is wider. "
			+ "Figures are medians across repeats; one repeat whose instance died means the pool size did not "
			+ "sustain that rate. Points whose pool size was not verified are shown but not considered; points "
			+ "the lab failed to measure are left out. When every pool size sustaining that rate is equal within "
			+ "the margin there is no knee, and the size named is derived, not measured: " + NoKnee.RULE
			+ " A verdict resting on one run per point is provisional.";

	/** Said wherever a verdict rests on one run per point. */
	public static final String PROVISIONAL = "Provisional: one run per point; confirm with -Dbench.repeats=3.";

	public Recommendation withDecision(List<Integer> set, List<Integer> notSettled, Map<Integer, Double> picked) {
		return new Recommendation(this.topology, this.poolSizeKey, this.verdict, this.poolSize, this.decidingRateRps,
				this.summary, this.caveats, this.crossChecks, this.provisional, this.basis, set, notSettled, picked);
	}

	/**
	 * How often the redone decision picked the recommended pool size; empty unless known.
	 */
	public OptionalDouble probability() {
		return (this.poolSize.isPresent() && this.picks.containsKey(this.poolSize.getAsInt()))
				? OptionalDouble.of(this.picks.get(this.poolSize.getAsInt())) : OptionalDouble.empty();
	}

	/** What kind of answer the grid supports. */
	public enum Verdict {

		/** A pool size was chosen: smaller pools were measurably slower or failed. */
		CHOSEN(true),

		/**
		 * Every pool size sustained the deciding rate with the same p99 within the
		 * margin: no knee was found, and the size named is derived by
		 * {@link NoKnee#RULE}, not measured.
		 */
		FLAT(true),

		/** No pool size sustained any measured rate. */
		SATURATED(false),

		/**
		 * The pool the rule chose at the deciding rate was refuted by its confirmation
		 * run (started as pasted), and so was every pool it could move to there: no block
		 * is fit to paste.
		 */
		REFUTED(false),

		/** Only one pool size was measured, so there is nothing to compare. */
		SINGLE_POOL_SIZE(false),

		/** No point proved that its pool had the size it claims. */
		UNVERIFIED(false),

		/** No point of this topology finished with outcome {@code ok}. */
		NO_DATA(false);

		private final boolean conclusive;

		Verdict(boolean conclusive) {
			this.conclusive = conclusive;
		}

		/** Whether the grid supports a pool size at all. */
		public boolean conclusive() {
			return this.conclusive;
		}

	}

	/**
	 * Estimates from outside the sweep. They bound or explain the measured answer; they
	 * do not replace it.
	 *
	 * @param littleRateRps the achieved rate Little's law was applied to, 0 when there
	 * was no point to apply it to
	 * @param littleUsageMeanMs mean time a connection was held at that point
	 * @param littleBusyFleet connections busy on average across the fleet:
	 * {@code achievedRps × usageMeanMs / 1000}; NaN when there was no point
	 * @param littleBusyPerInstance the same per instance
	 * @param cpuCores cores of the host the lab ran on
	 * @param databaseHost where the database ran when that was not the lab's host (an
	 * external database on another machine); null when it shared the lab's host
	 * @param hikariStartingPoolSize {@code core_count × 2 + effective_spindle_count} with
	 * the database host's cores and spindles 0; empty when the database ran on another
	 * host, whose cores the lab cannot see
	 * @param requestThreads Tn, the request threads of each instance (Tomcat's);
	 * {@link #NO_THREAD_CAP} with virtual threads
	 * @param connectionsPerRequest Cm, the connections one request of the team's app
	 * holds at once
	 * @param deadlockFloor {@code Tn × (Cm − 1) + 1}
	 * @param instances service instances sharing the database
	 * @param maxConnections the database's {@code max_connections}
	 * @param reservedConnections slots regular users cannot take
	 * @param fleetBudgetPerInstance the largest pool per instance that fits
	 * {@code instances × pool ≤ max_connections − reserved}
	 */
	public record CrossChecks(double littleRateRps, double littleUsageMeanMs, double littleBusyFleet,
			double littleBusyPerInstance, int cpuCores, @Nullable String databaseHost,
			OptionalInt hikariStartingPoolSize, int requestThreads, int connectionsPerRequest, int deadlockFloor,
			int instances, int maxConnections, int reservedConnections, int fleetBudgetPerInstance) {

		/** {@link #requestThreads()} when nothing caps them (virtual threads). */
		public static final int NO_THREAD_CAP = 0;

		/**
		 * {@link #fleetBudgetPerInstance()} when the database's {@code max_connections}
		 * was not read (an external deployment without {@code bench.database.url}):
		 * nothing is capped by it, and every sentence about it says it was not checked.
		 */
		public static final int BUDGET_UNKNOWN = Integer.MAX_VALUE;

		/** Whether the database's budget was read. */
		public boolean budgetKnown() {
			return this.fleetBudgetPerInstance != BUDGET_UNKNOWN;
		}

		/**
		 * The budget for a sentence: {@code 12 per instance}, or that it was not read.
		 */
		public String budgetPerInstance() {
			return budgetKnown() ? this.fleetBudgetPerInstance + " per instance"
					: "not checked: no bench.database.url to read max_connections from";
		}

	}

}
