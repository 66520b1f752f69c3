package org.poollab.bench.results;

import java.util.List;

/**
 * Adaptive effort on one topology: its decision was not settled (the decision redone on
 * drawn p99s picked the choice less often than 80 %), so the cells that decide it were
 * measured again, a round at a time.
 *
 * @param topology the topology, with its request threads when the sweep varied them
 * ({@link Point#deployment()})
 * @param rateRps the deciding rate
 * @param pools the pool sizes measured again
 * @param rounds extra rounds run
 * @param seconds wall time they took
 * @param probabilityBefore how often the choice was picked before
 * @param probabilityAfter how often the (possibly new) choice was picked after
 * @param end why it stopped: {@code settled}, {@code cap} (bench.adaptiveCap spent),
 * {@code rounds} (the most rounds it runs) or {@code died} (an instance died)
 */
public record Settling(String topology, int rateRps, List<Integer> pools, int rounds, double seconds,
		double probabilityBefore, double probabilityAfter, String end) {

	/**
	 * Said when adaptive effort leaves fewer than two pool sizes to compare (a new repeat
	 * failed), so the decision has nothing to redraw: by the console and the answer card
	 * alike.
	 */
	public static final String NOT_REDRAWN = "fewer than two pool sizes were left to compare at the deciding rate, so the choice was not redrawn";

}
