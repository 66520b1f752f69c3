package org.poollab.bench.deploy;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
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

	private final List<Instance> instances;

	private final String loadBalancer;

	private final Path targets;

	private final ProcessHandle nginx;

	private final @Nullable PgBouncer pgbouncer;

	private final ChildProcesses processes;

	private final Database database;

	/**
	 * The swept pool size right now: pgbouncer's pool behind pgbouncer, else every
	 * instance's.
	 */
	private int poolSize;

	private Deployment(List<Instance> instances, String loadBalancer, Path targets, ProcessHandle nginx,
			PgBouncer pgbouncer, ChildProcesses processes, Database database, int poolSize) {
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
	public void resize(int poolSize) throws IOException, InterruptedException {
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
		if (this.instances.size() == 1) {
			this.instances.get(0).resize(poolSize);
		}
		else {
			resizeAtOnce(poolSize);
		}
		this.poolSize = poolSize;
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

	public List<Instance> deadInstances() {
		return this.instances.stream().filter((instance) -> !instance.isAlive()).toList();
	}

	@Override
	public void close() {
		if (this.nginx != null) {
			this.processes.stop(this.nginx);
		}
		this.instances.forEach((instance) -> this.processes.stop(instance.handle()));
		if (this.pgbouncer != null) {
			this.pgbouncer.close();
		}
	}

}
