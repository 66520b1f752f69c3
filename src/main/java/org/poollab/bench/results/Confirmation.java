package org.poollab.bench.results;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A topology started afresh with exactly the recommended
 * {@code spring.datasource.hikari.*} block (read from a file, as a user pastes it), then
 * loaded with Poisson arrivals at the rate the pool size was chosen at.
 *
 * @param topology the topology, with its request threads when the sweep varied them, e.g.
 * {@code multi} or {@code single-virtual} ({@link Point#deployment()})
 * @param block the YAML the instances were started with, byte for byte
 * @param settings the block's {@code spring.datasource.hikari.*} settings as parsed from
 * it, by key (e.g. {@code connection-timeout} to {@code 500})
 * @param mismatches every difference between {@code settings} and what each instance
 * reported through its actuator once started; empty when they all matched
 * @param point the measured window: rate, arrivals, latency, status counts, outcome
 */
public record Confirmation(String topology, String block, Map<String, String> settings, List<String> mismatches,
		Point point) {

	public Confirmation {
		settings = Collections.unmodifiableMap(new LinkedHashMap<>(settings));
		mismatches = List.copyOf(mismatches);
	}

}
