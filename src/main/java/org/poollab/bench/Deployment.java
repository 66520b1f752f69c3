package org.poollab.bench;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

import org.poollab.bench.SweepResults.Limits;

/**
 * A topology running: its instances on the shared database and, for several instances,
 * what spreads the load over them. The load goes to the addresses in {@link #targets()}.
 */
final class Deployment implements AutoCloseable {

	static final String NGINX = "nginx";

	static final String CLIENT_ROUND_ROBIN = "client-round-robin";

	static final String NONE = "none";

	private final List<Instance> instances;

	private final String loadBalancer;

	private final Path targets;

	private final ProcessHandle nginx;

	private final ChildProcesses processes;

	private Deployment(List<Instance> instances, String loadBalancer, Path targets, ProcessHandle nginx,
			ChildProcesses processes) {
		this.instances = instances;
		this.loadBalancer = loadBalancer;
		this.targets = targets;
		this.nginx = nginx;
		this.processes = processes;
	}

	/**
	 * Starts the instances (and what spreads the load over them) and waits until they
	 * serve, each checked to run with its limits.
	 * @param label names the deployment's directory under {@code deploy/}, e.g.
	 * {@code single} or {@code single-tomcat50}
	 * @param limits every instance's CPUs, heap and Tomcat threads
	 * @param pinning how instances are pinned to CPUs, {@code null} when they are not
	 * @param out where each instance's verified limits are reported
	 */
	static Deployment start(Topology topology, String label, int instanceCount, int poolSize, Limits limits,
			CpuPinning pinning, Ports ports, Optional<Path> nginx, LabPaths paths, Database database, Path runDirectory,
			ChildProcesses processes, PrintStream out) throws IOException, InterruptedException {
		Path directory = Files.createDirectories(runDirectory.resolve("deploy").resolve(label));
		List<Instance> instances = new ArrayList<>();
		for (int i = 0; i < instanceCount; i++) {
			int port = ports.instance(i);
			List<Integer> cpus = (pinning != null) ? pinning.cpusOf(i, limits.cpus()) : List.of();
			instances.add(Instance.start(paths, database, port, poolSize, limits, pinning, cpus,
					directory.resolve("instance-" + port + ".log"), processes));
		}
		for (Instance instance : instances) {
			instance.awaitReady();
			out.printf("  instance %d runs with %s%n", instance.port(), instance.verifyLimits());
		}
		Path targets = directory.resolve("targets.csv");
		if (instanceCount == 1) {
			Files.writeString(targets, "127.0.0.1," + instances.get(0).port() + "\n");
			return new Deployment(instances, NONE, targets, null, processes);
		}
		List<Integer> instancePorts = instances.stream().map(Instance::port).toList();
		if (nginx.isPresent()) {
			ProcessHandle handle = Nginx.start(nginx.get(), directory.resolve("nginx"), ports.entry(), instancePorts,
					processes);
			Files.writeString(targets, "127.0.0.1," + ports.entry() + "\n");
			return new Deployment(instances, NGINX, targets, handle, processes);
		}
		Files.writeString(targets,
				instancePorts.stream().map((port) -> "127.0.0.1," + port + "\n").collect(Collectors.joining()));
		return new Deployment(instances, CLIENT_ROUND_ROBIN, targets, null, processes);
	}

	List<Instance> instances() {
		return this.instances;
	}

	String loadBalancer() {
		return this.loadBalancer;
	}

	Path targets() {
		return this.targets;
	}

	void resize(int poolSize) throws IOException, InterruptedException {
		for (Instance instance : this.instances) {
			instance.resize(poolSize);
		}
	}

	List<Instance> deadInstances() {
		return this.instances.stream().filter((instance) -> !instance.isAlive()).toList();
	}

	@Override
	public void close() {
		if (this.nginx != null) {
			this.processes.stop(this.nginx);
		}
		this.instances.forEach((instance) -> this.processes.stop(instance.handle()));
	}

}
