package org.poollab.bench;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import org.poollab.bench.lab.BenchSettingException;
import org.poollab.bench.lab.LabPaths;
import org.poollab.bench.settings.BenchSetting;
import org.poollab.service.BlackHole;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatException;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

/**
 * Bad settings are refused before anything starts, with one line per setting naming the
 * setting, the value as written and what is allowed; a setting the lab does not know is
 * refused naming the closest one it does.
 */
@ExtendWith(OutputCaptureExtension.class)
class BenchSettingsTests {

	@TempDir
	Path output;

	@ParameterizedTest
	@CsvSource(delimiter = '|',
			textBlock = """
					bench.poolSizes=0        | bench.poolSizes=0 is not allowed: use comma-separated whole numbers from 1 to 1000
					bench.poolSizes=-1       | bench.poolSizes=-1 is not allowed: use comma-separated whole numbers from 1 to 1000
					bench.poolSizes=abc      | bench.poolSizes=abc is not allowed: use comma-separated whole numbers from 1 to 1000
					bench.poolSizes=1.5      | bench.poolSizes=1.5 is not allowed: use comma-separated whole numbers from 1 to 1000
					bench.rates=-5           | bench.rates=-5 is not allowed: use comma-separated whole numbers from 1 to 100000
					bench.rates=0            | bench.rates=0 is not allowed: use comma-separated whole numbers from 1 to 100000
					bench.duration=0s        | bench.duration=0s is not allowed: use a duration above 0
					bench.duration=soon      | bench.duration=soon is not allowed: use a duration above 0
					bench.topologies=mesh    | bench.topologies=mesh is not allowed: use single, multi and/or pgbouncer
					bench.preset=huge        | bench.preset=huge is not allowed: use one of quick, paper, full, blog, pooling
					bench.poolSizes=none,0   | bench.poolSizes=none,0 is not allowed (element 2 is 0): use comma-separated whole numbers from 1 to 1000 (maximum-pool-size per instance) and/or none
					bench.poolSizes=5,,10    | bench.poolSizes=5,,10 is not allowed (element 2 is empty): use comma-separated whole numbers from 1 to 1000
					bench.rates=500,,1000    | bench.rates=500,,1000 is not allowed (element 2 is empty): use comma-separated whole numbers from 1 to 100000
					bench.poolSize=5         | bench.poolSize=5 is not a setting of the lab: did you mean bench.poolSizes?
					bench.topology=multi     | bench.topology=multi is not a setting of the lab: did you mean bench.topologies?
					bench.database.passwd=x  | bench.database.passwd=x is not a setting of the lab: did you mean bench.database.password?
					bench.colour=blue        | bench.colour=blue is not a setting of the lab: use one of bench.preset, bench.topologies, bench.instances,
					bench.poolSizes=1001     | bench.poolSizes=1001 is not allowed: use comma-separated whole numbers from 1 to 1000
					bench.instances=0        | bench.instances=0 is not allowed: use a whole number from 1 to 16
					bench.arrivals=poisson   | bench.arrivals=poisson is not allowed: use even or random
					bench.workload=delete    | bench.workload=delete is not allowed: use read or write
					bench.instanceCpus=0     | bench.instanceCpus=0 is not allowed: use a whole number from 1 to
					bench.instanceHeap=32m   | bench.instanceHeap=32m is not allowed: use a heap size from 64m to 8g
					bench.instanceHeap=9g    | bench.instanceHeap=9g is not allowed: use a heap size from 64m to 8g
					bench.instanceHeap=128   | bench.instanceHeap=128 is not allowed: use a heap size from 64m to 8g
					bench.tomcatThreads=0    | bench.tomcatThreads=0 is not allowed: use comma-separated whole numbers from 1 to 10000
					bench.tomcatThreads=50,x | bench.tomcatThreads=50,x is not allowed: use comma-separated whole numbers from 1 to 10000
					bench.targetRps=0        | bench.targetRps=0 is not allowed: use a whole number of requests per second from 1
					bench.replicas=0         | bench.replicas=0 is not allowed: use a whole number from 1 to 1000
					bench.maxReplicas=0      | bench.maxReplicas=0 is not allowed: use a whole number from 1 to 1000
					bench.surge=-1           | bench.surge=-1 is not allowed: use a share of the replicas such as 25%
					bench.surge=lots         | bench.surge=lots is not allowed: use a share of the replicas such as 25%
					bench.otherConnections=-1 | bench.otherConnections=-1 is not allowed: use a whole number from 0 to 100000
					bench.connectionsPerRequest=0 | bench.connectionsPerRequest=0 is not allowed: use a whole number from 1 to 100
					bench.holdTime=0ms       | bench.holdTime=0ms is not allowed (element 1 is 0.0ms): use a mean from 0.1ms to 60s, or a mean and a p99 at least as long
					bench.holdTime=-1ms      | bench.holdTime=-1ms is not allowed (element 1 is -1.0ms): use a mean from 0.1ms to 60s
					bench.holdTime=abc       | bench.holdTime=abc is not allowed: use a mean from 0.1ms to 60s
					bench.holdTime=5ms,2ms   | bench.holdTime=5ms,2ms is not allowed: the p99 must be at least the mean; use a mean from 0.1ms to 60s
					bench.holdTime=1ms,50ms  | bench.holdTime=1ms,50ms is not allowed: the p99 must be at most 45 times the mean
					bench.holdTime=5ms,6ms,7ms | bench.holdTime=5ms,6ms,7ms is not allowed: use a mean from 0.1ms to 60s
					bench.holdPlace=disk     | bench.holdPlace=disk is not allowed: use database or application
					bench.holdCpu=50us       | bench.holdCpu=50us is not allowed
					bench.holdCpu=2s         | bench.holdCpu=2s is not allowed
					bench.holdTimeFrom=http://127.0.0.1:9/actuator/prometheus | bench.holdTimeFrom=http://127.0.0.1:9/actuator/prometheus is not allowed: it could not be read
					bench.holdTimeFrom=/nonexistent/metrics.txt | bench.holdTimeFrom=/nonexistent/metrics.txt is not allowed: no such file
					bench.threads=green      | bench.threads=green is not allowed: use platform, virtual or both, comma-separated
					bench.threads=virtual,x  | bench.threads=virtual,x is not allowed
					bench.stack=graphql      | bench.stack=graphql is not allowed: use jdbc, r2dbc or both, comma-separated
					bench.database.vendor=oracle | bench.database.vendor=oracle is not allowed: use postgresql or mariadb, or several, comma-separated
					bench.target=elsewhere   | bench.target=elsewhere is not allowed: use lab or external
					bench.resizeTimeout=0s   | bench.resizeTimeout=0s is not allowed: use a duration from 1s to 1h
					bench.holdTimeFromWindow=0s | bench.holdTimeFromWindow=0s is not allowed: use a duration from 1s to 1h between two scrapes
					bench.remoteEngines=127.0.0.1 | bench.remoteEngines=127.0.0.1 is not allowed: use comma-separated host:port of running JMeter servers, a port from 1 to 65535, e.g. 127.0.0.1:1099.
					bench.remoteEnginesSsl=maybe | bench.remoteEnginesSsl=maybe is not allowed: use true or false
					bench.maxClockSkew=0ms   | bench.maxClockSkew=0ms is not allowed: use a duration from 1ms to 1s
					bench.maxClockSkew=2s    | bench.maxClockSkew=2s is not allowed: use a duration from 1ms to 1s
					bench.timeScale=0        | bench.timeScale=0 is not allowed: use auto or a whole number from 1 to 100
					bench.timeScale=-2       | bench.timeScale=-2 is not allowed: use auto or a whole number from 1 to 100
					bench.timeScale=abc      | bench.timeScale=abc is not allowed: use auto or a whole number from 1 to 100
					bench.timeScale=1.5      | bench.timeScale=1.5 is not allowed: use auto or a whole number from 1 to 100
					""")
	void badSettingIsRefusedBeforeAnythingStarts(String setting, String message, CapturedOutput output) {
		assertRefusedBeforeAnythingStarts(new String[] { "--" + setting }, message, output);
	}

	/**
	 * A bad value of each setting answers in one line with the setting, the value as
	 * written and what is allowed, from {@link BenchSetting}: its binding and validation,
	 * or the check (in another package) whose allowed text it names. A setting takes part
	 * here, or is in {@link #NO_BAD_VALUE} saying why it has none.
	 */
	@ParameterizedTest(name = "{0}={1}")
	@MethodSource("badValues")
	void aBadValueOfEachSettingAnswersInOneLineFromItsHome(BenchSetting setting, String value, String besides,
			CapturedOutput output) {
		long childrenBefore = ProcessHandle.current().children().count();
		List<String> settings = new ArrayList<>(List.of(besides.split(" ")));
		settings.removeIf(String::isEmpty);
		settings.add("--" + setting.property() + "=" + value);
		assertThatException().isThrownBy(() -> run(settings.toArray(String[]::new)))
			.isInstanceOf(BenchSettingException.class)
			.withMessageStartingWith(setting.property() + "=" + value + " is not ")
			.withMessageContaining(setting.allowed())
			.withMessageNotContaining(System.lineSeparator());
		assertThat(output).as("nothing printed besides the refusal").isEmpty();
		assertNothingStarted(childrenBefore);
	}

	/**
	 * Settings that take any value: nothing to refuse, so no row in {@link #badValues()}.
	 */
	static final Map<BenchSetting, String> NO_BAD_VALUE = Map.of(BenchSetting.DATABASE_URL,
			"any URL names a server to connect to; one that does not answer is refused as such (unreachableExternalDatabaseIsAQuickClearError)",
			BenchSetting.DATABASE_USERNAME, "any user name", BenchSetting.DATABASE_PASSWORD, "any password",
			BenchSetting.OUTPUT_DIRECTORY, "any path: made when missing", BenchSetting.BUILD_DIRECTORY,
			"any path: the build's, where JMeter is looked for", BenchSetting.RMI_KEYSTORE,
			"any path: a keystore is made there when missing", BenchSetting.HOLD_TIME_FROM_URI,
			"any uri label; one the exposition counts no requests for is refused as such (HoldTimeFromTests)",
			BenchSetting.POOL_NAME,
			"any name; one the actuator does not show is refused with the pools it shows (ReadinessTests)");

	static List<Arguments> badValues() {
		String external = "--bench.target=external --bench.targets=http://127.0.0.1:8080 --bench.actuators=http://127.0.0.1:8081/actuator";
		return List.of(bad(BenchSetting.PRESET, "huge"), bad(BenchSetting.TOPOLOGIES, "single,mesh"),
				bad(BenchSetting.INSTANCES, "17"), bad(BenchSetting.POOL_SIZES, "5,,10"),
				bad(BenchSetting.RATES, "100001"), bad(BenchSetting.DURATION, "0s"), bad(BenchSetting.WARMUP, "-1s"),
				bad(BenchSetting.TOPOLOGY_WARMUP, "2h"), bad(BenchSetting.REPEATS, "101"),
				bad(BenchSetting.P99_OBJECTIVE, "11m"), bad(BenchSetting.WORKLOAD, "delete"),
				bad(BenchSetting.ARRIVALS, "poisson"), bad(BenchSetting.LOAD_BALANCER, "haproxy"),
				bad(BenchSetting.BASE_PORT, "80"), bad(BenchSetting.DATABASE_VENDOR, "oracle"),
				bad(BenchSetting.SERVE, "mesh"), bad(BenchSetting.REMOTE_ENGINES, "127.0.0.1"),
				bad(BenchSetting.REMOTE_ENGINES, "127.0.0.1:99999"), bad(BenchSetting.REMOTE_ENGINES_SSL, "maybe"),
				bad(BenchSetting.MAX_CLOCK_SKEW, "2s"), bad(BenchSetting.INSTANCE_CPUS, "0"),
				bad(BenchSetting.INSTANCE_HEAP, "9g"), bad(BenchSetting.TOMCAT_THREADS, "50,x"),
				bad(BenchSetting.THREADS, "green"), bad(BenchSetting.STACK, "graphql"),
				bad(BenchSetting.SERVICE_JAVA_HOME, "/nonexistent/jdk"), bad(BenchSetting.ACQUIRE_COST, "maybe"),
				bad(BenchSetting.CROSS_CHECK, "maybe"), bad(BenchSetting.CONFIRMATION, "11m"),
				bad(BenchSetting.ADAPTIVE_CAP, "-1s"), bad(BenchSetting.TARGET_RPS, "0"),
				bad(BenchSetting.REPLICAS, "1001"), bad(BenchSetting.MAX_REPLICAS, "0"),
				bad(BenchSetting.SURGE, "lots"), bad(BenchSetting.OTHER_CONNECTIONS, "-1"),
				bad(BenchSetting.CONNECTIONS_PER_REQUEST, "101"), bad(BenchSetting.HOLD_TIME, "5ms,6ms,7ms"),
				bad(BenchSetting.HOLD_PLACE, "disk"), bad(BenchSetting.HOLD_TIME_FROM, "/nonexistent/metrics.txt"),
				bad(BenchSetting.HOLD_TIME_FROM_WINDOW, "0s"), bad(BenchSetting.HOLD_CPU, "2s"),
				bad(BenchSetting.TIME_SCALE, "1.5"), bad(BenchSetting.TARGET, "elsewhere"),
				bad(BenchSetting.TARGETS, "https://127.0.0.1:8443",
						"--bench.target=external --bench.actuators=http://127.0.0.1:8081/actuator"),
				bad(BenchSetting.ACTUATORS, "ftp://127.0.0.1/actuator",
						"--bench.target=external --bench.targets=http://127.0.0.1:8080"),
				bad(BenchSetting.RESIZE_COMMAND, "true", external), bad(BenchSetting.RESIZE_TIMEOUT, "0s"),
				bad(BenchSetting.REQUESTS, "GET owners", external), bad(BenchSetting.ALLOW_REMOTE_TARGETS, "maybe"),
				bad(BenchSetting.DATABASE_ALLOW_FOREIGN_TABLES, "maybe"));
	}

	private static Arguments bad(BenchSetting setting, String value) {
		return bad(setting, value, "");
	}

	private static Arguments bad(BenchSetting setting, String value, String besides) {
		return Arguments.of(setting, value, besides);
	}

	@Test
	void everySettingHasABadValueOrSaysWhyItHasNone() {
		Set<BenchSetting> tried = badValues().stream()
			.map((row) -> (BenchSetting) row.get()[0])
			.collect(Collectors.toCollection(() -> EnumSet.noneOf(BenchSetting.class)));
		assertThat(tried).as("settings with a bad value and settings that take any")
			.doesNotContainAnyElementsOf(NO_BAD_VALUE.keySet());
		tried.addAll(NO_BAD_VALUE.keySet());
		assertThat(tried).containsExactlyInAnyOrder(BenchSetting.values());
	}

	/**
	 * The SLO search's question is checked as a whole: what one setting cannot say alone
	 * is refused with the same shape of message, before anything starts.
	 */
	@ParameterizedTest
	@CsvSource(delimiter = '|',
			textBlock = """
					--bench.targetRps=1500 --bench.replicas=3 --bench.maxReplicas=2 | bench.maxReplicas=2 is not allowed: use a whole number of at least bench.replicas (3)
					--bench.preset=slo                                               | bench.preset=slo needs bench.targetRps
					--bench.targetRps=1500 --bench.poolSizes=5                       | bench.poolSizes=[5] is not allowed with bench.targetRps
					--bench.targetRps=1500 --bench.threads=virtual                   | bench.threads=virtual is not allowed with bench.targetRps
					--bench.targetRps=1500 --bench.stack=r2dbc                       | bench.stack=r2dbc is not allowed with bench.targetRps
					--bench.stack=r2dbc --bench.topologies=single,pgbouncer          | bench.stack=r2dbc asks for the reactive twin, which the pgbouncer topology does not run
					--bench.stack=r2dbc --bench.threads=virtual                      | bench.stack=r2dbc runs the reactive twin only, whose requests run on Reactor Netty's event loop
					--bench.stack=jdbc,r2dbc --bench.database.url=jdbc:mariadb://127.0.0.1:3306/lab | bench.stack=jdbc,r2dbc asks for the reactive twin, which has an R2DBC driver for PostgreSQL only, but the database is MariaDB (bench.database.url=jdbc:mariadb://127.0.0.1:3306/lab)
					--bench.stack=r2dbc --bench.database.vendor=mariadb              | bench.stack=r2dbc asks for the reactive twin, which has an R2DBC driver for PostgreSQL only, but the database is MariaDB (bench.database.vendor=mariadb)
					--bench.targetRps=1500 --bench.holdTime=12ms,80ms,90ms           | bench.holdTime=12ms,80ms,90ms is not allowed: use a mean from 0.1ms to 60s
					--bench.targetRps=1500 --bench.holdTime=80ms,12ms                | bench.holdTime=80ms,12ms is not allowed: the p99 must be at least the mean
					--bench.holdTime=10ms --bench.holdTimeFrom=/tmp/x.txt            | bench.holdTime and bench.holdTimeFrom=/tmp/x.txt are both set: use one
					--bench.preset=quick --bench.holdPlace=application               | bench.holdPlace=application needs a hold to place, and bench.preset=quick has none
					--bench.timeScale=2 --bench.holdCpu=2ms                          | bench.timeScale=2 is not allowed with bench.holdCpu=2ms: the database's CPU is what is measured; it cannot run in slow motion. Use bench.timeScale=1 or auto
					--bench.timeScale=4 --bench.preset=contention                    | bench.timeScale=4 is not allowed with bench.preset=contention: the database's CPU is what is measured
					--bench.holdTimeFrom=prometheus:http://127.0.0.1:9?range=10m --bench.holdTimeFromWindow=20s | bench.holdTimeFromWindow=20s is not allowed with bench.holdTimeFrom=prometheus:http://127.0.0.1:9?range=10m: a Prometheus server is read over the range its source names
					--bench.stack=r2dbc --bench.topologies=single --bench.holdTimeFrom=src/test/resources/org/poollab/bench/grid/holdtimefrom/uses-before.txt,src/test/resources/org/poollab/bench/grid/holdtimefrom/uses-after.txt | bench.stack=r2dbc asks for the reactive twin, which takes one connection use per request, and bench.holdTimeFrom read 9.31ms (histogram, p99 76.29ms) x 2.49 uses
					""")
	void theQuestionIsRefusedAsAWholeBeforeAnythingStarts(String settings, String message, CapturedOutput output) {
		assertRefusedBeforeAnythingStarts(settings.split(" "), message, output);
	}

	/**
	 * Target mode's settings are checked before anything starts (and before any target is
	 * asked): each belongs to target mode, the URLs are well formed and on this machine's
	 * loopback unless allowed elsewhere, a resize command has the pool size in it, and
	 * what shapes the lab's own deployments is refused beside it.
	 */
	@ParameterizedTest
	@CsvSource(delimiter = '|',
			textBlock = """
					--bench.targets=http://127.0.0.1:8080                                         | bench.targets is a setting of target mode: add -Dbench.target=external
					--bench.target=external --bench.targets=http://127.0.0.1:8080 --bench.actuators=http://127.0.0.1:8081/actuator --bench.holdTime=10ms | bench.holdTime=10ms is not allowed with bench.target=external: the lab starts no service and no database there
					--bench.target=external --bench.targets=http://127.0.0.1:8080 --bench.actuators=http://127.0.0.1:8081/actuator --bench.holdTimeFrom=/tmp/m.txt | bench.holdTimeFrom=/tmp/m.txt is not allowed with bench.target=external
					--bench.target=external --bench.targets=http://127.0.0.1:8080 --bench.actuators=http://127.0.0.1:8081/actuator --bench.holdTimeFromWindow=20s | bench.holdTimeFromWindow=20s is not allowed with bench.target=external
					--bench.resizeCommand=true                                                    | bench.resizeCommand is a setting of target mode
					--bench.target=external                                                       | bench.target=external needs bench.targets
					--bench.target=external --bench.targets=http://127.0.0.1:8080                 | bench.target=external needs bench.actuators
					--bench.target=external --bench.targets=https://127.0.0.1:8443 --bench.actuators=http://127.0.0.1:8081/actuator | bench.targets=https://127.0.0.1:8443 is not allowed: use comma-separated http://host:port, with no path
					--bench.target=external --bench.targets=http://127.0.0.1:8080/roles --bench.actuators=http://127.0.0.1:8081/actuator | bench.targets=http://127.0.0.1:8080/roles is not allowed: use comma-separated http://host:port, with no path
					--bench.target=external --bench.targets=http://10.1.2.3:8080 --bench.actuators=http://127.0.0.1:8081/actuator | bench.targets=http://10.1.2.3:8080 is not allowed: 10.1.2.3 is not this machine's loopback (127.0.0.0/8)
					--bench.target=external --bench.targets=http://127.0.0.1:8080 --bench.actuators=http://10.1.2.3:8081/actuator | bench.actuators=http://10.1.2.3:8081/actuator is not allowed: 10.1.2.3 is not this machine's loopback
					--bench.target=external --bench.targets=http://127.0.0.1:8080 --bench.actuators=http://127.0.0.1:8081/actuator,http://127.0.0.1:8081/actuator/ | bench.actuators=http://127.0.0.1:8081/actuator,http://127.0.0.1:8081/actuator/ names an instance twice
					--bench.target=external --bench.targets=http://127.0.0.1:8080 --bench.actuators=http://127.0.0.1:8081/actuator --bench.resizeCommand=true | bench.resizeCommand=true is not allowed: use a command line that contains {poolSize}
					--bench.target=external --bench.targets=http://127.0.0.1:8080 --bench.actuators=http://127.0.0.1:8081/actuator --bench.timeScale=2 | bench.timeScale=2 is not allowed with bench.target=external: a deployment the lab did not start holds what it holds
					--bench.target=external --bench.targets=http://127.0.0.1:8080 --bench.actuators=http://127.0.0.1:8081/actuator --bench.instances=3 | bench.instances=3 is not allowed with bench.target=external: the lab starts no service and no database there
					--bench.target=external --bench.targets=http://127.0.0.1:8080 --bench.actuators=http://127.0.0.1:8081/actuator --bench.targetRps=1500 | bench.targetRps=1500 is not allowed with bench.target=external
					--bench.target=external --bench.targets=http://127.0.0.1:8080 --bench.actuators=http://127.0.0.1:8081/actuator --bench.poolSizes=none,5 | bench.poolSizes=none,5 is not allowed with bench.target=external: the lab resizes the running pools and cannot take them away (none)
					--bench.target=external --bench.targets=http://127.0.0.1:8080 --bench.actuators=http://127.0.0.1:8081/actuator --bench.workload=write | bench.workload=write with bench.target=external needs bench.database.url
					--bench.target=external --bench.targets=http://127.0.0.1:8080 --bench.actuators=http://127.0.0.1:8081/actuator --bench.remoteEngines=10.1.2.3:1099 | bench.targets=http://127.0.0.1:8080 is not allowed with engines on other hosts (10.1.2.3): 127.0.0.1 is a loopback address
					""")
	void targetModeIsCheckedBeforeAnythingStarts(String settings, String message, CapturedOutput output) {
		assertRefusedBeforeAnythingStarts(settings.split(" "), message, output);
	}

	/**
	 * The team's requests and pool are target mode's own, and the requests replace the
	 * lab's: what only the lab's own request has is refused beside them. (A request holds
	 * a space, so settings are split before each {@code --}.)
	 */
	@ParameterizedTest
	@CsvSource(delimiter = '|',
			textBlock = """
					--bench.requests=GET /vets                                                    | bench.requests is a setting of target mode: add -Dbench.target=external
					--bench.poolName=orders                                                       | bench.poolName is a setting of target mode: add -Dbench.target=external
					--bench.target=external --bench.targets=http://127.0.0.1:8080 --bench.actuators=http://127.0.0.1:8081/actuator --bench.requests=GET /vets --bench.workload=read | bench.workload=read is not allowed with bench.requests: the workload is the lab's own request
					--bench.target=external --bench.targets=http://127.0.0.1:8080 --bench.actuators=http://127.0.0.1:8081/actuator --bench.requests=GET /vets --bench.crossCheck=true | bench.crossCheck=true is not allowed with bench.requests: the independent generator sends the lab's GET /roles only
					--bench.target=external --bench.targets=http://127.0.0.1:8080 --bench.actuators=http://127.0.0.1:8081/actuator --bench.requests=GET vets | bench.requests=GET vets is not allowed: the path vets does not start with /
					--bench.target=external --bench.targets=http://127.0.0.1:8080 --bench.actuators=http://127.0.0.1:8081/actuator --bench.requests=plan:src/test/resources/org/poollab/bench/grid/plans/patch-sampler.jmx | bench.requests=plan:src/test/resources/org/poollab/bench/grid/plans/patch-sampler.jmx is not allowed: its HTTP sampler 'Update owner' sends PATCH, which is not a method the lab sends
					""")
	void theTeamsRequestsAndPoolAreCheckedBeforeAnythingStarts(String settings, String message, CapturedOutput output) {
		assertRefusedBeforeAnythingStarts(settings.split("\\s+(?=--)"), message, output);
	}

	/**
	 * The resize endpoint's token is a credential: refused on a command line (any user of
	 * the machine can read it there), and never echoed in the refusal.
	 */
	@Test
	void theResizeTokenIsRefusedOnTheCommandLineWithoutEchoingIt(CapturedOutput output) {
		assertRefusedBeforeAnythingStarts(new String[] { "--bench.resizeToken=s3cret-token-value" },
				"bench.resizeToken is not allowed as a setting: the resize endpoint's token must not be on a command line",
				output);
		assertThatException().isThrownBy(() -> run("--bench.resizeToken=s3cret-token-value"))
			.withMessageContaining("LAB_POOL_RESIZE_TOKEN")
			.withMessageNotContaining("s3cret-token-value");
	}

	/**
	 * What the database cannot run is refused before anything starts, whether the vendor
	 * is set or read off the URL: a URL of the other vendor, and pgbouncer (PostgreSQL's
	 * pooler) on MariaDB, however it is asked for.
	 */
	@ParameterizedTest
	@CsvSource(delimiter = '|',
			textBlock = """
					--bench.database.vendor=mariadb --bench.database.url=jdbc:postgresql://127.0.0.1:5432/postgres | bench.database.vendor=mariadb is not allowed with bench.database.url=jdbc:postgresql://127.0.0.1:5432/postgres, a PostgreSQL URL: use bench.database.vendor=postgresql, or leave it unset
					--bench.database.vendor=postgresql --bench.database.url=jdbc:mariadb://127.0.0.1:3306/test?x=1 | bench.database.vendor=postgresql is not allowed with bench.database.url=jdbc:mariadb://127.0.0.1:3306/test, a MariaDB URL: use bench.database.vendor=mariadb, or leave it unset
					--bench.database.vendor=mariadb --bench.topologies=single,pgbouncer                          | bench.topologies=single,pgbouncer is not allowed: pgbouncer pools PostgreSQL connections only, and the database is MariaDB (bench.database.vendor=mariadb). Use single and/or multi.
					--bench.database.url=jdbc:mariadb://127.0.0.1:3306/test --bench.topologies=pgbouncer        | bench.topologies=pgbouncer is not allowed: pgbouncer pools PostgreSQL connections only, and the database is MariaDB (bench.database.url=jdbc:mariadb://127.0.0.1:3306/test)
					--bench.database.vendor=mariadb --bench.preset=pooling                                       | bench.preset=pooling sweeps the pgbouncer topology, which is not allowed: pgbouncer pools PostgreSQL connections only, and the database is MariaDB (bench.database.vendor=mariadb). Set bench.topologies=single
					--bench.database.vendor=mariadb --bench.serve=pgbouncer                                      | bench.serve=pgbouncer is not allowed: pgbouncer pools PostgreSQL connections only
					""")
	void whatTheDatabaseCannotRunIsRefusedBeforeAnythingStarts(String settings, String message, CapturedOutput output) {
		assertRefusedBeforeAnythingStarts(settings.split(" "), message, output);
	}

	/**
	 * Several databases in one sweep are refused, before anything starts, where they
	 * cannot run: beside one external database (it has one vendor), where one of them
	 * cannot run what is asked (pgbouncer, the reactive twin on MariaDB), and beside the
	 * SLO search or serving, which answer for one database. Duplicates are dropped.
	 */
	@ParameterizedTest
	@CsvSource(delimiter = '|',
			textBlock = """
					--bench.database.vendor=postgresql,mariadb --bench.database.url=jdbc:postgresql://127.0.0.1:5432/postgres | bench.database.vendor=postgresql,mariadb is not allowed with bench.database.url=jdbc:postgresql://127.0.0.1:5432/postgres: one external database has one vendor. Use one vendor (the URL's: postgresql), or leave bench.database.url unset
					--bench.database.vendor=postgresql,mariadb --bench.topologies=single,pgbouncer                 | bench.topologies=single,pgbouncer is not allowed: pgbouncer pools PostgreSQL connections only, and one of the databases is MariaDB (bench.database.vendor=postgresql,mariadb). Use single and/or multi.
					--bench.database.vendor=mariadb,mariadb --bench.topologies=pgbouncer                           | bench.topologies=pgbouncer is not allowed: pgbouncer pools PostgreSQL connections only, and the database is MariaDB (bench.database.vendor=mariadb). Use single and/or multi.
					--bench.preset=mysql --bench.topologies=single,pgbouncer                                       | bench.topologies=single,pgbouncer is not allowed: pgbouncer pools PostgreSQL connections only, and one of the databases is MariaDB (bench.preset=mysql)
					--bench.database.vendor=postgresql,mariadb --bench.stack=jdbc,r2dbc                            | bench.stack=jdbc,r2dbc asks for the reactive twin, which has an R2DBC driver for PostgreSQL only, but one of the databases is MariaDB (bench.database.vendor=postgresql,mariadb)
					--bench.preset=mysql --bench.stack=r2dbc                                                       | bench.stack=r2dbc asks for the reactive twin, which has an R2DBC driver for PostgreSQL only, but one of the databases is MariaDB (bench.preset=mysql)
					--bench.database.vendor=postgresql,mariadb --bench.targetRps=1500                              | bench.database.vendor=postgresql,mariadb is not allowed with bench.targetRps: it asks for PostgreSQL and MariaDB, and the SLO search answers for one database
					--bench.preset=mysql --bench.targetRps=1500                                                    | bench.preset=mysql is not allowed with bench.targetRps: it asks for PostgreSQL and MariaDB
					--bench.database.vendor=mariadb,postgresql --bench.serve=single                                | bench.database.vendor=mariadb,postgresql is not allowed with bench.serve=single: it asks for MariaDB and PostgreSQL, and serving starts one deployment on one database
					""")
	void severalDatabasesAreRefusedWhereTheyCannotRunBeforeAnythingStarts(String settings, String message,
			CapturedOutput output) {
		long childrenBefore = ProcessHandle.current().children().count();
		assertThatException().isThrownBy(() -> run(settings.split(" ")))
			.isInstanceOf(BenchSettingException.class)
			.withMessageStartingWith(message)
			.withMessageEndingWith("Nothing was started.")
			.withMessageNotContaining(System.lineSeparator());
		assertThat(output).as("nothing printed besides the refusal").isEmpty();
		assertNothingStarted(childrenBefore);
	}

	@Test
	void aBudgetEitherEmbeddedDatabaseCannotHoldIsRefusedBeforeEitherStarts() {
		long childrenBefore = ProcessHandle.current().children().count();
		assertThatException()
			.isThrownBy(() -> run("--bench.database.vendor=mariadb,postgresql", "--bench.instances=3",
					"--bench.poolSizes=5,100", "--bench.basePort=" + SweepEndToEndIT.freeBasePort(4)))
			.isInstanceOf(BenchSettingException.class)
			.withMessageContaining("3 instance(s) x maximum-pool-size 100 = 300 connections")
			.withMessageContaining("PostgreSQL accepts 297");
		assertNothingStarted(childrenBefore);
	}

	@Test
	void tomcatThreadsWithoutPlatformThreadsAreRefusedBeforeAnythingStarts() {
		long childrenBefore = ProcessHandle.current().children().count();
		assertThatException().isThrownBy(() -> run("--bench.threads=virtual", "--bench.tomcatThreads=50"))
			.isInstanceOf(BenchSettingException.class)
			.withMessageStartingWith(
					"bench.tomcatThreads=50 sizes Tomcat's platform threads, but bench.threads=virtual sweeps none");
		assertNothingStarted(childrenBefore);
	}

	@Test
	void aServiceJavaHomeThatIsNoJdkIsRefusedBeforeAnythingStarts() throws Exception {
		long childrenBefore = ProcessHandle.current().children().count();
		assertThatException()
			.isThrownBy(() -> run("--bench.threads=virtual", "--bench.serviceJavaHome=" + this.output,
					"--bench.basePort=" + SweepEndToEndIT.freeBasePort(4)))
			.isInstanceOf(BenchSettingException.class)
			.withMessageStartingWith("bench.serviceJavaHome=" + this.output + " is not a JDK");
		assertNothingStarted(childrenBefore);
	}

	@Test
	void misspeltSettingIsRefusedEvenBesideGoodOnes() {
		long childrenBefore = ProcessHandle.current().children().count();
		assertThatException().isThrownBy(() -> run("--bench.poolSize=5", "--bench.preset=quick"))
			.isInstanceOf(BenchSettingException.class)
			.withMessage("bench.poolSize=5 is not a setting of the lab: did you mean bench.poolSizes?");
		assertNothingStarted(childrenBefore);
	}

	@Test
	void everyBadSettingGetsALineOfItsOwn() {
		assertThatException().isThrownBy(() -> run("--bench.rates=0", "--bench.instances=0"))
			.isInstanceOf(BenchSettingException.class)
			.withMessageContaining("bench.rates=0 is not allowed")
			.withMessageContaining("bench.instances=0 is not allowed")
			.satisfies((refused) -> assertThat(refused.getMessage().lines()).hasSize(2));
	}

	/**
	 * Settings of different groups of {@code BenchProperties} (the grid's axes, the hold,
	 * the workload) are refused together, as settings of one group are.
	 */
	@Test
	void badSettingsOfDifferentGroupsAreRefusedTogether() {
		assertThatException().isThrownBy(() -> run("--bench.rates=0", "--bench.holdCpu=2s", "--bench.workload=delete"))
			.isInstanceOf(BenchSettingException.class)
			.satisfies((refused) -> assertThat(refused.getMessage().lines()).containsExactly(
					"bench.rates=0 is not allowed: use " + BenchSetting.RATES.allowed() + ".",
					"bench.workload=delete is not allowed: use " + BenchSetting.WORKLOAD.allowed() + ".",
					"bench.holdCpu=2s is not allowed: use " + BenchSetting.HOLD_CPU.allowed() + "."));
	}

	/**
	 * As {@code ./mvnw verify -Pbench -Dbench.poolSizes=5,,10} runs it: the setting as a
	 * system property, through {@code main}, which ends the JVM (Maven's, there).
	 */
	@ParameterizedTest
	@CsvSource(delimiter = '|',
			textBlock = """
					-Dbench.poolSizes=5,,10 | -Dbench.preset=quick | bench.poolSizes=5,,10 is not allowed (element 2 is empty): use comma-separated whole numbers from 1 to 1000 (maximum-pool-size per instance) and/or none (no pool), e.g. none,1,5,10.
					-Dbench.poolSize=5      | -Dbench.preset=quick | bench.poolSize=5 is not a setting of the lab: did you mean bench.poolSizes?
					""")
	void badSettingOnTheCommandLineIsOneLineAndExitCode2(String setting, String another, String message)
			throws Exception {
		LabPaths paths = LabPaths.of(Path.of("target"));
		Path stdout = this.output.resolve("stdout.txt");
		Path stderr = this.output.resolve("stderr.txt");
		Process lab = new ProcessBuilder(paths.java(), setting, another,
				"-Dbench.outputDirectory=" + this.output.resolve("runs"), "-cp", paths.serviceClasspath(),
				BenchApplication.class.getName())
			.redirectOutput(stdout.toFile())
			.redirectError(stderr.toFile())
			.start();
		assertThat(lab.waitFor(60, TimeUnit.SECONDS)).as("the lab exited").isTrue();
		assertThat(lab.exitValue()).isEqualTo(BenchApplication.BAD_SETTING_EXIT_CODE);
		assertThat(stdout).isEmptyFile();
		assertThat(Files.readAllLines(stderr)).containsExactly(message);
		assertThat(this.output.resolve("runs")).doesNotExist();
	}

	@Test
	void portInUseIsRefusedNamingTheBasePort() throws Exception {
		int base = SweepEndToEndIT.freeBasePort(4);
		long childrenBefore = ProcessHandle.current().children().count();
		try (ServerSocket taken = new ServerSocket(base + 2, 1, InetAddress.getLoopbackAddress())) {
			assertThatException().isThrownBy(() -> run("--bench.basePort=" + base))
				.isInstanceOf(BenchSettingException.class)
				.withMessageContaining(
						"bench.basePort=" + base + ": port " + (base + 2) + " on 127.0.0.1 is already in use");
		}
		assertNothingStarted(childrenBefore);
	}

	@Test
	void remoteEngineOnAnotherMachineIsRefusedBecauseItWouldLoadItsOwnLoopback() throws Exception {
		long childrenBefore = ProcessHandle.current().children().count();
		assertThatException()
			.isThrownBy(() -> run("--bench.remoteEngines=127.0.0.1:1099,192.0.2.7:1099",
					"--bench.basePort=" + SweepEndToEndIT.freeBasePort(4)))
			.isInstanceOf(BenchSettingException.class)
			.withMessageStartingWith(
					"bench.remoteEngines=127.0.0.1:1099,192.0.2.7:1099 is not allowed: 192.0.2.7 is not this machine's loopback");
		assertNothingStarted(childrenBefore);
	}

	/**
	 * What only makes sense with remote engines is refused without them, and a keystore
	 * beside the SSL opt-out, before anything starts.
	 */
	@ParameterizedTest
	@CsvSource(delimiter = '|',
			textBlock = """
					--bench.remoteEnginesSsl=false                                                  | bench.remoteEnginesSsl=false is not allowed without bench.remoteEngines
					--bench.maxClockSkew=20ms                                                       | bench.maxClockSkew=20ms is not allowed without bench.remoteEngines
					--bench.rmiKeystore=/tmp/lab.jks                                                | bench.rmiKeystore=/tmp/lab.jks is not allowed without bench.remoteEngines
					--bench.remoteEngines=127.0.0.1:1099 --bench.remoteEnginesSsl=false --bench.rmiKeystore=/tmp/lab.jks | bench.rmiKeystore=/tmp/lab.jks is not allowed with bench.remoteEnginesSsl=false
					--bench.remoteEngines=127.0.0.1:99999                                           | bench.remoteEngines=127.0.0.1:99999 is not allowed (element 1 is 127.0.0.1:99999)
					""")
	void remoteEngineSettingsAreRefusedAsAWholeBeforeAnythingStarts(String settings, String message,
			CapturedOutput output) {
		assertRefusedBeforeAnythingStarts(settings.split(" "), message, output);
	}

	@Test
	void anEngineThatDoesNotAnswerIsRefusedBeforeAnythingStarts() throws Exception {
		int closed;
		try (ServerSocket probe = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.4"))) {
			closed = probe.getLocalPort();
		}
		long childrenBefore = ProcessHandle.current().children().count();
		assertThatException()
			.isThrownBy(() -> run("--bench.remoteEngines=127.0.0.4:" + closed, "--bench.remoteEnginesSsl=false",
					"--bench.basePort=" + SweepEndToEndIT.freeBasePort(4)))
			.isInstanceOf(BenchSettingException.class)
			.withMessageStartingWith(
					"bench.remoteEngines=127.0.0.4:%d is not allowed: the engine 127.0.0.4:%d does not answer: a TCP connection to 127.0.0.4:%d was not accepted within 2000 ms"
						.formatted(closed, closed, closed))
			.withMessageContaining("The lab never starts engines")
			.withMessageEndingWith("Nothing was started.");
		assertNothingStarted(childrenBefore);
	}

	@Test
	void crossCheckWithTheWriteWorkloadIsRefusedBecauseTheCheckOnlyReads() throws Exception {
		long childrenBefore = ProcessHandle.current().children().count();
		assertThatException()
			.isThrownBy(() -> run("--bench.crossCheck=true", "--bench.workload=write",
					"--bench.basePort=" + SweepEndToEndIT.freeBasePort(4)))
			.isInstanceOf(BenchSettingException.class)
			.withMessageStartingWith("bench.crossCheck=true is not allowed with bench.workload=write");
		assertNothingStarted(childrenBefore);
	}

	@Test
	void moreCpusPerInstanceThanThisHostHasAreRefusedNamingTheLimit() throws Exception {
		int processors = Runtime.getRuntime().availableProcessors();
		long childrenBefore = ProcessHandle.current().children().count();
		assertThatException()
			.isThrownBy(() -> run("--bench.instanceCpus=" + (processors + 1),
					"--bench.basePort=" + SweepEndToEndIT.freeBasePort(4)))
			.isInstanceOf(BenchSettingException.class)
			.withMessage(
					"bench.instanceCpus=%d is not allowed: use a whole number from 1 to the number of processors here (%d).",
					processors + 1, processors);
		assertNothingStarted(childrenBefore);
	}

	@Test
	void fleetLargerThanTheConnectionBudgetIsRefusedNamingBothNumbers() {
		long childrenBefore = ProcessHandle.current().children().count();
		assertThatException()
			.isThrownBy(() -> run("--bench.instances=3", "--bench.poolSizes=5,200",
					"--bench.basePort=" + SweepEndToEndIT.freeBasePort(4)))
			.isInstanceOf(BenchSettingException.class)
			.withMessageContaining("3 instance(s) x maximum-pool-size 200 = 600 connections")
			.withMessageContaining("PostgreSQL accepts 297 (max_connections 300 - 3 reserved)");
		assertNothingStarted(childrenBefore);
	}

	@Test
	void fleetLargerThanTheEmbeddedMariaDbsBudgetIsRefusedNamingMariaDb() {
		long childrenBefore = ProcessHandle.current().children().count();
		assertThatException()
			.isThrownBy(() -> run("--bench.database.vendor=mariadb", "--bench.instances=3", "--bench.poolSizes=5,200",
					"--bench.basePort=" + SweepEndToEndIT.freeBasePort(4)))
			.isInstanceOf(BenchSettingException.class)
			.withMessageContaining("3 instance(s) x maximum-pool-size 200 = 600 connections")
			.withMessageContaining("MariaDB accepts 300 (max_connections 300 - 0 reserved)")
			.withMessageNotContaining("PostgreSQL");
		assertNothingStarted(childrenBefore);
	}

	@Test
	void unreachableExternalDatabaseIsAQuickClearError() {
		long startNanos = System.nanoTime();
		assertThatException()
			.isThrownBy(() -> run("--bench.database.url=jdbc:postgresql://127.0.0.1:1/lab",
					"--bench.database.password=s3cret", "--bench.basePort=" + SweepEndToEndIT.freeBasePort(4)))
			.isInstanceOf(BenchSettingException.class)
			.withMessageContaining("bench.database.url=jdbc:postgresql://127.0.0.1:1/lab: cannot connect")
			.withMessageNotContaining("s3cret");
		assertThat(System.nanoTime() - startNanos).isLessThan(TimeUnit.SECONDS.toNanos(15));
	}

	@Test
	void blackHoledExternalDatabaseIsAQuickClearError() throws Exception {
		try (BlackHole hole = BlackHole.open()) {
			long startNanos = System.nanoTime();
			// Preemptive, so that a lab hanging on the black hole fails the test instead
			// of the build.
			Throwable failure = assertTimeoutPreemptively(Duration.ofSeconds(30),
					() -> catchThrowable(() -> run("--bench.database.url=" + hole.jdbcUrl("lab"),
							"--bench.database.password=s3cret", "--bench.basePort=" + SweepEndToEndIT.freeBasePort(4))),
					"the lab still waiting for the black hole");
			assertThat(failure).isInstanceOf(BenchSettingException.class)
				.hasMessageContaining("bench.database.url=%s: cannot connect (Connection attempt timed out.)"
					.formatted(hole.jdbcUrl("lab")))
				.hasMessageNotContaining("s3cret");
			assertThat(System.nanoTime() - startNanos).isLessThan(Duration.ofSeconds(8).toNanos());
			assertThat(hole.connections()).as("connected to the black hole").isPositive();
		}
	}

	private void run(String... settings) throws Exception {
		String[] args = new String[settings.length + 1];
		System.arraycopy(settings, 0, args, 0, settings.length);
		args[settings.length] = "--bench.outputDirectory=" + this.output;
		BenchApplication.run(args);
	}

	/**
	 * The settings are refused with a one-line message starting with {@code message},
	 * nothing printed besides, nothing started.
	 */
	private void assertRefusedBeforeAnythingStarts(String[] settings, String message, CapturedOutput output) {
		long childrenBefore = ProcessHandle.current().children().count();
		assertThatException().isThrownBy(() -> run(settings))
			.isInstanceOf(BenchSettingException.class)
			.withMessageStartingWith(message)
			.withMessageNotContaining(System.lineSeparator());
		assertThat(output).as("nothing printed besides the refusal").isEmpty();
		assertNothingStarted(childrenBefore);
	}

	private void assertNothingStarted(long childrenBefore) {
		assertThat(this.output).isEmptyDirectory();
		assertThat(ProcessHandle.current().children().count()).isEqualTo(childrenBefore);
	}

}
