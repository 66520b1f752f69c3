package org.poollab.bench.grid;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import org.poollab.bench.lab.BenchSettingException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * A team's JMeter plan as its requests ({@code bench.requests=plan:FILE}), read from
 * plans JMeter saved ({@code src/test/resources/org/poollab/bench/grid/plans}, each
 * described in its README).
 */
class TeamPlanTests {

	private static final Path PLANS = Path.of("src", "test", "resources", "org", "poollab", "bench", "grid", "plans");

	@TempDir
	Path directory;

	@Test
	void eachEnabledHttpSamplerBecomesOneRequestOfTheListWithEqualWeights() {
		Requests requests = plan("owners.jmx");

		assertThat(requests.list()).containsExactly(new Requests.Request("GET", "/owners?lastName=Davis", 1, null),
				new Requests.Request("POST", "/owners", 1, "{\"firstName\":\"Betty\",\"lastName\":\"Davis\"}"));
		assertThat(requests.contentType()).contains("application/json");
		assertThat(requests.properties()).containsEntry("requests", "GET 1 0 /owners?lastName=Davis\nPOST 1 1 /owners")
			.containsEntry("body1", "{\"firstName\":\"Betty\",\"lastName\":\"Davis\"}")
			.containsEntry("contentType", "application/json");
	}

	@Test
	void theConsoleHearsWhatWasTakenFromThePlanAndWhatTheLabLeftOut() {
		String said = plan("owners.jmx").fromPlan().orElseThrow();

		assertThat(said)
			.startsWith("bench.requests=plan:owners.jmx: from " + PLANS.resolve("owners.jmx").toAbsolutePath())
			.contains("2 HTTP sampler(s), each an entry of the list: 'Find owners' GET /owners?lastName=Davis x1, "
					+ "'Add owner' POST /owners (with a body) x1, equal weights (no Throughput Controller in percent mode); "
					+ "bodies sent as application/json.")
			.contains("Left out, the lab's open-model schedule, arrivals and targets in their place: ")
			.contains("thread groups ('Owners' desk')", "assertions ('Answers 200')", "timers ('Think time')",
					"listeners ('View Results Tree')", "server names and ports ('petclinic.example.com:8080')",
					"headers other than Content-Type ('Accept')")
			.doesNotContain("disabled")
			.doesNotContain("\n");
	}

	/**
	 * The URLs and the form JMeter itself makes of these samplers
	 * ({@code HTTPSamplerBase.getUrl()}, {@code getQueryString()}): the plan's README.
	 */
	@Test
	void throughputControllersInPercentModeWeighTheirSamplersAndOtherControllersDoNot() {
		Requests requests = plan("throughput-mix.jmx");

		// Per mille of an iteration, 1000, 250, 100 and 1000, reduced by 50.
		assertThat(requests.list()).containsExactly(new Requests.Request("GET", "/vets", 20, null),
				new Requests.Request("GET", "/owners?page=1&lastName=Van+Dyke", 5, null),
				new Requests.Request("POST", "/owners/new", 2, "firstName=Jean&lastName=Coleman"),
				new Requests.Request("GET", "/vets/1", 20, null));
		assertThat(requests.contentType()).contains("application/x-www-form-urlencoded");
		assertThat(requests.fromPlan().orElseThrow()).contains("weighted by their Throughput Controllers' percents")
			.contains("setUp and tearDown thread groups, with their samplers ('Log in once')")
			.contains("controllers' logic, their samplers counted once per iteration ('Three times')")
			.contains("server names and ports ('petclinic.example.com:8080', 'clinic.example.com')")
			.doesNotContain("/login");
	}

	@Test
	void disabledSamplersAreLeftOutAndSaidToBe() {
		Requests requests = plan("disabled-sampler.jmx");

		assertThat(requests.list()).containsExactly(new Requests.Request("GET", "/vets", 1, null));
		assertThat(requests.contentType()).isEmpty();
		assertThat(requests.properties()).doesNotContainKey("contentType");
		assertThat(requests.fromPlan().orElseThrow()).contains("disabled elements ('Update owner', 'Delete owner')")
			.doesNotContain("bodies sent as");
	}

	@ParameterizedTest
	@CsvSource(delimiter = '|',
			textBlock = """
					plan:nope.jmx               | the file {plans}/nope.jmx does not exist
					plan:                       | it names no file
					plan:no-http-sampler.jmx    | {plans}/no-http-sampler.jmx has no enabled HTTP Request sampler in a thread group (disabled: 'List vets')
					plan:patch-sampler.jmx      | its HTTP sampler 'Update owner' sends PATCH, which is not a method the lab sends (DELETE, GET, POST, PUT)
					plan:csv-variable.jmx       | its HTTP sampler 'Show owner' uses ${ownerId} in its path, which the lab cannot resolve without running the plan
					plan:two-content-types.jmx  | its bodies go out with different Content-Types ('Add owner' application/json, 'Rename pet' application/xml), and the lab's plan sends one for all
					plan:README.md              | {plans}/README.md is not a JMeter plan: not XML (line 1:
					""")
	void aBadPlanIsRefusedInOneLineNamingTheSettingTheValueAndWhatIsAllowed(String written, String why) {
		String plans = PLANS.toAbsolutePath().toString();

		assertThatExceptionOfType(BenchSettingException.class).isThrownBy(() -> Requests.parse(List.of(written), PLANS))
			.withMessageStartingWith("bench.requests=" + written + " is not allowed: ")
			.withMessageContaining(why.replace("{plans}", plans))
			.withMessageContaining("Use " + TeamPlan.ALLOWED + ". Nothing was started.")
			.withMessageNotContaining("\n");
	}

	@Test
	void anXmlFileThatIsNotAJMeterPlanIsRefusedByItsRoot() {
		assertThatExceptionOfType(BenchSettingException.class)
			.isThrownBy(() -> Requests.parse(List.of("plan:pom.xml"), Path.of("")))
			.withMessageContaining(Path.of("pom.xml").toAbsolutePath()
					+ " is not a JMeter plan: its root element is <project>, not <jmeterTestPlan>");
	}

	@Test
	void aPlanIsTheWholeSettingNotOneRequestAmongOthers() {
		assertThatExceptionOfType(BenchSettingException.class)
			.isThrownBy(() -> Requests.parse(List.of("GET /vets", "plan:owners.jmx"), PLANS))
			.withMessageStartingWith("bench.requests=GET /vets,plan:owners.jmx is not allowed: a plan is the whole");
	}

	@Test
	void aJMeterFunctionInABodyIsRefusedNamingTheSamplerAndTheFunction() throws Exception {
		Files.writeString(this.directory.resolve("random.jmx"),
				Files.readString(PLANS.resolve("owners.jmx"))
					.replace("&quot;lastName&quot;:&quot;${lastName}&quot;",
							"&quot;lastName&quot;:&quot;${__RandomString(8,abc)}&quot;"));

		assertThatExceptionOfType(BenchSettingException.class)
			.isThrownBy(() -> Requests.parse(List.of("plan:random.jmx"), this.directory))
			.withMessageContaining("its HTTP sampler 'Add owner' uses ${__RandomString(8,abc)} in its body");
	}

	@Test
	void aThroughputControllerPercentOutsideZeroToHundredIsRefused() throws Exception {
		Files.writeString(this.directory.resolve("over.jmx"), Files.readString(PLANS.resolve("throughput-mix.jmx"))
			.replace("<value>25.0</value>", "<value>250.0</value>"));

		assertThatExceptionOfType(BenchSettingException.class)
			.isThrownBy(() -> Requests.parse(List.of("plan:over.jmx"), this.directory))
			.withMessageContaining(
					"its Throughput Controller 'A quarter search' runs its samplers in 250.0 percent of iterations, not a number from 0 to 100");
	}

	@Test
	void aSamplerThatAThroughputControllerNeverRunsIsLeftOut() throws Exception {
		Files.writeString(this.directory.resolve("never.jmx"), Files.readString(PLANS.resolve("throughput-mix.jmx"))
			.replace("<value>25.0</value>", "<value>0.0</value>"));

		Requests requests = Requests.parse(List.of("plan:never.jmx"), this.directory);

		assertThat(requests.list()).extracting(Requests.Request::label)
			.containsExactly("GET /vets", "POST /owners/new", "GET /vets/1");
		assertThat(requests.fromPlan().orElseThrow())
			.contains("samplers a Throughput Controller runs in 0 percent of iterations ('Find owners')");
	}

	private static Requests plan(String name) {
		return Requests.parse(List.of("plan:" + name), PLANS);
	}

}
