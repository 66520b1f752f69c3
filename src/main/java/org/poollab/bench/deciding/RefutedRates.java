package org.poollab.bench.deciding;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Rates the confirmation runs ruled out: where two pools' blocks, started as pasted,
 * failed, the grid's cells no longer say what a deployment does, so that rate never
 * decides, the fallback included.
 */
final class RefutedRates {

	private RefutedRates() {
	}

	/**
	 * Pools refuted at a rate before it no longer counts as a rate the topology holds as
	 * pasted: the grid's warm instances held it, fresh ones with two different blocks did
	 * not, so the grid's cells there do not say what a deployment will do, and a third
	 * pool there would be whichever the confirmations happened to leave
	 * (src/site/markdown/measurements.md, three instances under contention).
	 */
	static final int POOLS_PER_RATE = 2;

	/**
	 * Whether confirmation runs refuted {@link #POOLS_PER_RATE} pools at the rate.
	 */
	static boolean rateRefuted(Map<Integer, Set<Integer>> refutedByRate, int rateRps) {
		return refutedByRate.getOrDefault(rateRps, Set.of()).size() >= POOLS_PER_RATE;
	}

	/** Confirmation runs that refuted pools above the deciding rate, in a sentence. */
	static Optional<String> above(Map<Integer, Set<Integer>> refutedByRate, int decidingRateRps) {
		List<String> above = refutedByRate.entrySet()
			.stream()
			.filter((entry) -> entry.getKey() > decidingRateRps)
			.map((entry) -> "pool "
					+ entry.getValue().stream().sorted().map(String::valueOf).collect(Collectors.joining(", pool "))
					+ " at " + entry.getKey() + " rps")
			.toList();
		return above.isEmpty() ? Optional.empty()
				: Optional.of("Refuted by confirmation runs (started as pasted, Poisson arrivals): "
						+ String.join("; ", above) + ", so the answer is decided at " + decidingRateRps + " rps.");
	}

	/**
	 * Why no rate can decide because of refutations, in a sentence; empty when no rate
	 * was ruled out.
	 */
	static Optional<String> noRate(Map<Integer, Set<Integer>> refutedByRate) {
		List<String> refutedRates = refutedByRate.entrySet()
			.stream()
			.filter((entry) -> rateRefuted(refutedByRate, entry.getKey()))
			.sorted(Map.Entry.comparingByKey())
			.map((entry) -> "pool "
					+ entry.getValue().stream().sorted().map(String::valueOf).collect(Collectors.joining(", pool "))
					+ " at " + entry.getKey() + " rps")
			.toList();
		return refutedRates.isEmpty() ? Optional.empty()
				: Optional.of("No rate can decide: confirmation runs (started as pasted, Poisson arrivals) refuted "
						+ String.join("; ", refutedRates) + ", so the grid's cells there do not say what a deployment "
						+ "does, and no other rate was sustained by a pool whose latency is not understated. No "
						+ "maximum-pool-size is recommended. Measure lower rates, or again on a quiet machine.");
	}

}
