package org.poollab.bench.results;

/**
 * The PostgreSQL a sweep's instances shared, as {@code results.json} records it: its
 * {@code max_connections} bounds every pool size the sweep could measure.
 *
 * @param kind {@code embedded} (started by the lab) or {@code external}
 * @param url JDBC URL without credentials
 * @param version server version string
 * @param maxConnections the server's {@code max_connections}
 * @param reservedConnections slots regular users cannot take
 * ({@code superuser_reserved_connections} + {@code reserved_connections})
 */
public record Database(String kind, String url, String version, int maxConnections, int reservedConnections) {
}
