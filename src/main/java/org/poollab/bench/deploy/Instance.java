package org.poollab.bench.deploy;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Stream;

import org.jspecify.annotations.Nullable;
import tools.jackson.databind.json.JsonMapper;

import org.poollab.bench.lab.ChildProcesses;
import org.poollab.bench.lab.LabFailureException;
import org.poollab.bench.lab.LabPaths;
import org.poollab.bench.results.EmulatedHold;
import org.poollab.bench.results.Limits;
import org.poollab.bench.results.Stack;
import org.poollab.bench.results.SweepResults;
import org.poollab.service.database.DatabaseVendor;
import org.poollab.service.hold.ConnectionHold;
import org.poollab.service.system.ThreadTelemetry;

/**
 * One service instance: a JVM running the service on the shared database, started from
 * the build's classes and runtime classpath. Kept whole: its start, its checks through
 * the actuator, its resizing and the reading of its death share one process and its log.
 */
public final class Instance {

	private static final Duration READY_TIMEOUT = Duration.ofSeconds(120);

	private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

	private static final JsonMapper JSON = JsonMapper.builder().build();

	private static final String JDBC_MAIN = "org.poollab.service.ServiceApplication";

	private static final String REACTIVE_MAIN = "org.poollab.reactive.ReactiveServiceApplication";

	private final String host;

	private final int port;

	private final URI actuatorBase;

	/**
	 * The JVM the lab started, {@code null} for an instance of an external deployment.
	 */
	private final @Nullable Process process;

	private final @Nullable Path log;

	private final Limits limits;

	private final List<Integer> cpus;

	private final Optional<ResizeCredential> token;

	private Instance(String host, int port, URI actuatorBase, @Nullable Process process, @Nullable Path log,
			Limits limits, List<Integer> cpus, Optional<ResizeCredential> token) {
		this.host = host;
		this.port = port;
		this.actuatorBase = actuatorBase;
		this.process = process;
		this.log = log;
		this.limits = limits;
		this.cpus = cpus;
		this.token = token;
	}

	/**
	 * An instance of a deployment the lab did not start: watched and resized through its
	 * actuator, never started, stopped or killed.
	 * @param port its HTTP port as the load reaches it (a label in the telemetry)
	 * @param actuatorBase e.g. {@code http://127.0.0.2:8081/actuator}
	 * @param token the resize endpoint's credential, when the service asks for one
	 */
	static Instance external(String host, int port, URI actuatorBase, Limits limits, Optional<ResizeCredential> token) {
		return new Instance(host, port, actuatorBase, null, null, limits, List.of(), token);
	}

	/**
	 * Starts an instance.
	 * @param port where it serves requests
	 * @param managementPort where it serves the actuator (telemetry, resizing)
	 * @param limits its CPUs, heap and Tomcat threads
	 * @param pinning how to pin it to {@code cpus}, or {@code null} when it is not pinned
	 * @param cpus the host CPUs it is pinned to (empty when not pinned)
	 * @param pgbouncer what it connects through, or {@code null} to connect to the
	 * database directly
	 * @param poolSize its HikariCP {@code maximum-pool-size}, or
	 * {@link SweepResults#NO_POOL} for no pool at all: Spring's
	 * {@code SimpleDriverDataSource} opens a new connection whenever one is asked for and
	 * closes it when it is given back
	 * @param hikariBlock a YAML file to read every {@code spring.datasource.hikari.*}
	 * setting from instead ({@code spring.config.additional-location}, which overrides
	 * the service's {@code application.yml}), or {@code null}; {@code poolSize} must then
	 * be the file's {@code maximum-pool-size}
	 */
	static Instance start(LabPaths paths, ServiceJvm jvm, Database database, @Nullable PgBouncer pgbouncer, int port,
			int managementPort, int poolSize, @Nullable Path hikariBlock, Limits limits, @Nullable CpuPinning pinning,
			List<Integer> cpus, Path log, ChildProcesses processes) throws IOException {
		// taskset execs the JVM: the process (and its id) is the JVM's.
		List<String> command = new ArrayList<>((pinning != null) ? pinning.command(cpus) : List.of());
		// The port comes first: process listings cut long command lines in the classpath.
		command.addAll(List.of(jvm.java(), "-Dpoollab.instance=" + port, "-Xmx" + limits.heap(),
				"-XX:+ExitOnOutOfMemoryError"));
		if (limits.cpus() > 0) {
			command.add("-XX:ActiveProcessorCount=" + limits.cpus());
		}
		String url = (pgbouncer != null) ? pgbouncer.jdbcUrl() : database.url();
		boolean reactive = limits.stack() == Stack.R2DBC;
		command.addAll(List.of("-cp", paths.serviceClasspath(), reactive ? REACTIVE_MAIN : JDBC_MAIN,
				"--server.address=127.0.0.1", "--server.port=" + port, "--management.server.address=127.0.0.1",
				"--management.server.port=" + managementPort, "--spring.main.banner-mode=off"));
		if (reactive) {
			// Flyway migrates over JDBC, the twin's only JDBC connection.
			command
				.addAll(List.of("--spring.r2dbc.url=" + r2dbcUrl(url), "--spring.r2dbc.username=" + database.username(),
						"--spring.flyway.url=" + url, "--spring.flyway.user=" + database.username()));
		}
		else {
			command.addAll(
					List.of("--spring.datasource.url=" + url, "--spring.datasource.username=" + database.username()));
			// On the command line, where application.yml's import of the vendor's
			// settings (driver properties, migrations) reads it; the twin runs on
			// PostgreSQL only.
			command.add("--" + DatabaseVendor.PROPERTY + "=" + database.vendor().propertyValue());
		}
		String sizeSetting = reactive ? "--spring.r2dbc.pool.max-size="
				: "--spring.datasource.hikari.maximum-pool-size=";
		if (poolSize == SweepResults.NO_POOL) {
			command.add(reactive ? "--spring.r2dbc.pool.enabled=false"
					: "--spring.datasource.type=org.springframework.jdbc.datasource.SimpleDriverDataSource");
		}
		else if (hikariBlock != null) {
			// Nothing of the pool's settings on the command line, which would override
			// the
			// file: the block runs as pasted. The resize endpoint is the lab's only way
			// to
			// read the pool's settings back; it changes none of them.
			command.addAll(List.of("--spring.config.additional-location=file:" + hikariBlock.toAbsolutePath(),
					"--lab.pool-resize.enabled=true"));
		}
		else {
			command.addAll(List.of(sizeSetting + poolSize, "--lab.pool-resize.enabled=true"));
		}
		if (pgbouncer != null) {
			// Flyway takes a session-level lock, which transaction pooling cannot keep:
			// migrations go to PostgreSQL directly.
			command.addAll(
					List.of("--spring.flyway.url=" + database.url(), "--spring.flyway.user=" + database.username()));
		}
		if (limits.hold() != null) {
			command.addAll(holdArguments(limits.hold(), port));
		}
		if (limits.virtualThreads()) {
			// ThreadTelemetry's gauge is the proof that Boot took it (Java 21+ only).
			command.add("--spring.threads.virtual.enabled=true");
		}
		if (limits.tomcatThreads() > 0) {
			// The MBean registry exposes tomcat.threads.config.max:
			// the proof that the setting took.
			command.addAll(List.of("--server.tomcat.threads.max=" + limits.tomcatThreads(),
					"--server.tomcat.mbeanregistry.enabled=true"));
		}
		ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true)
			.redirectOutput(log.toFile())
			.redirectInput(ProcessBuilder.Redirect.from(nullDevice()));
		// The password goes through the environment: any user can read a command line.
		// The lab's own instances listen on loopback and take no token: one in the lab's
		// environment (target mode's credential) would make them ask for it.
		builder.environment().remove(ResizeCredential.ENVIRONMENT_VARIABLE);
		builder.environment().put("SPRING_DATASOURCE_PASSWORD", database.password());
		builder.environment().put("SPRING_R2DBC_PASSWORD", database.password());
		builder.environment().put("SPRING_FLYWAY_PASSWORD", database.password());
		return new Instance("127.0.0.1", port, URI.create("http://127.0.0.1:" + managementPort + "/actuator"),
				processes.start("instance-" + port, builder), log, limits, cpus, Optional.empty());
	}

	/**
	 * The service's {@code lab.hold.*} for an emulated hold: durations in whole
	 * microseconds (Spring Boot's simple duration format takes whole numbers), the seed
	 * the instance's port, so two runs of one grid draw the same holds.
	 */
	static List<String> holdArguments(EmulatedHold hold, int port) {
		String prefix = "--" + ConnectionHold.PROPERTIES_PREFIX + ".";
		List<String> arguments = new ArrayList<>();
		if (hold.waits()) {
			arguments.addAll(List.of(prefix + "mean=" + micros(hold.meanMs()), prefix + "place=" + hold.place(),
					prefix + "seed=" + port));
			if (hold.p99Ms() != null) {
				arguments.add(prefix + "p99=" + micros(hold.p99Ms()));
			}
		}
		if (hold.cpuMs() != null) {
			arguments.add(prefix + "cpu=" + micros(hold.cpuMs()));
		}
		return arguments;
	}

	private static String micros(double ms) {
		return Math.round(ms * 1000) + "us";
	}

	public int port() {
		return this.port;
	}

	/** Where the load reaches it: 127.0.0.1 for the lab's own instances. */
	public String host() {
		return this.host;
	}

	/** Whether the lab started it (and stops it). */
	boolean external() {
		return this.process == null;
	}

	/** The lab's own JVM; {@code null} for an external instance. */
	@Nullable ProcessHandle handle() {
		return (this.process != null) ? this.process.toHandle() : null;
	}

	/**
	 * Whether it runs: an external instance is not the lab's to watch this way (its
	 * scrapes and the load's errors tell).
	 */
	boolean isAlive() {
		return this.process == null || this.process.isAlive();
	}

	public URI uri(String path) {
		return URI.create("http://" + this.host + ":" + this.port + path);
	}

	/** An actuator endpoint, e.g. {@code prometheus} for {@code /actuator/prometheus}. */
	public URI actuator(String endpoint) {
		return URI.create(this.actuatorBase + "/" + endpoint);
	}

	void awaitReady() throws IOException, InterruptedException {
		long deadline = System.nanoTime() + READY_TIMEOUT.toNanos();
		while (System.nanoTime() < deadline) {
			if (!process().isAlive()) {
				throw new LabFailureException(
						"Instance on port %d exited during start-up (exit code %d). Last lines of %s:%n%s"
							.formatted(this.port, process().exitValue(), this.log, tail()));
			}
			try {
				HttpResponse<Void> health = HTTP.send(
						HttpRequest.newBuilder(actuator("health")).timeout(Duration.ofSeconds(2)).build(),
						HttpResponse.BodyHandlers.discarding());
				if (health.statusCode() == 200) {
					return;
				}
			}
			catch (IOException ex) {
				// Not listening yet.
			}
			Thread.sleep(200);
		}
		throw new LabFailureException("Instance on port %d was not ready within %d s. Last lines of %s:%n%s"
			.formatted(this.port, READY_TIMEOUT.toSeconds(), this.log, tail()));
	}

	/**
	 * Asks the running instance what it was given, and refuses to measure one that does
	 * not run with its limits: the CPUs the kernel lets it use, the processors the JVM
	 * sees, its maximum heap and Tomcat's thread maximum.
	 * @return what the instance reported, for the console
	 */
	String verifyLimits() throws IOException, InterruptedException {
		List<String> seen = new ArrayList<>();
		if (!this.cpus.isEmpty()) {
			String allowed = allowedCpus();
			double processors = metric("system.cpu.count", "");
			if (!CpuPinning.parseCpuList(allowed).equals(this.cpus) || processors != this.limits.cpus()) {
				throw new LabFailureException(
						"Instance on port %d should run on CPU(s) %s with %d processor(s), but runs on %s and sees %.0f"
							.formatted(this.port, CpuPinning.cpuList(this.cpus), this.limits.cpus(), allowed,
									processors));
			}
			seen.add("CPU(s) %s, %.0f processor(s)".formatted(allowed, processors));
		}
		double heapBytes = metric("jvm.memory.max", "?tag=area:heap");
		long xmxBytes = bytes(this.limits.heap());
		// The JVM reports its heap's pools; with the serial collector one survivor space
		// is left out, so the sum is a few percent below -Xmx.
		if (heapBytes > xmxBytes || heapBytes < 0.85 * xmxBytes) {
			throw new LabFailureException("Instance on port %d should have a heap of -Xmx%s, but reports %.0f bytes"
				.formatted(this.port, this.limits.heap(), heapBytes));
		}
		seen.add("heap max %.0f MiB (-Xmx%s)".formatted(heapBytes / (1 << 20), this.limits.heap()));
		if (this.limits.tomcatThreads() > 0) {
			double threads = metric("tomcat.threads.config.max", "");
			if (threads != this.limits.tomcatThreads()) {
				throw new LabFailureException("Instance on port %d should allow %d Tomcat threads, but reports %.0f"
					.formatted(this.port, this.limits.tomcatThreads(), threads));
			}
			seen.add("Tomcat threads max %.0f".formatted(threads));
		}
		if (this.limits.stack() == Stack.R2DBC) {
			// The reactive twin has no request threads to prove: Reactor Netty's event
			// loop
			// runs them, and its actuator listens on a connector of its own.
			seen.add("requests on Reactor Netty's event loop");
			return String.join(", ", seen);
		}
		// Boot runs requests on virtual threads only when asked and on Java 21 or later;
		// the service's gauge is Boot's own decision.
		boolean virtual = metric(ThreadTelemetry.VIRTUAL_METRIC, "") == 1;
		if (virtual != this.limits.virtualThreads()) {
			throw new LabFailureException(
					"Instance on port %d should run its requests on %s threads, but runs them on %s"
						.formatted(this.port, this.limits.threads().model(), virtual ? "virtual" : "platform"));
		}
		seen.add("requests on %s threads".formatted(virtual ? "virtual" : "platform"));
		// Scrapes must not queue behind the request threads (ManagementThreads).
		if (metric(ThreadTelemetry.SCRAPE_THREAD_VIRTUAL_METRIC, "") != 0) {
			throw new LabFailureException(
					"Instance on port %d answers its actuator on virtual threads: its telemetry would queue behind the requests"
						.formatted(this.port));
		}
		return String.join(", ", seen);
	}

	private String allowedCpus() throws IOException {
		Path status = Path.of("/proc", String.valueOf(process().pid()), "status");
		return Files.readAllLines(status)
			.stream()
			.filter((line) -> line.startsWith("Cpus_allowed_list:"))
			.map((line) -> line.substring(line.indexOf(':') + 1).trim())
			.findFirst()
			.orElse("?");
	}

	private double metric(String name, String query) throws IOException, InterruptedException {
		HttpResponse<String> response = HTTP.send(
				HttpRequest.newBuilder(actuator("metrics/" + name + query)).timeout(Duration.ofSeconds(5)).build(),
				HttpResponse.BodyHandlers.ofString());
		if (response.statusCode() != 200) {
			throw new LabFailureException("Instance on port %d does not report %s: HTTP %d %s".formatted(this.port,
					name, response.statusCode(), response.body()));
		}
		return JSON.readTree(response.body()).get("measurements").get(0).get("value").asDouble();
	}

	/**
	 * The R2DBC URL of the PostgreSQL a JDBC URL names, without the JDBC URL's
	 * parameters, which are pgjdbc's (r2dbc-postgresql names its options differently):
	 * {@code jdbc:postgresql://127.0.0.1:5432/postgres?ssl=false} becomes
	 * {@code r2dbc:postgresql://127.0.0.1:5432/postgres}.
	 */
	static String r2dbcUrl(String jdbcUrl) {
		String prefix = "jdbc:postgresql:";
		if (!jdbcUrl.startsWith(prefix)) {
			throw new IllegalArgumentException("Not a PostgreSQL JDBC URL: " + Database.withoutQuery(jdbcUrl));
		}
		return "r2dbc:postgresql:" + Database.withoutQuery(jdbcUrl).substring(prefix.length());
	}

	/** {@code 128m} or {@code 1g} in bytes. */
	static long bytes(String heap) {
		long amount = Long.parseLong(heap.substring(0, heap.length() - 1));
		char unit = Character.toLowerCase(heap.charAt(heap.length() - 1));
		return amount << ((unit == 'g') ? 30 : 20);
	}

	/**
	 * Sets the live pool's size through the service's resize endpoint; the endpoint
	 * returns once the pool holds that many connections.
	 */
	void resize(int poolSize) throws IOException, InterruptedException {
		HttpResponse<String> response = HTTP.send(resizeRequest(poolSize), HttpResponse.BodyHandlers.ofString());
		requireResized(poolSize, response);
	}

	/**
	 * {@link #resize(int)} without waiting: several instances resize at once.
	 * @return completes when the pool holds that many connections; fails with the
	 * {@link IOException} of the request or a {@link LabFailureException} for a refusal
	 */
	CompletableFuture<Void> resizeAsync(int poolSize) {
		return HTTP.sendAsync(resizeRequest(poolSize), HttpResponse.BodyHandlers.ofString())
			.thenAccept((response) -> requireResized(poolSize, response));
	}

	/**
	 * The running pool's settings as the instance reports them through its actuator, by
	 * their {@code spring.datasource.hikari.*} names, times in milliseconds.
	 */
	public Map<String, Long> poolSettings() throws IOException, InterruptedException {
		HttpResponse<String> response = HTTP.send(
				HttpRequest.newBuilder(actuator("poolsize")).timeout(Duration.ofSeconds(10)).GET().build(),
				HttpResponse.BodyHandlers.ofString());
		if (response.statusCode() != 200) {
			throw new LabFailureException("Could not read the pool settings of the instance on port %d: HTTP %d %s"
				.formatted(this.port, response.statusCode(), response.body()));
		}
		Map<String, Long> settings = new LinkedHashMap<>();
		JSON.readTree(response.body())
			.get("settings")
			.properties()
			.forEach((entry) -> settings.put(entry.getKey(), entry.getValue().asLong()));
		return settings;
	}

	private HttpRequest resizeRequest(int poolSize) {
		return resizeRequest(actuator("poolsize"), String.valueOf(poolSize), this.token);
	}

	/**
	 * A POST to a resize endpoint, with the credential when there is one.
	 * @param size the JSON value of {@code maximumPoolSize}
	 */
	static HttpRequest resizeRequest(URI endpoint, String size, Optional<ResizeCredential> token) {
		HttpRequest.Builder request = HttpRequest.newBuilder(endpoint)
			.header("Content-Type", "application/json")
			.timeout(Duration.ofSeconds(60))
			.POST(HttpRequest.BodyPublishers.ofString("{\"maximumPoolSize\":" + size + "}"));
		token.ifPresent((credential) -> request.header("Authorization", credential.authorization()));
		return request.build();
	}

	private void requireResized(int poolSize, HttpResponse<String> response) {
		if (response.statusCode() != 200) {
			throw new LabFailureException("Could not resize the pool of the instance %s to %d: HTTP %d %s"
				.formatted(name(), poolSize, response.statusCode(), response.body()));
		}
	}

	/**
	 * How messages name it: its port for the lab's own instances, its actuator for an
	 * external one (whose instances may share a port on different hosts).
	 */
	public String name() {
		return external() ? "at " + this.actuatorBase : "on port " + this.port;
	}

	/**
	 * Exit codes of a JVM ended by a signal it did not send itself: SIGHUP, SIGINT,
	 * SIGKILL (also the kernel's OOM killer) and SIGTERM, 128 + the signal. A JVM that
	 * crashes aborts (134) and one out of heap exits with 3
	 * ({@code -XX:+ExitOnOutOfMemoryError}): those are the service's own.
	 */
	private static final Set<Integer> SIGNALLED_FROM_OUTSIDE = Set.of(129, 130, 137, 143);

	/**
	 * Whether a dead instance was ended from outside (a signal from a person or the
	 * machine) rather than by what the load did to it: a signal's exit code and no cause
	 * in its log. Such a death says nothing about the pool size.
	 */
	public boolean killedFromOutside() {
		if (this.process == null || this.process.isAlive()
				|| !SIGNALLED_FROM_OUTSIDE.contains(this.process.exitValue())) {
			return false;
		}
		return deathCause().equals("exit code " + this.process.exitValue());
	}

	/**
	 * Why a dead instance died, for the results: its exit code and, when the JVM said why
	 * (e.g. {@code -XX:+ExitOnOutOfMemoryError}'s "Terminating due to
	 * java.lang.OutOfMemoryError: Java heap space"), that line.
	 */
	public String deathCause() {
		String code = "exit code " + process().exitValue();
		try (Stream<String> lines = Files.lines(log())) {
			return lines.filter((line) -> line.contains("Terminating due to") || line.contains("OutOfMemoryError"))
				.reduce((first, second) -> second)
				.map((line) -> code + ": " + line.strip())
				.orElse(code);
		}
		catch (IOException | UncheckedIOException ex) {
			return code;
		}
	}

	/**
	 * Keeps a dead instance's log apart, so the instance started in its place (same port,
	 * same file name) does not overwrite the reason it died.
	 * @param suffix added to the file name, e.g. the point it died in
	 * @return where the log is now
	 */
	public Path keepLog(String suffix) throws IOException {
		Path log = log();
		String name = log.getFileName().toString().replace(".log", "-died-" + suffix + ".log");
		return Files.move(log, log.resolveSibling(name), StandardCopyOption.REPLACE_EXISTING);
	}

	/**
	 * The lab's own JVM: only an instance the lab started has one (not an external one).
	 */
	private Process process() {
		return Objects.requireNonNull(this.process, "an external instance is not the lab's process");
	}

	/** Its log: only an instance the lab started has one (not an external one). */
	private Path log() {
		return Objects.requireNonNull(this.log, "an external instance's log is not the lab's");
	}

	/**
	 * Keeps the instance's last metrics beside its log, {@code <log>-prometheus.txt}: its
	 * {@code /actuator/prometheus} as it stops, the exposition {@code bench.holdTimeFrom}
	 * reads. Best effort: an instance that does not answer within 2 s keeps none.
	 */
	void keepMetrics() {
		if (this.log == null || !isAlive()) {
			return;
		}
		try {
			HttpResponse<Path> response = HTTP.send(
					HttpRequest.newBuilder(actuator("prometheus")).timeout(Duration.ofSeconds(2)).GET().build(),
					HttpResponse.BodyHandlers.ofFile(this.log
						.resolveSibling(this.log.getFileName().toString().replace(".log", "") + "-prometheus.txt")));
			if (response.statusCode() != 200) {
				Files.deleteIfExists(response.body());
			}
		}
		catch (IOException ex) {
			// Kept when it answers; the results do not depend on it.
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	String tail() {
		try {
			List<String> lines = Files.readAllLines(this.log);
			return String.join(System.lineSeparator(), lines.subList(Math.max(0, lines.size() - 25), lines.size()));
		}
		catch (IOException ex) {
			return "(log unreadable: " + ex.getMessage() + ")";
		}
	}

	private static File nullDevice() {
		return new File("/dev/null");
	}

}
