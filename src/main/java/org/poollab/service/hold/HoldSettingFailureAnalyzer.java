package org.poollab.service.hold;

import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.bind.BindException;
import org.springframework.boot.context.properties.bind.UnboundConfigurationPropertiesException;
import org.springframework.boot.context.properties.source.ConfigurationProperty;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.diagnostics.FailureAnalyzer;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.core.env.Environment;

/**
 * A bad {@code lab.hold.*} setting said in one line: the setting, the value as written
 * and what is allowed (or, for a setting there is not, the ones there are), where Spring
 * Boot would report a failed bean with the reason several lines further down. Both
 * services bind {@link HoldProperties}, so both report it this way.
 */
@Order(Ordered.HIGHEST_PRECEDENCE) // ahead of Spring Boot's generic binding report
class HoldSettingFailureAnalyzer implements FailureAnalyzer {

	private static final String PREFIX = ConnectionHold.PROPERTIES_PREFIX + ".";

	/** What each setting accepts. */
	static final Map<String, String> ALLOWED = Map.of(HoldProperties.MEAN, HoldTime.ALLOWED, HoldProperties.P99,
			HoldTime.ALLOWED, PREFIX + "place", "database or application", PREFIX + "seed", "a whole number",
			HoldProperties.CPU, CpuHold.ALLOWED, HoldProperties.HISTOGRAM, HoldHistogram.ALLOWED, HoldProperties.USES,
			HoldProperties.USES_ALLOWED);

	static final String ACTION = "Set %s (and %s for a lognormal hold), each a whole number and a unit (500us, 20ms, 2s), e.g. --%s=10ms --%s=40ms, or leave both unset for no emulated hold."
		.formatted(HoldProperties.MEAN, HoldProperties.P99, HoldProperties.MEAN, HoldProperties.P99);

	private final Environment environment;

	HoldSettingFailureAnalyzer(Environment environment) {
		this.environment = environment;
	}

	@Override
	public @Nullable FailureAnalysis analyze(Throwable failure) {
		// HoldProperties' own check first: the binding failure around it names whichever
		// property was bound last.
		for (Throwable t = failure; t != null; t = t.getCause()) {
			if (t instanceof InvalidConfigurationPropertyValueException invalid
					&& ALLOWED.containsKey(invalid.getName())) {
				return notAllowed(invalid.getName(), invalid.getValue(), invalid.getReason(), failure);
			}
		}
		for (Throwable t = failure; t != null; t = t.getCause()) {
			if (t instanceof UnboundConfigurationPropertiesException unbound) {
				Optional<ConfigurationProperty> unknown = unbound.getUnboundProperties()
					.stream()
					.filter((property) -> property.getName().toString().startsWith(PREFIX))
					.findFirst();
				if (unknown.isPresent()) {
					return new FailureAnalysis(
							"%s=%s is not a setting of the service: use %s".formatted(unknown.get().getName(),
									unknown.get().getValue(), String.join(", ", new TreeSet<>(ALLOWED.keySet()))),
							ACTION, failure);
				}
			}
			ConfigurationProperty property = (t instanceof BindException bind) ? bind.getProperty() : null;
			if (property != null && ALLOWED.containsKey(property.getName().toString())) {
				return notAllowed(property.getName().toString(), property.getValue(), null, failure);
			}
		}
		return null;
	}

	private FailureAnalysis notAllowed(String name, @Nullable Object value, @Nullable String reason,
			Throwable failure) {
		String written = this.environment.getProperty(name, String.valueOf(value));
		return new FailureAnalysis("%s=%s is not allowed: %suse %s".formatted(name, written,
				(reason != null) ? reason + "; " : "", ALLOWED.get(name)), ACTION, failure);
	}

}
