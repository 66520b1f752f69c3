package org.poollab.bench.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

import org.poollab.bench.deciding.Cell;
import org.poollab.bench.deciding.CellText;
import org.poollab.bench.deciding.Confirmed;
import org.poollab.bench.deciding.SloJudge;
import org.poollab.bench.model.FleetPlan;
import org.poollab.bench.model.QueueModel;
import org.poollab.bench.results.Point;
import org.poollab.bench.results.SloSearch;
import org.poollab.bench.text.Durations;

/**
 * The SLO search's sentences, made where it is rendered: the console, report.md,
 * report.html and the yml's comments say the same things in the same words.
 */
final class SloText {

	private SloText() {
	}

	static String question(SloSearch.Asked asked) {
		return String.format(Locale.ROOT,
				"%d rps at the peak over %d replica(s) (autoscaling up to %d), rolling-deploy surge %s, %d connection(s) held by other clients, %d connection(s) per request, p99 objective %s ms%s",
				asked.targetRps(), asked.replicas(), asked.maxReplicas(), asked.surge(), asked.otherConnections(),
				asked.connectionsPerRequest(), Durations.ms(asked.p99ObjectiveMs()),
				(asked.holdMeanMs() != null) ? ", your hold time " + Durations.ms(asked.holdMeanMs()) + " ms mean"
						+ ((asked.holdP99Ms() != null) ? " and " + Durations.ms(asked.holdP99Ms()) + " ms p99" : "")
						: "");
	}

	static String rateReason(SloSearch.Asked asked) {
		return (asked.replicas() >= 2) ? "the peak over " + (asked.replicas() - 1) + " replica(s): one of "
				+ asked.replicas() + " down for a deploy or a crash" : "the whole peak: one replica";
	}

	static String conditions(SloAnswer answer) {
		SloSearch search = answer.search();
		Point first = search.path().isEmpty() || search.path().get(0).repeats().isEmpty() ? null
				: search.path().get(0).repeats().get(0);
		return (first == null) ? "nothing measured"
				: String.format(Locale.ROOT, "%s arrivals, %d window(s) of %s s per pool size, %s", first.arrivals(),
						search.path().get(0).repeats().size(), Durations.ms(first.durationSeconds()),
						first.limits().describe());
	}

	static String path(SloSearch search) {
		if (search.path().isEmpty()) {
			return "no pool size measured";
		}
		return search.path()
			.stream()
			.map((probe) -> String.format(Locale.ROOT, "pool %d %s (p99 %s ms)", probe.poolSize(),
					probe.meets() ? "met"
							: probe.verdict().startsWith(SloJudge.REFUTED) ? "refuted by its confirmation" : "failed",
					Durations.ms(probe.p99Ms())))
			.collect(Collectors.joining(", "));
	}

	static String confirmation(SloAnswer answer) {
		return answer.confirmation().map((run) -> {
			Confirmed.Verdict verdict = answer.confirmed().orElse(Confirmed.Verdict.NO_VERDICT);
			return String.format(Locale.ROOT, "pool %s for %s s of %s arrivals at %d rps: p99 %s ms, %s",
					run.settings().getOrDefault("maximum-pool-size", "?"), Durations.ms(run.point().durationSeconds()),
					run.point().arrivals(), run.point().rateRps(), Durations.ms(run.point().latency().p99Ms()),
					switch (verdict) {
						case HELD -> "held the objective";
						case NO_VERDICT -> "no verdict: the load generator fell behind while the instances saw no "
								+ "saturation, or they did not run the block's settings (" + run.point().outcome()
								+ ")";
						case REFUTED -> "DID NOT hold the objective: " + CellText
							.shortfall(Cell.of(List.of(run.point()), answer.search().asked().p99ObjectiveMs()));
						case MEASURE_AGAIN -> "no verdict: a cold tail, not measured again";
					}) + Confirmed.measuredAgain(run)
						.map((again) -> ". " + again.substring(0, again.length() - 1))
						.orElse("");
		}).orElse("not run");
	}

	static String budget(SloAnswer answer) {
		return String.format(Locale.ROOT,
				"max_connections %d, %d reserved, %d held by other clients: %d for the pools; surge %s; deadlock floor %d (Tn x (Cm - 1) + 1)",
				answer.fleet().maxConnections(), answer.fleet().reservedConnections(),
				answer.fleet().otherConnections(), answer.fleet().budget(), answer.fleet().surge(),
				answer.search().lowestPool())
				+ ((answer.search().scaling() != null) ? String.format(Locale.ROOT,
						"; the database's peak concurrency N* = %s active connections (USL fit%s)",
						peak(answer.search().scaling().peakConnections()),
						answer.theirs().isPresent() ? ", measured with the lab's statement, not your transactions" : "")
						: "");
	}

	static String peak(double peakConnections) {
		return Double.isInfinite(peakConnections) ? "none: no contention measured"
				: String.format(Locale.ROOT, "%.0f", peakConnections);
	}

	/** The fleet table as aligned text rows, header first. */
	static List<String> fleetRows(SloAnswer answer, FleetPlan plan) {
		List<String> rows = new ArrayList<>();
		rows.add("replicas | rps each, one down | model minimum | budget share | N*/replicas | pool range");
		for (FleetPlan.Row row : plan.rows()) {
			rows.add(String.format(Locale.ROOT, "%8d | %18.0f | %13s | %12d | %11s | %s", row.replicas(),
					row.ratePerReplicaRps(), (row.modelMinimum() != null) ? row.modelMinimum() : "none",
					row.budgetShare(), (row.peakShare() != null) ? row.peakShare() : "-", range(row)));
		}
		return rows;
	}

	/** Why the yml holds no block. */
	static String noPool(SloAnswer answer) {
		SloSearch.Asked asked = answer.search().asked();
		if (answer.theirs().isPresent() && SloYaml.holdP99Ms(asked) >= asked.p99ObjectiveMs()) {
			return String.format(Locale.ROOT,
					"your hold time's p99 (%s ms) is not below the p99 objective (%s ms): a request that holds its connection that long cannot answer faster, whatever the pool, so no pool is recommended for your workload; the objective needs shorter transactions or a looser objective. The toy endpoint measured %s.",
					Durations.ms(SloYaml.holdP99Ms(asked)), Durations.ms(asked.p99ObjectiveMs()),
					(answer.search().chosenPool() != null) ? "pool " + answer.search().chosenPool()
							: "no pool that meets it either");
		}
		if (answer.theirs().isPresent()) {
			return "no pool within the database's budget per replica meets the objective for your hold time in the model, so none is recommended.";
		}
		return "no pool size met the objective, so none is recommended.";
	}

	static String range(FleetPlan.Row row) {
		return row.feasible() ? row.modelMinimum() + "-" + row.highest()
				: "EMPTY: " + ((row.modelMinimum() == null) ? "no pool within the budget meets the objective"
						: "the model needs " + row.modelMinimum() + ", the limits allow " + row.highest());
	}

	static List<String> fleetAdvice(SloAnswer answer, FleetPlan plan) {
		List<String> advice = new ArrayList<>();
		if (plan.maxReplicasAtChosen() != null) {
			advice.add(String.format(Locale.ROOT,
					"At pool %d per replica the database holds at most %d replica(s) with the surge (floor((max_connections - reserved - others) / (pool x (1 + surge))), surge rounded up).",
					answer.search().chosenPool(), plan.maxReplicasAtChosen()));
		}
		if (plan.adviseExternalPooler()) {
			// pgbouncer and the lab's topology for it are PostgreSQL's only.
			advice.add(answer.results().database().labVendor().pooledByPgBouncer()
					? "At the autoscaling ceiling the fleet's smallest pools hold more connections than the database's peak concurrency N*: put an external pooler (pgbouncer) between the fleet and the database and size its pool near N*; run the lab's pgbouncer topology (-Dbench.topologies=pgbouncer) to see what it measures here."
					: "At the autoscaling ceiling the fleet's smallest pools hold more connections than the database's peak concurrency N*: put an external pooler between the fleet and the database and size its pool near N*.");
		}
		return advice;
	}

	/** The model's fit in one sentence. */
	static String model(SloSearch search) {
		if (search.model() == null) {
			return "no queue model: no hold time was measured";
		}
		QueueModel queue = search.model().queue();
		return String.format(Locale.ROOT,
				"%s rps, hold %s ms mean (cv² %.2f, %s), arrivals cv² %.0f, base p99 %s ms (the largest pool's): %.2f connections busy on average; %s",
				Durations.ms(queue.arrivalsPerSecond()), Durations.ms(queue.holdMeanMs()), queue.holdCv2(),
				search.model().holdSource(), queue.arrivalCv2(), Durations.ms(queue.baseP99Ms()),
				queue.busyConnections(), p99Formula(queue));
	}

	/** Which p99 the model predicts, and why when it is the older upper estimate. */
	static String p99Formula(QueueModel queue) {
		Double baseP50Ms = queue.baseP50Ms();
		return (baseP50Ms != null)
				? "predicted p99: of a request's own time (lognormal through the base p50 " + Durations.ms(baseP50Ms)
						+ " ms and p99) plus its wait"
				: "predicted p99: the base p99 plus the wait's p99, an upper estimate (no base p50 recorded)";
	}

}
