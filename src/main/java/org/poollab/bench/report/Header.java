package org.poollab.bench.report;

import java.util.Locale;

import org.poollab.bench.SweepResults;

/** The lines both reports open with: what ran where, and the one-line answer. */
final class Header {

	private Header() {
	}

	static String describe(SweepResults results) {
		SweepResults.Host host = results.host();
		SweepResults.Database database = results.database();
		long points = results.points().size();
		return String.format(Locale.ROOT,
				"Preset `%s`, started %s, %d points. Workload: %s. Host: %d cores, load from %s. Database: %s "
						+ "PostgreSQL %s (max_connections %d, %d reserved), on the same host.",
				results.preset(), results.startedAt(), points,
				(results.workload() != null) ? results.workload() : "read (GET /roles)", host.cpuCores(),
				host.loadGenerator(), database.kind(), database.version(), database.maxConnections(),
				database.reservedConnections());
	}

	/** The answer in a few words: a pool size, or why there is none. */
	static String headline(Recommendation recommendation) {
		return switch (recommendation.verdict()) {
			case CHOSEN -> (recommendation.topology().startsWith("pgbouncer") ? "pgbouncer default_pool_size "
					: "maximum-pool-size ") + recommendation.poolSize().getAsInt();
			case FLAT -> "pool size does not matter here (smallest: " + recommendation.poolSize().getAsInt() + ")";
			case SATURATED -> "no conclusion: every pool size saturated";
			case SINGLE_POOL_SIZE -> "no conclusion: one pool size measured";
			case UNVERIFIED -> "no conclusion: pool sizes not verified";
			case NO_DATA -> "no conclusion: no usable points";
		};
	}

}
