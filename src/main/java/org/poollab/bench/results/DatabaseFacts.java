package org.poollab.bench.results;

import org.jspecify.annotations.Nullable;

import org.poollab.vendor.DatabaseVendor;

/**
 * The database a sweep's instances shared, as {@code results.json} records it: its
 * {@code max_connections} bounds every pool size the sweep could measure, and its vendor
 * is as much a condition of the results as the host.
 *
 * @param kind {@code embedded} (started by the lab) or {@code external}
 * @param vendor what the server is, as its driver names it: {@code PostgreSQL},
 * {@code MariaDB} or {@code MySQL}; {@link #DEFAULT_VENDOR} (PostgreSQL) in results
 * written before it was recorded, when the lab ran on PostgreSQL only
 * @param url JDBC URL without credentials
 * @param version server version string
 * @param maxConnections the server's {@code max_connections}
 * @param reservedConnections slots regular users cannot take
 * ({@code superuser_reserved_connections} + {@code reserved_connections} on PostgreSQL,
 * none on MariaDB and MySQL)
 * @param cpuCeiling what its CPU carried on this box, measured before a
 * {@code contention} grid whose rates it set; {@code null} where it was not measured
 */
public record DatabaseFacts(String kind, String vendor, String url, String version, int maxConnections,
		int reservedConnections, @Nullable CpuCeiling cpuCeiling) {

	/** A database whose CPU ceiling was not measured. */
	public DatabaseFacts(String kind, String vendor, String url, String version, int maxConnections,
			int reservedConnections) {
		this(kind, vendor, url, version, maxConnections, reservedConnections, null);
	}

	/** The same database with what its CPU carried on this box. */
	public DatabaseFacts withCpuCeiling(CpuCeiling ceiling) {
		return new DatabaseFacts(this.kind, this.vendor, this.url, this.version, this.maxConnections,
				this.reservedConnections, ceiling);
	}

	/**
	 * The kind of an external deployment's database the lab did not look at (no
	 * {@code bench.database.url}): its host, version and budget are unknown.
	 */
	public static final String UNCHECKED = "not checked (no bench.database.url)";

	/**
	 * The default vendor's product, which every sweep ran on before the vendor was
	 * recorded.
	 */
	public static final String DEFAULT_VENDOR = DatabaseVendor.DEFAULT.product();

	public DatabaseFacts {
		vendor = (vendor != null) ? vendor : DEFAULT_VENDOR;
	}

	/**
	 * The lab's name for the server, e.g. {@code MARIADB} for MySQL: MariaDB's settings
	 * serve it too. The default vendor for a server the lab has no vendor for.
	 */
	public DatabaseVendor labVendor() {
		return DatabaseVendor.ofProduct(this.vendor).orElse(DatabaseVendor.DEFAULT);
	}

	/**
	 * Whether the lab read the server's {@code max_connections}: not for an external
	 * deployment's database without {@code bench.database.url} (recorded as 0).
	 */
	public boolean budgetKnown() {
		return this.maxConnections > 0;
	}

}
