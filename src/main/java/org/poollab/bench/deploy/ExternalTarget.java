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
import java.util.Optional;
import java.util.OptionalInt;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.poollab.bench.lab.BenchSettingException;
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
 */
public record ExternalTarget(List<URI> targets, List<URI> actuators, Optional<String> resizeCommand,
		Duration resizeTimeout, Optional<ResizeCredential> token) {

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
						"bench.targets=%s is not allowed: use %s (the plan sends GET /roles or POST /roles/audit itself, over plain HTTP). Nothing was started."
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
		return new ExternalTarget(List.copyOf(entries), List.copyOf(bases), command, resizeTimeout, token);
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
	 * Checks, before anything is measured, that the deployment can be swept: every target
	 * answers HTTP, every actuator exposes {@code hikaricp_connections_max}, and without
	 * a resize command every instance's resize endpoint is there and takes the lab's
	 * credential. The credential is tried with a size the endpoint refuses (0): it checks
	 * the credential first (401 or 403 when missing or wrong) and the size after (400),
	 * so nothing is resized.
	 * @return each instance's pool size now, in the order of {@code bench.actuators}
	 * @throws BenchSettingException naming the setting and the URL that failed
	 */
	public List<Integer> requireReady(PrintStream out) throws InterruptedException {
		for (URI target : this.targets) {
			try {
				HttpResponse<Void> response = HTTP.send(
						HttpRequest.newBuilder(URI.create(target + "/ping")).timeout(Duration.ofSeconds(5)).build(),
						HttpResponse.BodyHandlers.discarding());
				out.printf(Locale.ROOT, "Target %s answers (GET /ping: HTTP %d).%n", target, response.statusCode());
			}
			catch (IOException ex) {
				throw new BenchSettingException(
						"bench.targets=%s does not answer: %s. Check the URL and that the service runs. Nothing was started."
							.formatted(target, describe(ex)));
			}
		}
		List<Integer> sizes = new ArrayList<>();
		for (int i = 0; i < instances(); i++) {
			OptionalInt size;
			try {
				size = poolSize(i);
			}
			catch (IOException ex) {
				throw new BenchSettingException("bench.actuators=%s does not answer: %s. Nothing was started."
					.formatted(this.actuators.get(i), describe(ex)));
			}
			if (size.isEmpty()) {
				throw new BenchSettingException(
						"bench.actuators=%s does not expose hikaricp_connections_max at %s: the lab proves every point's pool size by it. Expose the prometheus endpoint (management.endpoints.web.exposure.include=health,prometheus) of a service with a HikariCP pool. Nothing was started."
							.formatted(this.actuators.get(i), actuator(i, "prometheus")));
			}
			if (this.resizeCommand.isEmpty()) {
				requireResizable(i);
				// The size to restore, read live: HikariCP's gauge caches its statistics
				// for up to a second, stale right after a resize.
				sizes.add(livePoolSize(i).orElse(size.getAsInt()));
			}
			else {
				sizes.add(size.getAsInt());
			}
		}
		out.printf(Locale.ROOT, "Instances by their actuators: %s, pool sizes now %s (restored at the end).%n",
				this.actuators, sizes);
		return sizes;
	}

	private void requireResizable(int instance) throws InterruptedException {
		URI endpoint = actuator(instance, "poolsize");
		HttpResponse<String> response;
		try {
			response = HTTP.send(Instance.resizeRequest(endpoint, "\"0\"", this.token),
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
	OptionalInt poolSize(int instance) throws IOException, InterruptedException {
		HttpResponse<String> response = HTTP.send(
				HttpRequest.newBuilder(actuator(instance, "prometheus")).timeout(Duration.ofSeconds(5)).build(),
				HttpResponse.BodyHandlers.ofString());
		if (response.statusCode() != 200) {
			return OptionalInt.empty();
		}
		Matcher max = POOL_MAX.matcher(response.body());
		return max.find() ? OptionalInt.of((int) Double.parseDouble(max.group(2))) : OptionalInt.empty();
	}

	private static String describe(IOException ex) {
		return (ex.getMessage() != null) ? ex.getClass().getSimpleName() + ": " + ex.getMessage()
				: ex.getClass().getSimpleName();
	}

}
