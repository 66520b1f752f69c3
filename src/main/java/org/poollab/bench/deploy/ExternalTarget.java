package org.poollab.bench.deploy;

import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.poollab.bench.grid.Requests;
import org.poollab.bench.lab.BenchSettingException;
import org.poollab.service.hold.ConnectionHold;
import org.poollab.service.system.PoolResize;

/**
 * A deployment the lab did not start ({@code bench.target=external}): where the load goes
 * ({@code bench.targets}: one load balancer's URL or each instance's) and each instance's
 * actuator ({@code bench.actuators}), which proves every point's pool size
 * ({@code hikaricp_connections_max}), feeds the telemetry and, unless
 * {@code bench.resizeCommand} redeploys the fleet instead, resizes the pool live. The lab
 * starts, stops and kills nothing of it; it leaves each pool at the size it found.
 *
 * @param targets the entry URLs, {@code http://host:port}
 * @param actuators each instance's actuator base URL, e.g.
 * {@code http://10.0.0.7:8081/actuator}
 * @param resizeCommand a shell command line with {@value #POOL_SIZE} in it, run once per
 * pool size (e.g. {@code kubectl set env deployment/roles
 * SPRING_DATASOURCE_HIKARI_MAXIMUM_POOL_SIZE={poolSize} && kubectl rollout status
 * deployment/roles}); empty: the service's resize endpoint
 * @param resizeTimeout how long a resize may take, the command and the wait until every
 * instance reports the new size
 * @param token the resize endpoint's credential, when the service asks for one
 * @param requests the team's own requests ({@code bench.requests}); empty: the lab's
 * workload, for the lab's own service
 * @param poolName the HikariCP pool swept, by its {@code pool} tag
 * ({@code bench.poolName}); empty: each instance's only one, or with several the first by
 * name, which the pre-flight names
 * @param pools each instance's pool as the pre-flight chose it, in the order of
 * {@code actuators}; empty before it
 */
public record ExternalTarget(List<URI> targets, List<URI> actuators, Optional<String> resizeCommand,
		Duration resizeTimeout, Optional<ResizeCredential> token, Optional<Requests> requests,
		Optional<String> poolName, List<String> pools) {

	/** What {@code bench.resizeCommand} must contain: replaced by each pool size. */
	public static final String POOL_SIZE = "{poolSize}";

	/** What {@code bench.targets} accepts, for messages and the options page. */
	public static final String TARGETS_ALLOWED = "comma-separated http://host:port, with no path: one load balancer's, or each instance's";

	/** What {@code bench.actuators} accepts, for messages and the options page. */
	public static final String ACTUATORS_ALLOWED = "comma-separated actuator base URLs, http(s)://host:port/actuator, one per instance";

	/** What {@code bench.resizeCommand} accepts, for messages and the options page. */
	public static final String RESIZE_COMMAND_ALLOWED = "a command line that contains " + POOL_SIZE
			+ ", which the lab replaces by each pool size, e.g. kubectl set env deployment/pool-sizing-lab SPRING_DATASOURCE_HIKARI_MAXIMUM_POOL_SIZE="
			+ POOL_SIZE + " && kubectl rollout status deployment/pool-sizing-lab";

	private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

	private static final JsonMapper JSON = JsonMapper.builder().build();

	/**
	 * HikariCP's pool-size gauge in the Prometheus text format: the proof of every
	 * point's size (the telemetry's full reading of a scrape is
	 * {@code telemetry.PoolSnapshot}; the pre-flight and the wait after a redeploy need
	 * this one series).
	 */
	private static final Pattern POOL_MAX = Pattern.compile("^hikaricp_connections_max(\\{[^\\n]*\\})? (\\S+)$",
			Pattern.MULTILINE);

	/** A series' {@code pool} tag: HikariCP's pool name. */
	private static final Pattern POOL_TAG = Pattern.compile("[{,]pool=\"((?:[^\"\\\\]|\\\\.)*)\"");

	/** What the prometheus endpoint needs, for the one line that says it is missing. */
	public static final String PROMETHEUS_HINT = "add the dependency io.micrometer:micrometer-registry-prometheus and expose the endpoints with management.endpoints.web.exposure.include=health,prometheus";

	/** What turns the hold's histogram on, for the line that says it is off. */
	public static final String HOLD_HISTOGRAM_PROPERTY = "management.metrics.distribution.percentiles-histogram.hikaricp.connections.usage=true";

	/**
	 * The settings, checked.
	 * @param allowRemote {@code bench.allowRemoteTargets}: load and resizes may go beyond
	 * this machine's loopback
	 * @throws BenchSettingException naming the setting, the value and what is allowed
	 */
	public static ExternalTarget of(@Nullable List<String> targets, @Nullable List<String> actuators,
			@Nullable String resizeCommand, Duration resizeTimeout, boolean allowRemote,
			Optional<ResizeCredential> token) {
		if (targets == null || targets.isEmpty()) {
			throw new BenchSettingException(
					"bench.target=external needs bench.targets: the URL the load goes to, one load balancer's (e.g. http://127.0.0.1:8080) or each instance's, comma-separated. Nothing was started.");
		}
		if (actuators == null || actuators.isEmpty()) {
			throw new BenchSettingException(
					"bench.target=external needs bench.actuators: each instance's actuator base URL, comma-separated (e.g. http://127.0.0.2:8081/actuator,http://127.0.0.3:8081/actuator), to prove and change its pool size. Nothing was started.");
		}
		List<URI> entries = new ArrayList<>();
		for (String target : targets) {
			URI uri = parse("bench.targets", target);
			if (!"http".equals(uri.getScheme()) || uri.getPort() < 0
					|| !(uri.getPath() == null || uri.getPath().isEmpty() || uri.getPath().equals("/"))
					|| uri.getQuery() != null) {
				throw new BenchSettingException(
						"bench.targets=%s is not allowed: use %s (the plan adds each request's path itself, over plain HTTP). Nothing was started."
							.formatted(target, TARGETS_ALLOWED));
			}
			entries.add(URI.create("http://" + uri.getHost() + ":" + uri.getPort()));
		}
		List<URI> bases = new ArrayList<>();
		for (String actuator : actuators) {
			URI uri = parse("bench.actuators", actuator);
			if (!("http".equals(uri.getScheme()) || "https".equals(uri.getScheme())) || uri.getHost() == null) {
				throw new BenchSettingException("bench.actuators=%s is not allowed: use %s. Nothing was started."
					.formatted(actuator, ACTUATORS_ALLOWED));
			}
			String text = uri.toString();
			bases.add(URI.create(text.endsWith("/") ? text.substring(0, text.length() - 1) : text));
		}
		if (bases.stream().distinct().count() < bases.size()) {
			throw new BenchSettingException(
					"bench.actuators=%s names an instance twice: each URL must reach one instance's own actuator (behind a load balancer, the lab could not tell instances apart). Nothing was started."
						.formatted(String.join(",", actuators)));
		}
		if (!allowRemote) {
			requireLoopback("bench.targets", entries);
			requireLoopback("bench.actuators", bases);
		}
		Optional<String> command = Optional.ofNullable(resizeCommand).map(String::strip).filter((c) -> !c.isEmpty());
		if (command.isPresent() && !command.get().contains(POOL_SIZE)) {
			throw new BenchSettingException("bench.resizeCommand=%s is not allowed: use %s. Nothing was started."
				.formatted(command.get(), RESIZE_COMMAND_ALLOWED));
		}
		return new ExternalTarget(List.copyOf(entries), List.copyOf(bases), command, resizeTimeout, token,
				Optional.empty(), Optional.empty(), List.of());
	}

	/**
	 * The same deployment loaded with the team's requests, sweeping the named pool.
	 * @param requests {@code bench.requests}, checked; empty: the lab's workload
	 * @param poolName {@code bench.poolName}; empty: the only pool, or the first by name
	 */
	public ExternalTarget serving(Optional<Requests> requests, Optional<String> poolName) {
		return new ExternalTarget(this.targets, this.actuators, this.resizeCommand, this.resizeTimeout, this.token,
				requests, poolName.map(String::strip).filter((name) -> !name.isEmpty()), List.of());
	}

	private static URI parse(String setting, String value) {
		try {
			URI uri = new URI(value.strip());
			if (uri.getHost() == null) {
				throw new URISyntaxException(value, "no host");
			}
			return uri;
		}
		catch (URISyntaxException ex) {
			throw new BenchSettingException(
					"%s=%s is not a URL (%s). Nothing was started.".formatted(setting, value, ex.getMessage()));
		}
	}

	/**
	 * The lab's load goes to this machine's loopback unless the user says the target is
	 * theirs to load ({@code bench.allowRemoteTargets=true}): a typo in a URL must not
	 * send hundreds of requests a second to someone else's service.
	 */
	private static void requireLoopback(String setting, List<URI> uris) {
		for (URI uri : uris) {
			if (!PoolResize.isLoopback(uri.getHost())) {
				throw new BenchSettingException(
						"%s=%s is not allowed: %s is not this machine's loopback (127.0.0.0/8). The lab sends real load and resizes real pools; to point it at a deployment beyond this machine, one that is yours to load, add -Dbench.allowRemoteTargets=true. Nothing was started."
							.formatted(setting, uri, uri.getHost()));
			}
		}
	}

	/**
	 * Refuses loopback targets loaded from engines on other hosts: each engine would send
	 * its share to its own loopback, not to the service the lab watches.
	 * @param engineHosts the hosts of {@code bench.remoteEngines}
	 */
	public void requireReachableFrom(List<String> engineHosts) {
		List<String> elsewhere = engineHosts.stream().filter((host) -> !PoolResize.isLoopback(host)).toList();
		Optional<URI> local = this.targets.stream()
			.filter((target) -> PoolResize.isLoopback(target.getHost()))
			.findFirst();
		if (!elsewhere.isEmpty() && local.isPresent()) {
			throw new BenchSettingException(
					"bench.targets=%s is not allowed with engines on other hosts (%s): %s is a loopback address, so each engine would send its load to its own machine. Name the targets by an address the engines reach, or run the engines on this machine. Nothing was started."
						.formatted(local.get(), String.join(",", elsewhere), local.get().getHost()));
		}
	}

	/** How many instances the lab watches and resizes: one per actuator. */
	public int instances() {
		return this.actuators.size();
	}

	/** An actuator endpoint of an instance, e.g. {@code prometheus}. */
	URI actuator(int instance, String endpoint) {
		return URI.create(this.actuators.get(instance) + "/" + endpoint);
	}

	/** The resize command for one pool size. */
	String resizeCommandFor(int poolSize) {
		return this.resizeCommand.orElseThrow().replace(POOL_SIZE, String.valueOf(poolSize));
	}

	/**
	 * What the pre-flight found: each instance's pool size now, and the deployment with
	 * the pool it sweeps named.
	 *
	 * @param sizes each instance's pool size, in the order of {@code bench.actuators}
	 * @param target the deployment, its {@link #pools} the pools chosen
	 */
	public record Ready(List<Integer> sizes, ExternalTarget target) {
	}

	/**
	 * Checks, before anything is measured, that the deployment can be swept: every
	 * actuator's {@code health} says UP and its {@code prometheus} endpoint shows a
	 * HikariCP pool ({@code hikaricp_connections_max}), one chosen where it shows
	 * several; every target serves the requests the pre-flight may send (each {@code GET}
	 * once, a 4xx refused: a wrong target, not a pool size); and without a resize command
	 * every instance's resize endpoint is there and takes the lab's credential. The
	 * credential is tried with a size the endpoint refuses (0): it checks the credential
	 * first (401 or 403 when missing or wrong) and the size after (400), so nothing is
	 * resized.
	 * @return each instance's pool size now, and the pool chosen
	 * @throws BenchSettingException naming the setting and the URL that failed
	 */
	public Ready requireReady(PrintStream out) throws InterruptedException {
		Readiness readiness = new Readiness(this, out);
		List<String> chosen = new ArrayList<>();
		List<Integer> sizes = new ArrayList<>();
		for (int i = 0; i < instances(); i++) {
			readiness.requireUp(i);
			String exposition = readiness.prometheus(i);
			Map<String, Integer> pools = pools(exposition);
			if (pools.isEmpty()) {
				throw new BenchSettingException(
						"bench.actuators=%s does not expose hikaricp_connections_max at %s: the lab proves every point's pool size by it, which HikariCP reports through Micrometer for a DataSource Spring Boot configures. For a service with a HikariCP pool, %s. Nothing was started."
							.formatted(this.actuators.get(i), actuator(i, "prometheus"), PROMETHEUS_HINT));
			}
			String pool = readiness.choosePool(i, pools);
			chosen.add(pool);
			readiness.describeHold(i, exposition, pool);
			int size = pools.getOrDefault(pool, 0);
			if (this.resizeCommand.isEmpty()) {
				requireResizable(i);
				// The size to restore, read live: HikariCP's gauge caches its statistics
				// for up to a second, stale right after a resize.
				sizes.add(livePoolSize(i).orElse(size));
			}
			else {
				sizes.add(size);
			}
		}
		for (URI target : this.targets) {
			readiness.requireServes(target);
		}
		out.printf(Locale.ROOT, "Instances by their actuators: %s, %s, sizes now %s (restored at the end).%n",
				this.actuators, (chosen.stream().distinct().count() == 1) ? "pool " + chosen.get(0) : "pools " + chosen,
				sizes);
		return new Ready(List.copyOf(sizes), new ExternalTarget(this.targets, this.actuators, this.resizeCommand,
				this.resizeTimeout, this.token, this.requests, this.poolName, List.copyOf(chosen)));
	}

	/** The pool the lab watches on an instance, once the pre-flight chose it. */
	public Optional<String> pool(int instance) {
		return (instance < this.pools.size()) ? Optional.of(this.pools.get(instance)) : this.poolName;
	}

	/**
	 * HikariCP's pools in an exposition, by their {@code pool} tag, each with its size
	 * ({@code hikaricp_connections_max}); a series without the tag counts as the pool
	 * named {@code ""}.
	 */
	static Map<String, Integer> pools(String exposition) {
		Map<String, Integer> pools = new TreeMap<>();
		Matcher max = POOL_MAX.matcher(exposition);
		while (max.find()) {
			Matcher tag = POOL_TAG.matcher(String.valueOf(max.group(1)));
			pools.put(tag.find() ? tag.group(1) : "", (int) Double.parseDouble(max.group(2)));
		}
		return pools;
	}

	private void requireResizable(int instance) throws InterruptedException {
		URI endpoint = actuator(instance, "poolsize");
		HttpResponse<String> response;
		try {
			response = HTTP.send(ResizeCredential.resizeRequest(endpoint, "\"0\"", this.token),
					HttpResponse.BodyHandlers.ofString());
		}
		catch (IOException ex) {
			throw new BenchSettingException(
					"bench.actuators=%s: the resize endpoint %s does not answer: %s. Nothing was started."
						.formatted(this.actuators.get(instance), endpoint, describe(ex)));
		}
		int status = response.statusCode();
		if (status == 401 || status == 403) {
			throw new BenchSettingException(
					"The resize endpoint %s refused the lab's credential (HTTP %d): %s. Set the service's token (lab.pool-resize.token) in the environment variable %s, never on a command line. Nothing was started."
						.formatted(endpoint, status,
								this.token.isPresent() ? "the token from " + ResizeCredential.ENVIRONMENT_VARIABLE
										+ " is not the service's" : "no token was given",
								ResizeCredential.ENVIRONMENT_VARIABLE));
		}
		if (status == 404) {
			throw new BenchSettingException(
					"bench.actuators=%s has no resize endpoint (%s: HTTP 404): start the service with lab.pool-resize.enabled=true, or give bench.resizeCommand to redeploy the fleet at each pool size. Nothing was started."
						.formatted(this.actuators.get(instance), endpoint));
		}
		if (status != 400) {
			throw new BenchSettingException(
					"The resize endpoint %s answered HTTP %d to a size it must refuse (0), where the lab's endpoint answers 400: is it the lab's service? Nothing was started."
						.formatted(endpoint, status));
		}
	}

	/**
	 * The pool's {@code maximumPoolSize} as the resize endpoint reads it from HikariCP,
	 * empty when the endpoint does not say.
	 */
	private OptionalInt livePoolSize(int instance) throws InterruptedException {
		try {
			HttpResponse<String> response = HTTP.send(
					HttpRequest.newBuilder(actuator(instance, "poolsize")).timeout(Duration.ofSeconds(5)).build(),
					HttpResponse.BodyHandlers.ofString());
			JsonNode size = (response.statusCode() == 200) ? JSON.readTree(response.body()).get("maximumPoolSize")
					: null;
			return (size != null && size.isInt()) ? OptionalInt.of(size.asInt()) : OptionalInt.empty();
		}
		catch (IOException | JacksonException ex) {
			return OptionalInt.empty();
		}
	}

	/**
	 * An instance's pool size as its actuator reports it now, empty when it does not
	 * report one.
	 * @throws IOException when the actuator does not answer
	 */
	/** Asks an instance's {@code health}, whatever it answers. */
	void health(int instance) throws IOException, InterruptedException {
		HTTP.send(HttpRequest.newBuilder(actuator(instance, "health")).timeout(Duration.ofSeconds(5)).build(),
				HttpResponse.BodyHandlers.discarding());
	}

	OptionalInt poolSize(int instance) throws IOException, InterruptedException {
		HttpResponse<String> response = HTTP.send(
				HttpRequest.newBuilder(actuator(instance, "prometheus")).timeout(Duration.ofSeconds(5)).build(),
				HttpResponse.BodyHandlers.ofString());
		if (response.statusCode() != 200) {
			return OptionalInt.empty();
		}
		Map<String, Integer> pools = pools(response.body());
		String pool = pool(instance).orElse(pools.isEmpty() ? "" : pools.keySet().iterator().next());
		Integer size = pools.get(pool);
		return (size != null) ? OptionalInt.of(size) : OptionalInt.empty();
	}

	static String describe(IOException ex) {
		return (ex.getMessage() != null) ? ex.getClass().getSimpleName() + ": " + ex.getMessage()
				: ex.getClass().getSimpleName();
	}

}
