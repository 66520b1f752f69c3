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
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.ApplicationContextInitializer;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.env.PropertySource;
import org.springframework.core.env.SystemEnvironmentPropertySource;
import org.springframework.core.io.ByteArrayResource;
import org.springframework.test.context.ContextConfiguration;

import org.poollab.service.ServiceApplication;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The manifests under {@code docker/kubernetes/}, checked without a cluster (none runs
 * here or in CI): they parse and name their objects, the image is the one compose.yaml
 * builds, pinned by the project's version, ports, selectors and the ConfigMap's mount
 * line up, the password comes from a Secret, and the service itself, started with the
 * ConfigMap's pool block and the Deployment's pool-name, runs that block and answers the
 * probes' paths.
 */
@SpringBootTest(classes = ServiceApplication.class, webEnvironment = WebEnvironment.RANDOM_PORT)
@ContextConfiguration(initializers = KubernetesManifestsTests.PodSettings.class)
class KubernetesManifestsTests {

	private static final Path KUBERNETES = Path.of("docker", "kubernetes");

	/** The pod name the Deployment's {@code $(POD_NAME)} stands for in this test. */
	private static final String POD_NAME = "pool-sizing-lab-test-pod";

	/** A Kubernetes env value's reference to an earlier variable. */
	private static final Pattern VARIABLE_REFERENCE = Pattern.compile("\\$\\(([A-Z_][A-Z0-9_]*)\\)");

	private final HttpClient http = HttpClient.newHttpClient();

	@LocalServerPort
	private int port;

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
			.containsExactlyInAnyOrder("ConfigMap", "Deployment", "Service");
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
		Map<String, Object> serviceSelector = map(map(manifest("Service").get("spec")).get("selector"));
		assertThat(deploymentSelector).isNotEmpty();
		assertThat(podLabels).containsAllEntriesOf(deploymentSelector);
		assertThat(serviceSelector).isNotEmpty();
		assertThat(podLabels).containsAllEntriesOf(serviceSelector);
	}

	@Test
	void serviceTargetsThePortTheServiceListensOn() throws IOException {
		Map<String, Object> spec = map(manifest("Service").get("spec"));
		assertThat(spec.get("type")).isEqualTo("ClusterIP");
		List<Object> ports = list(spec.get("ports"));
		assertThat(ports).hasSize(1);
		int containerPort = containerPort(map(ports.get(0)).get("targetPort"));

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
	void probesAskHealthGroupsTheServiceAnswers() throws Exception {
		Map<String, Object> container = containers().get(0);
		Map<String, Object> readiness = map(map(container.get("readinessProbe")).get("httpGet"));
		Map<String, Object> liveness = map(map(container.get("livenessProbe")).get("httpGet"));
		Map<String, Object> startup = map(map(container.get("startupProbe")).get("httpGet"));
		assertThat(readiness).containsEntry("path", "/actuator/health/readiness");
		assertThat(liveness).containsEntry("path", "/actuator/health/liveness");
		assertThat(startup).containsEntry("path", "/actuator/health/liveness");
		for (Map<String, Object> probe : List.of(readiness, liveness, startup)) {
			assertThat(containerPort(probe.get("port"))).isEqualTo(Integer.parseInt(env().get("SERVER_PORT")));
			HttpResponse<String> health = get((String) probe.get("path"));
			assertThat(health.statusCode()).as(probe.toString()).isEqualTo(200);
			assertThat(health.body()).contains("\"status\":\"UP\"");
		}
	}

	@Test
	void passwordComesFromASecret() throws IOException {
		List<Object> env = list(containers().get(0).get("env"));
		List<Map<String, Object>> passwords = env.stream()
			.map(KubernetesManifestsTests::map)
			.filter((variable) -> ((String) variable.get("name")).contains("PASSWORD"))
			.toList();
		assertThat(passwords).hasSize(1).allSatisfy((password) -> {
			assertThat(password).doesNotContainKey("value");
			Map<String, Object> secret = map(map(password.get("valueFrom")).get("secretKeyRef"));
			assertThat(secret).containsKeys("name", "key");
		});
		assertThat(env()).containsKeys("SPRING_DATASOURCE_URL", "SPRING_DATASOURCE_USERNAME");
		assertThat(manifests()).noneMatch((manifest) -> "Secret".equals(manifest.get("kind")));
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
		assertThat(get("/roles").statusCode()).isEqualTo(200);
	}

	private HttpResponse<String> get(String path) throws IOException, InterruptedException {
		return this.http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + this.port + path)).build(),
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

	/** The port a Service's targetPort or a probe's port means: by name or by number. */
	private static int containerPort(Object port) throws IOException {
		List<Map<String, Object>> ports = list(containers().get(0).get("ports")).stream()
			.map(KubernetesManifestsTests::map)
			.toList();
		assertThat(ports).hasSize(1);
		Map<String, Object> only = ports.get(0);
		if (port instanceof Integer number) {
			assertThat(number).isEqualTo(only.get("containerPort"));
		}
		else {
			assertThat(port).isEqualTo(only.get("name"));
		}
		return (Integer) only.get("containerPort");
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
			try (Reader reader = Files.newBufferedReader(file)) {
				for (Object document : new Yaml().loadAll(reader)) {
					manifests.add(map(document));
				}
			}
		}
		return manifests;
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
	 * pod), and the Deployment's {@code SPRING_DATASOURCE_HIKARI_*} variables, with
	 * {@code $(POD_NAME)} as Kubernetes expands it. The datasource, server and JVM
	 * variables are left out: they point at the cluster.
	 */
	static class PodSettings implements ApplicationContextInitializer<ConfigurableApplicationContext> {

		@Override
		public void initialize(ConfigurableApplicationContext context) {
			try {
				var sources = context.getEnvironment().getPropertySources();
				Map<String, Object> environment = new LinkedHashMap<>();
				Set<String> unresolved = new TreeSet<>();
				env().forEach((name, value) -> {
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
