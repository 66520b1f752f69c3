package org.poollab.bench.deciding;

import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * The {@code maximum-pool-size} to write for a topology: the measured answer, else
 * HikariCP's starting formula (or its default), raised to carry the busiest point's load
 * ({@link #littleFloor}), capped by the fleet budget, unless that value is at or below a
 * pool size the grid measured to fail at every rate (a pgbouncer pool of 4 beside a
 * measured 5 that failed): then no value is supported and none is written. Decided here,
 * beside the rule, so the report only writes it.
 *
 * @param poolSize the value to write; empty when none is supported
 * @param formula the formula's value, for the reason the report gives
 * @param littleFloor the smallest pool that keeps the busiest point's connections busy on
 * average (Little's law) at most {@link #MOST_BUSY_SHARE} of it, where that raised
 * HikariCP's starting formula (or default); 0 when it did not, or no point measured a
 * hold
 * @param failedAtOrAbove measured pool sizes at or above the formula's value that
 * sustained no rate
 */
public record WrittenPool(OptionalLong poolSize, long formula, long littleFloor, List<Integer> failedAtOrAbove) {

	/**
	 * HikariCP's default {@code maximum-pool-size}, what applies when none is written.
	 */
	public static final int HIKARI_DEFAULT_POOL_SIZE = 10;

	/**
	 * The largest share of an unmeasured pool that the busiest point's load may keep busy
	 * on average. HikariCP's formula knows the database's cores, not the team's rate and
	 * hold: a pool at or under the connections that rate keeps busy (rate x hold,
	 * Little's law) never catches up, and in Erlang C the wait for a connection climbs
	 * steeply as the pool's utilisation passes about 0.8 (at 10 connections the chance of
	 * waiting is about 0.4 at 0.8 and 0.7 at 0.9). A fallback must not be smaller than
	 * what the question itself needs.
	 */
	public static final double MOST_BUSY_SHARE = 0.8;

	static WrittenPool of(Recommendation recommendation, TopologyGrid grid) {
		Recommendation.CrossChecks checks = recommendation.crossChecks();
		int start = checks.hikariStartingPoolSize().orElse(HIKARI_DEFAULT_POOL_SIZE);
		double busy = checks.littleBusyPerInstance();
		long littleFloor = (Double.isFinite(busy) && busy > 0) ? (long) Math.ceil(busy / MOST_BUSY_SHARE) : 0;
		long formula = Math.max(checks.deadlockFloor(),
				Math.min(Math.max(start, littleFloor), Math.max(1, checks.fleetBudgetPerInstance())));
		long littleRaise = (littleFloor > start) ? littleFloor : 0;
		List<Integer> failed = grid.cells()
			.stream()
			.filter((cell) -> cell.poolSize() > 0)
			.collect(Collectors.groupingBy(Cell::poolSize, TreeMap::new, Collectors.toList()))
			.entrySet()
			.stream()
			.filter((pool) -> pool.getKey() >= formula && pool.getValue().stream().noneMatch(Cell::sustained))
			.map(Map.Entry::getKey)
			.toList();
		OptionalLong poolSize = recommendation.poolSize().isPresent()
				? OptionalLong.of(recommendation.poolSize().getAsInt())
				: failed.isEmpty() ? OptionalLong.of(formula) : OptionalLong.empty();
		return new WrittenPool(poolSize, formula, littleRaise, failed);
	}

}
