package org.poollab.bench.settings;

import java.util.Arrays;
import java.util.List;
import java.util.Optional;

import org.jspecify.annotations.Nullable;

import org.poollab.bench.deploy.ExternalTarget;
import org.poollab.bench.deploy.ServiceJvm;
import org.poollab.bench.grid.HoldTimeFrom;
import org.poollab.bench.grid.Preset;
import org.poollab.bench.grid.Question;
import org.poollab.bench.grid.Requests;
import org.poollab.bench.grid.TimeScaleSetting;
import org.poollab.bench.load.RemoteEngines;
import org.poollab.service.hold.CpuHold;
import org.poollab.service.hold.HoldTime;
import org.poollab.vendor.DatabaseVendor;

/**
 * The one home of each {@code bench.*} setting's facts: its name, its default, what is
 * allowed and what it does, one line each. A refusal of a bad value says what is allowed
 * from here, and the options tables (src/site/markdown/options.md, and target-mode.md for
 * target mode's own) are checked against it ({@code DocsTruthTests}), as are the
 * components of {@link BenchProperties}' groups, their defaults and ranges
 * ({@code BenchSettingTests}). Where a check lives in another package, its allowed text
 * is a constant there, used by its message and named here.
 * <p>
 * A default of {@code preset} comes from the preset ({@code presets.md}).
 */
public enum BenchSetting {

	PRESET("preset", "full", "one of " + Preset.names(),
			"The named grid; explicit settings override its single values"),
	TOPOLOGIES("topologies", "preset", "single, multi and/or pgbouncer, comma-separated",
			"The deployments swept, one after the other"),
	INSTANCES("instances", String.valueOf(Preset.INSTANCES), "a whole number from 1 to 16",
			"Service instances in the multi and pgbouncer topologies"),
	POOL_SIZES("poolSizes", "preset",
			"comma-separated whole numbers from 1 to 1000 (maximum-pool-size per instance) and/or none (no pool), e.g. none,1,5,10",
			"The pool sizes swept; pgbouncer's pool in the pgbouncer topology"),
	RATES("rates", "preset", "comma-separated whole numbers from 1 to 100000 (requests per second)",
			"The request rates swept, of the whole fleet"),
	DURATION("duration", "preset", "a duration above 0 and up to 1h, e.g. 5 (seconds), 5s, 500ms, 1m",
			"The measured window of each point"),
	WARMUP("warmup", "preset", "a duration from 0 to 1h, e.g. 2s",
			"Load before the first window of each round, not measured"),
	TOPOLOGY_WARMUP("topologyWarmup", "preset", "a duration from 0 to 1h, e.g. 15s",
			"The longest load after a topology starts, before its first point"),
	REPEATS("repeats", "preset", "a whole number from 1 to 100", "How often each point runs"),
	P99_OBJECTIVE("p99Objective", "100ms", "a duration above 0 and up to 10m, e.g. 100ms, 1s",
			"The p99 a point must stay within to count as sustaining its rate"),
	WORKLOAD("workload", "preset", "read or write", "What each request does"),
	ARRIVALS("arrivals", "preset", "even or random", "How requests arrive: evenly spaced or random (Poisson)"),
	LOAD_BALANCER("loadBalancer", "auto", "auto, nginx or client",
			"What spreads the load over the instances of the multi topology"),
	BASE_PORT("basePort", "18080", "a port from 1024 to 65000", "The first port the lab listens on; the others follow"),
	DATABASE_VENDOR("database.vendor", "preset", DatabaseVendor.allowedValues()
			+ ", or several, comma-separated (the embedded servers the sweep starts, one at a time, and the service's settings)",
			"The databases the sweep runs on, one at a time"),
	DATABASE_URL("database.url", "none",
			"a JDBC URL: jdbc:postgresql://host:port/database, or jdbc:mariadb:// (or jdbc:mysql://) for MariaDB or MySQL",
			"An existing database server instead of the embedded one"),
	DATABASE_USERNAME("database.username", "the embedded server's user", "a user name",
			"The user on bench.database.url"),
	DATABASE_PASSWORD("database.password", "empty", "a password", "The password on bench.database.url"),
	DATABASE_ALLOW_FOREIGN_TABLES("database.allowForeignTables", "false", "true or false",
			"Run on a bench.database.url that holds tables other than the lab's"),
	OUTPUT_DIRECTORY("outputDirectory", "target/bench", "a directory, made when missing", "Where runs are written"),
	BUILD_DIRECTORY("buildDirectory", "target", "Maven's target directory of this project",
			"Where the lab finds JMeter and the service's runtime classpath"),
	SERVE("serve", "none", "single, multi or pgbouncer",
			"Start that deployment and keep it running until Ctrl-C instead of sweeping"),
	REMOTE_ENGINES("remoteEngines", "none", RemoteEngines.ALLOWED,
			"JMeter servers to generate the load from, in JMeter's distributed mode"),
	REMOTE_ENGINES_SSL("remoteEnginesSsl", "true",
			"true or false (RMI over SSL to the remote engines; false for engines started with server.rmi.ssl.disable=true)",
			"Whether the lab talks to the remote engines over RMI with SSL"),
	RMI_KEYSTORE("rmiKeystore", "target/" + RemoteEngines.DEFAULT_KEYSTORE,
			"the path of a JKS keystore with a key 'rmi' and password changeit, or of a file the lab makes one in",
			"The keystore the lab and its remote engines share for RMI over SSL"),
	MAX_CLOCK_SKEW("maxClockSkew", RemoteEngines.DEFAULT_MAX_CLOCK_SKEW.toMillis() + "ms",
			"a duration from 1ms to 1s, e.g. 50ms (how far a remote engine's clock may be off the lab's)",
			"How far a remote engine's clock may be off the lab's, checked before anything starts"),
	INSTANCE_CPUS("instanceCpus", "preset", "a whole number from 1 to the number of processors here",
			"CPUs per instance: each instance is pinned to that many cores and told so"),
	INSTANCE_HEAP("instanceHeap", "preset", "a heap size from 64m to 8g, e.g. 128m, 512m, 1g", "Each instance's -Xmx"),
	TOMCAT_THREADS("tomcatThreads", "preset",
			"comma-separated whole numbers from 1 to 10000 (server.tomcat.threads.max), e.g. 50,200",
			"Tomcat's thread maximums swept, a dimension between topology and pool size"),
	THREADS("threads", "preset",
			"platform, virtual or both, comma-separated (what runs the requests; virtual needs Java 21 or later)",
			"What runs the service's requests: Tomcat's platform threads and/or a virtual thread per request"),
	STACK("stack", "preset",
			"jdbc, r2dbc or both, comma-separated (jdbc: Spring MVC with HikariCP; r2dbc: the reactive twin, WebFlux with r2dbc-pool)",
			"Which service answers the load: the JDBC one and/or its reactive twin"),
	SERVICE_JAVA_HOME("serviceJavaHome", "the lab's JVM", ServiceJvm.ALLOWED, "The JDK every service instance runs on"),
	ACQUIRE_COST("acquireCost", "preset", "true or false",
			"Also run the pooled vs unpooled acquire-cost benchmark into the run"),
	CROSS_CHECK("crossCheck", "false", "true or false",
			"Measure every point again with the lab's independent open-loop generator"),
	CONFIRMATION("confirmation", "20s", "a duration from 0 to 10m, e.g. 60s (0s skips it)",
			"The measured window of each topology's confirmation run"),
	ADAPTIVE_CAP("adaptiveCap", "90s", "a duration from 0 to 1h, e.g. 5m (0s turns adaptive effort off)",
			"The most time per topology spent measuring again the cells that decide an unsettled decision"),
	TARGET_RPS("targetRps", "none", "a whole number of requests per second from 1 to 10000000 (the fleet's peak rate)",
			"The fleet's peak rate: asks for an SLO search instead of sweeping a grid"),
	REPLICAS("replicas", "bench.instances", "a whole number from 1 to 1000 (replicas in production)",
			"Replicas in production"),
	MAX_REPLICAS("maxReplicas", "bench.replicas",
			"a whole number from 1 to 1000, at least bench.replicas (the autoscaler's ceiling)",
			"The autoscaler's ceiling"),
	SURGE("surge", "25%", Question.SURGE_ALLOWED, "Extra replicas during a rolling deploy, Kubernetes' maxSurge"),
	OTHER_CONNECTIONS("otherConnections", "5", "a whole number from 0 to 100000 (connections other clients hold)",
			"Connections other clients hold on the database"),
	CONNECTIONS_PER_REQUEST("connectionsPerRequest", "1",
			"a whole number from 1 to 100 (connections one request holds at once)",
			"Connections one request holds at once (Cm)"),
	HOLD_TIME("holdTime", "preset", HoldTime.ALLOWED,
			"How long every instance holds each request's connection, in its transaction"),
	HOLD_PLACE("holdPlace", "database", "database or application", "Where the hold's time goes"),
	HOLD_TIME_FROM("holdTimeFrom", "none", HoldTimeFrom.ALLOWED,
			"Where to read the hold from instead of bench.holdTime: a service's metrics"),
	HOLD_TIME_FROM_WINDOW("holdTimeFromWindow", "60s", HoldTimeFrom.WINDOW_ALLOWED,
			"How far apart bench.holdTimeFrom's two scrapes of a URL are: the window its hold is read over"),
	HOLD_TIME_FROM_URI("holdTimeFromUri", "none", "a uri label of http_server_requests_seconds_count, e.g. /owners",
			"Whose requests bench.holdTimeFrom counts connection uses per request by (unset: all but /actuator/**)"),
	HOLD_CPU("holdCpu", "preset", CpuHold.ALLOWED,
			"Database CPU every instance's request also costs, calibrated at the instance's start"),
	TIME_SCALE("timeScale", "auto", TimeScaleSetting.ALLOWED,
			"Slow motion where the box cannot carry the question: rates ÷ k, holds and connection-timeout × k"),
	TARGET("target", "lab", "lab or external",
			"Who deploys what the load goes to: the lab, or someone else (target mode)"),
	TARGETS("targets", "none", ExternalTarget.TARGETS_ALLOWED, "In target mode, where the load goes"),
	ACTUATORS("actuators", "none", ExternalTarget.ACTUATORS_ALLOWED,
			"In target mode, each instance's actuator, to prove and change its pool size"),
	RESIZE_COMMAND("resizeCommand", "none", ExternalTarget.RESIZE_COMMAND_ALLOWED,
			"In target mode, what redeploys the fleet at each pool size instead of the resize endpoint"),
	RESIZE_TIMEOUT("resizeTimeout", "10m", "a duration from 1s to 1h, e.g. 10m",
			"In target mode, the longest one resize may take"),
	ALLOW_REMOTE_TARGETS("allowRemoteTargets", "false", "true or false",
			"In target mode, let targets and actuators be beyond this machine's loopback"),
	REQUESTS("requests", "none (GET /roles, the lab's own)", Requests.ALLOWED,
			"In target mode, the requests the load sends, each arrival one drawn by weight"),
	POOL_NAME("poolName", "none (the only pool, or the first by name)",
			"a HikariCP pool name, the pool tag of hikaricp_connections_max, e.g. HikariPool-1",
			"In target mode, which of the service's HikariCP pools is swept");

	private final String property;

	private final String defaultValue;

	private final String allowed;

	private final String description;

	BenchSetting(String path, String defaultValue, String allowed, String description) {
		this.property = "bench." + path;
		this.defaultValue = defaultValue;
		this.allowed = allowed;
		this.description = description;
	}

	/** The name to set, e.g. {@code bench.poolSizes}. */
	public String property() {
		return this.property;
	}

	/** The value when it is not set, as the options page says it. */
	public String defaultValue() {
		return this.defaultValue;
	}

	/** What is allowed, as a refusal and the options page say it. */
	public String allowed() {
		return this.allowed;
	}

	/** What the setting does, in a line. */
	public String description() {
		return this.description;
	}

	/**
	 * A bad value refused in one line: the setting, the value as written and what is
	 * allowed here (for {@link #INSTANCE_CPUS}, with this machine's processors).
	 * @param written the value as the user wrote it
	 * @param which which element of a list was refused, or {@code null}
	 */
	public String refusal(@Nullable Object written, @Nullable String which) {
		String here = (this == INSTANCE_CPUS) ? this.allowed + " (" + Runtime.getRuntime().availableProcessors() + ")"
				: this.allowed;
		return "%s=%s is not allowed%s: use %s.".formatted(this.property, written,
				(which != null) ? " (" + which + ")" : "", here);
	}

	/**
	 * The setting a bound field belongs to, in any spelling Spring Boot binds, e.g.
	 * {@code poolSizes[1]} or {@code database.vendor}.
	 */
	static Optional<BenchSetting> ofField(String field) {
		String uniform = SettingNames.uniform("bench." + field.replaceAll("\\[.*", ""));
		return Arrays.stream(values())
			.filter((setting) -> SettingNames.uniform(setting.property).equals(uniform))
			.findFirst();
	}

	/** Every setting's name, e.g. {@code bench.poolSizes}. */
	public static List<String> properties() {
		return Arrays.stream(values()).map(BenchSetting::property).toList();
	}

}
