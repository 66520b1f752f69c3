package org.poollab.bench.results;

/**
 * pgbouncer's view of a point of the {@code pgbouncer} topology, from its admin console
 * ({@code SHOW DATABASES}, {@code SHOW POOLS}) during the measured window.
 *
 * @param observedPoolSize pgbouncer's {@code pool_size} for the database; must equal the
 * point's pool size
 * @param clientPoolSize every instance's HikariCP {@code maximum-pool-size} (its
 * connections go to pgbouncer, not to PostgreSQL)
 * @param peakServerConnections most server connections (to PostgreSQL) seen at once
 * @param peakServerActive most server connections busy with a transaction at once
 * @param peakClientsWaiting most client connections waiting for a server connection
 * @param maxWaitMs longest a client had waited, as pgbouncer reported it
 * @param samples admin-console reads inside the window
 */
public record PgBouncerFacts(int observedPoolSize, int clientPoolSize, int peakServerConnections, int peakServerActive,
		int peakClientsWaiting, double maxWaitMs, int samples) {

	/**
	 * How many pools ask the database for connections: behind pgbouncer only its one pool
	 * reaches PostgreSQL, whatever the instances; otherwise each instance's.
	 * @param throughPgBouncer whether the instances connect through pgbouncer
	 * @param instances the service instances
	 * @return the pools that share the database's connections
	 */
	public static int poolsAtTheDatabase(boolean throughPgBouncer, int instances) {
		return throughPgBouncer ? 1 : instances;
	}

}
