package org.poollab.docker;

import java.io.File;
import java.io.IOException;
import java.io.Reader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.yaml.snakeyaml.Yaml;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.ApplicationContextInitializer;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.env.SystemEnvironmentPropertySource;
import org.springframework.test.context.ContextConfiguration;

import org.poollab.service.ServiceApplication;
import org.poollab.service.system.PoolResize;
import org.poollab.service.system.ResizeToken;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;
import static org.assertj.core.api.Assertions.fail;

/**
 * The files under {@code docker/}, checked without Docker (no engine runs in CI): they
 * parse, the compose file has what src/site/markdown/docker-and-kubernetes.md promises,
 * nginx accepts its configuration and proxies the public port only, Prometheus scrapes
 * the management port, the resize endpoint's token comes from the environment (never the
 * file) and the replicas' settings pass the service's guard only with it, and the Grafana
 * dashboard asks only for metrics the service really exports, scraped here from the
 * service itself, started with the metric settings the containers get.
 */
@SpringBootTest(classes = ServiceApplication.class, webEnvironment = WebEnvironment.RANDOM_PORT)
@ContextConfiguration(initializers = DockerAssetsTests.ContainerMetricSettings.class)
class DockerAssetsTests {

	private static final Path DOCKER = Path.of("docker");

	private static final Path COMPOSE = DOCKER.resolve("compose.yaml");

	/** Metric names in PromQL, as the dashboard's queries spell them. */
	private static final Pattern METRIC = Pattern.compile("\\b(?:hikaricp_[a-z_]+|http_server_requests_[a-z_]+)");

	private final HttpClient http = HttpClient.newHttpClient();

	@LocalServerPort
	private int port;

	@Test
	void everyYamlFileParses() throws IOException {
		List<Path> files = filesUnderDocker(".yaml", ".yml");
		assertThat(files).contains(COMPOSE, DOCKER.resolve("prometheus/prometheus.yml"));
		for (Path file : files) {
			try (Reader reader = Files.newBufferedReader(file)) {
				List<Object> documents = new ArrayList<>();
				new Yaml().loadAll(reader).forEach(documents::add);
				assertThat(documents).as(file.toString()).isNotEmpty().doesNotContainNull();
			}
		}
	}

	@Test
	void composeRunsPostgresReplicatedServiceNginxPrometheusAndGrafana() throws IOException {
		Map<String, Object> services = map(compose().get("services"));
		assertThat(services).containsOnlyKeys("postgres", "service", "nginx", "prometheus", "grafana");
		assertThat(map(map(services.get("service")).get("deploy"))).containsEntry("replicas", "${REPLICAS:-3}");
		assertThat(map(map(services.get("service")).get("environment")))
			.containsKeys("SPRING_DATASOURCE_URL", "SPRING_DATASOURCE_USERNAME", "SPRING_DATASOURCE_PASSWORD")
			.containsEntry("SPRING_DATASOURCE_HIKARI_MAXIMUM_POOL_SIZE", "${POOL_SIZE:-5}")
			.containsEntry("SERVER_ADDRESS", "0.0.0.0")
			.containsEntry("SERVER_PORT", 8080)
			.containsEntry("MANAGEMENT_SERVER_ADDRESS", "0.0.0.0")
			.containsEntry("MANAGEMENT_SERVER_PORT", 8081)
			.containsEntry("LAB_POOL_RESIZE_ENABLED", "true");
		assertThat(map(services.get("postgres"))).containsKey("healthcheck");
	}

	@Test
	void resizeTokenComesFromTheEnvironmentComposeRequires() throws IOException {
		Object token = serviceEnvironment().get(ResizeToken.VARIABLE);
		assertThat(token).isInstanceOf(String.class);
		// Compose's required-variable form: `up` stops with the message when it is unset
		// or empty.
		assertThat((String) token).matches("\\$\\{POOL_RESIZE_TOKEN:\\?[^}]+}");
		assertThat(Files.readString(COMPOSE)).as("no token written in the file")
			.doesNotContainPattern("(?i)token\\s*[:=]\\s*[\"']?[A-Za-z0-9._~+/-]{16,}");
	}

	@Test
	void composeSettingsPassTheServicesGuardOnlyWithAToken() throws IOException {
		ConfigurableEnvironment container = containerEnvironment(Map.of());
		assertThatIllegalStateException().isThrownBy(() -> PoolResize.guard(container))
			.withMessageStartingWith("lab.pool-resize.enabled=true on a non-loopback address needs "
					+ "lab.pool-resize.token (environment variable LAB_POOL_RESIZE_TOKEN");
		String token = "compose-test-token-0123456789";
		ConfigurableEnvironment withToken = containerEnvironment(Map.of(ResizeToken.VARIABLE, token));
		assertThat(withToken.getProperty(PoolResize.ENABLED_PROPERTY, Boolean.class)).isTrue();
		assertThat(withToken.getProperty("management.server.port", Integer.class)).isEqualTo(8081);
		ResizeToken accepted = PoolResize.guard(withToken);
		assertThat(accepted).isNotNull();
		assertThat(accepted.check("Bearer " + token)).isEqualTo(ResizeToken.Check.ACCEPTED);
	}

	@Test
	void postgresStartsWithAnExplicitMaxConnections() throws IOException {
		Map<String, Object> postgres = map(map(compose().get("services")).get("postgres"));
		assertThat(postgres.get("image")).isEqualTo("postgres:17");
		assertThat(String.join(" ", strings(postgres.get("command"))))
			.contains("-c max_connections=${MAX_CONNECTIONS:-100}");
	}

	@Test
	void everyPublishedPortIsOnLoopbackOnly() throws IOException {
		Map<String, Object> services = map(compose().get("services"));
		assertThat(strings(map(services.get("nginx")).get("ports"))).containsExactly("127.0.0.1:8080:8080");
		assertThat(map(services.get("service"))).as("the replicas publish nothing, the actuator's port least of all")
			.doesNotContainKeys("ports", "expose");
		List<String> published = services.values()
			.stream()
			.map((service) -> map(service).get("ports"))
			.filter((ports) -> ports != null)
			.flatMap((ports) -> strings(ports).stream())
			.toList();
		assertThat(published).isNotEmpty().allSatisfy((mapping) -> assertThat(mapping).startsWith("127.0.0.1:"));
	}

	@Test
	void prometheusScrapesEveryReplicasManagementPortFoundThroughDockerDns() throws IOException {
		Map<String, Object> prometheus = load(DOCKER.resolve("prometheus/prometheus.yml"));
		List<Object> jobs = list(prometheus.get("scrape_configs"));
		assertThat(jobs).hasSize(1);
		Map<String, Object> job = map(jobs.get(0));
		assertThat(job).containsEntry("metrics_path", "/actuator/prometheus");
		Map<String, Object> discovery = map(list(job.get("dns_sd_configs")).get(0));
		assertThat(strings(discovery.get("names"))).containsExactly("service");
		assertThat(discovery).containsEntry("port", serviceEnvironment().get("MANAGEMENT_SERVER_PORT"));
	}

	@Test
	void nginxProxiesThePublicPortOnlyNeverTheManagementPort() throws IOException {
		String config = Files.readString(DOCKER.resolve("nginx/nginx.conf"));
		Matcher target = Pattern.compile("http://service:(\\d+)").matcher(config);
		List<Integer> ports = new ArrayList<>();
		while (target.find()) {
			ports.add(Integer.parseInt(target.group(1)));
		}
		assertThat(ports).isNotEmpty().containsOnly((Integer) serviceEnvironment().get("SERVER_PORT"));
		assertThat(config).doesNotContain(":" + serviceEnvironment().get("MANAGEMENT_SERVER_PORT"));
	}

	@Test
	void nginxAcceptsItsConfiguration(@TempDir Path prefix) throws IOException, InterruptedException {
		Path nginx = requireNginx();
		Path config = Files.copy(DOCKER.resolve("nginx/nginx.conf"), prefix.resolve("nginx.conf"));
		// The configuration keeps pid and temp paths relative to the prefix and logs to
		// stderr, so it needs no root-owned path here; -e stderr covers the log nginx
		// opens
		// before it has read the file.
		Process process = new ProcessBuilder(nginx.toString(), "-t", "-p", prefix + "/", "-c", config.toString(), "-e",
				"stderr")
			.redirectErrorStream(true)
			.start();
		if (!process.waitFor(20, TimeUnit.SECONDS)) {
			process.destroyForcibly();
			fail("nginx -t did not finish within 20 s");
		}
		String output = new String(process.getInputStream().readAllBytes());
		assertThat(process.exitValue()).as(output).isZero();
		assertThat(output).contains("test is successful");
	}

	@Test
	void dashboardUsesTheProvisionedPrometheusDatasource() throws IOException {
		Map<String, Object> provisioning = load(DOCKER.resolve("grafana/provisioning/datasources/prometheus.yaml"));
		Map<String, Object> datasource = map(list(provisioning.get("datasources")).get(0));
		assertThat(datasource).containsEntry("type", "prometheus").containsEntry("url", "http://prometheus:9090");
		List<JsonNode> references = dashboard().findValues("datasource");
		assertThat(references).isNotEmpty()
			.allSatisfy((reference) -> assertThat(reference.get("uid").asString()).isEqualTo(datasource.get("uid")));
	}

	@Test
	void dashboardQueriesOnlyMetricsTheServiceExports() throws Exception {
		assertThat(get("/roles").statusCode()).isEqualTo(200);
		HttpResponse<String> scrape = get("/actuator/prometheus");
		assertThat(scrape.statusCode()).isEqualTo(200);
		Set<String> exported = scrape.body()
			.lines()
			.filter((line) -> !line.isBlank() && !line.startsWith("#"))
			.map((line) -> line.split("[{ ]", 2)[0])
			.collect(Collectors.toCollection(TreeSet::new));

		Set<String> queried = new TreeSet<>();
		for (String query : queries(dashboard())) {
			Matcher matcher = METRIC.matcher(query);
			while (matcher.find()) {
				queried.add(matcher.group());
			}
		}
		assertThat(queried).contains("hikaricp_connections_acquire_seconds_bucket", "hikaricp_connections_pending",
				"hikaricp_connections_active", "hikaricp_connections_idle", "hikaricp_connections",
				"hikaricp_connections_max", "hikaricp_connections_timeout_total",
				"hikaricp_connections_usage_seconds_sum", "http_server_requests_seconds_count",
				"http_server_requests_seconds_bucket");
		assertThat(exported).containsAll(queried);
	}

	private HttpResponse<String> get(String path) throws IOException, InterruptedException {
		return this.http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + this.port + path)).build(),
				HttpResponse.BodyHandlers.ofString());
	}

	private static JsonNode dashboard() {
		return JsonMapper.builder().build().readTree(DOCKER.resolve("grafana/dashboards/hikaricp.json").toFile());
	}

	/** Every PromQL text in the dashboard: panel targets and template variables. */
	private static List<String> queries(JsonNode dashboard) {
		List<String> queries = new ArrayList<>();
		Stream.of("expr", "query", "definition")
			.flatMap((field) -> dashboard.findValues(field).stream())
			.filter(JsonNode::isString)
			.forEach((query) -> queries.add(query.asString()));
		assertThat(queries).isNotEmpty();
		return queries;
	}

	private static Map<String, Object> compose() throws IOException {
		return load(COMPOSE);
	}

	private static Map<String, Object> serviceEnvironment() throws IOException {
		return map(map(map(compose().get("services")).get("service")).get("environment"));
	}

	/**
	 * The environment a replica gets, as Spring Boot binds it (nothing starts), with the
	 * variables compose would substitute.
	 */
	private static ConfigurableEnvironment containerEnvironment(Map<String, String> substituted) throws IOException {
		Map<String, Object> variables = new LinkedHashMap<>();
		serviceEnvironment().forEach((name, value) -> {
			if (!String.valueOf(value).startsWith("${")) {
				variables.put(name, String.valueOf(value));
			}
		});
		variables.putAll(substituted);
		StandardEnvironment environment = new StandardEnvironment();
		environment.getPropertySources()
			.replace(StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME, new SystemEnvironmentPropertySource(
					StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME, variables));
		ConfigurationPropertySources.attach(environment);
		return environment;
	}

	private static Map<String, Object> load(Path file) throws IOException {
		try (Reader reader = Files.newBufferedReader(file)) {
			return map(new Yaml().load(reader));
		}
	}

	private static List<Path> filesUnderDocker(String... suffixes) throws IOException {
		try (Stream<Path> files = Files.walk(DOCKER)) {
			return files.filter(Files::isRegularFile)
				.filter((file) -> Stream.of(suffixes).anyMatch((suffix) -> file.toString().endsWith(suffix)))
				.sorted()
				.toList();
		}
	}

	@SuppressWarnings("unchecked")
	private static Map<String, Object> map(Object value) {
		assertThat(value).isInstanceOf(Map.class);
		return (Map<String, Object>) value;
	}

	@SuppressWarnings("unchecked")
	private static List<Object> list(Object value) {
		assertThat(value).isInstanceOf(List.class);
		return (List<Object>) value;
	}

	private static List<String> strings(Object value) {
		return list(value).stream().map(String::valueOf).toList();
	}

	/**
	 * The installed nginx. Missing, it skips the test on a developer's machine but fails
	 * it under CI, which installs nginx-light.
	 */
	private static Path requireNginx() {
		Optional<Path> found = Stream
			.concat(Stream.of(System.getenv().getOrDefault("PATH", "").split(File.pathSeparator))
				.filter((dir) -> !dir.isEmpty())
				.map((dir) -> Path.of(dir, "nginx")), Stream.of(Path.of("/usr/sbin/nginx")))
			.filter(Files::isExecutable)
			.findFirst();
		String message = "nginx not found (looked on PATH and for /usr/sbin/nginx): apt-get install nginx-light to check docker/nginx/nginx.conf";
		if (found.isEmpty()) {
			if (System.getenv("CI") != null) {
				fail(message + " (CI is set, so this fails instead of skipping)");
			}
			Assumptions.abort(message);
		}
		return found.get();
	}

	/**
	 * The {@code MANAGEMENT_METRICS_*} variables the compose file gives the service's
	 * containers, as environment variables (same relaxed binding), so the scrape shows
	 * what a container exports. The datasource, server and management server variables
	 * are left out: they point at the containers' network (this test never listens on
	 * anything but loopback).
	 */
	static class ContainerMetricSettings implements ApplicationContextInitializer<ConfigurableApplicationContext> {

		@Override
		public void initialize(ConfigurableApplicationContext context) {
			try {
				Map<String, Object> environment = new LinkedHashMap<>();
				map(map(map(compose().get("services")).get("service")).get("environment")).forEach((name, value) -> {
					if (name.startsWith("MANAGEMENT_METRICS_")) {
						environment.put(name, String.valueOf(value));
					}
				});
				// The name ends in -systemEnvironment so that Spring Boot maps the names
				// as it
				// maps real environment variables.
				context.getEnvironment()
					.getPropertySources()
					.addFirst(new SystemEnvironmentPropertySource("compose-systemEnvironment", environment));
			}
			catch (IOException ex) {
				throw new IllegalStateException("Could not read " + COMPOSE, ex);
			}
		}

	}

}
