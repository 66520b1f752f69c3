package org.poollab.bench.deploy;

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
import java.util.concurrent.ExecutionException;
import java.util.stream.Stream;

import org.jspecify.annotations.Nullable;
import tools.jackson.databind.json.JsonMapper;

import org.poollab.bench.lab.LabFailureException;
import org.poollab.bench.results.Limits;

/**
 * One service instance: a JVM running the service on the shared database, started from
 * the build's classes and runtime classpath ({@link InstanceStart}). Its checks through
 * the actuator, its resizing and the reading of its death share one process and its log.
 */
public final class Instance {

	private static final Duration READY_TIMEOUT = Duration.ofSeconds(120);

	private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

	private static final JsonMapper JSON = JsonMapper.builder().build();

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

	private @Nullable String poolName;

	/**
	 * @param process the JVM the lab started, {@code null} for an external instance
	 * @param start what the lab started it with, {@code null} for an external instance
	 */
	private Instance(String host, int port, URI actuatorBase, Limits limits, Optional<ResizeCredential> token,
			@Nullable Process process, @Nullable InstanceStart start) {
		this.host = host;
		this.port = port;
		this.actuatorBase = actuatorBase;
		this.process = process;
		this.log = (start != null) ? start.log() : null;
		this.limits = limits;
		this.cpus = (start != null) ? start.cpus() : List.of();
		this.token = token;
	}

	/**
	 * An instance of a deployment the lab did not start: watched and resized through its
	 * actuator, never started, stopped or killed.
	 * @param port its HTTP port as the load reaches it (a label in the telemetry)
	 * @param actuatorBase e.g. {@code http://127.0.0.2:8081/actuator}
	 * @param token the resize endpoint's credential, when the service asks for one
	 */
	static Instance external(String host, int port, URI actuatorBase, Limits limits, Optional<ResizeCredential> token,
			Optional<String> poolName) {
		Instance instance = new Instance(host, port, actuatorBase, limits, token, null, null);
		instance.poolName = poolName.orElse(null);
		return instance;
	}

	/**
	 * The HikariCP pool the lab watches, by its pool tag; null for the lab's own (one).
	 */
	public @Nullable String poolName() {
		return this.poolName;
	}

	/**
	 * Starts an instance; {@link #awaitReady()} waits until it serves.
	 */
	static Instance start(InstanceStart start) throws IOException {
		InstanceStart.Shared deployment = start.deployment();
		return new Instance("127.0.0.1", start.port(),
				URI.create("http://127.0.0.1:" + start.managementPort() + "/actuator"), deployment.limits(),
				Optional.empty(), deployment.processes().start("instance-" + start.port(), start.processBuilder()),
				start);
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
	 * not run with its limits ({@link LimitsCheck}).
	 * @return what the instance reported, for the console
	 */
	String verifyLimits() throws IOException, InterruptedException {
		return LimitsCheck.verify(this, this.limits, this.cpus);
	}

	/** The CPUs the kernel lets its JVM run on, e.g. {@code 2-3}. */
	String allowedCpus() throws IOException {
		Path status = Path.of("/proc", String.valueOf(process().pid()), "status");
		return Files.readAllLines(status)
			.stream()
			.filter((line) -> line.startsWith("Cpus_allowed_list:"))
			.map((line) -> line.substring(line.indexOf(':') + 1).trim())
			.findFirst()
			.orElse("?");
	}

	/**
	 * A metric's first measurement, e.g. {@code jvm.memory.max} with
	 * {@code ?tag=area:heap}.
	 */
	double metric(String name, String query) throws IOException, InterruptedException {
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
	 * Every instance at once: each resize returns only once its pool holds the new number
	 * of connections, which for a shrink waits for busy connections to come back. One
	 * after the other, three instances took 3.5 s at 500 rps (measured in a default
	 * sweep), so the last one changed inside a window that started 2 s after the phase.
	 * @return by instance, when its resize was answered (epoch milliseconds)
	 */
	static List<Long> resizeAtOnce(List<Instance> instances, int poolSize) throws IOException, InterruptedException {
		List<CompletableFuture<Long>> resizes = instances.stream()
			.map((instance) -> instance.resizeAsync(poolSize).thenApply((done) -> System.currentTimeMillis()))
			.toList();
		List<Long> resizedAtMs = new ArrayList<>();
		for (CompletableFuture<Long> resize : resizes) {
			try {
				resizedAtMs.add(resize.get());
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
		return resizedAtMs;
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
		return ResizeCredential.resizeRequest(actuator("poolsize"), String.valueOf(poolSize), this.token);
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

}
