package org.poollab.bench;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

import org.poollab.bench.deploy.Deployment;
import org.poollab.bench.deploy.ExternalTarget;
import org.poollab.bench.deploy.Instance;
import org.poollab.bench.deploy.Ports;
import org.poollab.bench.grid.Grid;
import org.poollab.bench.grid.Grid.Planned;
import org.poollab.bench.grid.TimeScale;
import org.poollab.bench.grid.Topology;
import org.poollab.bench.load.ConfirmationRun;
import org.poollab.bench.load.WarmUp;
import org.poollab.bench.results.Limits;

/**
 * Starts a topology and warms it up with the pools at the largest size the deployment
 * will measure (so that a pool of 1 does not queue a cold JVM's slow first requests) and
 * the load rising from nothing to the grid's highest rate, then held there: a JIT warmed
 * only to the lowest rate was still compiling at the highest (under wrk one instance
 * served 3,632 rps after 25 s and 4,706 after 60 s), held until the instances' own
 * latency settles ({@link WarmUp}). The first round starts at the largest pool size, so
 * no resize follows. Instances the warm-up killed are replaced.
 */
final class Deployer {

	private final SweepContext sweep;

	Deployer(SweepContext sweep) {
		this.sweep = sweep;
	}

	/**
	 * A deployment for the grid's points at the team's time, warmed up through the grid's
	 * rates.
	 */
	Deployment deploy(Planned point, int largestPoolSize) throws IOException, InterruptedException {
		return deploy(point, largestPoolSize, TimeScale.NONE);
	}

	/**
	 * A deployment for the grid's points, warmed up through the grid's rates.
	 * @param scale slow motion: holds and connection-timeout stretched, warm-up rates
	 * divided ({@link TimeScale#NONE} for none)
	 */
	Deployment deploy(Planned point, int largestPoolSize, TimeScale scale) throws IOException, InterruptedException {
		Grid grid = this.sweep.grid();
		return deploy(point, largestPoolSize, Optional.empty(), grid.rates(), grid.topologyWarmup(), scale);
	}

	/**
	 * @param hikariBlock the YAML file every instance reads its HikariCP settings from
	 * (the confirmation run), empty for the sweep's own deployments
	 * @param rates the team's rates the warm-up steps through, up to the highest
	 * @param most the longest warm-up; none when zero
	 * @param scale slow motion ({@link TimeScale#NONE} for none)
	 */
	Deployment deploy(Planned point, int largestPoolSize, Optional<Path> hikariBlock, List<Integer> rates,
			Duration most, TimeScale scale) throws IOException, InterruptedException {
		Grid grid = this.sweep.grid();
		PreFlight found = this.sweep.preFlight();
		if (found.external().isPresent()) {
			// The confirmation's block needs a deployment the lab starts: never here.
			// Never slowed: refused with a fixed k, and auto runs it at 1.
			return external(point, largestPoolSize, found.external().get(), found.foundSizes(), rates);
		}
		Topology topology = point.topology();
		String label = (hikariBlock.isPresent() ? "confirm-" : "") + point.deploymentLabel()
				+ (point.pooled() ? "" : "-nopool");
		Limits limits = grid.limits(point.vendor(), point.stack(), point.threads());
		this.sweep.out()
			.printf("Starting %s topology (%d instance(s), %s, %s)...%n", topology.label(), point.instances(),
					describePool(point, largestPoolSize, hikariBlock),
					limits.describe() + (scale.slowed() ? ", in slow motion (k = " + scale.factor() + ")" : ""));
		// The confirmation runs the pasted block on HikariCP alone.
		Deployment.Plan plan = new Deployment.Plan(topology, label, point.instances(), largestPoolSize,
				grid.pgbouncerClientPoolSize(), limits, found.serviceJvm(), found.pinning(),
				new Ports(this.sweep.properties().deployment().basePort(), point.instances()), found.nginx(),
				hikariBlock.isPresent() ? Optional.empty() : found.pgbouncer(), hikariBlock, scale);
		Deployment deployment = start(plan);
		if (most.isZero()) {
			return deployment;
		}
		warmUp(deployment, label, rates, most, scale);
		if (deployment.deadInstances().isEmpty()) {
			return deployment;
		}
		return replaceKilledInWarmUp(deployment, plan, label, rates, most);
	}

	/** The pools the deployment starts with, for the console. */
	private String describePool(Planned point, int largestPoolSize, Optional<Path> hikariBlock) {
		if (point.topology() == Topology.PGBOUNCER) {
			return "pgbouncer pool %d, HikariCP pools of %d".formatted(largestPoolSize,
					this.sweep.grid().pgbouncerClientPoolSize());
		}
		if (hikariBlock.isPresent()) {
			return "pool " + largestPoolSize + " and every pool setting from " + hikariBlock.get();
		}
		return point.pooled() ? "pool " + largestPoolSize + ", the largest this deployment measures"
				: "no pool: a new connection per request";
	}

	/**
	 * An instance the warm-up killed is no point's failure: a warm-up is not measured.
	 * Fresh instances take its place; when the load killed it (not a signal from
	 * outside), their warm-up stops below the rate that did.
	 */
	private Deployment replaceKilledInWarmUp(Deployment deployment, Deployment.Plan plan, String label,
			List<Integer> rates, Duration most) throws IOException, InterruptedException {
		boolean fromOutside = deployment.deadInstances().stream().allMatch(Instance::killedFromOutside);
		for (Instance dead : deployment.deadInstances()) {
			this.sweep.out()
				.printf("  Instance %d died in the warm-up (%s); its log: %s%n", dead.port(), dead.deathCause(),
						dead.keepLog(label + "-warmup"));
		}
		deployment.close();
		int top = rates.stream().mapToInt(Integer::intValue).max().orElseThrow();
		List<Integer> lower = fromOutside ? rates : rates.stream().filter((rate) -> rate < top).toList();
		if (fromOutside) {
			this.sweep.out()
				.printf("  Starting %s again: an instance was ended from outside during the warm-up.%n", label);
		}
		else if (lower.isEmpty()) {
			this.sweep.out()
				.printf("  Starting %s again, without a warm-up (no grid rate below %d rps, which killed it).%n", label,
						top);
		}
		else {
			this.sweep.out()
				.printf("  Starting %s again, warming up to %d rps only: the points at %d rps will show what that rate does to warm instances.%n",
						label, lower.stream().mapToInt(Integer::intValue).max().getAsInt(), top);
		}
		Deployment fresh = start(plan);
		if (!lower.isEmpty()) {
			warmUp(fresh, label, lower, most, plan.scale());
		}
		return fresh;
	}

	/**
	 * The deployment the lab did not start, resized to the largest pool the sweep
	 * measures and warmed up like the lab's own.
	 */
	private Deployment external(Planned point, int largestPoolSize, ExternalTarget target, List<Integer> foundSizes,
			List<Integer> rates) throws IOException, InterruptedException {
		this.sweep.out()
			.printf("Sweeping the external deployment (%d instance(s) by their actuators, pool %d first, the largest this sweep measures; resized %s)...%n",
					target.instances(), largestPoolSize,
					target.resizeCommand().isPresent() ? "by bench.resizeCommand" : "through their resize endpoint");
		Deployment deployment = Deployment.external(target, foundSizes, largestPoolSize,
				this.sweep.grid().limits(point.vendor(), point.stack(), point.threads()), context());
		if (!this.sweep.grid().topologyWarmup().isZero()) {
			warmUp(deployment, "external", rates, this.sweep.grid().topologyWarmup(), TimeScale.NONE);
		}
		return deployment;
	}

	private Deployment start(Deployment.Plan plan) throws IOException, InterruptedException {
		return Deployment.start(plan, this.sweep.paths(), context());
	}

	private Deployment.Context context() {
		return new Deployment.Context(this.sweep.database(), this.sweep.store().directory(), this.sweep.processes(),
				this.sweep.out());
	}

	private void warmUp(Deployment deployment, String label, List<Integer> rates, Duration most, TimeScale scale)
			throws IOException, InterruptedException {
		WarmUp.Plan plan = new WarmUp.Plan(rates, most, this.sweep.properties().deciding().p99Objective(),
				this.sweep.grid().arrivals(), scale);
		this.sweep.time()
			.warmedUp(new WarmUp(this.sweep.jmeter(), this.sweep.loadDirectory(), this.sweep.processes(),
					this.sweep.out())
				.run(deployment, label, plan));
	}

}
