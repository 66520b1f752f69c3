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

	private final List<String> notRun = new ArrayList<>();

	/**
	 * @param runs whether the topology's grid runs; when not, the capacity's reason says
	 * why, and nothing of it is measured
	 */
	void add(Capacity capacity, boolean runs) {
		this.measured.add(capacity);
		if (!runs) {
			this.notRun.add(capacity.topology() + ": " + capacity.reason());
		}
	}

	/** Each topology the box could not carry at the time scale allowed, and why. */
	List<String> notRun() {
		return List.copyOf(this.notRun);
	}

	List<Capacity> all() {
		return List.copyOf(this.measured);
	}

}
