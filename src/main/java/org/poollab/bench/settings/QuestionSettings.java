package org.poollab.bench.settings;

import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.Collectors;

import org.jspecify.annotations.Nullable;

import org.poollab.bench.grid.Preset;
import org.poollab.bench.grid.Question;
import org.poollab.bench.lab.BenchSettingException;
import org.poollab.bench.results.Stack;
import org.poollab.vendor.DatabaseVendor;

/**
 * The team's question ({@code bench.targetRps} and the settings beside it), checked
 * before anything starts: the SLO search chooses what a grid's settings would, so they
 * are refused beside it.
 */
public final class QuestionSettings {

	private QuestionSettings() {
	}

	/**
	 * The team's question, when {@code bench.targetRps} asks one.
	 * @throws BenchSettingException when {@code bench.preset=slo} asks none, or a setting
	 * that only shapes a grid is set beside it
	 */
	public static Optional<Question> question(BenchProperties settings) {
		if (settings.slo().targetRps() == null) {
			if (Preset.named(settings.axes().preset()) == Preset.SLO) {
				throw new BenchSettingException(
						"bench.preset=slo needs bench.targetRps: the fleet's peak rate in requests per second, e.g. -Dbench.targetRps=1500 -Dbench.replicas=3 -Dbench.p99Objective=50ms. Nothing was started.");
			}
			return Optional.empty();
		}
		refuseBesideTargetRps("topologies", settings.axes().topologies());
		refuseBesideTargetRps("poolSizes", settings.axes().poolSizes());
		refuseBesideTargetRps("rates", settings.axes().rates());
		refuseBesideTargetRps("serve", settings.run().serve());
		refuseBesideTargetRps("remoteEngines", settings.engines().remoteEngines());
		refuseBesideTargetRps("stack", (settings.axes().stack() != null)
				? settings.axes().stack().stream().map(Stack::value).collect(Collectors.joining(",")) : null);
		refuseBesideTargetRps("threads",
				(settings.axes().threads() != null) ? settings.axes()
					.threads()
					.stream()
					.map((model) -> model.name().toLowerCase(Locale.ROOT))
					.collect(Collectors.joining(",")) : null);
		if (settings.vendors().size() > 1) {
			throw new BenchSettingException(
					"%s is not allowed with bench.targetRps: it asks for %s, and the SLO search answers for one database (its fleet table is that database's connection budget). Use one vendor, bench.database.vendor=%s. Nothing was started."
						.formatted(settings.describeVendor(), settings.products(), DatabaseVendor.allowedValues()));
		}
		int fleet = Objects.requireNonNullElse(settings.slo().replicas(),
				Objects.requireNonNullElse(settings.axes().instances(), Preset.INSTANCES));
		return Optional.of(Question.of(settings.slo().targetRps(), fleet, settings.slo().maxReplicas(),
				settings.slo().surge(), settings.slo().otherConnections(), settings.slo().connectionsPerRequest(),
				settings.deciding().p99Objective()));
	}

	/**
	 * A setting that only shapes a grid, refused when it is set beside the SLO search's.
	 */
	private static void refuseBesideTargetRps(String setting, @Nullable Object value) {
		if (value != null) {
			throw new BenchSettingException(
					"bench.%s=%s is not allowed with bench.targetRps: the SLO search chooses the pool sizes and measures one instance at the rate a replica carries with one replica down; leave bench.%s unset. Nothing was started."
						.formatted(setting, value, setting));
		}
	}

}
