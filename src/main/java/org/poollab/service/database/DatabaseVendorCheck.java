package org.poollab.service.database;

import org.springframework.beans.factory.config.BeanFactoryPostProcessor;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.context.EnvironmentAware;
import org.springframework.core.env.Environment;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.stereotype.Component;

import org.poollab.vendor.DatabaseVendor;

/**
 * Refuses, before any bean is made, settings of another vendor than {@code lab.database}
 * names: a {@code db/<vendor>.yml} other than its own (or none: {@code lab.database} set
 * where {@code application.yml}'s import cannot read it, or not in lower case), or a
 * {@code spring.datasource.url} of the other vendor. The service would give that database
 * the wrong driver properties and migrations, and fail later, in Flyway's SQL, or wait
 * minutes where it means seconds (pgjdbc's timeouts are in seconds, MariaDB Connector/J's
 * in milliseconds). A URL of neither vendor is {@link DataSourceUrlFailureAnalyzer}'s to
 * report.
 */
@Component
class DatabaseVendorCheck implements BeanFactoryPostProcessor, EnvironmentAware {

	/** Each {@code db/<vendor>.yml} names itself in this property. */
	static final String SETTINGS_PROPERTY = "lab.database-settings";

	/** Set before the check runs (a post-processor is made too early for injection). */
	private Environment environment = new StandardEnvironment();

	@Override
	public void setEnvironment(Environment environment) {
		this.environment = environment;
	}

	@Override
	public void postProcessBeanFactory(ConfigurableListableBeanFactory beanFactory) {
		DatabaseVendor configured = DatabaseVendor.of(this.environment);
		String value = this.environment.getProperty(DatabaseVendor.PROPERTY, configured.propertyValue());
		String settings = this.environment.getProperty(SETTINGS_PROPERTY);
		if (!configured.propertyValue().equals(settings)) {
			throw new InvalidConfigurationPropertyValueException(DatabaseVendor.PROPERTY, value,
					"the settings imported are %s, not db/%s.yml: give %s in lower case (%s) as a command-line argument, a system property or the environment variable LAB_DATABASE, where application.yml's spring.config.import reads it, not in a configuration file"
						.formatted((settings != null) ? "db/%s.yml".formatted(settings) : "none",
								configured.propertyValue(), DatabaseVendor.PROPERTY, DatabaseVendor.allowedValues()));
		}
		String url = this.environment.getProperty("spring.datasource.url", "");
		DatabaseVendor ofUrl = DatabaseVendor.ofUrl(url);
		if (ofUrl != null && ofUrl != configured) {
			throw new InvalidConfigurationPropertyValueException(DatabaseVendor.PROPERTY, value,
					"spring.datasource.url=%s is a %s URL: set %s=%s, which brings %s's driver properties and migrations (db/%s.yml)"
						.formatted(DatabaseConnectionFailureAnalyzer.withoutQuery(url), ofUrl.product(),
								DatabaseVendor.PROPERTY, ofUrl.propertyValue(), ofUrl.product(),
								ofUrl.propertyValue()));
		}
	}

}
