package org.poollab.bench.deploy;

import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.OptionalLong;
import java.util.Optional;
import java.util.stream.Collectors;

import org.jspecify.annotations.Nullable;

import org.poollab.bench.grid.TimeScale;
import org.poollab.bench.grid.Topology;
import org.poollab.bench.lab.ChildProcesses;
import org.poollab.bench.lab.LabFailureException;
import org.poollab.bench.lab.LabPaths;
import org.poollab.bench.results.Limits;
import org.poollab.bench.results.Point;
import org.poollab.bench.results.SweepResults;

/**
 * A topology running: its instances on the shared database and, for several instances,
 * what spreads the load over them. The load goes to the addresses in {@link #targets()}.
 */
public final class Deployment implements AutoCloseable {

	public static final String NGINX = "nginx";

	public static final String CLIENT_ROUND_ROBIN = "client-round-robin";

	public static final String NONE = Point.NO_LOAD_BALANCER;

	/**
	 * The load balancer of an external deployment reached by one URL: whatever the user
	 * runs in front of it.
	 */
	public static final String EXTERNAL = "external";

	private final List<Instance> instances;

	private final Entry entry;

	private final @Nullable PgBouncer pgbouncer;

	private final Context context;

	/**
	 * The pools of the deployment the lab did not start (restored on {@link #close()}),
	 * {@code null} for the lab's own.
	 */
	private final @Nullable ExternalPools external;

	/** Restores an external deployment's pools when the JVM is stopped mid-sweep. */
	private @Nullable Thread restoreOnShutdown;

	/**
	 * The swept pool size right now: pgbouncer's pool behind pgbouncer, else every
	 * instance's.
	 */
	private int poolSize;

	/** See {@link #resizedAtMs()}. */
	private List<Long> resizedAtMs = List.of();

	private Deployment(List<Instance> instances, Entry entry, @Nullable PgBouncer pgbouncer, Context context,
			int poolSize, @Nullable ExternalPools external) {
		this.instances = instances;
		this.entry = entry;
		this.pgbouncer = pgbouncer;
		this.context = context;
		this.poolSize = poolSize;
		this.external = external;
	}

	/**
	 * What every deployment of a run shares.
	 *
	 * @param database the shared database
	 * @param runDirectory the run's directory, each deployment's under its
	 * {@code deploy/}
	 * @param processes where what the lab starts is tracked, to be stopped with
	 * everything else
	 * @param out the console, where deployments report what they started or resized
	 */
	public record Context(Database database, Path runDirectory, ChildProcesses processes, PrintStream out) {

	}

	/**
	 * How the load reaches the instances.
	 *
	 * @param loadBalancer what spreads it over them ({@link #NGINX},
	 * {@link #CLIENT_ROUND_ROBIN}, {@link #NONE} or {@link #EXTERNAL})
	 * @param targets the file of their addresses
	 * @param nginx the nginx the lab started, {@code null} without one
	 */
	private record Entry(String loadBalancer, Path targets, @Nullable ProcessHandle nginx) {

	}

	/**
	 * What to deploy.
	 *
	 * @param topology single, multi or pgbouncer
	 * @param label names the deployment's directory under {@code deploy/}, e.g.
	 * {@code single} or {@code single-tomcat50}
	 * @param instances how many service instances
	 * @param poolSize the swept pool size: every instance's HikariCP pool
	 * ({@link SweepResults#NO_POOL} for none), or pgbouncer's pool in the pgbouncer
	 * topology
	 * @param clientPoolSize every instance's HikariCP pool in the pgbouncer topology
	 * @param limits every instance's CPUs, heap and request threads
	 * @param jvm the JDK every instance runs on
	 * @param pinning how instances are pinned to CPUs, {@code null} when they are not
	 * @param ports where everything listens
	 * @param nginx the nginx binary, when nginx spreads the load
	 * @param pgbouncer the pgbouncer binary, for the pgbouncer topology
	 * @param hikariBlock a YAML file every instance reads its
	 * {@code spring.datasource.hikari.*} settings from, as a user would paste them (the
	 * confirmation run); empty: the lab sets {@code maximum-pool-size} to
	 * {@code poolSize} on the command line and the rest comes from the service's
	 * {@code application.yml}
	 * @param scale slow motion: every instance's hold and wait for a connection stretched
	 * by its factor ({@link InstanceStart}); {@link TimeScale#NONE} for none
	 */
	public record Plan(Topology topology, String label, int instances, int poolSize, int clientPoolSize, Limits limits,
			ServiceJvm jvm, @Nullable CpuPinning pinning, Ports ports, Optional<Path> nginx, Optional<Path> pgbouncer,
			Optional<Path> hikariBlock, TimeScale scale) {

		/** Every instance's HikariCP pool size. */
		int instancePoolSize() {
			return (this.topology == Topology.PGBOUNCER) ? this.clientPoolSize : this.poolSize;
		}

	}

	/** The shared database's CPU time so far; empty where it cannot be read. */
	public OptionalLong databaseCpuNanos() {
		return this.context.database().cpuNanos();
	}

	/**
	 * Starts the instances (behind pgbouncer in the pgbouncer topology, and with what
	 * spreads the load over several) and waits until they serve, each checked to run with
	 * its limits, reported on the context's console.
	 */
	public static Deployment start(Plan plan, LabPaths paths, Context context)
			throws IOException, InterruptedException {
		Path directory = Files.createDirectories(context.runDirectory().resolve("deploy").resolve(plan.label()));
		Ports ports = plan.ports();
		ChildProcesses processes = context.processes();
		PrintStream out = context.out();
		PgBouncer pgbouncer = null;
		if (plan.topology() == Topology.PGBOUNCER) {
			// Every instance's whole pool may be connected at once, and more while
			// instances restart.
			pgbouncer = PgBouncer.start(plan.pgbouncer().orElseThrow(), context.database(), ports.pgbouncer(),
					plan.poolSize(), 2 * plan.instances() * plan.clientPoolSize() + 10, directory.resolve("pgbouncer"),
					processes);
			out.printf("  pgbouncer on 127.0.0.1:%d, transaction pooling, pool size %d%n", ports.pgbouncer(),
					plan.poolSize());
		}
		List<Instance> instances = new ArrayList<>();
		Limits limits = plan.limits();
		InstanceStart.Shared withoutArchive = new InstanceStart.Shared(paths, plan.jvm(), context.database(), pgbouncer,
				plan.instancePoolSize(), plan.hikariBlock().orElse(null), limits, plan.scale(), plan.pinning(),
				processes, null);
		InstanceStart.Shared shared = withoutArchive
			.withArchive(ServiceArchive.prepare(withoutArchive, directory, out).orElse(null));
		for (int i = 0; i < plan.instances(); i++) {
			int port = ports.instance(i);
			List<Integer> cpus = (plan.pinning() != null) ? plan.pinning().cpusOf(i, limits.cpus()) : List.of();
			instances.add(Instance.start(new InstanceStart(shared, port, ports.management(i), cpus,
					directory.resolve("instance-" + port + ".log"))));
		}
		for (Instance instance : instances) {
			instance.awaitReady();
			out.printf("  instance %d runs with %s%n", instance.port(), instance.verifyLimits());
		}
		Path targets = directory.resolve("targets.csv");
		if (plan.instances() == 1) {
			Files.writeString(targets, "127.0.0.1," + instances.get(0).port() + "\n");
			return new Deployment(instances, new Entry(NONE, targets, null), pgbouncer, context, plan.poolSize(), null);
		}
		List<Integer> instancePorts = instances.stream().map(Instance::port).toList();
		if (plan.nginx().isPresent()) {
			ProcessHandle handle = Nginx.start(plan.nginx().get(), directory.resolve("nginx"), ports.entry(),
					instancePorts, processes);
			Files.writeString(targets, "127.0.0.1," + ports.entry() + "\n");
			return new Deployment(instances, new Entry(NGINX, targets, handle), pgbouncer, context, plan.poolSize(),
					null);
		}
		Files.writeString(targets,
				instancePorts.stream().map((port) -> "127.0.0.1," + port + "\n").collect(Collectors.joining()));
		return new Deployment(instances, new Entry(CLIENT_ROUND_ROBIN, targets, null), pgbouncer, context,
				plan.poolSize(), null);
	}

	/**
	 * A deployment the lab did not start, sized to {@code poolSize}: its instances are
	 * its actuators, the load goes to its targets (round robin over several).
	 * @param foundSizes each instance's pool size before the lab changed it (restored on
	 * {@link #close()})
	 * @param limits what the points record of the instances (as deployed: the lab set
	 * nothing)
	 * @param context its resizes are reported on the context's console
	 */
	public static Deployment external(ExternalTarget target, List<Integer> foundSizes, int poolSize, Limits limits,
			Context context) throws IOException, InterruptedException {
		Path directory = Files.createDirectories(context.runDirectory().resolve("deploy").resolve(EXTERNAL));
		Path targets = directory.resolve("targets.csv");
		Files.writeString(targets,
				target.targets()
					.stream()
					.map((uri) -> uri.getHost() + "," + uri.getPort() + "\n")
					.collect(Collectors.joining()));
		List<Instance> instances = new ArrayList<>();
		for (int i = 0; i < target.instances(); i++) {
			URI actuator = target.actuators().get(i);
			instances.add(Instance.external(actuator.getHost(), actuator.getPort(), actuator, limits, target.token(),
					target.pool(i)));
		}
		String loadBalancer = (target.targets().size() > 1) ? CLIENT_ROUND_ROBIN : EXTERNAL;
		Deployment deployment = new Deployment(instances, new Entry(loadBalancer, targets, null), null, context,
				SweepResults.NO_POOL, new ExternalPools(target, foundSizes, instances, directory, context));
		// Ctrl-C or SIGTERM ends the lab without unwinding the sweep: a fleet left at a
		// pool of 1 would be the user's to find.
		deployment.restoreOnShutdown = new Thread(deployment::restoreWhileStopping, "lab-restore-pools");
		Runtime.getRuntime().addShutdownHook(deployment.restoreOnShutdown);
		deployment.resize(poolSize);
		context.out()
			.printf("  %d instance(s) at pool size %d, load to %s (%s)%n", instances.size(), poolSize, target.targets(),
					describe(loadBalancer));
		return deployment;
	}

	/** Whether the lab did not start this deployment (it stops nothing of it). */
	public boolean external() {
		return this.external != null;
	}

	public List<Instance> instances() {
		return this.instances;
	}

	/**
	 * Where the load goes, as URLs of {@code path}: the entries of {@link #targets()}.
	 * @param path e.g. {@code /roles}
	 * @return one URL per target, in its order
	 */
	public List<String> urls(String path) throws IOException {
		return Files.readAllLines(this.entry.targets())
			.stream()
			.filter((line) -> !line.isBlank())
			.map((line) -> line.split(","))
			.map((hostPort) -> "http://" + hostPort[0].trim() + ":" + hostPort[1].trim() + path)
			.toList();
	}

	public String loadBalancer() {
		return this.entry.loadBalancer();
	}

	/**
	 * A load balancer as the console names it, e.g. {@code load balancer nginx}: a bare
	 * {@code none} would read as "no pool", the lab's word for that.
	 */
	public static String describe(String loadBalancer) {
		return NONE.equals(loadBalancer) ? "no load balancer" : "load balancer " + loadBalancer;
	}

	public Path targets() {
		return this.entry.targets();
	}

	/** pgbouncer, in the pgbouncer topology; {@code null} otherwise. */
	public @Nullable PgBouncer pgbouncer() {
		return this.pgbouncer;
	}

	/**
	 * Sets the swept pool size: pgbouncer's pool behind pgbouncer, else every instance's.
	 * Refused at once when the lab's database is gone: the pools could never fill, and
	 * each instance would wait up to 30 s to say so.
	 */
	public synchronized void resize(int poolSize) throws IOException, InterruptedException {
		ExternalPools external = this.external;
		if (external != null && external.restored()) {
			// The sweep's thread runs on while the JVM stops: the pools stay as found.
			throw new LabFailureException(
					"Not resizing the external instances to %d: the lab is stopping, and their pools are back at the sizes found"
						.formatted(poolSize));
		}
		Database database = this.context.database();
		if (database.exit().isPresent()) {
			throw new LabFailureException("Could not resize the pools to %d: the lab's %s is gone".formatted(poolSize,
					database.vendor().product()));
		}
		if (this.pgbouncer != null) {
			try {
				this.pgbouncer.resize(poolSize);
			}
			catch (SQLException ex) {
				throw new LabFailureException(
						"Could not set pgbouncer's pool size to %d: %s".formatted(poolSize, ex.getMessage()), ex);
			}
			this.poolSize = poolSize;
			return;
		}
		if (external != null && external.byCommand()) {
			external.redeploy(poolSize);
			this.resizedAtMs = Collections.nCopies(this.instances.size(), System.currentTimeMillis());
		}
		else {
			this.resizedAtMs = Instance.resizeAtOnce(this.instances, poolSize);
		}
		this.poolSize = poolSize;
	}

	/**
	 * By instance, when the lab last saw its pool at a new size (its resize answered, or
	 * the resize command's wait read the size); empty before the first resize. The pool's
	 * gauges may show the old size for a while after (PoolWindow).
	 */
	public List<Long> resizedAtMs() {
		return this.resizedAtMs;
	}

	public int poolSize() {
		return this.poolSize;
	}

	/**
	 * Leaves an external deployment as the lab found it ({@link ExternalPools#restore}),
	 * never in the middle of a resize.
	 */
	private synchronized void restore() {
		ExternalPools external = this.external;
		if (external != null) {
			external.restore(this.poolSize);
		}
	}

	/**
	 * The shutdown hook's restore: through the resize endpoint, as at the end of a sweep
	 * ({@link ExternalPools#stopping}). Synchronized like {@link #restore()} and
	 * {@link #resize}: on Ctrl-C the sweep's thread, its JMeter stopped under it, may be
	 * restoring already ({@link #close()}), and the JVM halts once the hooks return. A
	 * hook that returned at once, seeing the restore begun, let the JVM halt in the
	 * middle of it (the likely reason a test's lab, at load 14, stopped with neither this
	 * hook's line nor the restore's on its console).
	 */
	private synchronized void restoreWhileStopping() {
		ExternalPools external = this.external;
		if (external != null && external.stopping(this.poolSize)) {
			restore();
		}
	}

	public List<Instance> deadInstances() {
		return this.instances.stream().filter((instance) -> !instance.isAlive()).toList();
	}

	@Override
	public void close() {
		if (this.external != null) {
			try {
				Runtime.getRuntime().removeShutdownHook(this.restoreOnShutdown);
			}
			catch (IllegalStateException ex) {
				// Already stopping: the hook waits for this restore
				// (restoreWhileStopping).
			}
			restore();
			return;
		}
		ChildProcesses processes = this.context.processes();
		ProcessHandle nginx = this.entry.nginx();
		if (nginx != null) {
			processes.stop(nginx);
		}
		this.instances.forEach(Instance::keepMetrics);
		// Not external: every instance is a JVM the lab started.
		this.instances.forEach((instance) -> processes.stop(Objects.requireNonNull(instance.handle())));
		if (this.pgbouncer != null) {
			this.pgbouncer.close();
		}
	}

}
