package org.poollab.bench.report;

import java.util.OptionalDouble;
import java.util.OptionalLong;

import org.poollab.bench.deciding.ConnectionTimeout;

/** The reactive twin's recommended block, beside HikariCP's ({@link RecommendedYaml}). */
final class R2dbcYaml {

	private R2dbcYaml() {
	}

	/**
	 * The reactive twin's {@code spring.r2dbc.pool.*} block, each setting with its
	 * reason: the same rules as the HikariCP block where r2dbc-pool has the same setting
	 * ({@code max-acquire-time} is {@code connection-timeout},
	 * {@code max-validation-time} is {@code validation-timeout}, {@code max-life-time} is
	 * {@code max-lifetime}), in milliseconds, which Spring Boot reads a plain number of a
	 * duration in.
	 */
	static String settings(Section section, String prefix) {
		StringBuilder yaml = new StringBuilder();
		OptionalDouble slowestMs = RecommendedYaml.slowestSustainedMs(section.grid());
		yaml.append(prefix).append("spring:\n");
		yaml.append(prefix).append("  r2dbc:\n");
		yaml.append(prefix).append("    pool:\n");
		OptionalLong pool = RecommendedYaml.poolSize(section);
		String why = RecommendedYaml.poolSizeWhy(section)
			.replace("maximum-pool-size not written (HikariCP's default applies)",
					"max-size not written (Spring Boot's default of 10 applies)");
		if (pool.isPresent()) {
			RecommendedYaml.line(yaml, prefix, "max-size", pool.getAsLong(), why);
			String fixed = "as max-size: a fixed-size pool, what the sweep measured (r2dbc-pool otherwise opens "
					+ "connections on demand, inside a request's wait)";
			RecommendedYaml.line(yaml, prefix, "initial-size", pool.getAsLong(), fixed);
			RecommendedYaml.line(yaml, prefix, "min-idle", pool.getAsLong(), fixed);
		}
		else {
			RecommendedYaml.notWritten(yaml, prefix, why);
		}
		long acquireMs = RecommendedYaml.connectionTimeoutMs(section);
		RecommendedYaml.line(yaml, prefix, "max-acquire-time", acquireMs,
				slowestMs.isPresent() ? "ms; HikariCP's connection-timeout rule: "
						+ ConnectionTimeout.rule(RecommendedYaml.SLOWEST,
								slowestMs.getAsDouble())
						+ ": " + ConnectionTimeout.FAIL_FAST
						+ " (r2dbc-pool's own default waits for ever; it sets no login "
						+ "timeout, so no floor applies). Risk: a request the pool cannot serve then fails; a plain "
						+ "WebFlux app answers 500 (the lab's reactive twin maps it to 503)"
						: "ms; HikariCP's default connection-timeout: no sustained point to derive a tighter bound from "
								+ "(r2dbc-pool's own default waits for ever). Risk: a request the pool cannot serve then fails; "
								+ "a plain WebFlux app answers 500 (the lab's reactive twin maps it to 503)");
		RecommendedYaml.line(yaml, prefix, "acquire-retry", 0,
				"r2dbc-pool applies max-acquire-time to each attempt: with Spring Boot's default of one retry a "
						+ "request waits twice as long before it fails");
		RecommendedYaml.line(yaml, prefix, "max-validation-time", RecommendedYaml.validationTimeoutMs(acquireMs),
				"ms; bounds the check of a connection before it is handed out, below max-acquire-time (HikariCP's "
						+ "validation-timeout rule); not measured by the sweep");
		RecommendedYaml.line(yaml, prefix, "max-life-time", RecommendedYaml.MAX_LIFETIME_MS,
				"ms (30 min), as HikariCP's max-lifetime; not measured by the sweep. Keep it a few seconds shorter "
						+ "than any connection time limit imposed by the database or the network");
		return yaml.toString();
	}

}
