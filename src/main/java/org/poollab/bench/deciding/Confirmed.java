package org.poollab.bench.deciding;

import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;

import org.jspecify.annotations.Nullable;

import org.poollab.bench.results.Confirmation;
import org.poollab.bench.results.Confirmation.ChosenAt;
import org.poollab.bench.results.DatabaseFacts;
import org.poollab.bench.results.Interval;
import org.poollab.bench.results.Point;
import org.poollab.bench.results.SweepResults;
import org.poollab.bench.text.Durations;

/**
 * What the confirmation run showed about one topology's recommended block: started as
 * pasted, did the instances report its settings, and did the p99 objective hold without a
 * 503 under Poisson arrivals at the deciding rate. Judged by the same rule as every cell
 * ({@link Cell#sustained()}), plus no 503 at all.
 *
 * @param run what the sweep recorded
 * @param cell the run's window judged like a grid cell
 * @param database the database it ran on, e.g. {@code embedded PostgreSQL 17.11}
 * @param date the sweep's date (UTC)
 */
public record Confirmed(Confirmation run, Cell cell, String database, LocalDate date) {

	/** The topology's confirmation runs, in the order they ran. */
	public static List<Confirmed> all(SweepResults results, String deployment) {
		return results.confirmations()
			.stream()
			.filter((run) -> run.topology().equals(deployment))
			.map((run) -> new Confirmed(run, Cell.of(List.of(run.point()), results.p99ObjectiveMs()),
					describe(results.databaseOf(run.point().limits())),
					results.startedAt().atOffset(ZoneOffset.UTC).toLocalDate()))
			.toList();
	}

	/** The database a run was on, e.g. {@code embedded PostgreSQL 17.11}. */
	private static String describe(DatabaseFacts database) {
		return database.kind() + " " + database.vendor() + " " + database.version();
	}

	/** The topology's last confirmation run: the one of its answer. */
	public static Optional<Confirmed> of(SweepResults results, String deployment) {
		List<Confirmed> all = all(results, deployment);
		return all.isEmpty() ? Optional.empty() : Optional.of(all.get(all.size() - 1));
	}

	/**
	 * Pool sizes the topology's confirmation runs refuted, by the rate they ran at: the
	 * instances ran the block's settings, and the objective did not hold or requests got
	 * 503 (with a generator that fell behind, only by the instances' own evidence). A run
	 * that said nothing (generator-bound without that evidence, settings not as written)
	 * refutes nothing. A pool refuted at one rate may still be the choice at a lower one.
	 * @return pool sizes by rate (requests per second)
	 */
	public static Map<Integer, Set<Integer>> refuted(SweepResults results, String deployment) {
		return all(results, deployment).stream()
			.filter(Confirmed::refutes)
			.collect(Collectors.groupingBy((confirmed) -> confirmed.run().point().rateRps(), TreeMap::new, Collectors
				.mapping((confirmed) -> confirmed.run().point().poolSize(), Collectors.toUnmodifiableSet())));
	}

	/**
	 * A refuting window's p99 more than this many times the upper bound of the chosen
	 * cell's interval is far outside it. Within that, the gap is of the size a fresh
	 * instance can make against the cell's windows (and Poisson arrivals, where the
	 * grid's were even), and it refutes at once; beyond it, the two windows cannot both
	 * have measured the same pool settled at the same rate, and one of them is worth a
	 * second look.
	 */
	public static final double FAR_OUTSIDE_FACTOR = 2;

	/**
	 * A window whose p99 interval is at least this share of its p99 wide has a wide
	 * interval: the block bootstrap, drawing the window's seconds again, sometimes takes
	 * its slow seconds and sometimes not, so the p99 rests on a few bursts (a fresh
	 * instance's JIT, first connections, a collection), not on the steady body of the
	 * window. A pool too small for its rate queues in every second once the queue forms,
	 * and its interval stays high and narrow.
	 */
	public static final double WIDE_SHARE = 0.5;

	/**
	 * What the pool was chosen from, for its confirmation to be compared with.
	 * @param by {@link ChosenAt#GRID} or {@link ChosenAt#SEARCH}
	 * @param repeats the windows of the pool at the rate it was chosen at
	 * @return empty when there are none
	 */
	public static Optional<ChosenAt> chosenAt(String by, List<Point> repeats, double p99ObjectiveMs) {
		if (repeats.isEmpty()) {
			return Optional.empty();
		}
		Cell cell = Cell.of(repeats, p99ObjectiveMs);
		return Optional.of(new ChosenAt(by, cell.latency().p99Ms(), cell.latency().p99Interval().orElse(null)));
	}

	/**
	 * Whether a refuting window is a cold tail, worth measuring once more before it
	 * refutes: its p99 far outside the chosen cell's interval
	 * ({@link #FAR_OUTSIDE_FACTOR}) while its own interval is wide ({@link #WIDE_SHARE}).
	 * Without either interval there is nothing to compare, and a refutation stands.
	 */
	static boolean coldTail(Point window, @Nullable ChosenAt chosenAt) {
		Interval own = window.latency().p99Interval();
		if (chosenAt == null || chosenAt.p99Interval() == null || own == null) {
			return false;
		}
		boolean farOutside = window.latency().p99Ms() > FAR_OUTSIDE_FACTOR * chosenAt.p99Interval().highMs();
		boolean wide = own.highMs() - own.lowMs() >= WIDE_SHARE * window.latency().p99Ms();
		return farOutside && wide;
	}

	/**
	 * Why a window was measured again, e.g. {@code p99 203 [37–297] ms was far outside
	 * the grid's 26 [24–29] ms with a wide interval of its own (a cold tail)}.
	 */
	static String coldTailReason(Point window, ChosenAt chosenAt) {
		return "p99 " + Durations.ms(window.latency().p99Ms())
				+ CellText.interval(Objects.requireNonNull(window.latency().p99Interval())) + " ms was far outside the "
				+ chosenAt.by() + "'s " + Durations.ms(chosenAt.p99Ms())
				+ CellText.interval(Objects.requireNonNull(chosenAt.p99Interval()))
				+ " ms with a wide interval of its own (a cold tail)";
	}

	/**
	 * What a confirmation measured again says of it, for the console and the report;
	 * empty when its window was measured once.
	 */
	public static Optional<String> measuredAgain(Confirmation run) {
		if (run.coldTail() == null || run.chosenAt() == null) {
			return Optional.empty();
		}
		return Optional
			.of("It was measured again: its first window's " + coldTailReason(run.coldTail(), run.chosenAt()) + ".");
	}

	/**
	 * The console's line before a confirmation's window is measured again.
	 * @param run a run whose {@link #verdict} is {@link Verdict#MEASURE_AGAIN}
	 */
	public static String measuringAgain(Confirmation run) {
		return "Measuring again on the same instances: "
				+ coldTailReason(run.point(), Objects.requireNonNull(run.chosenAt())) + "; a second refutation stands.";
	}

	public boolean refutes() {
		return verdict(this.run, this.cell.p99ObjectiveMs()) == Verdict.REFUTED;
	}

	/** What a confirmation window says about its block. */
	public enum Verdict {

		/**
		 * Every instance ran the block's settings, and it held under load without a 503.
		 */
		HELD,

		/**
		 * The instances ran the block's settings, and the objective did not hold or
		 * requests got 503; with a generator that fell behind, only by the instances' own
		 * evidence.
		 */
		REFUTED,

		/**
		 * Nothing either way: the generator could not hold the rate and the instances saw
		 * no saturation, or the instances did not run the block's settings.
		 */
		NO_VERDICT,

		/**
		 * Not yet: the window would refute, but it is a cold tail ({@link #coldTail}),
		 * measured once more before it refutes. A window measured again never gets this
		 * verdict: its refutation stands.
		 */
		MEASURE_AGAIN

	}

	/**
	 * The one judge of a confirmation window, the grid sweep's and the SLO search's: the
	 * same rule as every grid cell ({@link Cell#sustained()}) plus no 503 at all, and a
	 * generator-bound window without the instances' own evidence of saturation refutes
	 * nothing. A refuting window that is a cold tail ({@link #coldTail}) is measured once
	 * more first; the second window's refutation stands.
	 * @param run the confirmation run
	 * @param p99ObjectiveMs the p99 objective
	 */
	public static Verdict verdict(Confirmation run, double p99ObjectiveMs) {
		Point window = run.point();
		if (!run.mismatches().isEmpty()) {
			return Verdict.NO_VERDICT;
		}
		boolean generatorBound = Fate.of(window) == Fate.GENERATOR_BOUND;
		if (!generatorBound && Cell.of(List.of(window), p99ObjectiveMs).sustained()
				&& window.statusCounts().getOrDefault("503", 0L) == 0) {
			return Verdict.HELD;
		}
		if (generatorBound && !Cell.serverSaturated(window, p99ObjectiveMs)) {
			return Verdict.NO_VERDICT;
		}
		return (run.coldTail() == null && coldTail(window, run.chosenAt())) ? Verdict.MEASURE_AGAIN : Verdict.REFUTED;
	}

	/**
	 * The instances' own evidence, which a late generator does not distort: their p99
	 * above the objective, requests they refused, or requests that timed out waiting for
	 * a connection. A generator that falls behind a saturated service (its open model
	 * starts a thread per waiting request) says nothing against that.
	 */
	public boolean serverSaturated() {
		return Cell.serverSaturated(this.run.point(), this.cell.p99ObjectiveMs());
	}

	/** Requests answered 503 in the window. */
	public long refused() {
		return this.run.point().statusCounts().getOrDefault("503", 0L);
	}

	/** The generator could not hold the rate: the run says nothing either way. */
	public boolean generatorBound() {
		return Fate.of(this.run.point()) == Fate.GENERATOR_BOUND;
	}

	/** Every instance ran with the block's settings, and the block held under load. */
	public boolean held() {
		return verdict(this.run, this.cell.p99ObjectiveMs()) == Verdict.HELD;
	}

	/** The run's conditions: instances, arrivals, rate, length, database, date. */
	public String conditions() {
		Point point = this.run.point();
		String instances = (point.instances() == 1) ? "1 instance" : point.instances() + " instances"
				+ (("none".equals(point.loadBalancer())) ? "" : " behind " + point.loadBalancer());
		String perInstance = (point.instances() == 1) ? ""
				: String.format(Locale.ROOT, " (%.0f per instance)", (double) point.rateRps() / point.instances());
		return String.format(Locale.ROOT,
				"%s, %s, pool %s: %s started with exactly this block, Poisson arrivals at %d rps%s for %.0f s, p99 "
						+ "objective %.0f ms",
				this.date, this.database, SweepResults.poolLabel(point.poolSize()), instances, point.rateRps(),
				perInstance, point.durationSeconds(), this.cell.p99ObjectiveMs());
	}

	/**
	 * The result in a sentence, for the YAML's header, the report and the console; a
	 * window measured again says why.
	 */
	public String sentence() {
		return verdictSentence() + measuredAgain(this.run).map((again) -> " " + again).orElse("");
	}

	private String verdictSentence() {
		Point point = this.run.point();
		if (verdict(this.run, this.cell.p99ObjectiveMs()) == Verdict.MEASURE_AGAIN) {
			return "Confirmation run (" + conditions() + "): no verdict, its "
					+ coldTailReason(point, Objects.requireNonNull(this.run.chosenAt()))
					+ ", and it was not measured again.";
		}
		if (generatorBound() && serverSaturated()) {
			long refusedByInstances = point.refusals().values().stream().mapToLong(Long::longValue).sum();
			return "NOT confirmed (" + conditions() + "): the load generator fell behind (" + point.outcome()
					+ "), but the instances themselves saw the service saturated: their own p99 "
					+ Durations.ms(point.serverP99Ms()) + " ms, " + refusedByInstances + " request(s) refused, "
					+ point.pool().timeouts() + " connection timeout(s).";
		}
		if (generatorBound()) {
			return "Confirmation run (" + conditions() + "): no verdict, the load generator could not hold the rate ("
					+ point.outcome() + ")" + ((point.serverP99Ms() >= 0)
							? "; the instances' own p99 was " + Durations.ms(point.serverP99Ms()) + " ms" : "")
					+ ".";
		}
		List<String> failed = new ArrayList<>();
		if (!this.run.mismatches().isEmpty()) {
			failed.add(
					"the instances did not run with the block's settings: " + String.join("; ", this.run.mismatches()));
		}
		if (!this.cell.sustained()) {
			failed.add(CellText.shortfall(this.cell));
		}
		if (refused() > 0) {
			failed.add(refused() + " request(s) got 503");
		}
		String figures = String.format(Locale.ROOT,
				"p99 %s ms (the instances' own %s ms), %d requests, %d answered 503",
				Durations.ms(this.cell.latency().p99Ms()),
				(point.serverP99Ms() >= 0) ? Durations.ms(point.serverP99Ms()) : "?", point.samples(), refused());
		if (failed.isEmpty()) {
			return "Confirmed (" + conditions() + "): " + figures
					+ "; the objective held, and every instance reported these settings through its actuator.";
		}
		return "NOT confirmed (" + conditions() + "): " + figures + "; " + String.join("; ", failed) + ".";
	}

}
