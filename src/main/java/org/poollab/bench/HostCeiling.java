package org.poollab.bench;

import java.io.IOException;
import java.nio.file.Path;
import java.util.OptionalInt;

import org.poollab.bench.deploy.Deployment;
import org.poollab.bench.load.GeneratorCeiling;
import org.poollab.bench.load.JMeter;

/**
 * The load generator's own ceiling on this machine, measured once per sweep, on the first
 * deployment once it is warm ({@link GeneratorCeiling}). Remote engines' ceiling is
 * theirs, not this machine's: not measured; nor is it for a grid far below the first step
 * ({@link GeneratorCeiling#worthMeasuring}).
 */
final class HostCeiling {

	private OptionalInt rps = OptionalInt.empty();

	private boolean measured;

	void measureOnce(SweepContext sweep, JMeter jmeter, Deployment deployment, Path directory)
			throws IOException, InterruptedException {
		// An external deployment's ceiling would mix in the network and a host that is
		// not this one: each point's own check says whether JMeter kept its schedule.
		if (this.measured || jmeter.distributed() || deployment.external()) {
			return;
		}
		this.measured = true;
		int highest = sweep.grid().rates().stream().mapToInt(Integer::intValue).max().orElseThrow();
		if (!GeneratorCeiling.worthMeasuring(highest)) {
			sweep.out().println(GeneratorCeiling.notMeasured(highest));
			return;
		}
		this.rps = GeneratorCeiling.measure(jmeter, deployment.instances().get(0), highest, directory,
				sweep.processes(), sweep.out());
		sweep.out().println(GeneratorCeiling.describe(this.rps, sweep.grid().rates()));
	}

	/** The ceiling, empty when it was not measured or not even the first step held. */
	OptionalInt rps() {
		return this.rps;
	}

}
