package org.poollab.service.database;

import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.bind.BindException;
import org.springframework.boot.context.properties.source.ConfigurationProperty;
import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;

/**
 * A {@code maximum-pool-size} that is no whole number of at least 1, said in one line
 * naming the property, the value and what is allowed. Spring Boot's own report says only
 * "failed to convert" for {@code abc} or {@code 1.5}, and quotes HikariCP's "maxPoolSize
 * cannot be less than 1" for {@code 0} or {@code -1}.
 */
@Order(Ordered.HIGHEST_PRECEDENCE) // ahead of Spring Boot's generic binding report
class PoolSizeFailureAnalyzer extends AbstractFailureAnalyzer<BindException> {

	static final String PROPERTY = "spring.datasource.hikari.maximum-pool-size";

	@Override
	protected @Nullable FailureAnalysis analyze(Throwable rootFailure, BindException cause) {
		ConfigurationProperty property = cause.getProperty();
		if (property == null || !PROPERTY.equals(property.getName().toString())) {
			return null;
		}
		return new FailureAnalysis(
				"%s=%s is not allowed: use a whole number of at least 1 (the connections the pool holds)"
					.formatted(PROPERTY, property.getValue()),
				"Set SPRING_DATASOURCE_HIKARI_MAXIMUMPOOLSIZE (or %s) to a whole number such as 10, or leave it unset for the lab's default (application.yml)."
					.formatted(PROPERTY),
				cause);
	}

}
