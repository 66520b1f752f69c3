package org.poollab.reactive.system;

import org.junit.jupiter.api.Test;

import org.poollab.reactive.database.ResizableConnectionPool;
import org.poollab.service.system.PoolResize;
import org.poollab.service.system.ResizeToken;

import org.springframework.boot.r2dbc.autoconfigure.R2dbcProperties;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.Mockito.mock;

/**
 * The twin's endpoint runs the JDBC service's guard when it is created: off loopback only
 * on a port of the actuator's own with a token. The endpoint alone, on a pool that never
 * connects; no server starts.
 */
class PoolSizeEndpointTests {

	/** Not a secret: this test's token. */
	private static final String TOKEN = "poolsize-test-token-0123456789";

	@Test
	void refusesToBeCreatedWhenTheManagementPortIsNotOnLoopbackAndNoTokenIsSet() {
		endpoint().withPropertyValues("management.server.port=0")
			.run((context) -> assertThat(context).hasFailed()
				.getFailure()
				.rootCause()
				.hasMessageStartingWith("lab.pool-resize.enabled=true on a non-loopback address needs "
						+ "lab.pool-resize.token (environment variable LAB_POOL_RESIZE_TOKEN, never on a command line): "
						+ "management.server.address is '(unset: all interfaces)', and management.server.port=0"));
	}

	@Test
	void refusesToBeCreatedOnThePublicPortOffLoopbackEvenWithAToken() {
		endpoint().withPropertyValues("server.address=0.0.0.0", ResizeToken.PROPERTY + "=" + TOKEN)
			.run((context) -> assertThat(context).hasFailed()
				.getFailure()
				.rootCause()
				.hasMessageStartingWith(
						"lab.pool-resize.enabled=true refuses to serve the poolsize endpoint on the public port")
				.message()
				.doesNotContain(TOKEN));
	}

	@Test
	void refusesAShortToken() {
		endpoint().withPropertyValues(ResizeToken.PROPERTY + "=too-short")
			.run((context) -> assertThat(context).hasFailed()
				.getFailure()
				.rootCause()
				.hasMessageContaining("the one set is shorter than 16 characters")
				.message()
				.doesNotContain("too-short"));
	}

	@Test
	void startsOnItsOwnPortOffLoopbackWithAToken() {
		endpoint()
			.withPropertyValues("management.server.port=8081", "management.server.address=0.0.0.0",
					ResizeToken.PROPERTY + "=" + TOKEN)
			.run((context) -> assertThat(context).hasNotFailed().hasSingleBean(PoolSizeEndpoint.class));
	}

	private static ApplicationContextRunner endpoint() {
		return new ApplicationContextRunner().withUserConfiguration(PoolSizeEndpoint.class)
			.withBean(ResizableConnectionPool.class, () -> mock(ResizableConnectionPool.class))
			.withBean(R2dbcProperties.class, R2dbcProperties::new)
			.withPropertyValues(PoolResize.ENABLED_PROPERTY + "=true", "server.address=127.0.0.1");
	}

}
