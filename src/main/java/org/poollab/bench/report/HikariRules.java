package org.poollab.bench.report;

import java.util.Map;

import org.jspecify.annotations.Nullable;

import org.poollab.bench.deciding.PastedSettings;

/** HikariCP's rules that every recommended block must keep. */
final class HikariRules {

	private HikariRules() {
	}

	/**
	 * HikariCP's own rules for the values written (HikariConfig and its documentation): a
	 * block that breaks one is a bug of the class that wrote it, never pasted.
	 * @param hikari the values by key, in milliseconds where they are times
	 * @throws IllegalStateException naming the rule broken
	 */
	static void require(Map<String, Long> hikari) {
		long connection = hikari.getOrDefault("connection-timeout", PastedSettings.DEFAULT_CONNECTION_TIMEOUT_MS);
		long validation = hikari.getOrDefault("validation-timeout", PastedSettings.DEFAULT_VALIDATION_TIMEOUT_MS);
		long maxLifetime = hikari.getOrDefault("max-lifetime", RecommendedYaml.MAX_LIFETIME_MS);
		require(connection >= RecommendedYaml.HIKARI_TIMEOUT_FLOOR_MS,
				"connection-timeout %d ms is below HikariCP's 250 ms", connection);
		require(validation >= RecommendedYaml.HIKARI_TIMEOUT_FLOOR_MS,
				"validation-timeout %d ms is below HikariCP's 250 ms", validation);
		require(validation < connection, "validation-timeout %d ms must be below connection-timeout %d ms", validation,
				connection);
		require(maxLifetime >= 30_000, "max-lifetime %d ms is below HikariCP's 30 s", maxLifetime);
		Long keepalive = hikari.get("keepalive-time");
		require(keepalive == null || (keepalive >= 30_000 && keepalive < maxLifetime),
				"keepalive-time %d ms must be at least 30 s and below max-lifetime %d ms", keepalive, maxLifetime);
		Long leak = hikari.get("leak-detection-threshold");
		require(leak == null || (leak >= PastedSettings.MIN_LEAK_DETECTION_THRESHOLD_MS && leak < maxLifetime),
				"leak-detection-threshold %d ms must be at least 2 s and below max-lifetime %d ms", leak, maxLifetime);
		Long pool = hikari.get("maximum-pool-size");
		require(pool == null || pool >= 1, "maximum-pool-size %d is below 1", pool);
	}

	private static void require(boolean holds, String rule, @Nullable Object... values) {
		if (!holds) {
			throw new IllegalStateException("The recommended block breaks a HikariCP rule: " + rule.formatted(values));
		}
	}

}
