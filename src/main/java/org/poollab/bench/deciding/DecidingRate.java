package org.poollab.bench.deciding;

import java.util.List;
import java.util.Set;

/**
 * The rate a topology's answer is decided at, with what either verdict there
 * ({@link IntervalVerdict}, {@link MarginVerdict}) needs beside its candidates.
 *
 * @param topology the grid being judged and its caveats so far
 * @param rateRps the deciding rate
 * @param why why this rate, for the summary
 * @param atRate the considered cells at that rate, every pool size
 * @param unpooled the cells without a pool, the baseline the summary quotes
 * @param refuted pool sizes whose confirmation run failed at that rate
 */
record DecidingRate(TopologyCase topology, int rateRps, String why, List<Cell> atRate, List<Cell> unpooled,
		Set<Integer> refuted) {

	/** The caveats gathered so far, which the verdict adds to. */
	List<String> caveats() {
		return this.topology.caveats();
	}

	/** What no pool did at this rate, for the end of a summary. */
	String withoutPool() {
		return Recommender.withoutPool(this.unpooled, this.rateRps);
	}

}
