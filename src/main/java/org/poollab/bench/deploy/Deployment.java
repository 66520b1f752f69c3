package org.poollab.bench.deploy;

import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.OptionalLong;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Collectors;

import org.jspecify.annotations.Nullable;

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

	/** How often the wait after a resize command looks at every instance's pool size. */
	private static final Duration POLL = Duration.ofSeconds(1);

	private final List<Instance> instances;

	private final String loadBalancer;

	private final Path targets;

	private final @Nullable ProcessHandle nginx;

	private final @Nullable PgBouncer pgbouncer;

	private final ChildProcesses processes;

	private final Database database;

	/** The deployment the lab did not start, {@code null} for the lab's own. */
	private final @Nullable ExternalTarget external;

	/**
	 * Each external instance's pool size when the lab found it: restored on
	 * {@link #close()}.
	 */
	private final List<Integer> foundSizes;

	/** Where an external deployment's resize commands log, {@code null} otherwise. */
	private final @Nullable Path directory;

	/** Where the restoring of an external deployment's pool sizes is reported. */
	private final PrintStream out;

	/**
	 * Set once an external deployment's pools are restored (or found as they were): by
	 * {@link #close()}, or by the JVM's shutdown on Ctrl-C or SIGTERM, whichever comes
	 * first.
	 */
	private final AtomicBoolean restored = new AtomicBoolean();

	/** Restores an external deployment's pools when the JVM is stopped mid-sweep. */
	private @Nullable Thread restoreOnShutdown;

	/**
	 * The swept pool size right now: pgbouncer's pool behind pgbouncer, else every
	 * instance's.
	 */
	private int poolSize;

	private Deployment(List<Instance> instances, String loadBalancer, Path targets, @Nullable ProcessHandle nginx,
			@Nullable PgBouncer pgbouncer, ChildProcesses processes, Database database, int poolSize) {
		this(instances, loadBalancer, targets, nginx, pgbouncer, processes, database, poolSize, null, List.of(), null,
				System.out);
	}

	private Deployment(List<Instance> instances, String loadBalancer, Path targets, @Nullable ProcessHandle nginx,
			@Nullable PgBouncer pgbouncer, ChildProcesses processes, Database database, int poolSize,
			@Nullable ExternalTarget external, List<Integer> foundSizes, @Nullable Path directory, PrintStream out) {
		this.out = out;
		this.external = external;
		this.foundSizes = foundSizes;
		this.directory = directory;
		this.poolSize = poolSize;
		this.database = database;
		this.instances = instances;
		this.loadBalancer = loadBalancer;
		this.targets = targets;
		this.nginx = nginx;
		this.pgbouncer = pgbouncer;
		this.processes = processes;
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
	 */
	public record Plan(Topology topology, String label, int instances, int poolSize, int clientPoolSize, Limits limits,
			ServiceJvm jvm, @Nullable CpuPinning pinning, Ports ports, Optional<Path> nginx, Optional<Path> pgbouncer,
			Optional<Path> hikariBlock) {

		/** A deployment whose pool size the lab sets on the command line. */
		public Plan(Topology topology, String label, int instances, int poolSize, int clientPoolSize, Limits limits,
				ServiceJvm jvm, @Nullable CpuPinning pinning, Ports ports, Optional<Path> nginx,
				Optional<Path> pgbouncer) {
			this(topology, label, instances, poolSize, clientPoolSize, limits, jvm, pinning, ports, nginx, pgbouncer,
					Optional.empty());
		}

		/** Every instance's HikariCP pool size. */
		int instancePoolSize() {
			return (this.topology == Topology.PGBOUNCER) ? this.clientPoolSize : this.poolSize;
		}

	}

	/**
	 * Starts the instances (behind pgbouncer in the pgbouncer topology, and with what
	 * spreads the load over several) and waits until they serve, each checked to run with
	 * its limits.
	 * @param out where each instance's verified limits are reported
	 */
	/** The shared database's CPU time so far; empty where it cannot be read. */
	public OptionalLong databaseCpuNanos() {
		return this.database.cpuNanos();
	}

	public static Deployment start(Plan plan, LabPaths paths, Database database, Path runDirectory,
			ChildProcesses processes, PrintStream out) throws IOException, InterruptedException {
		Path directory = Files.createDirectories(runDirectory.resolve("deploy").resolve(plan.label()));
		Ports ports = plan.ports();
		PgBouncer pgbouncer = null;
		if (plan.topology() == Topology.PGBOUNCER) {
			// Every instance's whole pool may be connected at once, and more while
			// instances restart.
			pgbouncer = PgBouncer.start(plan.pgbouncer().orElseThrow(), database, ports.pgbouncer(), plan.poolSize(),
					2 * plan.instances() * plan.clientPoolSize() + 10, directory.resolve("pgbouncer"), processes);
			out.printf("  pgbouncer on 127.0.0.1:%d, transaction pooling, pool size %d%n", ports.pgbouncer(),
					plan.poolSize());
		}
		List<Instance> instances = new ArrayList<>();
		Limits limits = plan.limits();
		for (int i = 0; i < plan.instances(); i++) {
			int port = ports.instance(i);
			List<Integer> cpus = (plan.pinning() != null) ? plan.pinning().cpusOf(i, limits.cpus()) : List.of();
			instances.add(Instance.start(paths, plan.jvm(), database, pgbouncer, port, ports.management(i),
					plan.instancePoolSize(), plan.hikariBlock().orElse(null), limits, plan.pinning(), cpus,
					directory.resolve("instance-" + port + ".log"), processes));
		}
		for (Instance instance : instances) {
			instance.awaitReady();
			out.printf("  instance %d runs with %s%n", instance.port(), instance.verifyLimits());
		}
		Path targets = directory.resolve("targets.csv");
		if (plan.instances() == 1) {
			Files.writeString(targets, "127.0.0.1," + instances.get(0).port() + "\n");
			return new Deployment(instances, NONE, targets, null, pgbouncer, processes, database, plan.poolSize());
		}
		List<Integer> instancePorts = instances.stream().map(Instance::port).toList();
		if (plan.nginx().isPresent()) {
			ProcessHandle handle = Nginx.start(plan.nginx().get(), directory.resolve("nginx"), ports.entry(),
					instancePorts, processes);
			Files.writeString(targets, "127.0.0.1," + ports.entry() + "\n");
			return new Deployment(instances, NGINX, targets, handle, pgbouncer, processes, database, plan.poolSize());
		}
		Files.writeString(targets,
				instancePorts.stream().map((port) -> "127.0.0.1," + port + "\n").collect(Collectors.joining()));
		return new Deployment(instances, CLIENT_ROUND_ROBIN, targets, null, pgbouncer, processes, database,
				plan.poolSize());
	}

	/**
	 * A deployment the lab did not start, sized to {@code poolSize}: its instances are
	 * its actuators, the load goes to its targets (round robin over several).
	 * @param foundSizes each instance's pool size before the lab changed it (restored on
	 * {@link #close()})
	 * @param limits what the points record of the instances (as deployed: the lab set
	 * nothing)
	 * @param out where the resizes are reported
	 */
	public static Deployment external(ExternalTarget target, List<Integer> foundSizes, int poolSize, Limits limits,
			Database database, Path runDirectory, ChildProcesses processes, PrintStream out)
			throws IOException, InterruptedException {
		Path directory = Files.createDirectories(runDirectory.resolve("deploy").resolve(EXTERNAL));
		Path targets = directory.resolve("targets.csv");
		Files.writeString(targets,
				target.targets()
					.stream()
					.map((uri) -> uri.getHost() + "," + uri.getPort() + "\n")
					.collect(Collectors.joining()));
		List<Instance> instances = new ArrayList<>();
		for (int i = 0; i < target.instances(); i++) {
			URI actuator = target.actuators().get(i);
			instances.add(Instance.external(actuator.getHost(), actuator.getPort(), actuator, limits, target.token()));
		}
		String loadBalancer = (target.targets().size() > 1) ? CLIENT_ROUND_ROBIN : EXTERNAL;
		Deployment deployment = new Deployment(instances, loadBalancer, targets, null, null, processes, database,
				SweepResults.NO_POOL, target, foundSizes, directory, out);
		// Ctrl-C or SIGTERM ends the lab without unwinding the sweep: a fleet left at a
		// pool of 1 would be the user's to find.
		deployment.restoreOnShutdown = new Thread(deployment::restoreWhileStopping, "lab-restore-pools");
		Runtime.getRuntime().addShutdownHook(deployment.restoreOnShutdown);
		deployment.resize(poolSize);
		out.printf("  %d instance(s) at pool size %d, load to %s (%s)%n", instances.size(), poolSize, target.targets(),
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
		return Files.readAllLines(this.targets)
			.stream()
			.filter((line) -> !line.isBlank())
			.map((line) -> line.split(","))
			.map((hostPort) -> "http://" + hostPort[0].trim() + ":" + hostPort[1].trim() + path)
			.toList();
	}

	public String loadBalancer() {
		return this.loadBalancer;
	}

	/**
	 * A load balancer as the console names it, e.g. {@code load balancer nginx}: a bare
	 * {@code none} would read as "no pool", the lab's word for that.
	 */
	public static String describe(String loadBalancer) {
		return NONE.equals(loadBalancer) ? "no load balancer" : "load balancer " + loadBalancer;
	}

	public Path targets() {
		return this.targets;
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
		if (this.restored.get()) {
			// The sweep's thread runs on while the JVM stops: the pools stay as found.
			throw new LabFailureException(
					"Not resizing the external instances to %d: the lab is stopping, and their pools are back at the sizes found"
						.formatted(poolSize));
		}
		if (this.database.exit().isPresent()) {
			throw new LabFailureException("Could not resize the pools to %d: the lab's %s is gone".formatted(poolSize,
					this.database.vendor().product()));
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
		if (this.external != null && this.external.resizeCommand().isPresent()) {
			redeploy(this.external, poolSize);
		}
		else if (this.instances.size() == 1) {
			this.instances.get(0).resize(poolSize);
		}
		else {
			resizeAtOnce(poolSize);
		}
		this.poolSize = poolSize;
	}

	/**
	 * {@code bench.resizeCommand}: runs the user's command for the new size (a shell
	 * line, its output in {@code deploy/external/resize-<size>.log}), then waits until
	 * every instance's actuator reports that size: a rollout may report success before
	 * every replica is replaced. Both within {@code bench.resizeTimeout}.
	 */
	private void redeploy(ExternalTarget target, int poolSize) throws IOException, InterruptedException {
		long deadline = System.nanoTime() + target.resizeTimeout().toNanos();
		// Only an external deployment redeploys, and it has a directory.
		Path log = Objects.requireNonNull(this.directory, "external deployment's directory")
			.resolve("resize-" + poolSize + ".log");
		String command = target.resizeCommandFor(poolSize);
		ProcessBuilder builder = new ProcessBuilder("/bin/sh", "-c", command).redirectErrorStream(true)
			.redirectOutput(log.toFile());
		Process process = this.processes.start("resize-command", builder);
		if (!process.waitFor(target.resizeTimeout().toMillis(), TimeUnit.MILLISECONDS)) {
			this.processes.stop(process.toHandle());
			throw new LabFailureException(
					"bench.resizeCommand for pool size %d did not end within %s (bench.resizeTimeout); it was stopped. Its output: %s"
						.formatted(poolSize, target.resizeTimeout(), log));
		}
		if (process.exitValue() != 0) {
			throw new LabFailureException(
					"bench.resizeCommand for pool size %d failed (exit code %d): %s. Its output: %s".formatted(poolSize,
							process.exitValue(), command, log));
		}
		List<OptionalInt> sizes = List.of();
		while (System.nanoTime() < deadline) {
			sizes = new ArrayList<>();
			for (int i = 0; i < target.instances(); i++) {
				sizes.add(pollPoolSize(target, i));
			}
			if (sizes.stream().allMatch((size) -> size.isPresent() && size.getAsInt() == poolSize)) {
				return;
			}
			Thread.sleep(POLL.toMillis());
		}
		throw new LabFailureException(
				"After bench.resizeCommand for pool size %d, the instances report hikaricp_connections_max %s (%s), not %d, within %s (bench.resizeTimeout)"
					.formatted(poolSize,
							sizes.stream()
								.map((size) -> size.isPresent() ? String.valueOf(size.getAsInt()) : "nothing")
								.toList(),
							target.actuators(), poolSize, target.resizeTimeout()));
	}

	/**
	 * Every instance at once: each resize returns only once its pool holds the new number
	 * of connections, which for a shrink waits for busy connections to come back. One
	 * after the other, three instances took 3.5 s at 500 rps (measured in a default
	 * sweep), so the last one changed inside a window that started 2 s after the phase.
	 */
	private void resizeAtOnce(int poolSize) throws IOException, InterruptedException {
		List<CompletableFuture<Void>> resizes = this.instances.stream()
			.map((instance) -> instance.resizeAsync(poolSize))
			.toList();
		for (CompletableFuture<Void> resize : resizes) {
			try {
				resize.get();
			}
			catch (InterruptedException ex) {
				resizes.forEach((other) -> other.cancel(true));
				throw ex;
			}
			catch (ExecutionException ex) {
				if (ex.getCause() instanceof IOException io) {
					throw io;
				}
				if (ex.getCause() instanceof RuntimeException runtime) {
					throw runtime;
				}
				throw new LabFailureException("Could not resize the pools to %d: %s".formatted(poolSize, ex.getCause()),
						ex.getCause());
			}

		}
	}

	public int poolSize() {
		return this.poolSize;
	}

	/** Whether the lab found every external instance's pool at one size. */
	private boolean foundAtOneSize() {
		return this.foundSizes.stream().distinct().count() == 1;
	}

	/** A redeploying instance may not answer yet: that is not its size yet either. */
	private static OptionalInt pollPoolSize(ExternalTarget target, int instance) throws InterruptedException {
		try {
			return target.poolSize(instance);
		}
		catch (IOException ex) {
			return OptionalInt.empty();
		}
	}

	/**
	 * Leaves an external deployment as the lab found it: each pool at the size it had.
	 * What cannot be restored is said, not thrown: the sweep's results come first.
	 */
	private synchronized void restore(ExternalTarget target) {
		if (this.poolSize == SweepResults.NO_POOL || !this.restored.compareAndSet(false, true)) {
			return;
		}
		boolean same = foundAtOneSize();
		try {
			if (same && this.foundSizes.get(0) == this.poolSize) {
				return;
			}
			if (target.resizeCommand().isPresent()) {
				if (!same) {
					this.out.printf(
							"  The instances' pools were %s before the sweep, not one size: bench.resizeCommand cannot restore them; they are at %d.%n",
							this.foundSizes, this.poolSize);
					return;
				}
				redeploy(target, this.foundSizes.get(0));
			}
			else {
				for (int i = 0; i < this.instances.size(); i++) {
					this.instances.get(i).resize(this.foundSizes.get(i));
				}
			}
			this.out.printf("  The external instances' pools are back at %s, as found.%n", this.foundSizes);
		}
		catch (IOException | RuntimeException ex) {
			this.out.printf("  Could not restore the external instances' pool sizes %s (they are at %d): %s%n",
					this.foundSizes, this.poolSize, ex.getMessage());
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	/**
	 * The shutdown hook's restore: through the resize endpoint, as at the end of a sweep;
	 * a resize command is not started while the JVM stops (the lab refuses to start
	 * processes then), so the console says which command restores the pools instead.
	 */
	private void restoreWhileStopping() {
		ExternalTarget target = this.external;
		if (target == null || this.restored.get() || this.poolSize == SweepResults.NO_POOL) {
			return;
		}
		boolean same = foundAtOneSize();
		if (target.resizeCommand().isPresent() && !(same && this.foundSizes.get(0) == this.poolSize)) {
			this.restored.set(true);
			this.out.printf(
					"  Stopped: the external instances' pools are at %d, not the %s found. Restore them with: %s%n",
					this.poolSize, this.foundSizes, same ? target.resizeCommandFor(this.foundSizes.get(0))
							: "(one size each: " + this.foundSizes + ")");
			return;
		}
		this.out.println("  Stopped: restoring the external instances' pool sizes.");
		restore(target);
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
				// Already stopping: the hook restores, or has.
			}
			restore(this.external);
			return;
		}
		if (this.nginx != null) {
			this.processes.stop(this.nginx);
		}
		this.instances.forEach(Instance::keepMetrics);
		// Not external: every instance is a JVM the lab started.
		this.instances.forEach((instance) -> this.processes.stop(Objects.requireNonNull(instance.handle())));
		if (this.pgbouncer != null) {
			this.pgbouncer.close();
		}
	}

}
