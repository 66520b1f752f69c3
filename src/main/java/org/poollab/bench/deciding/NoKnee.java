package org.poollab.bench.deciding;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import org.poollab.bench.deciding.Recommendation.CrossChecks;

/**
 * The size named when the grid shows no knee, by {@link #RULE}.
 *
 * @param poolSize the size
 * @param why the rule applied to this grid's figures
 * @param caveats where the rule had to bend
 */
public record NoKnee(int poolSize, String why, List<String> caveats) {

	/**
	 * Without a knee, the smallest pool worth naming: with one connection every request
	 * queues behind the slowest one in flight.
	 */
	public static final int MIN_POOL_SIZE = 2;

	/** Headroom over the connections Little's law finds busy on average. */
	public static final int LITTLE_FACTOR = 2;

	/** How the size is derived when the grid shows no knee. */
	public static final String RULE = "the smallest measured pool size that sustained the rate and is at least "
			+ MIN_POOL_SIZE + " (with one connection every request queues behind the slowest), at least ceil("
			+ LITTLE_FACTOR + " \u00d7 the connections Little's law finds busy per instance) "
			+ "(room for bursts) and at least the deadlock floor, capped by the fleet budget.";

	public static NoKnee of(List<Cell> candidates, CrossChecks checks) {
		boolean littleKnown = !Double.isNaN(checks.littleBusyPerInstance());
		int littleFloor = littleKnown ? (int) Math.ceil(LITTLE_FACTOR * checks.littleBusyPerInstance() - 1e-9) : 0;
		int floor = Math.max(MIN_POOL_SIZE, Math.max(checks.deadlockFloor(), littleFloor));
		List<String> caveats = new ArrayList<>();
		Cell pick = candidates.stream().filter((cell) -> cell.poolSize() >= floor).findFirst().orElse(null);
		if (pick == null) {
			pick = candidates.get(candidates.size() - 1);
			caveats.add("Every pool size measured is below the no-knee floor of " + floor
					+ "; the largest measured is named. Measure larger pools.");
		}
		int poolSize = Math.min(pick.poolSize(), checks.fleetBudgetPerInstance());
		if (poolSize < pick.poolSize()) {
			caveats.add("The fleet budget (" + checks.fleetBudgetPerInstance() + " per instance) caps the "
					+ "derived pool size below pool " + pick.poolSize() + ", which was measured.");
		}
		String why = String.format(Locale.ROOT,
				"the smallest of them that is at least %d, at least twice the %s connections Little's law finds "
						+ "busy per instance (rounded up: %s) and at least the deadlock floor (%d), within the "
						+ "fleet budget (%s).",
				MIN_POOL_SIZE,
				littleKnown ? String.format(Locale.ROOT, "%.2f", checks.littleBusyPerInstance()) : "(unknown)",
				littleKnown ? String.valueOf(littleFloor) : "none", checks.deadlockFloor(), checks.budgetPerInstance());
		return new NoKnee(poolSize, why, caveats);
	}

}
