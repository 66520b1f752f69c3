package org.poollab.docker;

import java.io.IOException;
import java.io.Reader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import javax.sql.DataSource;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.xpath.XPathFactory;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.Yaml;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.env.YamlPropertySourceLoader;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalManagementPort;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.ApplicationContextInitializer;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.env.PropertySource;
import org.springframework.core.env.SystemEnvironmentPropertySource;
import org.springframework.core.io.ByteArrayResource;
import org.springframework.mock.env.MockEnvironment;
import org.springframework.test.context.ContextConfiguration;

import org.poollab.service.ServiceApplication;
import org.poollab.service.system.ResizeToken;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * The manifests under {@code docker/kubernetes/}, checked without a cluster (none runs
 * here or in CI): they parse and name their objects, the image is the one compose.yaml
 * builds, pinned by the project's version, ports, selectors and the ConfigMap's mount
 * line up, the public Service never carries the management port, the password and the
 * resize token come from Secrets (the example one holds a placeholder the service
 * refuses), and the service itself, started with the ConfigMap's pool block, the
 * Deployment's pool-name and its resize settings (loopback and a random port standing in
 * for the pod's address and port 8081), runs that block, answers the probes' paths on its
 * management port and refuses a resize without the token.
 */
@SpringBootTest(classes = ServiceApplication.class, webEnvironment = WebEnvironment.RANDOM_PORT)
@ContextConfiguration(initializers = KubernetesManifestsTests.PodSettings.class)
class KubernetesManifestsTests {

	private static final Path KUBERNETES = Path.of("docker", "kubernetes");

	/** The pod name the Deployment's {@code $(POD_NAME)} stands for in this test. */
	private static final String POD_NAME = "pool-sizing-lab-test-pod";

	/** Stands in for the Secret's token in this test. Not a secret. */
	private static final String TOKEN = "kubernetes-test-token-0123456789";

	private static final String PUBLIC_SERVICE = "pool-sizing-lab";

	private static final String MANAGEMENT_SERVICE = "pool-sizing-lab-management";

	/** A Kubernetes env value's reference to an earlier variable. */
	private static final Pattern VARIABLE_REFERENCE = Pattern.compile("\\$\\(([A-Z_][A-Z0-9_]*)\\)");

	private final HttpClient http = HttpClient.newHttpClient();

	@LocalServerPort
	private int port;

	@LocalManagementPort
	private int managementPort;

	@Autowired
	private DataSource dataSource;

	@Test
	void everyManifestNamesItsApiVersionKindAndName() throws IOException {
		List<Map<String, Object>> manifests = manifests();
		assertThat(manifests).allSatisfy((manifest) -> {
			assertThat(manifest.get("apiVersion")).as("apiVersion").isInstanceOf(String.class);
			assertThat(manifest.get("kind")).as("kind").isInstanceOf(String.class);
			assertThat((String) map(manifest.get("metadata")).get("name")).as("metadata.name")
				.matches("[a-z0-9]([-a-z0-9]*[a-z0-9])?");
		});
		assertThat(manifests.stream().map((manifest) -> manifest.get("kind")).toList())
			.containsExactlyInAnyOrder("ConfigMap", "Deployment", "Service", "Service", "Secret");
	}

	@Test
	void imageIsTheOneComposeBuildsTaggedWithTheProjectVersion() throws Exception {
		List<String> images = containers().stream().map((container) -> (String) container.get("image")).toList();
		assertThat(images).isNotEmpty().allSatisfy((image) -> {
			String name = image.substring(image.lastIndexOf('/') + 1);
			assertThat(name).as(image).contains(":");
			assertThat(name.substring(name.indexOf(':') + 1)).as(image).isNotBlank().isNotEqualTo("latest");
		});
		Map<String, Object> composed = map(map(load(Path.of("docker", "compose.yaml")).get("services")).get("service"));
		assertThat(images).containsExactly((String) composed.get("image"));
		assertThat(images.get(0)).isEqualTo("pool-sizing-lab-service:" + projectVersion());
	}

	@Test
	void deploymentRunsThreeReplicasItsSelectorsFind() throws IOException {
		Map<String, Object> spec = map(manifest("Deployment").get("spec"));
		assertThat(spec.get("replicas")).isEqualTo(3);
		Map<String, Object> podLabels = map(map(map(spec.get("template")).get("metadata")).get("labels"));
		Map<String, Object> deploymentSelector = map(map(spec.get("selector")).get("matchLabels"));
		assertThat(deploymentSelector).isNotEmpty();
		assertThat(podLabels).containsAllEntriesOf(deploymentSelector);
		for (String name : List.of(PUBLIC_SERVICE, MANAGEMENT_SERVICE)) {
			Map<String, Object> serviceSelector = map(map(service(name).get("spec")).get("selector"));
			assertThat(serviceSelector).as(name).isNotEmpty();
			assertThat(podLabels).as(name).containsAllEntriesOf(serviceSelector);
		}
	}

	@Test
	void serviceTargetsThePortTheServiceListensOn() throws IOException {
		Map<String, Object> spec = map(service(PUBLIC_SERVICE).get("spec"));
		assertThat(spec.get("type")).isEqualTo("ClusterIP");
		List<Object> ports = list(spec.get("ports"));
		assertThat(ports).as("the public port only").hasSize(1);
		int containerPort = containerPort(map(ports.get(0)).get("targetPort"));
		assertThat(containerPort).isNotEqualTo(Integer.parseInt(env().get("MANAGEMENT_SERVER_PORT")));

		Map<String, String> env = env();
		assertThat(env).containsEntry("SERVER_ADDRESS", "0.0.0.0");
		assertThat(Integer.parseInt(env.get("SERVER_PORT"))).isEqualTo(containerPort);
		String packaged = String
			.valueOf(map(load(Path.of("src/main/resources/application.yml")).get("server")).get("port"));
		Matcher portDefault = Pattern.compile("\\$\\{SERVER_PORT:(\\d+)}").matcher(packaged);
		assertThat(portDefault.matches()).as(packaged).isTrue();
		assertThat(Integer.parseInt(portDefault.group(1))).isEqualTo(containerPort);
	}

	@Test
	void theActuatorListensOnAPortOfItsOwnWithTheResizeEndpointOn() throws IOException {
		Map<String, String> env = env();
		assertThat(env).containsEntry("MANAGEMENT_SERVER_ADDRESS", "0.0.0.0")
			.containsEntry("LAB_POOL_RESIZE_ENABLED", "true");
		int management = Integer.parseInt(env.get("MANAGEMENT_SERVER_PORT"));
		assertThat(management).isNotEqualTo(Integer.parseInt(env.get("SERVER_PORT")));
		assertThat(containerPort("management")).isEqualTo(management);

		// Headless: one address per pod, as a resize or a scrape is for one pod.
		Map<String, Object> spec = map(service(MANAGEMENT_SERVICE).get("spec"));
		assertThat(spec).containsEntry("type", "ClusterIP").containsEntry("clusterIP", "None");
		List<Object> ports = list(spec.get("ports"));
		assertThat(ports).hasSize(1);
		assertThat(containerPort(map(ports.get(0)).get("targetPort"))).isEqualTo(management);
	}

	@Test
	void probesAskHealthGroupsTheServiceAnswers() throws Exception {
		Map<String, Object> container = containers().get(0);
		Map<String, Object> readiness = map(map(container.get("readinessProbe")).get("httpGet"));
		Map<String, Object> liveness = map(map(container.get("livenessProbe")).get("httpGet"));
		Map<String, Object> startup = map(map(container.get("startupProbe")).get("httpGet"));
		assertThat(readiness).containsEntry("path", "/actuator/health/readiness");
		assertThat(liveness).containsEntry("path", "/actuator/health/liveness");
		assertThat(startup).containsEntry("path", "/actuator/health/liveness");
		for (Map<String, Object> probe : List.of(readiness, liveness, startup)) {
			assertThat(containerPort(probe.get("port")))
				.isEqualTo(Integer.parseInt(env().get("MANAGEMENT_SERVER_PORT")));
			HttpResponse<String> health = get(this.managementPort, (String) probe.get("path"));
			assertThat(health.statusCode()).as(probe.toString()).isEqualTo(200);
			assertThat(health.body()).contains("\"status\":\"UP\"");
		}
	}

	@Test
	void passwordAndResizeTokenComeFromSecrets() throws IOException {
		List<Map<String, Object>> secrets = list(containers().get(0).get("env")).stream()
			.map(KubernetesManifestsTests::map)
			.filter((variable) -> ((String) variable.get("name")).matches(".*(PASSWORD|TOKEN).*"))
			.toList();
		assertThat(secrets).extracting((variable) -> variable.get("name"))
			.containsExactlyInAnyOrder("SPRING_DATASOURCE_PASSWORD", ResizeToken.VARIABLE);
		assertThat(secrets).allSatisfy((variable) -> {
			assertThat(variable).doesNotContainKey("value");
			Map<String, Object> secret = map(map(variable.get("valueFrom")).get("secretKeyRef"));
			assertThat(secret).containsKeys("name", "key");
		});
		assertThat(env()).containsKeys("SPRING_DATASOURCE_URL", "SPRING_DATASOURCE_USERNAME");
	}

	@Test
	void theExampleSecretIsLeftOutOfTheDirectoryApplyAndHoldsATokenTheServiceRefuses() throws IOException {
		try (Stream<Path> top = Files.list(KUBERNETES)) {
			for (Path file : top.filter(Files::isRegularFile).toList()) {
				assertThat(documents(file)).as(file.toString())
					.noneMatch((manifest) -> "Secret".equals(manifest.get("kind")));
			}
		}
		Map<String, Object> example = manifest("Secret");
		Map<String, Object> reference = map(map(list(containers().get(0).get("env")).stream()
			.map(KubernetesManifestsTests::map)
			.filter((variable) -> ResizeToken.VARIABLE.equals(variable.get("name")))
			.findFirst()
			.orElseThrow()
			.get("valueFrom")).get("secretKeyRef"));
		assertThat(map(example.get("metadata"))).containsEntry("name", reference.get("name"));
		Map<String, Object> data = map(example.get("stringData"));
		assertThat(data).containsOnlyKeys((String) reference.get("key"));
		String placeholder = (String) data.get(reference.get("key"));
		assertThatIllegalStateException()
			.isThrownBy(() -> ResizeToken.from(new MockEnvironment().withProperty(ResizeToken.PROPERTY, placeholder)))
			.withMessageContaining("lab.pool-resize.token (environment variable LAB_POOL_RESIZE_TOKEN) must be");
	}

	@Test
	void resizingNeedsTheTokenReadingDoesNot() throws Exception {
		HttpResponse<String> refused = this.http
			.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + this.managementPort + "/actuator/poolsize"))
				.header("Content-Type", "application/json")
				.POST(HttpRequest.BodyPublishers.ofString("{\"maximumPoolSize\":2}"))
				.build(), HttpResponse.BodyHandlers.ofString());
		assertThat(refused.statusCode()).isEqualTo(401);
		assertThat(get(this.managementPort, "/actuator/poolsize").statusCode()).isEqualTo(200);
		assertThat(get(this.managementPort, "/actuator/prometheus").statusCode()).isEqualTo(200);
		assertThat(get(this.port, "/actuator/poolsize").statusCode()).as("not on the public port").isEqualTo(404);
		assertThat(this.dataSource.unwrap(HikariDataSource.class).getMaximumPoolSize())
			.isEqualTo(hikariBlock().get("maximum-pool-size"));
	}

	@Test
	void configMapIsMountedWhereSpringReadsIt() throws IOException {
		Map<String, Object> podSpec = map(map(map(manifest("Deployment").get("spec")).get("template")).get("spec"));
		Map<String, Object> volume = map(list(podSpec.get("volumes")).get(0));
		assertThat(map(volume.get("configMap")).get("name"))
			.isEqualTo(map(manifest("ConfigMap").get("metadata")).get("name"));
		Map<String, Object> mount = map(list(containers().get(0).get("volumeMounts")).get(0));
		assertThat(mount).containsEntry("name", volume.get("name"));
		assertThat(map(manifest("ConfigMap").get("data"))).containsOnlyKeys("application.yml");
		assertThat(env()).containsEntry("SPRING_CONFIG_ADDITIONAL_LOCATION",
				"file:" + mount.get("mountPath") + "/application.yml");
	}

	@Test
	void configMapHoldsOnlyHikariProperties() throws IOException {
		Map<String, Object> configuration = new Yaml().load(configMapApplicationYml());
		assertThat(configuration).containsOnlyKeys("spring");
		assertThat(map(configuration.get("spring"))).containsOnlyKeys("datasource");
		assertThat(map(map(configuration.get("spring")).get("datasource"))).containsOnlyKeys("hikari");
		Map<String, Object> hikari = hikariBlock();
		assertThat(hikari).containsKey("maximum-pool-size");
		assertThat(hikari.keySet()).allSatisfy(
				(property) -> assertThat(isHikariProperty(property)).as("HikariConfig has a setter for " + property)
					.isTrue());
		// Not a check that passes anything: a name HikariConfig lacks is refused.
		assertThat(isHikariProperty("max-pool-size")).isFalse();
	}

	@Test
	void serviceRunsTheConfigMapsPoolBlockUnderThePodsName() throws Exception {
		HikariDataSource pool = this.dataSource.unwrap(HikariDataSource.class);
		assertThat(pool.getMaximumPoolSize()).isEqualTo(hikariBlock().get("maximum-pool-size"));
		assertThat(pool.getConnectionTimeout())
			.isEqualTo(((Number) hikariBlock().get("connection-timeout")).longValue());
		assertThat(pool.getPoolName()).isEqualTo("roles-" + POD_NAME);
		assertThat(get(this.port, "/roles").statusCode()).isEqualTo(200);
	}

	private HttpResponse<String> get(int port, String path) throws IOException, InterruptedException {
		return this.http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path)).build(),
				HttpResponse.BodyHandlers.ofString());
	}

	/**
	 * Whether HikariCP has the property Spring Boot binds {@code kebab-case} onto: a
	 * one-argument setter on {@link HikariConfig}.
	 */
	private static boolean isHikariProperty(String kebabCase) {
		StringBuilder setter = new StringBuilder("set");
		for (String word : kebabCase.split("-")) {
			setter.append(Character.toUpperCase(word.charAt(0))).append(word.substring(1));
		}
		return Stream.of(HikariConfig.class.getMethods())
			.anyMatch((method) -> method.getName().contentEquals(setter) && method.getParameterCount() == 1);
	}

	/**
	 * The container port a Service's targetPort or a probe's port means: by name or by
	 * number, one of the container's ports either way.
	 */
	private static int containerPort(Object port) throws IOException {
		List<Map<String, Object>> ports = list(containers().get(0).get("ports")).stream()
			.map(KubernetesManifestsTests::map)
			.toList();
		List<Map<String, Object>> matching = ports.stream()
			.filter((candidate) -> (port instanceof Integer) ? port.equals(candidate.get("containerPort"))
					: port.equals(candidate.get("name")))
			.toList();
		assertThat(matching).as("container port %s", port).hasSize(1);
		return (Integer) matching.get(0).get("containerPort");
	}

	private static String projectVersion() throws Exception {
		var pom = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(Path.of("pom.xml").toFile());
		String version = XPathFactory.newInstance().newXPath().evaluate("/project/version", pom);
		assertThat(version).isNotBlank();
		return version;
	}

	/** The Deployment's plain env values by name ({@code valueFrom} ones left out). */
	private static Map<String, String> env() throws IOException {
		Map<String, String> env = new LinkedHashMap<>();
		for (Object variable : list(containers().get(0).get("env"))) {
			Map<String, Object> entry = map(variable);
			if (entry.containsKey("value")) {
				env.put((String) entry.get("name"), String.valueOf(entry.get("value")));
			}
		}
		return env;
	}

	private static List<Map<String, Object>> containers() throws IOException {
		Map<String, Object> podSpec = map(map(map(manifest("Deployment").get("spec")).get("template")).get("spec"));
		List<Map<String, Object>> containers = new ArrayList<>();
		for (String field : List.of("initContainers", "containers")) {
			if (podSpec.get(field) != null) {
				list(podSpec.get(field)).forEach((container) -> containers.add(map(container)));
			}
		}
		return containers;
	}

	private static String configMapApplicationYml() throws IOException {
		return (String) map(manifest("ConfigMap").get("data")).get("application.yml");
	}

	private static Map<String, Object> hikariBlock() throws IOException {
		Map<String, Object> configuration = new Yaml().load(configMapApplicationYml());
		return map(map(map(configuration.get("spring")).get("datasource")).get("hikari"));
	}

	private static Map<String, Object> service(String name) throws IOException {
		List<Map<String, Object>> found = manifests().stream()
			.filter((manifest) -> "Service".equals(manifest.get("kind")))
			.filter((manifest) -> name.equals(map(manifest.get("metadata")).get("name")))
			.toList();
		assertThat(found).as("Service " + name).hasSize(1);
		return found.get(0);
	}

	private static Map<String, Object> manifest(String kind) throws IOException {
		List<Map<String, Object>> found = manifests().stream()
			.filter((manifest) -> kind.equals(manifest.get("kind")))
			.toList();
		assertThat(found).as(kind).hasSize(1);
		return found.get(0);
	}

	/** Every document of every YAML file under docker/kubernetes/. */
	private static List<Map<String, Object>> manifests() throws IOException {
		List<Path> files;
		try (Stream<Path> walk = Files.walk(KUBERNETES)) {
			files = walk.filter(Files::isRegularFile).sorted().toList();
		}
		assertThat(files).isNotEmpty().allSatisfy((file) -> assertThat(file.toString()).endsWith(".yaml"));
		List<Map<String, Object>> manifests = new ArrayList<>();
		for (Path file : files) {
			manifests.addAll(documents(file));
		}
		return manifests;
	}

	private static List<Map<String, Object>> documents(Path file) throws IOException {
		List<Map<String, Object>> documents = new ArrayList<>();
		try (Reader reader = Files.newBufferedReader(file)) {
			for (Object document : new Yaml().loadAll(reader)) {
				documents.add(map(document));
			}
		}
		return documents;
	}

	private static Map<String, Object> load(Path file) throws IOException {
		try (Reader reader = Files.newBufferedReader(file)) {
			return map(new Yaml().load(reader));
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

	/**
	 * What a pod gets besides the image's own configuration: the ConfigMap's
	 * application.yml over the packaged one (SPRING_CONFIG_ADDITIONAL_LOCATION in the
	 * pod), the Deployment's {@code SPRING_DATASOURCE_HIKARI_*} variables, with
	 * {@code $(POD_NAME)} as Kubernetes expands it, and its {@code LAB_POOL_RESIZE_*}
	 * ones, with this test's token for the Secret's. The datasource, server and JVM
	 * variables are left out: they point at the cluster; the management server listens on
	 * loopback and a random port here, where the pod has 0.0.0.0 and 8081 (a port of its
	 * own either way, which is what the guard and the probes care about).
	 */
	static class PodSettings implements ApplicationContextInitializer<ConfigurableApplicationContext> {

		@Override
		public void initialize(ConfigurableApplicationContext context) {
			try {
				var sources = context.getEnvironment().getPropertySources();
				Map<String, Object> environment = new LinkedHashMap<>();
				Set<String> unresolved = new TreeSet<>();
				env().forEach((name, value) -> {
					if (name.startsWith("LAB_POOL_RESIZE_")) {
						environment.put(name, value);
					}
					if (name.startsWith("SPRING_DATASOURCE_HIKARI_")) {
						Matcher reference = VARIABLE_REFERENCE.matcher(value);
						environment.put(name, reference.replaceAll((found) -> {
							if (!found.group(1).equals("POD_NAME")) {
								unresolved.add(found.group(1));
							}
							return POD_NAME;
						}));
					}
				});
				assertThat(unresolved).as("variables this test does not stand in for").isEmpty();
				environment.put(ResizeToken.VARIABLE, TOKEN);
				environment.put("MANAGEMENT_SERVER_PORT", "0");
				environment.put("MANAGEMENT_SERVER_ADDRESS", "127.0.0.1");
				// Named -systemEnvironment so that Spring Boot maps the names as it maps
				// real
				// environment variables; above the ConfigMap's file, as in a pod.
				sources.addFirst(new SystemEnvironmentPropertySource("deployment-systemEnvironment", environment));
				List<PropertySource<?>> configMap = new YamlPropertySourceLoader().load("configmap-application.yml",
						new ByteArrayResource(configMapApplicationYml().getBytes(StandardCharsets.UTF_8)));
				for (PropertySource<?> source : configMap) {
					sources.addAfter("deployment-systemEnvironment", source);
				}
			}
			catch (IOException ex) {
				throw new IllegalStateException("Could not read " + KUBERNETES, ex);
			}
		}

	}

}
