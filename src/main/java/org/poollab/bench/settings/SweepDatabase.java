package org.poollab.bench.settings;

import java.io.IOException;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.List;
import java.util.Objects;
import java.util.stream.Collectors;

import jakarta.validation.constraints.NotNull;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.bind.DefaultValue;

import org.poollab.bench.deploy.Database;
import org.poollab.bench.lab.BenchSettingException;
import org.poollab.bench.lab.ChildProcesses;
import org.poollab.vendor.DatabaseVendor;

/**
 * The sweep's database: its vendor, and an existing server (any reachable one) instead of
 * the embedded one. The vendor is a condition of the results ({@code results.json}'s
 * {@code database.vendor}), and it picks the service's settings ({@code lab.database}).
 *
 * @param vendor {@code postgresql} and/or {@code mariadb}, comma-separated (named
 * {@code vendor} because {@code bench.database.*} already holds the URL and the
 * credentials); several run one after the other, each on its own embedded server; unset:
 * the URL's vendor, or the preset's (PostgreSQL but for {@code mysql})
 * @param url JDBC URL, e.g. {@code jdbc:postgresql://127.0.0.1:5432/postgres}; empty for
 * the embedded server
 * @param username user name; unset: the embedded server's user of the vendor
 * ({@code postgres}, or {@code root} on MariaDB)
 * @param password password; passed to instances through their environment, never on a
 * command line or in results
 * @param allowForeignTables run on a database that holds tables other than the lab's (the
 * lab creates its own there and empties one of them)
 */
public record SweepDatabase(@Nullable List<@NotNull DatabaseVendor> vendor, @DefaultValue("") String url,
		@Nullable String username, @DefaultValue("") String password,
		@DefaultValue("false") boolean allowForeignTables) {

	public boolean configured() {
		return !this.url.isBlank();
	}

	/**
	 * The vendors the sweep runs on: as set (each once), else the URL's, else PostgreSQL.
	 * @throws BenchSettingException when several are set beside a URL (one external
	 * database has one vendor), or one of the other vendor than the URL's
	 */
	List<DatabaseVendor> vendors() {
		DatabaseVendor ofUrl = configured() ? DatabaseVendor.ofUrl(this.url) : null;
		if (this.vendor == null || this.vendor.isEmpty()) {
			return List.of(Objects.requireNonNullElse(ofUrl, DatabaseVendor.DEFAULT));
		}
		List<DatabaseVendor> vendors = this.vendor.stream().distinct().toList();
		if (configured() && vendors.size() > 1) {
			throw new BenchSettingException(
					"bench.database.vendor=%s is not allowed with bench.database.url=%s: one external database has one vendor. Use one vendor%s, or leave bench.database.url unset to run on the embedded servers, one at a time. Nothing was started."
						.formatted(value(vendors), Database.withoutQuery(this.url),
								(ofUrl != null) ? " (the URL's: " + ofUrl.propertyValue() + ")" : ""));
		}
		if (ofUrl != null && ofUrl != vendors.get(0)) {
			throw new BenchSettingException(
					"bench.database.vendor=%s is not allowed with bench.database.url=%s, a %s URL: use bench.database.vendor=%s, or leave it unset (the URL names the vendor). Nothing was started."
						.formatted(vendors.get(0).propertyValue(), Database.withoutQuery(this.url), ofUrl.product(),
								ofUrl.propertyValue()));
		}
		return vendors;
	}

	/** The external database's vendor (one: {@link #vendors()} refuses more). */
	public DatabaseVendor externalVendor() {
		return vendors().get(0);
	}

	/** Where the vendor came from, for a message. */
	String describeVendor() {
		return (this.vendor != null && !this.vendor.isEmpty())
				? "bench.database.vendor=" + value(this.vendor.stream().distinct().toList())
				: "bench.database.url=" + Database.withoutQuery(this.url);
	}

	private static String value(List<DatabaseVendor> vendors) {
		return vendors.stream().map(DatabaseVendor::propertyValue).collect(Collectors.joining(","));
	}

	/** The user on a database of this vendor: as set, else the embedded server's. */
	String user(DatabaseVendor of) {
		return (this.username != null) ? this.username : of.embeddedUser();
	}

	public Database connect() throws SQLException {
		return Database.external(this.url, user(externalVendor()), this.password);
	}

	/**
	 * A database of the sweep: the external one when {@code bench.database.url} is set
	 * (of its one vendor), else an embedded server of {@code vendor}, its log under
	 * {@code directory}, stopped with {@code processes}.
	 */
	public Database open(DatabaseVendor vendor, Path directory, ChildProcesses processes)
			throws IOException, SQLException {
		return configured() ? connect() : Database.embedded(vendor, directory, processes);
	}

}
