package org.poollab.bench;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;

import org.jspecify.annotations.Nullable;

import org.poollab.bench.deciding.Confirming;
import org.poollab.bench.deciding.Confirmed;
import org.poollab.bench.deciding.Decisions;
import org.poollab.bench.deciding.SloJudge;
import org.poollab.bench.deploy.Deployment;
import org.poollab.bench.grid.Grid.Planned;
import org.poollab.bench.grid.Question;
import org.poollab.bench.grid.TimeScale;
import org.poollab.bench.grid.Topology;
import org.poollab.bench.load.ConfirmationRun;
import org.poollab.bench.load.DatabaseScaling;
import org.poollab.bench.load.LoadRun;
import org.poollab.bench.model.Fleet;
import org.poollab.bench.model.PoolSearch;
import org.poollab.bench.model.QueueModel;
import org.poollab.bench.report.Report;
import org.poollab.bench.results.Confirmation;
import org.poollab.bench.results.Confirmation.ChosenAt;
import org.poollab.bench.results.DatabaseFacts;
import org.poollab.bench.results.Point;
import org.poollab.bench.results.SloSearch;
import org.poollab.bench.results.Stack;
import org.poollab.bench.results.SweepResults;
import org.poollab.bench.text.Durations;

/**
 * The team's own question ({@link Question}) answered by measurement: the database driven
 * alone to find how it scales ({@link DatabaseScaling}), then one instance started at the
 * largest pool the fleet's budget allows, warmed up and loaded at the rate one replica
 * carries with one replica down, and the smallest pool size that meets the p99 objective
 * in every repeat searched for ({@link PoolSearch}, seeded by the queue model), then that
 * pool started again as pasted and confirmed. Where no pool can meet the objective it
 * says whose ceiling is in the way: the database's budget, the load generator's, or the
 * service's.
 */
final class SloRun {

	/**
	 * The most pool sizes the search measures: with two 10 s windows each, about four
	 * minutes; a model-seeded search usually needs three.
	 */
	static final int MAX_PROBES = 8;

	/** The most pool sizes measured again after a confirmation refuted the answer. */
	static final int MAX_PROBES_AFTER_REFUTATION = 3;

	private final SweepContext sweep;

	private final Question question;

	SloRun(SweepContext sweep, Question question) {
		this.sweep = sweep;
		this.question = question;
	}

	/**
	 * The search, then its answer started as pasted; a refuted answer moves the search
	 * on, up to {@link Decisions#MAX_CONFIRMATIONS} confirmations. Results are written
	 * after each step, so a failure keeps what finished.
	 * @param results the sweep's results so far
	 * @return them with the search and its confirmations
	 */
	SweepResults answer(SweepResults results, HostCeiling ceiling) throws IOException, InterruptedException {
		SloSearch search = run(ceiling);
		SweepResults answered = results.withSlo(search);
		this.sweep.store().write(answered);
		List<Confirmation> confirmations = new ArrayList<>();
		for (int run = 0; run < Decisions.MAX_CONFIRMATIONS; run++) {
			Optional<String> block = Report.sloBlock(answered);
			Optional<Confirmation> confirmed = block.isPresent() ? confirm(search, block.get()) : Optional.empty();
			if (confirmed.isEmpty()) {
				break;
			}
			confirmations.add(confirmed.get());
			answered = answered.withConfirmations(confirmations);
			this.sweep.store().write(answered);
			// Only a refutation moves the search on: a window that held, or that said
			// nothing (a generator that fell behind a service that was not saturated),
			// ends it.
			if (Confirmed.verdict(confirmed.get(), this.question.p99ObjectiveMs()) != Confirmed.Verdict.REFUTED
					|| run + 1 == Decisions.MAX_CONFIRMATIONS) {
				break;
			}
			search = resume(search, confirmed.get());
			answered = answered.withSlo(search);
			this.sweep.store().write(answered);
		}
		return answered;
	}

	SloSearch run(HostCeiling ceiling) throws IOException, InterruptedException {
		DatabaseFacts database = this.sweep.results().database();
		Fleet fleet = this.question.fleet(database.maxConnections(), database.reservedConnections());
		// The search runs platform threads only (bench.threads is refused beside it).
		int lowest = Fleet.deadlockFloor(this.sweep.grid().threads().get(0).cap().orElseThrow(),
				this.question.connectionsPerRequest());
		int highest = Math.min(Question.LARGEST_SEARCHED_POOL, fleet.budgetShare(this.question.replicas()));
		int rate = this.question.ratePerReplicaRps();
		SloSearch.Asked asked = this.question.asked();
		this.sweep.out()
			.printf("SLO search: %s.%n  One instance at %d rps, pool sizes %d to %d.%n", Report.sloQuestion(asked),
					rate, lowest, highest);

		if (highest < lowest) {
			return new SloSearch(asked, rate, lowest, highest, List.of(), null, true, String.format(Locale.ROOT,
					"cannot be met, because of the database's connection budget: %d connections for the pools shared by %d replica(s) and their surge leave %d per replica, below the deadlock floor of %d",
					fleet.budget(), this.question.replicas(), fleet.budgetShare(this.question.replicas()), lowest),
					null, null);
		}
		Planned top = planned(highest, 1);
		Deployer deployer = new Deployer(this.sweep);
		Deployment[] deployment = { deployer.deploy(top, highest) };
		// After the first start: the instance's Flyway made the schema. The instance is
		// idle meanwhile.
		SloSearch.Scaling scaling = SloModel.measureScaling(this.sweep, fleet);
		List<SloSearch.Probe> path = new ArrayList<>();
		try {
			Path loadDirectory = this.sweep.loadDirectory();
			ceiling.measureOnce(this.sweep, this.sweep.jmeter(), deployment[0], loadDirectory);
			if (ceiling.rps().isPresent() && ceiling.rps().getAsInt() < rate) {
				return new SloSearch(asked, rate, lowest, highest, List.of(), null, true, String.format(Locale.ROOT,
						"cannot be measured here, because of the load generator's ceiling: JMeter on this machine holds %d rps, below the %d rps one instance must carry; run the load from another machine (bench.remoteEngines) or ask for a lower bench.targetRps or more bench.replicas",
						ceiling.rps().getAsInt(), rate), null, scaling);
			}
			PoolSearch.Outcome outcome = PoolSearch.search(lowest, highest, () -> seed(path.get(0), scaling, highest),
					MAX_PROBES, prober(deployment, deployer, top, loadDirectory, path));
			// A pure fit of what was measured: the same the seed came from.
			SloSearch.Model model = SloModel.fit(path.get(0), scaling, rate, this.sweep.grid().arrivals());
			OptionalInt chosen = outcome.smallest();
			return new SloSearch(asked, rate, lowest, highest, List.copyOf(path),
					chosen.isPresent() ? chosen.getAsInt() : null, outcome.exact(),
					conclusion(outcome, path, highest, rate), model, scaling);
		}
		finally {
			deployment[0].close();
		}
	}

	/**
	 * The queue model's smallest pool, fitted once the largest pool was measured; the
	 * largest when there is no model.
	 */
	private int seed(SloSearch.Probe largest, SloSearch.@Nullable Scaling scaling, int highest) {
		SloSearch.Model model = SloModel.fit(largest, scaling, this.question.ratePerReplicaRps(),
				this.sweep.grid().arrivals());
		if (model == null) {
			return highest;
		}
		QueueModel queue = model.queue();
		int seed = queue.smallestPoolMeeting(this.question.p99ObjectiveMs(), highest).orElse(highest);
		this.sweep.out()
			.printf(Locale.ROOT,
					"  Queue model: %.2f connections busy on average (hold %.3f ms, %s); its smallest pool for %s ms: %d.%n",
					queue.busyConnections(), queue.holdMeanMs(), model.holdSource(),
					Durations.ms(this.question.p99ObjectiveMs()), seed);
		return seed;
	}

	/**
	 * Measures one pool size per call, each repeat a window of one JMeter run on the
	 * deployment (a fresh one when an instance died), judged and added to the path.
	 * @param deployment the deployment, replaced in place when an instance died
	 * @param top the deployment's point (its pool is the largest it measures)
	 */
	private PoolSearch.Measure prober(Deployment[] deployment, Deployer deployer, Planned top, Path loadDirectory,
			List<SloSearch.Probe> path) {
		PointRuns runs = new PointRuns(this.sweep,
				new LoadRun(this.sweep.grid(), this.sweep.jmeter(), this.sweep.out()));
		return (pool) -> {
			if (!deployment[0].deadInstances().isEmpty()) {
				deployment[0].close();
				this.sweep.out().println("  Starting the instance again for the next pool size.");
				deployment[0] = deployer.deploy(top, top.poolSize());
			}
			List<Planned> repeats = new ArrayList<>();
			for (int repeat = 1; repeat <= this.sweep.grid().repeats(); repeat++) {
				repeats.add(planned(pool, repeat));
			}
			LoadRun.Result result = runs.measure(repeats, deployment[0], loadDirectory,
					"slo-pool" + pool + "-" + (path.size() + 1), (measured, nanos) -> {
					});
			SloSearch.Probe probe = SloJudge.judge(pool, result.measured(), this.question.p99ObjectiveMs());
			path.add(probe);
			this.sweep.out().printf("  Pool %d: %s -> %s%n", pool, probe.verdict(), probe.meets() ? "MEETS" : "fails");
			return new PoolSearch.Probe(pool, probe.meets(), probe.verdict());
		};
	}

	/**
	 * The answer's confirmation refuted it: that pool counts as failing (the refutation
	 * joins the path), and the search goes on between it and the next pool up that met
	 * the objective, on an instance started at that pool, for at most
	 * {@link #MAX_PROBES_AFTER_REFUTATION} more sizes. When no larger pool met it
	 * ({@link PoolSearch#passingAbove}), there is no answer.
	 * @param refuted the confirmation that refuted the answer
	 */
	SloSearch resume(SloSearch search, Confirmation refuted) throws IOException, InterruptedException {
		int failed = Objects.requireNonNull(search.chosenPool());
		List<SloSearch.Probe> path = new ArrayList<>(search.path());
		path.add(SloJudge.refutation(failed, refuted.point(), this.question.p99ObjectiveMs()));
		OptionalInt above = PoolSearch.passingAbove(failed,
				search.path()
					.stream()
					.map((probe) -> new PoolSearch.Probe(probe.poolSize(), probe.meets(), probe.verdict()))
					.toList());
		PoolSearch.Outcome outcome;
		if (above.isEmpty()) {
			this.sweep.out()
				.printf("  Pool %d was refuted by its confirmation, and no larger pool met the objective in the search.%n",
						failed);
			outcome = new PoolSearch.Outcome(List.of(), OptionalInt.empty(), true);
		}
		else if (above.getAsInt() == failed + 1) {
			this.sweep.out()
				.printf("  Pool %d was refuted by its confirmation: pool %d, the next one up, met the objective.%n",
						failed, above.getAsInt());
			outcome = new PoolSearch.Outcome(List.of(), above, true);
		}
		else {
			int passing = above.getAsInt();
			this.sweep.out()
				.printf("  Pool %d was refuted by its confirmation: searching between %d and %d (which met the objective).%n",
						failed, failed + 1, passing);
			Planned top = planned(passing, 1);
			Deployer deployer = new Deployer(this.sweep);
			Deployment[] deployment = { deployer.deploy(top, passing) };
			try {
				outcome = PoolSearch.below(failed + 1, passing, () -> failed + 1, MAX_PROBES_AFTER_REFUTATION,
						prober(deployment, deployer, top, this.sweep.loadDirectory(), path), new ArrayList<>());
			}
			finally {
				deployment[0].close();
			}
		}
		OptionalInt chosen = outcome.smallest();
		return new SloSearch(search.asked(), search.rateRps(), search.lowestPool(), search.highestPool(),
				List.copyOf(path), chosen.isPresent() ? chosen.getAsInt() : null, search.exact() && outcome.exact(),
				conclusion(outcome, path, search.highestPool(), search.rateRps()) + " Pool " + failed
						+ " had met it in the search, but its confirmation as pasted refuted it.",
				search.model(), search.scaling());
	}

	/**
	 * The answer started again from its block as pasted, at the search's rate with
	 * Poisson arrivals.
	 * @return the confirmation, empty when there is no answer or it is switched off
	 */
	Optional<Confirmation> confirm(SloSearch search, String block) throws IOException, InterruptedException {
		if (search.chosenPool() == null || this.sweep.properties().deciding().confirmation().isZero()) {
			return Optional.empty();
		}
		int pool = search.chosenPool();
		Deployer deployer = new Deployer(this.sweep);
		ConfirmationRun confirmation = new ConfirmationRun(this.sweep.grid(),
				this.sweep.properties().deciding().confirmation(), this.sweep.jmeter(), this.sweep.out());
		// The search's windows of the pool it chose, which the confirmation is compared
		// with.
		List<Point> chosenFrom = search.path()
			.stream()
			.filter((probe) -> probe.poolSize() == pool && probe.meets())
			.reduce((first, last) -> last)
			.map(SloSearch.Probe::repeats)
			.orElse(List.of());
		Confirmation confirmed = confirmation
			.run(new Confirming(Topology.SINGLE.label(), pool, search.rateRps(), block,
					Confirmed.chosenAt(ChosenAt.SEARCH, chosenFrom, this.question.p99ObjectiveMs()).orElse(null)),
					planned(pool, 1), TimeScale.NONE,
					(deployed, file, rates, most, scale) -> deployer.deploy(deployed, pool, Optional.of(file), rates,
							most, scale),
					this.sweep.store().directory(), this.sweep.processes(), this.question.p99ObjectiveMs());
		return Optional.of(confirmed);
	}

	private Planned planned(int pool, int repeat) {
		return new Planned(Topology.SINGLE, 1, this.sweep.grid().vendors().get(0), Stack.JDBC,
				this.sweep.grid().threads().get(0), pool, this.question.ratePerReplicaRps(), repeat);
	}

	/** The search's answer, or whose ceiling stood in its way. */
	private String conclusion(PoolSearch.Outcome outcome, List<SloSearch.Probe> path, int highest, int rate) {
		String objective = Durations.ms(this.question.p99ObjectiveMs()) + " ms";
		if (outcome.smallest().isPresent()) {
			return String.format(Locale.ROOT,
					"pool %d per replica is the smallest that met the p99 objective of %s at %d rps in every repeat%s.",
					outcome.smallest().getAsInt(), objective, rate,
					outcome.exact() ? "" : " that was measured (the probe budget ran out before the search closed)");
		}
		SloSearch.Probe largest = path.get(0);
		double waitedMs = largest.repeats()
			.stream()
			.mapToDouble((Point point) -> point.pool().acquireP99Ms())
			.max()
			.orElse(Double.NaN);
		return String.format(Locale.ROOT,
				"cannot be met, because of the service's ceiling on this machine: even pool %d, the largest the budget allows, did not meet %s at %d rps (%s); its requests waited %s ms for a connection at p99, so %s",
				highest, objective, rate, largest.verdict(), Durations.ms(waitedMs),
				(waitedMs < this.question.p99ObjectiveMs() / 2)
						? "the pool is not what is slow: the objective needs a faster service or database, more replicas, or a looser objective."
						: "the database's connection budget is what limits: more connections than it allows per replica, an external pooler, or more replicas.");
	}

}
