package org.poollab.bench.results;

import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * What one remote JMeter engine sent in a point's window: the lab tells the engines'
 * requests apart by the thread names JMeter gives them ({@code host:port-...}).
 *
 * @param engine the engine, as in {@code bench.remoteEngines}
 * @param achievedRps its requests that started in the window, per second
 * @param startLagP99Ms how late it sent them against its own even schedule, 99th
 * percentile; -1 when unknown (random arrivals, whose schedule only the engine knows)
 */
public record EngineLoad(String engine, double achievedRps, double startLagP99Ms) {

	/** E.g. {@code 127.0.0.4:1099 sent 30.0 rps, late p99 0 ms}. */
	public String describe() {
		return String.format(Locale.ROOT, "%s sent %.1f rps%s", this.engine, this.achievedRps,
				(this.startLagP99Ms >= 0) ? ", late p99 %.0f ms".formatted(this.startLagP99Ms) : "");
	}

	/** Every engine's, semicolon-separated. */
	public static String describe(List<EngineLoad> engines) {
		return engines.stream().map(EngineLoad::describe).collect(Collectors.joining("; "));
	}

}
