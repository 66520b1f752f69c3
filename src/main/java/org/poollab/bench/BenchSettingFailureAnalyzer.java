package org.poollab.bench;

import java.lang.reflect.RecordComponent;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.springframework.boot.context.properties.bind.BindException;
import org.springframework.boot.context.properties.bind.UnboundConfigurationPropertiesException;
import org.springframework.boot.context.properties.bind.validation.BindValidationException;
import org.springframework.boot.context.properties.source.ConfigurationProperty;
import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.origin.PropertySourceOrigin;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.EnumerablePropertySource;
import org.springframework.core.env.Environment;
import org.springframework.core.env.PropertySource;
import org.springframework.validation.FieldError;
import org.springframework.validation.ObjectError;

import org.poollab.service.hold.HoldTime;
import org.poollab.bench.deploy.ResizeCredential;
import org.poollab.bench.grid.Preset;

/**
 * A bad {@code -Dbench.*} setting, said plainly: the setting, the value as written and
 * what is allowed, or, for a setting the lab does not know (a misspelling), the closest
 * one it does. Binding fails before the sweep starts anything.
 */
@Order(Ordered.HIGHEST_PRECEDENCE)
class BenchSettingFailureAnalyzer extends AbstractFailureAnalyzer<BindException> {

	/**
	 * By setting, lower-case without separators: what the user writes and what is
	 * allowed.
	 */
	static final Map<String, Setting> SETTINGS = Map.ofEntries(
			setting("preset", "bench.preset", "one of " + Preset.names()),
			setting("topologies", "bench.topologies", "single, multi and/or pgbouncer, comma-separated"),
			setting("instances", "bench.instances", "a whole number from 1 to 16"),
			setting("poolsizes", "bench.poolSizes",
					"comma-separated whole numbers from 1 to 1000 (maximum-pool-size per instance) and/or none (no pool), e.g. none,1,5,10"),
			setting("rates", "bench.rates", "comma-separated whole numbers from 1 to 100000 (requests per second)"),
			setting("duration", "bench.duration", "a duration above 0 and up to 1h, e.g. 5 (seconds), 5s, 500ms, 1m"),
			setting("warmup", "bench.warmup", "a duration from 0 to 1h, e.g. 2s"),
			setting("topologywarmup", "bench.topologyWarmup", "a duration from 0 to 1h, e.g. 15s"),
			setting("repeats", "bench.repeats", "a whole number from 1 to 100"),
			setting("pobjective", "bench.p99Objective", "a duration above 0 and up to 10m, e.g. 100ms, 1s"),
			setting("arrivals", "bench.arrivals", "even or random"),
			setting("workload", "bench.workload", "read or write"),
			setting("loadbalancer", "bench.loadBalancer", "auto, nginx or client"),
			setting("baseport", "bench.basePort", "a port from 1024 to 65000"),
			setting("serve", "bench.serve", "single, multi or pgbouncer"),
			setting("databasevendor", "bench.database.vendor",
					"postgresql, mariadb or both, comma-separated (the embedded servers the sweep starts, one at a time, and the service's settings)"),
			setting("acquirecost", "bench.acquireCost", "true or false"),
			setting("remoteengines", "bench.remoteEngines",
					"comma-separated host:port of running JMeter servers, e.g. 127.0.0.1:1099"),
			setting("remoteenginesssl", "bench.remoteEnginesSsl",
					"true or false (RMI over SSL to the remote engines; false for engines started with server.rmi.ssl.disable=true)"),
			setting("rmikeystore", "bench.rmiKeystore",
					"the path of a JKS keystore with a key 'rmi' and password changeit, or of a file the lab makes one in"),
			setting("maxclockskew", "bench.maxClockSkew",
					"a duration from 1ms to 1s, e.g. 50ms (how far a remote engine's clock may be off the lab's)"),
			setting("instancecpus", "bench.instanceCpus",
					"a whole number from 1 to %d (the processors here)".formatted(availableProcessors())),
			setting("instanceheap", "bench.instanceHeap", "a heap size from 64m to 8g, e.g. 128m, 512m, 1g"),
			setting("tomcatthreads", "bench.tomcatThreads",
					"comma-separated whole numbers from 1 to 10000 (server.tomcat.threads.max), e.g. 50,200"),
			setting("threads", "bench.threads",
					"platform, virtual or both, comma-separated (what runs the requests; virtual needs Java 21 or later)"),
			setting("stack", "bench.stack",
					"jdbc, r2dbc or both, comma-separated (jdbc: Spring MVC with HikariCP; r2dbc: the reactive twin, WebFlux with r2dbc-pool)"),
			setting("servicejavahome", "bench.serviceJavaHome",
					"the directory of a JDK (its bin/java runs the service instances), e.g. /usr/lib/jvm/temurin-25-jdk-amd64"),
			setting("targetrps", "bench.targetRps",
					"a whole number of requests per second from 1 to 10000000 (the fleet's peak rate)"),
			setting("replicas", "bench.replicas", "a whole number from 1 to 1000 (replicas in production)"),
			setting("maxreplicas", "bench.maxReplicas",
					"a whole number from 1 to 1000, at least bench.replicas (the autoscaler's ceiling)"),
			setting("surge", "bench.surge",
					"a share of the replicas such as 25% (Kubernetes' default, rounded up) or a number of replicas such as 1"),
			setting("otherconnections", "bench.otherConnections",
					"a whole number from 0 to 100000 (connections other clients hold)"),
			setting("connectionsperrequest", "bench.connectionsPerRequest",
					"a whole number from 1 to 100 (connections one request holds at once)"),
			setting("target", "bench.target", "lab or external"),
			setting("resizetimeout", "bench.resizeTimeout", "a duration from 1s to 1h, e.g. 10m"),
			setting("allowremotetargets", "bench.allowRemoteTargets", "true or false"),
			setting("holdtime", "bench.holdTime", HoldTime.ALLOWED),
			setting("holdplace", "bench.holdPlace", "database or application"));

	private final Environment environment;

	BenchSettingFailureAnalyzer(Environment environment) {
		this.environment = environment;
	}

	@Override
	protected FailureAnalysis analyze(Throwable rootFailure, BindException cause) {
		return explain(cause, this.environment).map(
				(problem) -> new FailureAnalysis(problem, "Fix the setting and run again. Nothing was started.", cause))
			.orElse(null);
	}

	/**
	 * What is wrong with the {@code bench.*} settings, one line per bad setting, when
	 * binding them is what failed.
	 * @param failure why the lab's context did not start
	 * @param environment where the settings came from, to quote them as written
	 * @return the lines, or empty when the failure is not a bad setting
	 */
	static Optional<String> explain(Throwable failure, Environment environment) {
		BindException cause = bindFailure(failure);
		if (cause == null || !cause.getName().toString().startsWith("bench")) {
			return Optional.empty();
		}
		List<String> problems = new ArrayList<>();
		if (cause.getCause() instanceof UnboundConfigurationPropertiesException unknown) {
			unknown.getUnboundProperties().stream().sorted().forEach((property) -> problems.add(unknown(property)));
		}
		else if (cause.getCause() instanceof BindValidationException validation) {
			for (ObjectError error : validation.getValidationErrors()) {
				if (error instanceof FieldError field) {
					Object written = asWritten(environment, field.getField()).orElse(field.getRejectedValue());
					// One element of a longer list: say which.
					String which = String.valueOf(written).equals(String.valueOf(field.getRejectedValue())) ? null
							: element(field.getField(), field.getRejectedValue());
					problems.add(describe(field.getField(), written, which));
				}
			}
		}
		else {
			ConfigurationProperty property = cause.getProperty();
			String name = (property != null) ? property.getName().toString() : cause.getName().toString();
			String field = name.substring(name.indexOf('.') + 1);
			problems.add(describe(field,
					asWritten(environment, field).orElse((property != null) ? property.getValue() : null)));
		}
		return problems.isEmpty() ? Optional.empty() : Optional.of(String.join(System.lineSeparator(), problems));
	}

	/**
	 * The value as the user wrote it ({@code 0s}, {@code 5,,10}), not as it was bound
	 * ({@code PT0S}, a list): the first property source that has the setting, in any of
	 * the spellings Spring Boot binds ({@code bench.poolSizes}, {@code bench.pool-sizes},
	 * {@code BENCH_POOLSIZES}).
	 */
	private static Optional<Object> asWritten(Environment environment, String field) {
		if (!(environment instanceof ConfigurableEnvironment configurable)) {
			return Optional.empty();
		}
		String wanted = SettingNames.uniform("bench." + field.replaceAll("\\[.*", ""));
		for (PropertySource<?> source : configurable.getPropertySources()) {
			if (source instanceof EnumerablePropertySource<?> enumerable) {
				for (String name : enumerable.getPropertyNames()) {
					if (SettingNames.uniform(name).equals(wanted)) {
						return Optional.ofNullable(enumerable.getProperty(name));
					}
				}
			}
		}
		return Optional.empty();
	}

	/** Which element of a list was refused, e.g. "element 2 is empty". */
	private static String element(String field, Object rejected) {
		Matcher index = Pattern.compile("\\[(\\d+)]$").matcher(field);
		if (!index.find()) {
			return null;
		}
		int position = Integer.parseInt(index.group(1)) + 1;
		return (rejected == null || rejected.toString().isEmpty()) ? "element %d is empty".formatted(position)
				: "element %d is %s".formatted(position, (rejected instanceof java.time.Duration duration)
						? (duration.toNanos() / 1e6) + "ms" : rejected);
	}

	/**
	 * A {@code bench.*} property the lab does not know, e.g. a misspelt one, which would
	 * otherwise be ignored without a word.
	 */
	static String unknown(ConfigurationProperty property) {
		String written = (property.getOrigin() instanceof PropertySourceOrigin origin) ? origin.getPropertyName()
				: property.getName().toString();
		return unknown(written, property.getValue());
	}

	private static String unknown(String written, Object value) {
		if (SettingNames.uniform(written).equals(SettingNames.uniform(ResizeCredential.PROPERTY))) {
			// Never echoed: the value is a credential.
			return "%s is not allowed as a setting: the resize endpoint's token must not be on a command line (any user of the machine can read it there, and Maven prints it). Set the environment variable %s instead. Nothing was started."
				.formatted(ResizeCredential.PROPERTY, ResizeCredential.ENVIRONMENT_VARIABLE);
		}
		String suggestion = SettingNames.closest(written, knownNames())
			.map((name) -> "did you mean " + name + "?")
			.orElse("see the options in README.md.");
		return "%s=%s is not a setting of the lab: %s".formatted(written, value, suggestion);
	}

	/**
	 * Every {@code bench.*} property in the environment that the lab does not know, one
	 * line each. Spring Boot's own check ({@code ignoreUnknownFields = false}) leaves out
	 * system properties and environment variables, and {@code -Dbench.*} is how the lab
	 * is run.
	 * @param environment the lab's environment
	 * @return the lines, or empty when every {@code bench.*} property is known
	 */
	static Optional<String> unknownSettings(ConfigurableEnvironment environment) {
		List<String> known = knownNames().stream().map(SettingNames::uniform).toList();
		Map<String, String> problems = new LinkedHashMap<>();
		for (PropertySource<?> source : environment.getPropertySources()) {
			if (source instanceof EnumerablePropertySource<?> enumerable) {
				for (String name : enumerable.getPropertyNames()) {
					String uniform = SettingNames.uniform(name.replaceAll("\\[[^]]*]", ""));
					if (uniform.startsWith("bench.") && !known.contains(uniform)) {
						problems.putIfAbsent(uniform, unknown(name, enumerable.getProperty(name)));
					}
				}
			}
		}
		return problems.isEmpty() ? Optional.empty()
				: Optional.of(String.join(System.lineSeparator(), problems.values()));
	}

	/** Every setting the lab binds, from {@link BenchProperties} itself. */
	static List<String> knownNames() {
		List<String> names = new ArrayList<>();
		for (RecordComponent component : BenchProperties.class.getRecordComponents()) {
			if (component.getType().isRecord()) {
				for (RecordComponent nested : component.getType().getRecordComponents()) {
					names.add("bench." + component.getName() + "." + nested.getName());
				}
			}
			else {
				names.add("bench." + component.getName());
			}
		}
		return names;
	}

	private static BindException bindFailure(Throwable failure) {
		for (Throwable candidate = failure; candidate != null; candidate = candidate.getCause()) {
			if (candidate instanceof BindException bind) {
				return bind;
			}
		}
		return null;
	}

	private static String key(String field) {
		return field.replaceAll("\\[.*", "").replaceAll("[^A-Za-z]", "").toLowerCase(Locale.ROOT);
	}

	static String describe(String field, Object value) {
		return describe(field, value, null);
	}

	private static String describe(String field, Object value, String which) {
		Setting setting = SETTINGS.get(key(field));
		String name = (setting != null) ? setting.name() : "bench." + field.replaceAll("\\[.*", "");
		String allowed = (setting != null) ? setting.allowed() : "see README.md";
		return "%s=%s is not allowed%s: use %s.".formatted(name, value, (which != null) ? " (" + which + ")" : "",
				allowed);
	}

	static int availableProcessors() {
		return Runtime.getRuntime().availableProcessors();
	}

	private static Map.Entry<String, Setting> setting(String key, String name, String allowed) {
		return Map.entry(key, new Setting(name, allowed));
	}

	record Setting(String name, String allowed) {
	}

}
