package org.poollab.reactive.database;

import io.r2dbc.spi.Connection;
import io.r2dbc.spi.ValidationDepth;
import reactor.core.publisher.Mono;

import org.springframework.boot.r2dbc.autoconfigure.R2dbcProperties;

import static org.mockito.ArgumentMatchers.any;
import static org.mockito.BDDMockito.willAnswer;
import static org.mockito.Mockito.mock;

/**
 * What the pool's unit tests build on: stand-in connections, which validate and close,
 * and the settings of a fixed-size pool as reactive.yml writes one.
 */
final class StandIns {

	private StandIns() {
	}

	static Connection connection() {
		Connection connection = mock(Connection.class);
		willAnswer((invocation) -> Mono.just(true)).given(connection).validate(any(ValidationDepth.class));
		willAnswer((invocation) -> Mono.empty()).given(connection).close();
		return connection;
	}

	/**
	 * {@code max-size}, {@code initial-size} and {@code min-idle} all {@code size}, and
	 * no acquire retry.
	 */
	static R2dbcProperties.Pool fixedSize(int size) {
		R2dbcProperties.Pool settings = new R2dbcProperties.Pool();
		settings.setMaxSize(size);
		settings.setInitialSize(size);
		settings.setMinIdle(size);
		settings.setAcquireRetry(0);
		return settings;
	}

}
