package org.poollab.vendor;

import java.nio.file.Path;
import java.sql.Connection;
import java.util.List;
import java.util.Optional;
import java.util.Properties;

import org.jspecify.annotations.Nullable;

/**
 * Everything one database vendor does for the lab and its services: how its embedded
 * server starts, how a request holds a connection on it (waiting and burning CPU), the
 * lab's statements and driver settings for it, its limits and how it words them.
 * {@link DatabaseVendor} lists the implementations and answers for them; each method's
 * contract is on the {@link DatabaseVendor} method of the same name.
 */
interface Vendor {

	String product();

	/**
	 * What its drivers call the server
	 * ({@code DatabaseMetaData.getDatabaseProductName()}), e.g. {@code MariaDB} and
	 * {@code MySQL}.
	 */
	List<String> driverProducts();

	List<String> urlPrefixes();

	String exampleUrl();

	Properties labConnectionProperties();

	String settingsQuery();

	/** Whether an error is its refusal at the connection limit. */
	boolean tooManyConnections(@Nullable String sqlState, int errorCode);

	String tooManyConnectionsWords();

	boolean pooledByPgBouncer();

	boolean runsReactiveTwin();

	String sleepStatement();

	String cpuStatement();

	Optional<ConnectionCpu> connectionCpu(Connection connection);

	String embeddedUser();

	int embeddedMaxConnections();

	int embeddedReservedConnections();

	String embeddedLog();

	EmbeddedDatabase startEmbedded();

	/**
	 * @param runDirectory where a server that keeps its data in the run's directory keeps
	 * it (removed when it stops)
	 * @param log where the server's own lines are appended
	 */
	EmbeddedDatabase startEmbedded(Path runDirectory, Path log);

}
