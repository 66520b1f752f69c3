package org.poollab.service.database;

import java.sql.Connection;
import java.sql.SQLException;

import javax.sql.DataSource;

import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.stereotype.Component;

/**
 * Starts the pool while the application starts, not on the first request: the first
 * measured requests should not pay for filling the pool, the pool metrics exist from the
 * first scrape, and a database that refuses the pool's login stops start-up.
 */
@Component
class PoolStarter implements SmartInitializingSingleton {

	private final DataSource dataSource;

	PoolStarter(DataSource dataSource) {
		this.dataSource = dataSource;
	}

	@Override
	public void afterSingletonsInstantiated() {
		try (Connection connection = this.dataSource.getConnection()) {
			connection.isValid(1);
		}
		catch (SQLException ex) {
			throw new IllegalStateException("Could not start the connection pool: " + ex.getMessage(), ex);
		}
	}

}
