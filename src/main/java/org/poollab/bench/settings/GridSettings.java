package org.poollab.bench.settings;

import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Predicate;
import java.util.stream.Collectors;

import org.jspecify.annotations.Nullable;

import org.poollab.bench.settings.BenchProperties.Target;
import org.poollab.bench.grid.Arrivals;
import org.poollab.bench.grid.Grid;
import org.poollab.bench.grid.GridBuilder;
import org.poollab.bench.grid.Preset;
import org.poollab.bench.grid.Question;
import org.poollab.bench.grid.ThreadModel;
import org.poollab.bench.grid.TimeScaleSetting;
import org.poollab.bench.grid.Topology;
import org.poollab.bench.lab.BenchSettingException;
import org.poollab.bench.results.Limits;
import org.poollab.bench.results.RequestThreads;
import org.poollab.bench.results.EmulatedHold;
import org.poollab.bench.results.Stack;
import org.poollab.bench.results.SweepResults;
import org.poollab.vendor.DatabaseVendor;
import org.poollab.service.hold.HoldTime;

/**
 * The grid the settings ask for: every value that is not set comes from the preset;
 * combinations the lab cannot run are refused before anything starts, each refusal naming
 * the settings and what is allowed.
 */
public final class GridSettings {

	private GridSettings() {
	}

	/**
	 * The grid the settings ask for: every value that is not set comes from the preset.
	 * @throws BenchSettingException for a combination the lab cannot run, naming the
	 * settings and what is allowed
	 */
	public static Grid grid(BenchProperties settings) {
		if (settings.vendors().size() > 1 && settings.run().serve() != null) {
			throw new BenchSettingException(
					"%s is not allowed with bench.serve=%s: it asks for %s, and serving starts one deployment on one database. Use one vendor, bench.database.vendor=%s. Nothing was started."
						.formatted(settings.describeVendor(), settings.run().serve().label(), settings.products(),
								DatabaseVendor.allowedValues()));
		}
		Grid grid = presetOrSearchGrid(settings);
		requireVendorSupports(settings, grid.topologies());
		if (grid.hold() != null && grid.hold().cpuMs() != null && grid.stacks().contains(Stack.R2DBC)) {
			throw new BenchSettingException(
					"bench.holdCpu=%s is not allowed with bench.stack=%s: only the JDBC service runs the database CPU statement; use bench.stack=jdbc or leave bench.holdCpu unset. Nothing was started."
						.formatted(
								HoldTime.of(Duration.ofNanos(Math.round(grid.hold().cpuMs() * 1e6)), null).describe(),
								String.join(",", grid.stacks().stream().map(Stack::value).toList())));
		}
		requireScalableHold(settings, grid);
		return grid;
	}

	/**
	 * A fixed {@code bench.timeScale} above 1 beside a database-CPU hold is refused:
	 * stretching time does not stretch the database's CPU, which is what such a hold
	 * measures. With {@code auto} the probe runs it at k = 1.
	 * @throws BenchSettingException naming both settings
	 */
	private static void requireScalableHold(BenchProperties settings, Grid grid) {
		TimeScaleSetting scale = settings.load().timeScaleSetting();
		if (!scale.fixedSlowMotion() || grid.hold() == null || grid.hold().cpuMs() == null) {
			return;
		}
		String cpu = (settings.hold().holdCpu() != null)
				? "bench.holdCpu=" + HoldSettings.millis(settings.hold().holdCpu())
				: "bench.preset=" + settings.axes().preset();
		throw new BenchSettingException(
				"bench.timeScale=%s is not allowed with %s: the database's CPU is what is measured; it cannot run in slow motion. Use bench.timeScale=1 or auto (which runs it at 1). Nothing was started."
					.formatted(scale.written(), cpu));
	}

	private static Grid presetOrSearchGrid(BenchProperties settings) {
		Preset preset = Preset.named(settings.axes().preset());
		List<Integer> sizes = (settings.axes().poolSizes() != null)
				? settings.axes().poolSizes().stream().map(GridSettings::poolSize).toList() : null;
		if (settings.targetMode().target() == Target.EXTERNAL) {
			// What target mode refuses beside it is refused by external(), before
			// anything starts.
			return externalGrid(settings, preset, sizes);
		}
		Optional<Question> question = QuestionSettings.question(settings);
		if (question.isPresent()) {
			return searchGrid(settings, preset, question.get());
		}
		List<Stack> stacks = stacks(settings, preset);
		EmulatedHold hold = HoldSettings.hold(settings.hold(), preset);
		if (hold != null && hold.usesPerRequest() != 1 && stacks.contains(Stack.R2DBC)) {
			throw new BenchSettingException(
					"bench.stack=%s asks for the reactive twin, which takes one connection use per request, and bench.holdTimeFrom read %s: measure the JDBC service alone (bench.stack=jdbc). Nothing was started."
						.formatted(stacks.stream().map(Stack::value).collect(Collectors.joining(",")),
								hold.describeWaiting()));
		}
		return measured(settings, preset)
			.topologies(distinct(orDefault(settings.axes().topologies(), preset.topologies())))
			.instances(Objects.requireNonNullElse(settings.axes().instances(), Preset.INSTANCES))
			.poolSizes(distinct(orDefault(sizes, preset.poolSizes())))
			.rates(distinct(orDefault(settings.axes().rates(), preset.rates())))
			.repeats(Objects.requireNonNullElse(settings.axes().repeats(), preset.repeats()))
			.arrivals(Objects.requireNonNullElse(settings.load().arrivals(), preset.arrivals()))
			.instanceCpus(Objects.requireNonNullElse(settings.deployment().instanceCpus(), preset.instanceCpus()))
			.instanceHeap(Objects.requireNonNullElse(settings.deployment().instanceHeap(), preset.instanceHeap()))
			.stacks(stacks)
			.threads(requestThreads(settings, preset))
			.acquireCost(Objects.requireNonNullElse(settings.run().acquireCost(), preset.acquireCost()))
			.vendors(settings.vendors())
			.hold(hold)
			.build();
	}

	/**
	 * What every grid takes from the settings, else the preset: the measured window, the
	 * warm-ups and the workload.
	 */
	private static GridBuilder measured(BenchProperties settings, Preset preset) {
		return Grid.builder(preset)
			.duration(Objects.requireNonNullElse(settings.load().duration(), preset.duration()))
			.warmup(Objects.requireNonNullElse(settings.load().warmup(), preset.warmup()))
			.topologyWarmup(Objects.requireNonNullElse(settings.load().topologyWarmup(), preset.topologyWarmup()))
			.workload(Objects.requireNonNullElse(settings.load().workload(), preset.workload()));
	}

	/**
	 * What the SLO search measures: one instance at the rate a replica carries, Poisson
	 * arrivals, two repeats per pool size (a size must sustain the rate in every one).
	 * Its pool sizes are chosen as it goes, capped by the database's budget once it is
	 * read; 1 stands in for them, so the pre-flight's budget check refuses only a
	 * database that cannot hold even one connection for the instance (the search says why
	 * when its budget share falls below the deadlock floor).
	 */
	private static Grid searchGrid(BenchProperties settings, Preset preset, Question question) {
		return measured(settings, preset).topologies(List.of(Topology.SINGLE))
			.instances(1)
			.poolSizes(List.of(1))
			.rates(List.of(question.ratePerReplicaRps()))
			.repeats(Objects.requireNonNullElse(settings.axes().repeats(), 2))
			.arrivals(Objects.requireNonNullElse(settings.load().arrivals(), Arrivals.RANDOM))
			.instanceCpus(Objects.requireNonNullElse(settings.deployment().instanceCpus(), preset.instanceCpus()))
			.instanceHeap(Objects.requireNonNullElse(settings.deployment().instanceHeap(), preset.instanceHeap()))
			.stacks(List.of(Stack.JDBC))
			.threads(List.of(RequestThreads
				.platform(distinct(orDefault(settings.axes().tomcatThreads(), preset.tomcatThreads())).get(0))))
			.acquireCost(false)
			.vendors(settings.vendors())
			.hold(HoldSettings.hold(settings.hold(), preset))
			.build();
	}

	/**
	 * The grid of an external deployment: one topology (single for one actuator, else
	 * multi with one instance per actuator), the JDBC service as deployed, pooled sizes
	 * only (the preset's {@code none} is left out: the lab cannot take a running pool
	 * away).
	 */
	private static Grid externalGrid(BenchProperties settings, Preset preset, @Nullable List<Integer> sizes) {
		int instances = (settings.targetMode().actuators() != null)
				? Math.max(1, settings.targetMode().actuators().size()) : 1;
		List<Integer> pooled = distinct(orDefault(sizes, preset.poolSizes())).stream()
			.filter((size) -> size != SweepResults.NO_POOL)
			.toList();
		return measured(settings, preset).topologies(List.of((instances == 1) ? Topology.SINGLE : Topology.MULTI))
			.instances(instances)
			.poolSizes(pooled)
			.rates(distinct(orDefault(settings.axes().rates(), preset.rates())))
			.repeats(Objects.requireNonNullElse(settings.axes().repeats(), 1))
			.arrivals(Objects.requireNonNullElse(settings.load().arrivals(), preset.arrivals()))
			.instanceCpus(0)
			.instanceHeap(Limits.AS_DEPLOYED)
			.stacks(List.of(Stack.JDBC))
			.threads(List.of(RequestThreads.TOMCAT_DEFAULT))
			.acquireCost(false)
			.vendors(settings.vendors())
			.hold(null)
			.build();
	}

	/**
	 * {@code bench.stack}, from the preset when unset.
	 * @throws BenchSettingException when the reactive twin is asked for where it cannot
	 * run: behind pgbouncer (it connects to PostgreSQL only), on a MariaDB among the
	 * sweep's databases (set, the preset's or read off the URL: it has no driver for it),
	 * or alone with thread settings that size the JDBC service's threads only
	 */
	private static List<Stack> stacks(BenchProperties settings, Preset preset) {
		List<Stack> stacks = distinct(orDefault(settings.axes().stack(), preset.stacks()));
		if (!stacks.contains(Stack.R2DBC)) {
			return stacks;
		}
		String value = stacks.stream().map(Stack::value).collect(Collectors.joining(","));
		if (orDefault(settings.axes().topologies(), preset.topologies()).contains(Topology.PGBOUNCER)) {
			throw new BenchSettingException(
					"bench.stack=%s asks for the reactive twin, which the pgbouncer topology does not run: it connects to PostgreSQL directly. Allowed with r2dbc: bench.topologies=single,multi. Nothing was started."
						.formatted(value));
		}
		Optional<DatabaseVendor> other = firstWithout(settings, DatabaseVendor::runsReactiveTwin);
		if (other.isPresent()) {
			throw new BenchSettingException(
					"bench.stack=%s asks for the reactive twin, which has an R2DBC driver for %s only, but %s is %s (%s). Nothing was started."
						.formatted(value, DatabaseVendor.productsThat(DatabaseVendor::runsReactiveTwin),
								settings.theDatabase(), other.get().product(), settings.describeVendor()));
		}
		if (!stacks.contains(Stack.JDBC) && (settings.axes().threads() != null && !settings.axes().threads().isEmpty()
				|| settings.axes().tomcatThreads() != null && !settings.axes().tomcatThreads().isEmpty())) {
			throw new BenchSettingException(
					"bench.stack=%s runs the reactive twin only, whose requests run on Reactor Netty's event loop: bench.threads and bench.tomcatThreads size the JDBC service's threads. Add jdbc to bench.stack or leave them unset. Nothing was started."
						.formatted(value));
		}
		return stacks;
	}

	/**
	 * Refuses, before anything starts, what a database among the sweep's cannot run (with
	 * several, each deployment would run on each): pgbouncer (the topology, the
	 * {@code pooling} preset's, and serving it) speaks PostgreSQL's protocol only
	 * ({@link DatabaseVendor#pooledByPgBouncer()}). Everything else the lab does runs on
	 * every vendor: the service's SQL and migrations exist for each, the lab's own
	 * statements ({@code TRUNCATE role_audit}, the database-scaling probe of the SLO
	 * search, the acquire-cost benchmark) are the same on each, and the connection budget
	 * is read the way each vendor answers.
	 * @throws BenchSettingException naming the setting that asks for pgbouncer
	 */
	private static void requireVendorSupports(BenchProperties settings, List<Topology> topologies) {
		Optional<DatabaseVendor> other = firstWithout(settings, DatabaseVendor::pooledByPgBouncer);
		if (other.isEmpty()) {
			return;
		}
		String why = "pgbouncer pools %s connections only, and %s is %s (%s)".formatted(
				DatabaseVendor.productsThat(DatabaseVendor::pooledByPgBouncer), settings.theDatabase(),
				other.get().product(), settings.describeVendor());
		if (settings.run().serve() == Topology.PGBOUNCER) {
			throw new BenchSettingException(
					"bench.serve=pgbouncer is not allowed: %s. Use single or multi. Nothing was started."
						.formatted(why));
		}
		if (!topologies.contains(Topology.PGBOUNCER)) {
			return;
		}
		if (settings.axes().topologies() == null || settings.axes().topologies().isEmpty()) {
			throw new BenchSettingException(
					"bench.preset=%s sweeps the pgbouncer topology, which is not allowed: %s. Set bench.topologies=single (or single,multi) beside it. Nothing was started."
						.formatted(settings.axes().preset(), why));
		}
		throw new BenchSettingException(
				"bench.topologies=%s is not allowed: %s. Use single and/or multi. Nothing was started.".formatted(
						settings.axes().topologies().stream().map(Topology::label).collect(Collectors.joining(",")),
						why));
	}

	/** The first of the sweep's databases that lacks something, if any. */
	private static Optional<DatabaseVendor> firstWithout(BenchProperties settings, Predicate<DatabaseVendor> has) {
		return settings.vendors().stream().filter(has.negate()).findFirst();
	}

	/**
	 * {@code bench.threads} by {@code bench.tomcatThreads}, each from the preset when
	 * unset.
	 * @throws BenchSettingException when {@code bench.tomcatThreads} is set but no
	 * platform threads are swept
	 */
	private static List<RequestThreads> requestThreads(BenchProperties settings, Preset preset) {
		List<ThreadModel> models = distinct(orDefault(settings.axes().threads(), preset.threads()));
		if (settings.axes().tomcatThreads() != null && !settings.axes().tomcatThreads().isEmpty()
				&& !models.contains(ThreadModel.PLATFORM)) {
			throw new BenchSettingException(
					"bench.tomcatThreads=%s sizes Tomcat's platform threads, but bench.threads=%s sweeps none: with virtual threads Tomcat has no thread maximum. Add platform to bench.threads (allowed: platform, virtual) or leave bench.tomcatThreads unset. Nothing was started."
						.formatted(
								settings.axes()
									.tomcatThreads()
									.stream()
									.map(String::valueOf)
									.collect(Collectors.joining(",")),
								models.stream()
									.map((m) -> m.name().toLowerCase(Locale.ROOT))
									.collect(Collectors.joining(","))));
		}
		return ThreadModel.requestThreads(models,
				distinct(orDefault(settings.axes().tomcatThreads(), preset.tomcatThreads())));
	}

	/**
	 * {@code none} or a whole number, already validated by
	 * {@link BenchProperties#POOL_SIZE}.
	 */
	static int poolSize(String value) {
		return value.trim().equalsIgnoreCase("none") ? SweepResults.NO_POOL : Integer.parseInt(value.trim());
	}

	private static <T> List<T> orDefault(@Nullable List<T> values, List<T> defaults) {
		return (values == null || values.isEmpty()) ? defaults : values;
	}

	private static <T> List<T> distinct(List<T> values) {
		return values.stream().distinct().toList();
	}

}
