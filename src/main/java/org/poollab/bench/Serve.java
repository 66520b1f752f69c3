package org.poollab.bench;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.stream.Collectors;

import org.poollab.bench.deploy.Database;
import org.poollab.bench.deploy.Deployment;
import org.poollab.bench.deploy.PgBouncer;
import org.poollab.bench.deploy.Ports;
import org.poollab.bench.grid.Grid;
import org.poollab.bench.grid.TimeScale;
import org.poollab.bench.grid.Topology;
import org.poollab.bench.lab.BenchSettingException;
import org.poollab.bench.lab.ChildProcesses;
import org.poollab.bench.lab.LabPaths;
import org.poollab.bench.lab.Programs;
import org.poollab.bench.load.JMeter;
import org.poollab.bench.report.RecommendedYaml;
import org.poollab.bench.results.Limits;
import org.poollab.bench.results.SweepResults;
import org.poollab.bench.settings.BenchProperties;

/**
 * {@code -Psingle}/{@code -Pmulti}: one deployment kept running for exploration in the
 * JMeter GUI, checked by the same {@link PreFlight} as a sweep.
 */
record Serve(Grid grid, BenchProperties properties, LabPaths paths, Programs programs, PrintStream out) {

	/**
	 * Every instance's actuator address (host,port per line) for the exploring plan,
	 * beside the deployment's targets file.
	 */
	static final String ACTUATORS_FILE = "actuators.csv";

	/**
	 * Starts a deployment and keeps it running for exploration (the JMeter GUI) until the
	 * JVM is stopped with Ctrl-C, which stops everything it started.
	 */
	void run(Topology topology) throws IOException, InterruptedException, SQLException {
		int instances = this.grid.instancesOf(topology);
		if (topology == Topology.PGBOUNCER && this.programs.find(PgBouncer.PROGRAM).isEmpty()) {
			throw new BenchSettingException(
					"bench.serve=pgbouncer, but pgbouncer is not installed (apt-get install pgbouncer)");
		}
		// Exploring starts from HikariCP's own default unless a size is given: the
		// preset's smallest (often 1) would look broken under any real load.
		int poolSize = (this.properties.axes().poolSizes() != null) ? this.grid.poolSizesOf(topology).get(0)
				: RecommendedYaml.HIKARI_DEFAULT_POOL_SIZE;
		PreFlight preFlight = PreFlight.check(this.grid, this.properties, this.programs, List.of(topology), poolSize,
				this.out);
		Limits limits = this.grid.limits(this.grid.vendors().get(0), this.grid.stacks().get(0),
				this.grid.threads().get(0));
		Path directory = Files
			.createDirectories(this.properties.run().outputDirectory().toAbsolutePath().resolve("serve"));
		ChildProcesses processes = new ChildProcesses();
		Database database = this.properties.database().open(this.grid.vendors().get(0), directory, processes);
		Deployment deployment = Deployment.start(
				new Deployment.Plan(topology, topology.label(), instances, poolSize,
						this.grid.pgbouncerClientPoolSize(), limits, preFlight.serviceJvm(), preFlight.pinning(),
						new Ports(this.properties.deployment().basePort(), instances), preFlight.nginx(),
						preFlight.pgbouncer(), Optional.empty(), TimeScale.NONE),
				this.paths, new Deployment.Context(database, directory, processes, this.out));
		this.out.printf(Locale.ROOT,
				"%n%s deployment running: %d instance(s), pool %s, %s, %s.%nTargets for JMeter's plans (their targets property): %s%n",
				topology.label(), instances, SweepResults.poolLabel(poolSize), limits.describe(),
				Deployment.describe(deployment.loadBalancer()), JMeter.targets(deployment.targets()));
		deployment.instances()
			.forEach((instance) -> this.out.printf(
					"  instance %s  actuator %s, %s%n    resize: curl -XPOST -H 'Content-Type: application/json' -d '{\"maximumPoolSize\":8}' %s%n",
					instance.uri("/roles"), instance.actuator("health"), instance.actuator("prometheus"),
					instance.actuator("poolsize")));
		// The exploring plan reads every instance's pool gauges from its actuator.
		Path actuators = deployment.targets().resolveSibling(ACTUATORS_FILE);
		Files.writeString(actuators,
				deployment.instances()
					.stream()
					.map((instance) -> instance.actuator(""))
					.map((actuator) -> actuator.getHost() + "," + actuator.getPort() + "\n")
					.collect(Collectors.joining()));
		this.out.printf(
				"Open the exploring plan in the JMeter GUI:%n  ./mvnw -Pgui -Djmeter.targets=%s -Djmeter.actuators=%s%nPress Ctrl-C to stop everything.%n",
				JMeter.targets(deployment.targets()), actuators);
		Thread.currentThread().join();
	}

}
