package org.poollab.bench;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

import org.poollab.bench.deciding.Decisions;
import org.poollab.bench.deploy.Deployment;
import org.poollab.bench.grid.Grid.Planned;
import org.poollab.bench.load.LoadRun;
import org.poollab.bench.results.Point;
import org.poollab.bench.results.Settling;
import org.poollab.bench.results.SweepResults;
import org.poollab.bench.text.Durations;

/**
 * Adaptive effort: while a topology's decision is not settled (redone on p99s drawn from
 * the intervals, it picks the choice less often than 80 %), the cells that decide it (the
 * choice, its smaller neighbour and the pool picked instead most often, at the deciding
 * rate) are measured once more as a new repeat, in one JMeter run of their own on the
 * same warm deployment, until the decision is settled, {@code bench.adaptiveCap} is spent
 * or {@link #MAX_ROUNDS} rounds ran. The new repeats narrow those cells' intervals; what
 * it did and cost goes to the time account and the report.
 */
final class AdaptiveEffort {

	/** The most extra rounds adaptive effort runs per topology. */
	static final int MAX_ROUNDS = 3;

	private final SweepContext sweep;

	private final PointRuns runs;

	/**
	 * @param runs how the deployment's points run, at its time scale
	 */
	AdaptiveEffort(SweepContext sweep, PointRuns runs) {
		this.sweep = sweep;
		this.runs = runs;
	}

	void settle(Planned first, Deployment deployment, Path loadDirectory) throws IOException, InterruptedException {
		SweepResults results = this.sweep.results();
		Duration cap = this.sweep.properties().deciding().adaptiveCap();
		// The deployment: the topology, with its request threads when the sweep
		// varied them.
		String label = first.deploymentLabel();
		Optional<Decisions.Unsettled> unsettled = Decisions.unsettled(results, label);
		if (cap.isZero() || unsettled.isEmpty() || !first.pooled()) {
			return;
		}
		Decisions.Unsettled start = unsettled.get();
		long started = System.nanoTime();
		Spent spent = measureUntilSettled(first, unsettled, deployment, loadDirectory, started + cap.toNanos());
		double after = Decisions.probability(results, label).orElse(Double.NaN);
		double seconds = (System.nanoTime() - started) / 1e9;
		Settling settling = new Settling(label, start.rateRps(), start.pools(), spent.rounds(), seconds,
				start.probability(), after, spent.end());
		this.sweep.time().settled(settling);
		print(settling, cap);
	}

	/**
	 * What the rounds spent.
	 *
	 * @param rounds extra rounds run
	 * @param end why they stopped ({@link Settling#end()})
	 */
	private record Spent(int rounds, String end) {
	}

	/**
	 * Measures the deciding cells once more, a round at a time, until the decision is
	 * settled, the deadline passed, {@link #MAX_ROUNDS} ran or an instance died.
	 */
	private Spent measureUntilSettled(Planned first, Optional<Decisions.Unsettled> initially, Deployment deployment,
			Path loadDirectory, long deadlineNanos) throws IOException, InterruptedException {
		Optional<Decisions.Unsettled> unsettled = initially;
		int rounds = 0;
		while (unsettled.isPresent()) {
			if (rounds == MAX_ROUNDS) {
				return new Spent(rounds, "rounds");
			}
			if (System.nanoTime() >= deadlineNanos) {
				return new Spent(rounds, "cap");
			}
			if (!deployment.deadInstances().isEmpty()) {
				return new Spent(rounds, "died");
			}
			rounds++;
			measureOnceMore(first, unsettled.get(), deployment, loadDirectory, rounds);
			unsettled = Decisions.unsettled(this.sweep.results(), first.deploymentLabel());
		}
		return new Spent(rounds, "settled");
	}

	/**
	 * One round: the cells that decide, as a new repeat in one JMeter run of their own.
	 */
	private void measureOnceMore(Planned first, Decisions.Unsettled now, Deployment deployment, Path loadDirectory,
			int round) throws IOException, InterruptedException {
		SweepResults results = this.sweep.results();
		String label = first.deploymentLabel();
		int repeat = results.points()
			.stream()
			.filter((point) -> point.deployment().equals(label))
			.mapToInt(Point::repeat)
			.max()
			.orElse(0) + 1;
		List<Planned> todo = now.pools()
			.stream()
			.map((pool) -> new Planned(first.topology(), first.instances(), first.vendor(), first.stack(),
					first.threads(), pool, now.rateRps(), repeat))
			.toList();
		this.sweep.out()
			.printf(Locale.ROOT,
					"  The decision is not settled (pool %d in %.0f %% of redone decisions%s): measuring pools %s at %d rps once more (repeat %d).%n",
					now.chosen(), 100 * now.probability(),
					now.notSettled().isEmpty() ? ""
							: "; pools " + now.notSettled() + " neither shown as fast as the best nor slower",
					now.pools(), now.rateRps(), repeat);
		this.sweep.emptyWrittenTable();
		LoadRun.Result result = this.runs.measure(todo, deployment, loadDirectory,
				first.deploymentLabel() + "-settle" + round,
				(measured, nanos) -> this.sweep.progress().again(measured, nanos, deployment.loadBalancer()));
		results.points().addAll(result.measured());
		this.sweep.store().write(results);
	}

	private void print(Settling settling, Duration cap) {
		double after = settling.probabilityAfter();
		this.sweep.out()
			.printf(Locale.ROOT,
					"  Adaptive effort: %d extra round(s) of pools %s at %d rps, %s; %s (was %.0f %%)%s.%n",
					settling.rounds(), settling.pools(), settling.rateRps(), Durations.human(settling.seconds()),
					Double.isNaN(after) ? Settling.NOT_REDRAWN : String.format(Locale.ROOT,
							"the choice is now picked in %.0f %% of redone decisions", 100 * after),
					100 * settling.probabilityBefore(), switch (settling.end()) {
						case "settled" -> "";
						case "cap" -> ", stopped by bench.adaptiveCap=" + Durations.human(cap);
						case "rounds" -> ", stopped after " + MAX_ROUNDS + " rounds";
						default -> ", stopped: an instance died";
					});
	}

}
