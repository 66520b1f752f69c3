package org.poollab.jmeter;

import java.io.File;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

/**
 * Every plan under {@code jmeter/} loads with JMeter's own loader and holds what the lab
 * relies on: an open-model schedule driven by the {@code rate} and
 * {@code durationSeconds} properties, the {@code Java} HTTP implementation (the JVM-wide
 * keep-alive cache), requests round robin over the targets the {@code targets} property
 * holds (the targets themselves, which a remote engine gets, not a file it cannot read),
 * and, in the plans the sweep measures with, no listeners. The exploring plan the GUI
 * opens runs the measuring plan's load unchanged, with listeners, the instances' pool
 * gauges and a disabled resize request around it.
 * <p>
 * JMeter runs in a child JVM on the jars of the installation the build laid out
 * ({@code target/config.json}), the very ones the sweep and the GUI run, through a
 * single-file program ({@code PlanProbe.java}) that prints the loaded tree. JMeter as a
 * test dependency instead would pull about a hundred jars onto the Spring Boot test
 * classpath, among them a second SLF4J binding (log4j-slf4j-impl next to Logback, which
 * Spring Boot refuses), jcl-over-slf4j, Xerces, Xalan and Saxon (which change the JAXP
 * implementation for every test), and would let Spring Boot's dependency management pick
 * other versions of Groovy, Kotlin or Jackson 2 than the ones JMeter ships with.
 */
class PlanLoadingIT {

	private static final long TIMEOUT_SECONDS = 60;

	private static final String OPEN_MODEL_THREAD_GROUP = "org.apache.jmeter.threads.openmodel.OpenModelThreadGroup";

	private static final String HTTP_SAMPLER = "org.apache.jmeter.protocol.http.sampler.HTTPSamplerProxy";

	private static final String CSV_DATA_SET = "org.apache.jmeter.config.CSVDataSet";

	private static final String THREAD_GROUP = "org.apache.jmeter.threads.ThreadGroup";

	private static final String ARGUMENTS = "org.apache.jmeter.config.Arguments";

	private static final String COUNTER = "org.apache.jmeter.modifiers.CounterConfig";

	private static final String REGEX_EXTRACTOR = "org.apache.jmeter.extractor.RegexExtractor";

	private static final String JSR223_SAMPLER = "org.apache.jmeter.protocol.java.sampler.JSR223Sampler";

	private static final String HEADER_MANAGER = "org.apache.jmeter.protocol.http.control.HeaderManager";

	/** The plan the GUI opens ({@code gui} profile): for looking, with listeners. */
	private static final String EXPLORING_PLAN = "explore.jmx";

	/** The plan whose load the exploring plan runs. */
	private static final String MEASURING_PLAN = "roles.jmx";

	@TempDir
	static Path work;

	private static List<Path> planFiles;

	private static List<Plan> plans;

	private static String jmeterLog;

	@BeforeAll
	static void loadEveryPlanWithJMeter() throws IOException, InterruptedException, URISyntaxException {
		try (Stream<Path> files = Files.walk(Path.of("jmeter"))) {
			planFiles = files.filter((file) -> file.toString().endsWith(".jmx")).sorted().toList();
		}
		assertThat(planFiles).isNotEmpty();
		Path home = jmeterHome();
		Path probe = Path.of(Objects.requireNonNull(PlanLoadingIT.class.getResource("PlanProbe.java")).toURI());
		Path log = work.resolve("jmeter.log");
		List<String> command = new ArrayList<>(
				List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Djava.awt.headless=true",
						"-Dlog4j.configurationFile=" + home.resolve("bin/log4j2.xml"), "-Djmeter.logfile=" + log, "-cp",
						home.resolve("lib") + File.separator + "*" + File.pathSeparator + home.resolve("lib/ext")
								+ File.separator + "*",
						probe.toString(), home.toString()));
		planFiles.forEach((plan) -> command.add(plan.toAbsolutePath().toString()));
		Path output = work.resolve("probe.out");
		Process process = new ProcessBuilder(command).directory(work.toFile())
			.redirectErrorStream(true)
			.redirectOutput(output.toFile())
			.start();
		if (!process.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
			process.destroyForcibly();
			fail("JMeter did not load the plans within " + TIMEOUT_SECONDS + " s; output: " + Files.readString(output));
		}
		String printed = Files.readString(output);
		assertThat(process.exitValue()).as("JMeter could not load the plans:%n%s", printed).isZero();
		plans = Plan.parse(printed);
		assertThat(log).as("JMeter's log, checked for errors below").isRegularFile();
		jmeterLog = Files.readString(log);
	}

	@Test
	void everyPlanLoadsWithoutErrors() {
		assertThat(plans).extracting(Plan::file)
			.containsExactlyElementsOf(planFiles.stream().map((file) -> file.toAbsolutePath().toString()).toList());
		assertThat(plans).allSatisfy((plan) -> assertThat(plan.elements()).as(plan.file()).isNotEmpty());
		assertThat(plans)
			.allSatisfy((plan) -> assertThat(plan.elements()).as("%s: elements the GUI could not open", plan.file())
				.filteredOn((element) -> !element.guiClassLoads())
				.isEmpty());
		assertThat(jmeterLog.lines().filter((line) -> line.contains(" ERROR ") || line.contains(" FATAL ")))
			.as("errors in JMeter's log:%n%s", jmeterLog)
			.isEmpty();
	}

	@Test
	void everyPlanRunsAnOpenModelScheduleFromTheRateAndDurationProperties() {
		assertThat(plans).allSatisfy((plan) -> assertThat(plan.elementsOf(OPEN_MODEL_THREAD_GROUP)).as(plan.file())
			.singleElement()
			.satisfies((group) -> assertThat(group.properties().get("OpenModelThreadGroup.schedule"))
				.contains("${__P(rate,", "${__P(durationSeconds,")));
	}

	@Test
	void everyPlanSendsRequestsWithTheJavaHttpImplementation() {
		assertThat(plans).allSatisfy((plan) -> assertThat(plan.elementsOf(HTTP_SAMPLER)).as(plan.file())
			.isNotEmpty()
			.allSatisfy(
					(sampler) -> assertThat(sampler.properties()).containsEntry("HTTPSampler.implementation", "Java")));
	}

	@Test
	void everyPlanSendsItsRequestsRoundRobinOverTheTargetsInTheTargetsProperty() {
		assertThat(plans).allSatisfy((plan) -> {
			assertThat(plan.elementsOf(CSV_DATA_SET)).as("%s: a file a remote engine could not read", plan.file())
				.isEmpty();
			assertThat(targets(plan)).as(plan.file())
				.satisfies((targets) -> assertThat(targets.properties().get("Arguments.arguments"))
					.contains("${__split(${__P(targets,127.0.0.1:8080)},target)}"));
			List<Element> load = plan.subtree(OPEN_MODEL_THREAD_GROUP);
			assertThat(load).filteredOn((element) -> element.type().equals(COUNTER))
				.as(plan.file())
				.singleElement()
				.satisfies((counter) -> assertThat(counter.properties()).containsEntry("CounterConfig.start", "1")
					.containsEntry("CounterConfig.end", "${target_n}")
					.containsEntry("CounterConfig.name", "targetIndex")
					.containsEntry("CounterConfig.per_user", "false"));
			assertThat(load).filteredOn((element) -> element.type().equals(HTTP_SAMPLER))
				.as(plan.file())
				.singleElement()
				.satisfies((sampler) -> assertThat(sampler.properties().get("HTTPSampler.path"))
					.startsWith("http://${__V(target_${targetIndex})}${__P(path,"));
		});
	}

	@Test
	void noMeasuringPlanHasListeners() {
		assertThat(plans).filteredOn((plan) -> !plan.file().endsWith("/" + EXPLORING_PLAN))
			.hasSizeGreaterThanOrEqualTo(2)
			.allSatisfy((plan) -> assertThat(plan.elements()).as(plan.file())
				.filteredOn(Element::listener)
				.as("listeners (ResultCollector and other SampleListener elements) in %s", plan.file())
				.isEmpty());
	}

	@Test
	void theExploringPlanRunsTheMeasuringPlansLoadUnchanged() {
		List<Element> measuring = plan(MEASURING_PLAN).subtree(OPEN_MODEL_THREAD_GROUP);
		List<Element> exploring = plan(EXPLORING_PLAN).subtree(OPEN_MODEL_THREAD_GROUP);
		assertThat(measuring).hasSizeGreaterThan(2);
		assertThat(exploring).filteredOn((element) -> !element.listener()).isEqualTo(measuring);
		assertThat(targets(plan(EXPLORING_PLAN))).isEqualTo(targets(plan(MEASURING_PLAN)));
	}

	/** The element that splits the {@code targets} property, beside the thread groups. */
	private static Element targets(Plan plan) {
		return plan.elements()
			.stream()
			.filter((element) -> element.depth() == 1 && element.type().equals(ARGUMENTS))
			.reduce((first, second) -> {
				throw new AssertionError("more than one Arguments element beside the thread groups in " + plan.file());
			})
			.orElseThrow(() -> new AssertionError("no Arguments element beside the thread groups in " + plan.file()));
	}

	@Test
	void theExploringPlanShowsASummaryTableAndTheLoadOverTime() {
		Plan exploring = plan(EXPLORING_PLAN);
		assertThat(exploring.elements()).filteredOn((element) -> element.depth() == 1 && element.listener())
			.extracting(Element::guiClass)
			.containsExactly("org.apache.jmeter.visualizers.StatVisualizer");
		assertThat(exploring.subtree(OPEN_MODEL_THREAD_GROUP)).filteredOn(Element::listener)
			.extracting(Element::guiClass)
			.containsExactly("org.apache.jmeter.visualizers.GraphVisualizer");
	}

	@Test
	void theExploringPlanReadsEveryInstancesPoolGaugesFromItsActuatorWhileTheLoadRuns() {
		List<Element> gauges = plan(EXPLORING_PLAN).subtree(THREAD_GROUP, "Pool gauges");
		assertThat(gauges.get(0).properties().get("ThreadGroup.duration")).contains("${__P(durationSeconds,");
		assertThat(gauges).filteredOn((element) -> element.type().equals(HTTP_SAMPLER))
			.singleElement()
			.satisfies((scrape) -> assertThat(scrape.properties()).containsEntry("HTTPSampler.method", "GET")
				.containsEntry("HTTPSampler.path", "http://${actuator}/actuator/prometheus"));
		assertThat(gauges).filteredOn((element) -> element.type().equals(REGEX_EXTRACTOR))
			.extracting((extractor) -> extractor.properties().get("RegexExtractor.regex"))
			.anyMatch((regex) -> regex.startsWith("hikaricp_connections_active\\{"))
			.anyMatch((regex) -> regex.startsWith("hikaricp_connections_pending\\{"))
			.anyMatch((regex) -> regex.startsWith("hikaricp_connections_acquire_seconds_count\\{"))
			.anyMatch((regex) -> regex.startsWith("hikaricp_connections_acquire_seconds_sum\\{"));
		assertThat(gauges).filteredOn((element) -> element.type().equals(JSR223_SAMPLER))
			.extracting(Element::name)
			.contains("${pool} active connections", "${pool} threads waiting for a connection (pending)",
					"${pool} acquire time, mean since the last reading (ms)");
		assertThat(gauges).filteredOn(Element::listener)
			.extracting(Element::guiClass)
			.containsExactly("org.apache.jmeter.visualizers.RespTimeGraphVisualizer");
	}

	@Test
	void theExploringPlanHasAReadyDisabledRequestThatResizesEveryInstancesPool() {
		List<Element> resize = plan(EXPLORING_PLAN).subtree(THREAD_GROUP, "Resize every instance's pool");
		assertThat(resize.get(0).properties()).containsEntry("TestElement.enabled", "false");
		assertThat(resize).filteredOn((element) -> element.type().equals(HTTP_SAMPLER))
			.singleElement()
			.satisfies((post) -> assertThat(post.properties()).containsEntry("HTTPSampler.method", "POST")
				.containsEntry("HTTPSampler.path", "http://${actuator}/actuator/poolsize")
				.containsEntry("HTTPSampler.postBodyRaw", "true")
				.hasEntrySatisfying("HTTPsampler.Arguments",
						(body) -> assertThat(body).contains("{\"maximumPoolSize\":${__P(resizeTo,5)}}")));
		assertThat(resize).filteredOn((element) -> element.type().equals(HEADER_MANAGER))
			.singleElement()
			.satisfies(
					(headers) -> assertThat(headers.properties().get("HeaderManager.headers")).contains("Content-Type")
						.contains("application/json"));
	}

	private static Plan plan(String name) {
		return plans.stream()
			.filter((plan) -> plan.file().endsWith("/" + name))
			.findFirst()
			.orElseThrow(() -> new AssertionError("no plan jmeter/" + name));
	}

	private static Path jmeterHome() {
		Path config = Path.of("target/config.json");
		assertThat(config).as("the jmeter-maven-plugin's configure goal (process-test-classes) writes it: run ./mvnw")
			.isRegularFile();
		JsonNode configuration = JsonMapper.builder().build().readTree(config.toFile()).get("configurations").get(0);
		return Path.of(configuration.get("jmeterDirectoryPath").asString());
	}

	record Plan(String file, List<Element> elements) {

		List<Element> elementsOf(String type) {
			return this.elements.stream().filter((element) -> element.type().equals(type)).toList();
		}

		/** The only element of a type whose name starts so, and everything below it. */
		List<Element> subtree(String type, String namePrefix) {
			Element root = elementsOf(type).stream()
				.filter((element) -> element.name().startsWith(namePrefix))
				.reduce((first, second) -> {
					throw new AssertionError("more than one " + type + " named " + namePrefix + "... in " + this.file);
				})
				.orElseThrow(() -> new AssertionError("no " + type + " named " + namePrefix + "... in " + this.file));
			int start = this.elements.indexOf(root);
			int end = start + 1;
			while (end < this.elements.size() && this.elements.get(end).depth() > root.depth()) {
				end++;
			}
			return this.elements.subList(start, end);
		}

		/** The only element of a type, and everything below it. */
		List<Element> subtree(String type) {
			return subtree(type, "");
		}

		static List<Plan> parse(String printed) {
			List<Plan> plans = new ArrayList<>();
			List<Element> elements = null;
			Map<String, String> properties = null;
			for (String line : printed.lines().toList()) {
				String[] fields = line.split("\t", -1);
				switch (fields[0]) {
					case "plan" -> {
						elements = new ArrayList<>();
						plans.add(new Plan(fields[1], elements));
					}
					case "element" -> {
						properties = new LinkedHashMap<>();
						elements.add(new Element(Integer.parseInt(fields[1]), fields[2],
								Boolean.parseBoolean(fields[3]), Boolean.parseBoolean(fields[4]), properties));
					}
					case "property" -> properties.put(fields[1], unescape(fields[2]));
					default -> {
						// JMeter's own console output
					}
				}
			}
			return plans;
		}

		private static String unescape(String value) {
			StringBuilder text = new StringBuilder();
			for (int i = 0; i < value.length(); i++) {
				char c = value.charAt(i);
				if (c == '\\' && i + 1 < value.length()) {
					char next = value.charAt(++i);
					text.append(switch (next) {
						case 't' -> '\t';
						case 'n' -> '\n';
						case 'r' -> '\r';
						default -> next;
					});
				}
				else {
					text.append(c);
				}
			}
			return text.toString();
		}

	}

	record Element(int depth, String type, boolean listener, boolean guiClassLoads, Map<String, String> properties) {

		String name() {
			return this.properties.getOrDefault("TestElement.name", "");
		}

		String guiClass() {
			return this.properties.getOrDefault("TestElement.gui_class", "");
		}

	}

}
