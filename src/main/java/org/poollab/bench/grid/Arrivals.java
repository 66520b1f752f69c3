package org.poollab.bench.grid;

import java.util.Locale;

/**
 * How the open-model load spaces its requests. Poisson ({@code random}) arrivals give
 * 1.5-2x the p99 of evenly spaced ones at the same rate (measured on this project's
 * machine): a property of the load, so every result says which one it used.
 */
public enum Arrivals {

	/** Evenly spaced, like the paper's Vegeta. */
	EVEN,

	/** Poisson arrivals. */
	RANDOM;

	public String label() {
		return name().toLowerCase(Locale.ROOT);
	}

}
