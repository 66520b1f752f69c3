package org.poollab.bench.results;

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
 */
public record Host(int cpuCores, String loadGenerator, @Nullable Integer generatorCeilingRps) {

	/** A host whose generator ceiling was not measured. */
	public Host(int cpuCores, String loadGenerator) {
		this(cpuCores, loadGenerator, null);
	}

	/**
	 * The same host with the generator's measured ceiling.
	 * @param ceilingRps the ceiling
	 * @return the copy
	 */
	public Host withGeneratorCeiling(int ceilingRps) {
		return new Host(this.cpuCores, this.loadGenerator, ceilingRps);
	}

}
