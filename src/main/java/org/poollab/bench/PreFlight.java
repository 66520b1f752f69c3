package org.poollab.bench;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.List;
import java.util.Optional;

import org.jspecify.annotations.Nullable;

import org.poollab.bench.deploy.CpuPinning;
import org.poollab.bench.deploy.Database;
import org.poollab.bench.deploy.ExternalTarget;
import org.poollab.bench.deploy.Nginx;
import org.poollab.bench.deploy.PgBouncer;
import org.poollab.bench.deploy.Ports;
import org.poollab.bench.deploy.ServiceJvm;
import org.poollab.bench.grid.Grid;
import org.poollab.bench.grid.Requests;
import org.poollab.bench.grid.Topology;
import org.poollab.bench.lab.BenchSettingException;
import org.poollab.bench.lab.LabPaths;
import org.poollab.bench.lab.Programs;
import org.poollab.bench.load.JMeter;
import org.poollab.bench.load.RemoteEngines;
import org.poollab.bench.results.SweepResults;
import org.poollab.bench.settings.BenchProperties;
import org.poollab.bench.settings.BenchSetting;
import org.poollab.bench.settings.LoadBalancerChoice;
import org.poollab.bench.settings.SweepDatabase;
import org.poollab.vendor.DatabaseVendor;

import static org.poollab.bench.results.PgBouncerFacts.poolsAtTheDatabase;

/**
 * What is checked before anything starts, for a sweep and for {@code -Psingle/-Pmulti}
 * alike: the ports are free, the programs the topologies need are here (nginx, pgbouncer,
 * taskset), the database answers and its connection budget holds the largest fleet, the
 * remote engines are loopback, answer as JMeter servers and keep the lab's time. A
 * setting that fails here starts nothing.
 *
 * @param nginx nginx, when the topologies need a load balancer and it is installed
 * @param pgbouncer pgbouncer, when a topology needs it and it is installed
 * @param pinning how instances are pinned to CPUs, {@code null} when they are not
 * @param remoteEngines JMeter servers to load from, checked; none for JMeter here
 * @param serviceJvm the JDK the instances run on
 * @param external the deployment the lab did not start ({@code bench.target=external}),
 * checked to answer; empty when the lab deploys
 * @param foundSizes each external instance's pool size when the pre-flight looked (what
 * the lab restores at the end), empty when the lab deploys
 */
record PreFlight(Optional<Path> nginx, Optional<Path> pgbouncer, @Nullable CpuPinning pinning,
		RemoteEngines remoteEngines, ServiceJvm serviceJvm, Optional<ExternalTarget> external,
		List<Integer> foundSizes) {

	PreFlight(Optional<Path> nginx, Optional<Path> pgbouncer, @Nullable CpuPinning pinning, RemoteEngines remoteEngines,
			ServiceJvm serviceJvm) {
		this(nginx, pgbouncer, pinning, remoteEngines, serviceJvm, Optional.empty(), List.of());
	}

	/**
	 * The pre-flight of a deployment the lab did not start: nothing of the lab's own
	 * deployments is looked for (ports, nginx, pgbouncer, taskset, a JDK); the targets
	 * must answer, the actuators show HikariCP's pool size, the resize endpoint take the
	 * lab's credential ({@link ExternalTarget#requireReady}); the budget is checked when
	 * {@code bench.database.url} names the database, and said not to be otherwise. Remote
	 * engines may be on other hosts here (the targets are where the user says), checked
	 * like the lab's own sweep's (answer, clock).
	 */
	static PreFlight checkExternal(Grid grid, BenchProperties properties, ExternalTarget external, PrintStream out)
			throws SQLException, IOException, InterruptedException {
		// Settings first, then what asks the network.
		RemoteEngines engines = properties.remoteEngineSettings();
		JMeter.requireEvenSplit(grid.rates(), engines.addresses());
		JMeter.requireReachable(engines.addresses(), false);
		external.requireReachableFrom(engines.addresses().stream().map(RemoteEngines::host).toList());
		if (properties.database().configured()) {
			requireOwnTables(properties.database(), out);
			requireBudget(grid, externalSettings(properties), grid.topologies(), grid.largestPoolSize());
		}
		else {
			out.printf(
					"The connection budget is not checked: without bench.database.url the lab cannot read the database's max_connections (%d instance(s) x pool up to %d must fit it).%n",
					external.instances(), grid.largestPoolSize());
		}
		ExternalTarget.Ready found = external.requireReady(out);
		// Last: it runs the lab's JMeter against the engines for a few seconds.
		engines = engines.check(LabPaths.of(properties.run().buildDirectory()), out);
		return new PreFlight(Optional.empty(), Optional.empty(), null, engines, ServiceJvm.choose(null, false),
				Optional.of(found.target()), found.sizes());
	}

	/**
	 * @param topologies the topologies that will run
	 * @param largestPoolSize the largest pool size any instance will hold
	 */
	static PreFlight check(Grid grid, BenchProperties properties, Programs programs, List<Topology> topologies,
			int largestPoolSize, PrintStream out) throws SQLException, IOException, InterruptedException {
		RemoteEngines engines = properties.remoteEngineSettings();
		ServiceJvm serviceJvm = ServiceJvm.choose(properties.deployment().serviceJavaHome(), grid.virtualThreads());
		Optional<Path> pgbouncer = pgbouncerFor(topologies, programs, out);
		int mostInstances = topologies.stream().mapToInt(grid::instancesOf).max().orElse(1);
		new Ports(properties.deployment().basePort(), mostInstances).requireFree();
		Optional<Path> nginx = loadBalancer(properties, programs, mostInstances, out);
		if (properties.database().configured()) {
			requireOwnTables(properties.database(), out);
			requireBudget(grid, externalSettings(properties), topologies, largestPoolSize);
		}
		else {
			// Each vendor's embedded server, known before any starts: a budget that one
			// of them cannot hold starts neither.
			for (DatabaseVendor vendor : grid.vendors()) {
				requireBudget(grid, Database.embeddedSettings(vendor), topologies, largestPoolSize);
			}
		}
		JMeter.requireEvenSplit(grid.rates(), engines.addresses());
		JMeter.requireReachable(engines.addresses(), true);
		CpuPinning pinning = pinning(grid.instanceCpus(), programs);
		// Last: it runs the lab's JMeter against the engines for a few seconds.
		engines = engines.check(LabPaths.of(properties.run().buildDirectory()), out);
		PreFlight found = new PreFlight(nginx, pgbouncer, pinning, engines, serviceJvm);
		out.println("Service instances run on " + serviceJvm.describe() + ".");
		return found;
	}

	/**
	 * Refuses topologies whose fleet could ask the database for more connections than it
	 * accepts from regular users.
	 */
	static void requireBudget(Grid grid, Database.Settings settings, List<Topology> topologies, int poolSize) {
		if (poolSize == SweepResults.NO_POOL) {
			return;
		}
		for (Topology topology : topologies) {
			Database.requireBudget(settings,
					poolsAtTheDatabase(topology == Topology.PGBOUNCER, grid.instancesOf(topology)), poolSize);
		}
	}

	private static @Nullable CpuPinning pinning(int instanceCpus, Programs programs) {
		if (instanceCpus <= 0) {
			return null;
		}
		if (instanceCpus > Runtime.getRuntime().availableProcessors()) {
			throw new BenchSettingException(BenchSetting.INSTANCE_CPUS.refusal(instanceCpus, null));
		}
		return CpuPinning.require(instanceCpus, programs);
	}

	private static Optional<Path> loadBalancer(BenchProperties properties, Programs programs, int instances,
			PrintStream out) {
		if (instances < 2 || properties.deployment().loadBalancer() == LoadBalancerChoice.CLIENT) {
			return Optional.empty();
		}
		Optional<Path> nginx = programs.find(Nginx.PROGRAM);
		if (nginx.isEmpty() && properties.deployment().loadBalancer() == LoadBalancerChoice.NGINX) {
			throw new BenchSettingException(
					"bench.loadBalancer=nginx, but nginx is not installed (apt-get install nginx-light). Allowed: auto (nginx when installed, else the plan's round robin), nginx, client");
		}
		if (nginx.isEmpty()) {
			out.println(
					"nginx is not installed: the plan spreads requests over the instances itself (client-side round robin).");
		}
		return nginx;
	}

	/**
	 * A database named by URL is the team's: says which tables the lab creates and which
	 * it empties there, and refuses one that holds tables of anyone else's unless
	 * {@code bench.database.allowForeignTables=true} says that is meant.
	 */
	static void requireOwnTables(SweepDatabase external, PrintStream out) throws SQLException {
		String url = Database.withoutQuery(external.url());
		String tables = String.join(", ", Database.LAB_TABLES);
		List<String> foreign;
		try (Database database = external.connect()) {
			foreign = database.foreignTables();
		}
		catch (SQLException ex) {
			throw new BenchSettingException(
					"bench.database.url=%s: cannot connect (%s). Check the URL, user and password, or leave bench.database.url unset for the embedded %s."
						.formatted(url, ex.getMessage(), external.externalVendor().product()));
		}
		if (!foreign.isEmpty() && !external.allowForeignTables()) {
			String named = (foreign.size() <= 3) ? String.join(", ", foreign)
					: String.join(", ", foreign.subList(0, 3)) + " and " + (foreign.size() - 3) + " more";
			throw new BenchSettingException(
					"bench.database.url=%s holds tables that are not the lab's (%s): the lab creates %s there and empties %s before every point of the write workload. Point it at a dedicated, empty database, or set bench.database.allowForeignTables=true to run there anyway. Nothing was started."
						.formatted(url, named, tables, Database.EMPTIED_TABLE));
		}
		out.printf(
				"bench.database.url=%s: the lab's service creates %s there when missing (its Flyway migrations), and the write workload empties %s before every point%s.%n",
				url, tables, Database.EMPTIED_TABLE, foreign.isEmpty() ? "" : "; " + foreign.size()
						+ " other table(s) there are left alone " + "(bench.database.allowForeignTables=true)");
	}

	private static Database.Settings externalSettings(BenchProperties properties) throws SQLException {
		SweepDatabase external = properties.database();
		try (Database database = external.connect()) {
			return database.settings();
		}
		catch (SQLException ex) {
			throw new BenchSettingException(
					"bench.database.url=%s: cannot connect (%s). Check the URL, user and password, or leave bench.database.url unset for the embedded %s."
						.formatted(Database.withoutQuery(external.url()), ex.getMessage(),
								external.externalVendor().product()));
		}
	}

	/**
	 * pgbouncer, when the grid has the pgbouncer topology and it is installed; when it is
	 * not, the topology is skipped, and the console says so.
	 */
	private static Optional<Path> pgbouncerFor(List<Topology> topologies, Programs programs, PrintStream out) {
		if (!topologies.contains(Topology.PGBOUNCER)) {
			return Optional.empty();
		}
		Optional<Path> pgbouncer = programs.find(PgBouncer.PROGRAM);
		if (pgbouncer.isEmpty()) {
			out.println("pgbouncer is not installed (apt-get install pgbouncer): skipping the pgbouncer topology.");
		}
		return pgbouncer;
	}

	/** What the load sends: the team's requests in target mode, else the workload's. */
	String load(Grid grid) {
		return this.external.flatMap(ExternalTarget::requests).map(Requests::label).orElse(grid.workload().label());
	}

	/**
	 * What was taken from the team's JMeter plan and what was left out, when its requests
	 * come from one ({@code bench.requests=plan:FILE}).
	 */
	Optional<String> fromPlan() {
		return this.external.flatMap(ExternalTarget::requests).flatMap(Requests::fromPlan);
	}

}
