package org.poollab.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

import org.springframework.boot.context.properties.bind.BindException;
import org.springframework.boot.context.properties.bind.validation.BindValidationException;
import org.springframework.boot.context.properties.source.ConfigurationProperty;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName.Form;
import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.validation.FieldError;
import org.springframework.validation.ObjectError;

/**
 * A bad {@code -Dbench.*} value, said plainly: the setting, the value and what is
 * allowed. Binding fails before the sweep starts anything.
 */
@Order(Ordered.HIGHEST_PRECEDENCE)
class BenchSettingFailureAnalyzer extends AbstractFailureAnalyzer<BindException> {

	/**
	 * By setting, lower-case without separators: what the user writes and what is
	 * allowed.
	 */
	static final Map<String, Setting> SETTINGS = Map.ofEntries(
			setting("preset", "bench.preset", "one of quick, paper, full, blog, pooling"),
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
			setting("acquirecost", "bench.acquireCost", "true or false"),
			setting("remoteengines", "bench.remoteEngines",
					"comma-separated host:port of running JMeter servers, e.g. 127.0.0.1:1099"),
			setting("instancecpus", "bench.instanceCpus",
					"a whole number from 1 to %d (the processors here)".formatted(availableProcessors())),
			setting("instanceheap", "bench.instanceHeap", "a heap size from 64m to 8g, e.g. 128m, 512m, 1g"),
			setting("tomcatthreads", "bench.tomcatThreads",
					"comma-separated whole numbers from 1 to 10000 (server.tomcat.threads.max), e.g. 50,200"));

	@Override
	protected FailureAnalysis analyze(Throwable rootFailure, BindException cause) {
		if (!cause.getName().toString().startsWith("bench")) {
			return null;
		}
		List<String> problems = new ArrayList<>();
		if (cause.getCause() instanceof BindValidationException validation) {
			for (ObjectError error : validation.getValidationErrors()) {
				if (error instanceof FieldError field) {
					problems.add(describe(field.getField(),
							asWritten(validation, field.getField()).orElse(field.getRejectedValue())));
				}
			}
		}
		else {
			ConfigurationProperty property = cause.getProperty();
			String name = (property != null) ? property.getName().toString() : cause.getName().toString();
			problems
				.add(describe(name.substring(name.indexOf('.') + 1), (property != null) ? property.getValue() : null));
		}
		return new FailureAnalysis(String.join(System.lineSeparator(), problems),
				"Fix the setting and run again. Nothing was started.", cause);
	}

	/**
	 * The value as the user wrote it ({@code 0s}), not as it was bound ({@code PT0S}).
	 */
	private static Optional<Object> asWritten(BindValidationException validation, String field) {
		if (field.contains("[")) {
			return Optional.empty(); // one element of a list: the element says more
		}
		String key = key(field);
		return validation.getValidationErrors()
			.getBoundProperties()
			.stream()
			.filter((property) -> key(property.getName().getLastElement(Form.UNIFORM)).equals(key)
					&& !property.getName().isLastElementIndexed())
			.map(ConfigurationProperty::getValue)
			.findFirst();
	}

	private static String key(String field) {
		return field.replaceAll("\\[.*", "").replaceAll("[^A-Za-z]", "").toLowerCase(Locale.ROOT);
	}

	static String describe(String field, Object value) {
		Setting setting = SETTINGS.get(key(field));
		String name = (setting != null) ? setting.name() : "bench." + field;
		String allowed = (setting != null) ? setting.allowed() : "see README.md";
		return "%s=%s is not allowed: use %s.".formatted(name, value, allowed);
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
