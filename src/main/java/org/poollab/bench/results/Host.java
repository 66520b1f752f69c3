package org.poollab.bench.results;

import java.util.List;

import org.jspecify.annotations.Nullable;

/**
 * The machine a sweep ran on, as {@code results.json} records it: what its figures were
 * measured against.
 *
 * @param cpuCores processors the JVM sees
 * @param loadGenerator how the load was generated, e.g.
 * {@code JMeter 5.6.3 OpenModelThreadGroup}
 * @param generatorCeilingRps the highest rate the load generator held on this machine
 * against a request that does no work (late starts p99 within the limit, rate within 3
 * %), measured before the grid; {@code null} when not measured (older results, remote
 * engines)
 * @param capacities what each topology's deployment carried on this machine, in the order
 * they ran ({@link Capacity}); empty in results written before it was measured
 */
public record Host(int cpuCores, String loadGenerator, @Nullable Integer generatorCeilingRps,
		List<Capacity> capacities) {

	public Host {
		capacities = (capacities != null) ? List.copyOf(capacities) : List.of();
	}

	/** A host whose generator ceiling and capacities were not measured. */
	public Host(int cpuCores, String loadGenerator) {
		this(cpuCores, loadGenerator, null, List.of());
	}

	/**
	 * The same host with the generator's measured ceiling.
	 * @param ceilingRps the ceiling
	 * @return the copy
	 */
	public Host withGeneratorCeiling(int ceilingRps) {
		return new Host(this.cpuCores, this.loadGenerator, ceilingRps, this.capacities);
	}

	/**
	 * The same host with what each topology carried.
	 * @param measured the capacities, in the order the topologies ran
	 * @return the copy
	 */
	public Host withCapacities(List<Capacity> measured) {
		return new Host(this.cpuCores, this.loadGenerator, this.generatorCeilingRps, measured);
	}

	/** The capacity measured for a deployment label, if any. */
	public java.util.Optional<Capacity> capacity(String topology) {
		return this.capacities.stream().filter((c) -> c.topology().equals(topology)).findFirst();
	}

}
