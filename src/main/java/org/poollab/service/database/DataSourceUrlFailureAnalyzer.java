package org.poollab.service.database;

import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.BeanCreationException;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.diagnostics.FailureAnalyzer;
import org.springframework.core.env.Environment;

import org.poollab.vendor.DatabaseVendor;

/**
 * A {@code spring.datasource.url} that is no JDBC URL of the configured vendor
 * ({@code lab.database}, PostgreSQL unless told otherwise), said in one line instead of a
 * chain of bean-creation failures ending in HikariCP's "'url' must start with jdbc". The
 * URL is shown without its query string, which is where a password could be.
 */
class DataSourceUrlFailureAnalyzer implements FailureAnalyzer {

	private final Environment environment;

	DataSourceUrlFailureAnalyzer(Environment environment) {
		this.environment = environment;
	}

	@Override
	public @Nullable FailureAnalysis analyze(Throwable failure) {
		String url = this.environment.getProperty("spring.datasource.url");
		if (url == null || url.isBlank() || !dataSourceFailed(failure)) {
			return null;
		}
		DatabaseVendor vendor = DatabaseVendor.of(this.environment);
		if (vendor.accepts(url)) {
			return null;
		}
		return new FailureAnalysis(
				"spring.datasource.url=%s is not allowed: use a %s JDBC URL, %s//host:port/database (e.g. %s)"
					.formatted(DatabaseConnectionFailureAnalyzer.withoutQuery(url), vendor.product(),
							vendor.urlPrefixes().get(0), vendor.exampleUrl()),
				"Fix SPRING_DATASOURCE_URL (or spring.datasource.url), or leave it unset to let the lab start an "
						+ "embedded %s.".formatted(vendor.product()),
				failure);
	}

	private static boolean dataSourceFailed(Throwable failure) {
		for (Throwable t = failure; t != null; t = t.getCause()) {
			if (t instanceof BeanCreationException creation && "dataSource".equals(creation.getBeanName())) {
				return true;
			}
		}
		return false;
	}

}
