package org.poollab.bench.grid;

import java.time.Duration;

import org.jspecify.annotations.Nullable;

import org.poollab.bench.lab.BenchSettingException;
import org.poollab.bench.model.Fleet;
import org.poollab.bench.model.Fleet.Surge;
import org.poollab.bench.results.SloSearch;

/**
 * A team's own question, from {@code bench.targetRps} and the settings beside it: their
 * fleet's peak rate, replicas, autoscaling ceiling, rolling-deploy surge, the connections
 * other clients hold, connections per request, their p99 objective and, optionally, how
 * long their own requests hold a connection. Asking it turns the sweep into an SLO search
 * ({@code SloRun}). Checked as a whole before anything starts: each refusal names the
 * setting, its value and what is allowed.
 *
 * @param targetRps the fleet's peak rate, requests per second
 * @param replicas N, the replicas in production
 * @param maxReplicas the autoscaler's ceiling, at least N
 * @param surge extra replicas during a rolling deploy
 * @param otherConnections connections other clients hold on the database
 * @param connectionsPerRequest Cm, connections one request holds at once
 * @param p99ObjectiveMs their p99 objective
 * @param holdMeanMs their requests' mean connection hold ({@code bench.holdTime}), if
 * given
 * @param holdP99Ms its p99, if given
 */
public record Question(int targetRps, int replicas, int maxReplicas, Surge surge, int otherConnections,
		int connectionsPerRequest, double p99ObjectiveMs, @Nullable Double holdMeanMs, @Nullable Double holdP99Ms) {

	/** What {@code bench.surge} accepts: Kubernetes' maxSurge, a share or a count. */
	public static final String SURGE_PATTERN = "[0-9]{1,3}%|[0-9]{1,3}";

	/** What {@code bench.surge} accepts, for messages and the options page. */
	public static final String SURGE_ALLOWED = "a share of the replicas such as 25% (Kubernetes' default, rounded up) or a number of replicas such as 1";

	/**
	 * The largest pool per replica the search measures: beyond a hundred connections one
	 * replica's pool is never the answer on one PostgreSQL (its peak concurrency is far
	 * lower on any machine this lab runs on), and the database's budget usually caps it
	 * sooner.
	 */
	public static final int LARGEST_SEARCHED_POOL = 100;

	public Question {
		require(targetRps >= 1, "targetRps", targetRps, "a whole number of requests per second of at least 1");
		require(replicas >= 1, "replicas", replicas, "a whole number of at least 1");
		require(maxReplicas >= replicas, "maxReplicas", maxReplicas,
				"a whole number of at least bench.replicas (" + replicas + ")");
		require(connectionsPerRequest >= 1, "connectionsPerRequest", connectionsPerRequest,
				"a whole number of at least 1");
		require(otherConnections >= 0, "otherConnections", otherConnections, "a whole number of at least 0");
		if (holdMeanMs != null) {
			require(holdMeanMs > 0, "holdTime", trim(holdMeanMs) + "ms", "a duration above 0, e.g. 12ms or 12ms,80ms");
			require(holdP99Ms == null || holdP99Ms >= holdMeanMs, "holdTime",
					trim(holdMeanMs) + "ms," + ((holdP99Ms != null) ? trim(holdP99Ms) + "ms" : ""),
					"a mean and optionally a p99 at least as long, e.g. 12ms,80ms");
		}
	}

	/**
	 * The question without a hold of their own: the SLO search measures the grid's hold
	 * ({@code bench.holdTime} and the settings beside it shape the grid).
	 * @param surge as written, {@code 25%} or {@code 2}
	 */
	public static Question of(int targetRps, int replicas, @Nullable Integer maxReplicas, String surge,
			int otherConnections, int connectionsPerRequest, Duration p99Objective) {
		String written = surge.trim();
		if (!written.matches(SURGE_PATTERN)) {
			throw new BenchSettingException(
					"bench.surge=%s is not allowed: use %s. Nothing was started.".formatted(surge, SURGE_ALLOWED));
		}
		Surge parsed = written.endsWith("%")
				? Surge.percent(Integer.parseInt(written.substring(0, written.length() - 1)))
				: Surge.replicas(Integer.parseInt(written));
		return new Question(targetRps, replicas, (maxReplicas != null) ? maxReplicas : replicas, parsed,
				otherConnections, connectionsPerRequest, millis(p99Objective), null, null);
	}

	/**
	 * The rate one replica carries at the peak with one replica down: what the search
	 * measures one instance at.
	 */
	public int ratePerReplicaRps() {
		return (int) Math.ceil(Fleet.ratePerReplica(this.targetRps, this.replicas));
	}

	/** The fleet's connection arithmetic on a database with these limits. */
	public Fleet fleet(int maxConnections, int reservedConnections) {
		return new Fleet(maxConnections, reservedConnections, this.otherConnections, this.surge);
	}

	/** The question as the results record it. */
	public SloSearch.Asked asked() {
		return new SloSearch.Asked(this.targetRps, this.replicas, this.maxReplicas, this.surge, this.otherConnections,
				this.connectionsPerRequest, this.p99ObjectiveMs, this.holdMeanMs, this.holdP99Ms);
	}

	private static String trim(double value) {
		return (value == Math.rint(value)) ? String.valueOf((long) value) : String.valueOf(value);
	}

	private static double millis(Duration duration) {
		return duration.toNanos() / 1e6;
	}

	private static void require(boolean holds, String setting, Object value, String allowed) {
		if (!holds) {
			throw new BenchSettingException(
					"bench.%s=%s is not allowed: use %s. Nothing was started.".formatted(setting, value, allowed));
		}
	}

}
