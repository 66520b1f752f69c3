package org.poollab.bench.deploy;

import java.nio.file.Path;
import java.time.temporal.ChronoUnit;
import java.util.OptionalLong;
import java.util.Properties;

import org.springframework.beans.factory.config.YamlPropertiesFactoryBean;
import org.springframework.boot.convert.DurationStyle;
import org.springframework.core.io.ClassPathResource;
import org.springframework.core.io.FileSystemResource;
import org.springframework.core.io.Resource;

import org.poollab.bench.lab.LabFailureException;

/**
 * How long a request waits for a connection before its 503, as the service is configured:
 * HikariCP's {@code connection-timeout} ({@code application.yml}), r2dbc-pool's
 * {@code max-acquire-time} ({@code reactive.yml}), or a pasted block's. Read from those
 * files, their one home, so that slow motion stretches what the service really runs with.
 */
final class ServiceTimeouts {

	/** The JDBC service's setting. */
	static final String HIKARI = "spring.datasource.hikari.connection-timeout";

	/** The reactive twin's. */
	static final String R2DBC = "spring.r2dbc.pool.max-acquire-time";

	/** HikariCP's own default, for a block that does not set it. */
	static final long HIKARI_DEFAULT_MS = 30_000;

	private ServiceTimeouts() {
	}

	/** The service's own wait for a connection, milliseconds. */
	static long configured(boolean reactive) {
		return millis(new ClassPathResource(reactive ? "reactive.yml" : "application.yml"), reactive);
	}

	/**
	 * A pasted block's, milliseconds: HikariCP's default where the block sets none; empty
	 * for an r2dbc-pool block that sets none (it then waits without a bound, which
	 * nothing stretches).
	 */
	static OptionalLong ofBlock(Path block, boolean reactive) {
		long ms = millis(new FileSystemResource(block), reactive);
		return (ms < 0) ? OptionalLong.empty() : OptionalLong.of(ms);
	}

	/** The command-line argument that sets it. */
	static String argument(boolean reactive, long ms) {
		return reactive ? "--" + R2DBC + "=" + ms + "ms" : "--" + HIKARI + "=" + ms;
	}

	private static long millis(Resource yaml, boolean reactive) {
		YamlPropertiesFactoryBean factory = new YamlPropertiesFactoryBean();
		factory.setResources(yaml);
		Properties properties = factory.getObject();
		Object value = (properties != null) ? properties.get(reactive ? R2DBC : HIKARI) : null;
		if (value == null) {
			if (reactive && yaml instanceof ClassPathResource) {
				throw new LabFailureException("reactive.yml sets no " + R2DBC + " for slow motion to stretch");
			}
			return reactive ? -1 : HIKARI_DEFAULT_MS;
		}
		return DurationStyle.detectAndParse(String.valueOf(value).trim(), ChronoUnit.MILLIS).toMillis();
	}

}
