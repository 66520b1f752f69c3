package org.poollab.service;

import java.util.Objects;
import java.util.Properties;

import org.springframework.beans.factory.config.YamlPropertiesFactoryBean;
import org.springframework.core.io.ClassPathResource;

/**
 * A setting as the service's own yml on the classpath writes it, for tests whose bounds
 * follow it (its one home stays the yml).
 */
public final class ServiceYml {

	private ServiceYml() {
	}

	/**
	 * @param resource e.g. {@code application.yml}
	 * @param key e.g. {@code spring.datasource.hikari.connection-timeout}
	 * @throws NullPointerException naming the key when the yml has no such setting
	 */
	public static String property(String resource, String key) {
		YamlPropertiesFactoryBean yaml = new YamlPropertiesFactoryBean();
		yaml.setResources(new ClassPathResource(resource));
		Properties properties = Objects.requireNonNull(yaml.getObject());
		return Objects.requireNonNull(properties.getProperty(key), () -> key + " in " + resource);
	}

}
