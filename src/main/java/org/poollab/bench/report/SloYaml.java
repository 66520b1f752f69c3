package org.poollab.bench.report;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalDouble;
import java.util.OptionalInt;
import java.util.OptionalLong;

import org.poollab.bench.deciding.PastedSettings;
import org.poollab.bench.results.SloSearch;
import org.poollab.bench.text.Durations;

/**
 * The SLO search's {@code recommended-application.yml}: the block to paste, and above it,
 * as comments a reviewer reads in a pull request, the question, the conditions the pool
 * was searched and confirmed under, the path the search took and the fleet's limits.
 * Without a pool that meets the objective the file says why and holds no block. With the
 * user's own hold time the block is derived for it from the model, each value saying
 * whether it comes from the measured endpoint or from their figure.
 */
final class SloYaml {

	private SloYaml() {
	}

	static String render(SloAnswer answer) {
		SloSearch search = answer.search();
		SloSearch.Asked asked = search.asked();
		StringBuilder yaml = new StringBuilder();
		comment(yaml, "HikariCP settings from the pool-sizing lab's SLO search (see report.md / report.html).");
		comment(yaml, "Question: " + SloText.question(asked) + ".");
		comment(yaml, "Searched on one instance at " + search.rateRps() + " rps (" + SloText.rateReason(asked) + "), "
				+ SloText.conditions(answer) + ".");
		comment(yaml, "Path: " + SloText.path(search) + ".");
		comment(yaml, "Answer: " + search.conclusion());
		answer.confirmation()
			.ifPresent((run) -> comment(yaml, "Confirmed as pasted: " + SloText.confirmation(answer) + "."));
		answer.plan().ifPresent((plan) -> {
			comment(yaml, "Fleet limits on this database: " + SloText.budget(answer) + ".");
			for (String row : SloText.fleetRows(answer, plan)) {
				yaml.append("#   ").append(row).append('\n');
			}
			for (String advice : SloText.fleetAdvice(answer, plan)) {
				comment(yaml, advice);
			}
		});
		OptionalInt pool = (answer.theirs().isPresent()) ? answer.theirPool()
				: (search.chosenPool() != null) ? OptionalInt.of(search.chosenPool()) : OptionalInt.empty();
		if (pool.isEmpty()) {
			comment(yaml, "No block: " + SloText.noPool(answer));
			return yaml.toString();
		}
		yaml.append(settings(answer, pool.getAsInt(), answer.theirs().isPresent()));
		return yaml.toString();
	}

	/**
	 * The {@code spring.datasource.hikari.*} block. For the measured endpoint it is what
	 * the confirmation run starts the instance with and the live block of the file, byte
	 * for byte; for the user's hold time it is the model's, which this machine cannot
	 * confirm (their service is not here), and says so.
	 * @param theirs derive it for the user's hold time rather than for the measured
	 * endpoint
	 */
	static String settings(SloAnswer answer, int poolSize, boolean theirs) {
		StringBuilder yaml = new StringBuilder("spring:\n  datasource:\n    hikari:\n");
		PastedSettings pasted = pasted(answer, poolSize, theirs);
		long pool = pasted.poolSize().orElseThrow();
		RecommendedYaml.line(yaml, "", "maximum-pool-size", pool, pasted.poolWhy());
		RecommendedYaml.line(yaml, "", "connection-timeout", pasted.connectionTimeoutMs(),
				pasted.connectionTimeoutWhy());
		RecommendedYaml.line(yaml, "", "validation-timeout", pasted.validationTimeoutMs(),
				pasted.validationTimeoutWhy());
		RecommendedYaml.line(yaml, "", "max-lifetime", RecommendedYaml.MAX_LIFETIME_MS,
				"ms (30 min), HikariCP's default; not measured");
		RecommendedYaml.line(yaml, "", "keepalive-time", RecommendedYaml.KEEPALIVE_TIME_MS,
				"ms (2 min), HikariCP's default; not measured");
		RecommendedYaml.optIn(yaml, "", "leak-detection-threshold", pasted.leakDetectionThresholdMs(),
				pasted.leakDetectionThresholdWhy());
		Map<String, Long> written = new LinkedHashMap<>();
		written.put("maximum-pool-size", pool);
		written.put("connection-timeout", pasted.connectionTimeoutMs());
		written.put("validation-timeout", pasted.validationTimeoutMs());
		written.put("max-lifetime", RecommendedYaml.MAX_LIFETIME_MS);
		written.put("keepalive-time", RecommendedYaml.KEEPALIVE_TIME_MS);
		written.put("leak-detection-threshold", pasted.leakDetectionThresholdMs());
		HikariRules.require(written);
		return yaml.toString();
	}

	/**
	 * The values the block writes ({@link PastedSettings}): the pool found under the
	 * floor (the search's lowest pool is its deadlock floor), and the wait and the leak
	 * threshold from the measured endpoint's slowest request or from the user's hold.
	 */
	private static PastedSettings pasted(SloAnswer answer, int poolSize, boolean theirs) {
		SloSearch search = answer.search();
		String poolWhy = theirs ? String.format(Locale.ROOT,
				"per replica; FROM YOUR bench.holdTime (the model, not measured): the smallest pool whose predicted p99 "
						+ "at %d rps meets %s ms, at least the deadlock floor %d; the toy endpoint measured %s",
				search.rateRps(), Durations.ms(search.asked().p99ObjectiveMs()), search.lowestPool(),
				(search.chosenPool() != null) ? "pool " + search.chosenPool() : "no pool that meets it")
				: "per replica; MEASURED: the smallest pool that met the objective in the search"
						+ (search.exact() ? "" : " (the probe budget ran out: a smaller one may also meet it)");
		OptionalDouble waitBasisMs = theirs ? OptionalDouble.of(answer.theirs().get().predict(poolSize).latencyP99Ms())
				: answer.slowestMetMs();
		String waitBasis = theirs ? "FROM YOUR bench.holdTime: the model's p99 at this pool"
				: "MEASURED: the slowest successful request in the windows that met the objective";
		OptionalDouble holdBasisMs = theirs ? OptionalDouble.of(holdP99Ms(search.asked())) : answer.slowestMetMs();
		String holdBasis = theirs ? "FROM YOUR bench.holdTime: your hold's p99"
				: "the longest hold measured, bounded by the slowest successful request";
		return PastedSettings.of(OptionalLong.of(poolSize), poolWhy, search.lowestPool(), waitBasisMs, waitBasis,
				holdBasisMs, holdBasis);
	}

	/** Their hold's p99: as given, else an exponential hold's (mean × ln 100). */
	static double holdP99Ms(SloSearch.Asked asked) {
		Double p99Ms = asked.holdP99Ms();
		return (p99Ms != null) ? p99Ms : Objects.requireNonNull(asked.holdMeanMs(), "their hold") * Math.log(100);
	}

	private static void comment(StringBuilder yaml, String text) {
		for (String line : RecommendedYaml.wrap(text, RecommendedYaml.COMMENT_WIDTH - 2)) {
			yaml.append("# ").append(line).append('\n');
		}
	}

}
