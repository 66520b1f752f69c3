package org.poollab.bench.deciding;

import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * The {@code maximum-pool-size} to write for a topology: the measured answer, else
 * HikariCP's starting formula (or its default) capped by the fleet budget, unless that
 * value is at or below a pool size the grid measured to fail at every rate (a pgbouncer
 * pool of 4 beside a measured 5 that failed): then no value is supported and none is
 * written. Decided here, beside the rule, so the report only writes it.
 *
 * @param poolSize the value to write; empty when none is supported
 * @param formula the formula's value, for the reason the report gives
 * @param failedAtOrAbove measured pool sizes at or above the formula's value that
 * sustained no rate
 */
public record WrittenPool(OptionalLong poolSize, long formula, List<Integer> failedAtOrAbove) {

	/**
	 * HikariCP's default {@code maximum-pool-size}, what applies when none is written.
	 */
	public static final int HIKARI_DEFAULT_POOL_SIZE = 10;

	static WrittenPool of(Recommendation recommendation, TopologyGrid grid) {
		Recommendation.CrossChecks checks = recommendation.crossChecks();
		int start = checks.hikariStartingPoolSize().orElse(HIKARI_DEFAULT_POOL_SIZE);
		long formula = Math.max(checks.deadlockFloor(), Math.min(start, Math.max(1, checks.fleetBudgetPerInstance())));
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
		return new WrittenPool(poolSize, formula, failed);
	}

}
