package org.poollab.vendor;

import java.util.List;
import java.util.Locale;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.core.env.Environment;

/**
 * The database the service runs on, named by {@value #PROPERTY}: {@code postgresql} (the
 * default) or {@code mariadb} (MariaDB, or MySQL through MariaDB Connector/J). It picks
 * the embedded server when no {@code spring.datasource.url} is given, and always the
 * vendor's own settings, {@code db/<vendor>.yml} (driver properties, migrations), which
 * {@code application.yml} imports by this name. The names are Spring Boot's own for the
 * two ({@code DatabaseDriver}, Flyway's {@code {vendor}} locations).
 */
public enum DatabaseVendor {

	POSTGRESQL("PostgreSQL", List.of("jdbc:postgresql:"), "jdbc:postgresql://127.0.0.1:5432/postgres"),

	/**
	 * MariaDB Connector/J also takes {@code jdbc:mysql:} URLs, but only with
	 * {@code permitMysqlScheme} among their options (without it: "No suitable driver").
	 */
	MARIADB("MariaDB", List.of("jdbc:mariadb:", "jdbc:mysql:"), "jdbc:mariadb://127.0.0.1:3306/test");

	public static final String PROPERTY = "lab.database";

	/** What the server is called in messages. */
	final String product;

	/** The JDBC URL prefixes its driver takes. */
	final List<String> urlPrefixes;

	/** A URL to show as an example. */
	final String exampleUrl;

	DatabaseVendor(String product, List<String> urlPrefixes, String exampleUrl) {
		this.product = product;
		this.urlPrefixes = urlPrefixes;
		this.exampleUrl = exampleUrl;
	}

	/**
	 * The configured vendor; a value that names none fails the way Spring Boot fails any
	 * property it cannot bind, listing the allowed values.
	 */
	public static DatabaseVendor of(Environment environment) {
		return Binder.get(environment).bind(PROPERTY, DatabaseVendor.class).orElse(POSTGRESQL);
	}

	/** The vendor a JDBC URL is for, or {@code null} when it is for neither. */
	public static @Nullable DatabaseVendor ofUrl(String url) {
		for (DatabaseVendor vendor : values()) {
			if (vendor.accepts(url)) {
				return vendor;
			}
		}
		return null;
	}

	/** Whether its driver takes the URL. */
	public boolean accepts(String url) {
		return this.urlPrefixes.stream().anyMatch(url::startsWith);
	}

	/** What the server is called in messages, e.g. {@code MariaDB}. */
	public String product() {
		return this.product;
	}

	/** The JDBC URL prefixes its driver takes, the usual one first. */
	public List<String> urlPrefixes() {
		return this.urlPrefixes;
	}

	/** A URL to show as an example. */
	public String exampleUrl() {
		return this.exampleUrl;
	}

	/** The value of {@value #PROPERTY} that names this vendor. */
	public String propertyValue() {
		return name().toLowerCase(Locale.ROOT);
	}

}
