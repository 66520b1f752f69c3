package org.poollab.bench.report;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalLong;
import java.util.stream.Collectors;

import org.poollab.bench.deciding.Cell;
import org.poollab.bench.deciding.Confirmed;
import org.poollab.bench.deciding.ConnectionTimeout;
import org.poollab.bench.deciding.PastedSettings;
import org.poollab.bench.deciding.Recommendation;
import org.poollab.bench.deciding.TopologyGrid;
import org.poollab.bench.deciding.WrittenPool;
import org.poollab.bench.results.Limits;
import org.poollab.bench.results.Stack;

/**
 * {@code recommended-application.yml}: a block to paste into a service's configuration,
 * every value with the reason for it. The primary topology ({@code multi} when it was
 * measured, being the fleet a production service runs as) is written live; the others
 * follow as commented-out alternatives, so the file stays valid YAML with one
 * {@code spring:} key. Kept whole: each value is written with its reason and checked
 * against HikariCP's rules in one pass, so the values, the reasons and the rules read
 * together.
 */
public final class RecommendedYaml {

	/** What the recommended connection-timeout is derived from. */
	static final String SLOWEST = "the slowest successful request at any sustained point";

	/** HikariCP's floor for validation-timeout and connection-timeout. */
	static final long HIKARI_TIMEOUT_FLOOR_MS = 250;

	/** Comment lines are wrapped to this width, so the file reads in a pull request. */
	static final int COMMENT_WIDTH = 100;

	/** HikariCP's own default: nothing in a short sweep measures connection ageing. */
	static final long MAX_LIFETIME_MS = 1_800_000;

	/** HikariCP's default since 5.1: well under common firewall/NAT idle timeouts. */
	static final long KEEPALIVE_TIME_MS = 120_000;

	private RecommendedYaml() {
	}

	static String render(List<Section> sections) {
		Section primary = primary(sections);
		StringBuilder yaml = new StringBuilder();
		yaml.append(sections.stream().allMatch(RecommendedYaml::reactive)
				? "# r2dbc-pool settings derived from the pool-sizing sweep (see report.md / report.html).\n"
				: sections.stream().anyMatch(RecommendedYaml::reactive)
						? "# Pool settings derived from the pool-sizing sweep (see report.md / report.html): HikariCP's for\n"
								+ "# the JDBC service, r2dbc-pool's for the reactive one.\n"
						: "# HikariCP settings derived from the pool-sizing sweep (see report.md / report.html).\n");
		yaml.append("# Live block: topology '").append(primary.grid().name()).append("'");
		if (sections.size() == 1) {
			yaml.append(", the only one measured.\n");
		}
		else {
			yaml.append(primary.recommendation().verdict().conclusive()
					? ("multi".equals(primary.grid().topology()) ? ", the one closest to a production fleet"
							: ", the one whose measurements support a pool size")
					: ", though no topology's measurements support a pool size")
				.append(";\n# the other topologies follow as commented-out alternatives. Paste one block, not both.\n");
		}
		if (!reactive(primary)) {
			yaml.append("# minimum-idle is deliberately unset: it then equals maximum-pool-size, a fixed-size pool,\n");
			yaml.append("# which is what the sweep measured and what HikariCP recommends.\n");
		}
		block(yaml, primary, "");
		for (Section section : sections) {
			if (section != primary) {
				yaml.append("\n# --- alternative: topology '").append(section.grid().name()).append("' ---\n");
				block(yaml, section, "# ");
			}
		}
		return yaml.toString();
	}

	/**
	 * {@code multi} when its grid supports an answer (a fleet is what production runs),
	 * else any topology whose grid does: a measured value beats a formula.
	 */
	private static Section primary(List<Section> sections) {
		List<Section> conclusiveFirst = sections.stream()
			.sorted(Comparator.comparing(RecommendedYaml::behindPgBouncer)
				.thenComparing((Section section) -> !section.recommendation().verdict().conclusive())
				.thenComparing((section) -> !"multi".equals(section.grid().topology())))
			.toList();
		return conclusiveFirst.get(0);
	}

	/**
	 * A pgbouncer topology's answer is pgbouncer's pool size, not a HikariCP one: it is
	 * never the live block unless nothing else was measured.
	 */
	private static boolean behindPgBouncer(Section section) {
		return section.grid().behindPgBouncer();
	}

	private static void block(StringBuilder yaml, Section section, String prefix) {
		Recommendation recommendation = section.recommendation();
		if (recommendation.provisional()) {
			yaml.append(prefix.isEmpty() ? "# " : prefix).append(Recommendation.PROVISIONAL).append('\n');
		}
		if (behindPgBouncer(section)) {
			// Settings of two programs, not one YAML document: always as comments.
			prefix = "# ";
			int clientPoolSize = section.grid().pgbouncerClientPoolSize().orElseThrow();
			comment(yaml, prefix, poolSizeWhy(section).replace("per instance; ", "pgbouncer's one pool for the fleet; ")
				.replace(" per instance", " for pgbouncer's pool"));
			yaml.append(prefix)
				.append("pgbouncer.ini: pool_mode = transaction")
				.append(poolSize(section).isPresent() ? ", default_pool_size = " + poolSize(section).getAsLong()
						: " (default_pool_size not written, see above)")
				.append('\n');
			comment(yaml, prefix,
					"unnamed statements: under transaction pooling a named one may be missing on the next server connection");
			yaml.append(prefix)
				.append("spring.datasource.url: jdbc:postgresql://<pgbouncer host>:<port>/<db>?prepareThreshold=0\n");
			comment(yaml, prefix, "each instance's pool to pgbouncer, as measured (pgbouncer's pool is the limit)");
			yaml.append(prefix)
				.append("spring.datasource.hikari.maximum-pool-size: ")
				.append(clientPoolSize)
				.append('\n');
			return;
		}
		Optional<String> confirmed = confirmation(section);
		if (confirmed.isPresent()) {
			comment(yaml, prefix, confirmed.get());
		}
		int k = section.grid().timeScale();
		if (k > 1) {
			comment(yaml, prefix,
					"Measured in slow motion (k = %d: rates ÷ %d, holds and connection-timeout × %d, as this box needed); latencies were mapped back to your time, overhead + (measured − overhead) ÷ %d."
						.formatted(k, k, k, k));
		}
		yaml.append(settings(section, prefix));
	}

	/**
	 * What the confirmation run said of the block, or that it did not run.
	 */
	private static Optional<String> confirmation(Section section) {
		if (!section.confirmed().isEmpty()) {
			String said = section.confirmed().stream().map(Confirmed::sentence).collect(Collectors.joining(" "));
			return Optional.of(said + AnswerCard.unconfirmed(section).map((more) -> " " + more).orElse(""));
		}
		if (section.recommendation().poolSize().isEmpty()) {
			return Optional.empty();
		}
		return Optional.of(Limits.AS_DEPLOYED.equals(section.grid().limits().heap())
				? "Not run as pasted: the sweep measured maximum-pool-size on a deployment the lab did not start "
						+ "(bench.target=external), with that deployment's other settings; deploy this block and sweep "
						+ "at its size to confirm it."
				: "Not run as pasted: the sweep measured maximum-pool-size with the service's own timeouts "
						+ "(bench.confirmation=0s, or results from before confirmation runs).");
	}

	/**
	 * The {@code spring.datasource.hikari.*} block of a topology, each setting with its
	 * reason: what the confirmation run starts the instances with and the live block of
	 * the file, byte for byte.
	 * @param section the topology
	 * @param prefix put before every line ({@code "# "} for a commented-out alternative)
	 * @return the block, from {@code spring:} to its last setting
	 */
	static String settings(Section section, String prefix) {
		if (reactive(section)) {
			return R2dbcYaml.settings(section, prefix);
		}
		StringBuilder yaml = new StringBuilder();
		PastedSettings pasted = pasted(section);
		yaml.append(prefix).append("spring:\n");
		yaml.append(prefix).append("  datasource:\n");
		yaml.append(prefix).append("    hikari:\n");
		if (pasted.poolSize().isPresent()) {
			line(yaml, prefix, "maximum-pool-size", pasted.poolSize().getAsLong(), pasted.poolWhy());
		}
		else {
			notWritten(yaml, prefix, pasted.poolWhy());
		}
		line(yaml, prefix, "connection-timeout", pasted.connectionTimeoutMs(), pasted.connectionTimeoutWhy());
		line(yaml, prefix, "validation-timeout", pasted.validationTimeoutMs(), pasted.validationTimeoutWhy());
		line(yaml, prefix, "max-lifetime", MAX_LIFETIME_MS,
				"ms (30 min), HikariCP's default; not measured by the sweep. Keep it a few seconds shorter than "
						+ "any connection time limit imposed by the database or the network (>= 30 s)");
		line(yaml, prefix, "keepalive-time", KEEPALIVE_TIME_MS,
				"ms (2 min), HikariCP's default; not measured by the sweep. A fixed-size pool keeps idle "
						+ "connections, and this pings them before a firewall or NAT drops them silently (HikariCP: "
						+ ">= 30 s and < max-lifetime)");
		optIn(yaml, prefix, "leak-detection-threshold", pasted.leakDetectionThresholdMs(),
				pasted.leakDetectionThresholdWhy());
		Map<String, Long> written = new LinkedHashMap<>();
		pasted.poolSize().ifPresent((pool) -> written.put("maximum-pool-size", pool));
		written.put("connection-timeout", pasted.connectionTimeoutMs());
		written.put("validation-timeout", pasted.validationTimeoutMs());
		written.put("max-lifetime", MAX_LIFETIME_MS);
		written.put("keepalive-time", KEEPALIVE_TIME_MS);
		written.put("leak-detection-threshold", pasted.leakDetectionThresholdMs());
		HikariRules.require(written);
		return yaml.toString();
	}

	/**
	 * The values the JDBC block writes ({@link PastedSettings}): the measured pool (or
	 * the formula's) under the floor, the timeouts and the leak threshold from the
	 * slowest sustained request, which also bounds the longest hold (a connection is held
	 * within one request).
	 */
	static PastedSettings pasted(Section section) {
		OptionalDouble slowestMs = slowestSustainedMs(section.grid());
		return PastedSettings.of(poolSize(section), poolSizeWhy(section),
				section.recommendation().crossChecks().deadlockFloor(), slowestMs, SLOWEST, slowestMs,
				"the longest hold measured, bounded by the slowest successful request at a sustained point");
	}

	/** Whether the section measured the reactive twin, whose block is r2dbc-pool's. */
	static boolean reactive(Section section) {
		return section.grid().limits().stack() == Stack.R2DBC;
	}

	/** HikariCP's own default maximum-pool-size. */
	public static final int HIKARI_DEFAULT_POOL_SIZE = WrittenPool.HIKARI_DEFAULT_POOL_SIZE;

	/**
	 * The measured pool size, else HikariCP's formula capped by the budget; empty when
	 * that value is at or below a pool size the grid measured to fail at every rate (a
	 * pgbouncer pool of 4 beside a measured 5 that failed): no value is supported then,
	 * and none is written.
	 */
	static OptionalLong poolSize(Section section) {
		return section.written().poolSize();
	}

	static String poolSizeWhy(Section section) {
		Recommendation recommendation = section.recommendation();
		Recommendation.CrossChecks checks = recommendation.crossChecks();
		String budget = "; fleet budget " + checks.budgetPerInstance();
		if (recommendation.verdict() == Recommendation.Verdict.CHOSEN
				|| recommendation.verdict() == Recommendation.Verdict.FLAT) {
			return "per instance; " + recommendation.basis() + budget;
		}
		long formula = section.written().formula();
		String source = checks.hikariStartingPoolSize().isPresent()
				? "HikariCP's starting formula cores x 2 + 0 spindles, counted for the whole database ("
						+ checks.hikariStartingPoolSize().getAsInt() + " connections for all instances together)"
				: "HikariCP's default (its starting formula needs the database host's cores, unknown here)";
		long littleFloor = section.written().littleFloor();
		if (littleFloor > 0) {
			source += String.format(Locale.ROOT,
					", raised to %d: the busiest point kept %.1f connections busy on average (%.0f rps x %.1f ms, Little's law), at most %.0f %% of the pool",
					littleFloor, checks.littleBusyPerInstance(), checks.littleRateRps() / checks.instances(),
					checks.littleUsageMeanMs(), WrittenPool.MOST_BUSY_SHARE * 100);
		}
		List<Integer> failed = section.written().failedAtOrAbove();
		if (!failed.isEmpty()) {
			return "maximum-pool-size not written (HikariCP's default applies): NOT MEASURED ("
					+ Header.headline(recommendation) + "), and " + source + ", capped by the fleet budget, gives "
					+ formula + ", at or below pool size(s) " + failed
					+ " that sustained no rate here: neither is supported; find the bottleneck in the report first";
		}
		return "per instance; NOT MEASURED (" + Header.headline(recommendation) + "): " + source
				+ ", capped by the fleet budget; verify with a new sweep";
	}

	/**
	 * The section's wait for a connection as written: HikariCP's connection-timeout
	 * ({@link PastedSettings}), or the sweep's rule for r2dbc-pool's max-acquire-time
	 * (which sets no login timeout); HikariCP's default when nothing sustained its rate.
	 */
	static long connectionTimeoutMs(Section section) {
		OptionalDouble slowestMs = slowestSustainedMs(section.grid());
		if (reactive(section)) {
			return slowestMs.isPresent() ? ConnectionTimeout.ms(slowestMs.getAsDouble())
					: PastedSettings.DEFAULT_CONNECTION_TIMEOUT_MS;
		}
		return PastedSettings.connectionTimeoutMs(slowestMs);
	}

	/** The slowest successful request at any point that sustained its rate. */
	static OptionalDouble slowestSustainedMs(TopologyGrid grid) {
		return grid.cells().stream().filter(Cell::sustained).mapToDouble((cell) -> cell.latency().maxMs()).max();
	}

	/**
	 * validation-timeout: HikariCP's default when it is below connection-timeout, else
	 * half of connection-timeout rounded down to 250 ms (never below HikariCP's 250 ms).
	 * Only r2dbc-pool's max-validation-time can need the second branch: HikariCP's
	 * connection-timeout is never written below 10 s.
	 */
	static long validationTimeoutMs(long connectionTimeoutMs) {
		if (PastedSettings.DEFAULT_VALIDATION_TIMEOUT_MS < connectionTimeoutMs) {
			return PastedSettings.DEFAULT_VALIDATION_TIMEOUT_MS;
		}
		return Math.max(HIKARI_TIMEOUT_FLOOR_MS, (connectionTimeoutMs / 2) / 250 * 250);
	}

	/**
	 * A reason in comment lines of {@link #COMMENT_WIDTH}, for a line that is itself a
	 * comment.
	 */
	private static void comment(StringBuilder yaml, String prefix, String why) {
		for (String comment : wrap(why, COMMENT_WIDTH - prefix.length() - 4)) {
			yaml.append(prefix).append("#  ").append(comment).append('\n');
		}
	}

	/**
	 * A comment where a setting's key would be: the file stays valid YAML, and the pool's
	 * default applies.
	 */
	static void notWritten(StringBuilder yaml, String prefix, String why) {
		for (String comment : wrap(why, COMMENT_WIDTH - prefix.length() - 8)) {
			yaml.append(prefix).append("      # ").append(comment).append('\n');
		}
		// A blank line: the comments below belong to the next setting.
		yaml.append(prefix.isEmpty() ? "\n" : prefix.strip() + "\n");
	}

	/**
	 * An opt-in setting: its reason, then the key commented out, so the pool's default
	 * (off) applies until a team removes the {@code #}.
	 */
	static void optIn(StringBuilder yaml, String prefix, String key, long value, String why) {
		String indent = prefix + "      ";
		for (String comment : wrap(why, COMMENT_WIDTH - indent.length() - 2)) {
			yaml.append(indent).append("# ").append(comment).append('\n');
		}
		yaml.append(indent).append("# ").append(key).append(": ").append(value).append('\n');
	}

	/** A setting with the reason for it wrapped in comment lines above it. */
	static void line(StringBuilder yaml, String prefix, String key, long value, String why) {
		String indent = prefix + "      ";
		for (String comment : wrap(why, COMMENT_WIDTH - indent.length() - 2)) {
			yaml.append(indent).append("# ").append(comment).append('\n');
		}
		yaml.append(indent).append(key).append(": ").append(value).append('\n');
	}

	/** Greedy word wrap; a word longer than the width keeps a line of its own. */
	static List<String> wrap(String text, int width) {
		List<String> lines = new ArrayList<>();
		StringBuilder line = new StringBuilder();
		for (String word : text.split(" ")) {
			if (!line.isEmpty() && line.length() + 1 + word.length() > width) {
				lines.add(line.toString());
				line.setLength(0);
			}
			line.append(line.isEmpty() ? "" : " ").append(word);
		}
		if (!line.isEmpty()) {
			lines.add(line.toString());
		}
		return lines;
	}

}
