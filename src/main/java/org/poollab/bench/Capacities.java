package org.poollab.bench;

import java.util.ArrayList;
import java.util.List;

import org.poollab.bench.results.Capacity;

/**
 * What each topology's deployment carried on this machine, as the sweep probed them
 * ({@link org.poollab.bench.load.CapacityProbe}), kept until the results are finished:
 * they are the host's, recorded beside its generator ceiling.
 */
final class Capacities {

	private final List<Capacity> measured = new ArrayList<>();

	void add(Capacity capacity) {
		this.measured.add(capacity);
	}

	List<Capacity> all() {
		return List.copyOf(this.measured);
	}

}
