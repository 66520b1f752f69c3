package org.poollab.bench.deciding;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;

import org.apache.commons.math3.distribution.NormalDistribution;
import org.apache.commons.math3.random.RandomGenerator;
import org.apache.commons.math3.random.Well19937c;

import org.poollab.bench.results.SweepResults;

/**
 * The verdict at the deciding rate as a set and a choice, where every candidate's p99
 * carries its 95 % interval: the pool sizes indistinguishable from the best, meaning
 * shown equivalent to it (two one-sided tests: the 90 % interval of the difference lies
 * inside &plusmn;{@link #equivalenceMarginMs the equivalence margin}), and the choice,
 * the smallest of them that is {@link #eligible eligible}; when none of them is, the same
 * decision among the eligible pools, so the choice stays around the best instead of
 * jumping to whatever pool happens to qualify. A pool neither shown equivalent nor told
 * apart (its interval is too wide for either) is not settled: it is left out, so the
 * choice takes the pool that measured better, and adaptive effort measures again where
 * the redrawn decision wavers. How sure the choice is: the whole decision made again
 * {@link #DRAWS} times on p99s drawn from each cell's interval, and how often each pool
 * came out (eligibility is judged once, on the measured figures).
 * <p>
 * A wider interval never helps a pool: "the interval of the difference includes 0" did,
 * so a noisy slow pool once counted as as good as the best. Equivalence has to be shown.
 * <p>
 * The curve may be U-shaped: past the knee a larger pool lets more statements run on the
 * database at once, each runs longer, and p99 rises again or the rate fails. So a larger
 * pool that failed does not rule out a smaller one whose hold is clear of the objective;
 * it still rules out one whose p99 cannot be told apart from the objective, since then
 * the smaller pool's hold may be the luck of a window at a rate the box barely carries.
 * <p>
 * The interval of a difference comes from the two cells' own intervals as if each were
 * normal (standard error = width / 3.92) and the windows independent (they ran at
 * different times): results.json keeps each window's interval, not its bootstrap
 * replicates, so the replicates cannot be paired. The draws use the same normal
 * approximation, truncated at 0. Both are hand-written for that reason; commons-math3
 * supplies the seeded generator and the normal quantiles.
 *
 * @param candidates the pool sizes that sustained the deciding rate and whose latency is
 * not understated, smallest first
 * @param best the lowest p99 among them
 * @param indistinguishable those shown equivalent to the best, smallest first
 * @param unsettled those neither shown equivalent to the best nor told apart from it,
 * smallest first
 * @param marginMs the equivalence margin used
 * @param chosen the choice
 * @param picks how often the decision picked each pool size when redone on drawn p99s
 */
public record Decision(List<Cell> candidates, Cell best, List<Cell> indistinguishable, List<Cell> unsettled,
		double marginMs, Cell chosen, Map<Integer, Double> picks) {

	/**
	 * The share of the p99 objective a p99 must stay below it by to be clear of it.
	 */
	public static final double OBJECTIVE_SHARE = 0.10;

	/**
	 * The equivalence margin's share of the p99 objective. A tenth of the objective is a
	 * difference a team would not notice against its own objective; two one-sided tests
	 * ask the whole 90 % interval of the difference to fit inside the margin, so the
	 * margin is twice that: a difference of a tenth with an interval as wide again still
	 * fits, one of a fifth never does.
	 */
	public static final double EQUIVALENCE_SHARE = 0.20;

	/**
	 * The bound on that margin, as a share of the best p99: under a loose objective (1 s
	 * against p99s of 5 ms) a fifth of the objective would make a pool many times slower
	 * than the best "the same". A difference as large as the best p99 itself doubles the
	 * tail, which no objective makes irrelevant; below that bound the team's own
	 * objective sets the scale. A tighter bound (a fifth of the best) would tell the
	 * default question's pool 10 (p99 about 27 ms at 400 rps) apart from pool 50 (about
	 * 20 ms) under a 100 ms objective, and move the answer to the largest pool for 7 ms
	 * the team declared it does not need.
	 */
	public static final double BEST_SHARE = 1.0;

	/**
	 * The floor of the margin: JMeter records whole milliseconds, so each p99 may be off
	 * by one from rounding alone, and a difference of two of them by two.
	 */
	public static final double MARGIN_FLOOR_MS = 2.0;

	/** How often the decision is redone on drawn p99s. */
	public static final int DRAWS = 2000;

	private static final double Z95 = Cell.Z95;

	/** Two one-sided tests at 5 % each: the 90 % interval's z. */
	private static final double Z_TOST = new NormalDistribution().inverseCumulativeProbability(0.95);

	private static final long SEED = 14L;

	/**
	 * The decision, when every candidate has an interval; empty otherwise (results
	 * written before intervals were recorded fall back to the fixed margin).
	 * @param candidates the cells that sustained the deciding rate
	 * @param atRate every cell at the deciding rate (a larger pool that failed rules out
	 * a smaller one whose p99 is not clear of the objective)
	 * @param objectiveMs the p99 objective (0: none)
	 */
	public static Optional<Decision> of(List<Cell> candidates, List<Cell> atRate, double objectiveMs) {
		return of(candidates, atRate, objectiveMs, Set.of());
	}

	/**
	 * The decision, where some pool sizes cannot be the choice: their confirmation run
	 * refuted them.
	 * @param refuted pool sizes that are never eligible
	 */
	public static Optional<Decision> of(List<Cell> candidates, List<Cell> atRate, double objectiveMs,
			Set<Integer> refuted) {
		if (candidates.stream().anyMatch((cell) -> cell.latency().p99StandardErrorMs().isEmpty())) {
			return Optional.empty();
		}
		// A cell whose latency the report marks as understated (the generator fell
		// behind) does not vote: its p99 is lower than a client on schedule saw.
		List<Cell> sorted = candidates.stream()
			.filter((cell) -> !cell.understated())
			.sorted(Comparator.comparingInt(Cell::poolSize))
			.toList();
		if (sorted.size() < 2) {
			return Optional.empty();
		}
		double[] p99s = sorted.stream().mapToDouble((cell) -> cell.latency().p99Ms()).toArray();
		double[] errors = sorted.stream().mapToDouble(Decision::standardError).toArray();
		boolean[] eligible = new boolean[sorted.size()];
		for (int i = 0; i < sorted.size(); i++) {
			eligible[i] = eligible(sorted.get(i), atRate, refuted);
		}
		int bestIndex = best(p99s);
		List<Integer> set = indistinguishable(p99s, errors, bestIndex, objectiveMs);
		List<Cell> unsettled = new ArrayList<>();
		for (int i = 0; i < p99s.length; i++) {
			double marginMs = equivalenceMarginMs(p99s[bestIndex], objectiveMs);
			if (!set.contains(i) && !toldApart(p99s[i] - p99s[bestIndex], errors[i], errors[bestIndex], marginMs)) {
				unsettled.add(sorted.get(i));
			}
		}
		int chosen = choose(p99s, errors, set, eligible, bestIndex, objectiveMs);
		Map<Integer, Integer> counts = new TreeMap<>();
		RandomGenerator random = new Well19937c(SEED);
		double[] drawn = new double[p99s.length];
		for (int draw = 0; draw < DRAWS; draw++) {
			for (int i = 0; i < p99s.length; i++) {
				drawn[i] = Math.max(0, p99s[i] + errors[i] * random.nextGaussian());
			}
			int drawnBest = best(drawn);
			int pick = choose(drawn, errors, indistinguishable(drawn, errors, drawnBest, objectiveMs), eligible,
					drawnBest, objectiveMs);
			counts.merge(sorted.get(pick).poolSize(), 1, Integer::sum);
		}
		Map<Integer, Double> picks = new LinkedHashMap<>();
		counts.entrySet()
			.stream()
			.sorted(Map.Entry.<Integer, Integer>comparingByValue().reversed())
			.forEach((entry) -> picks.put(entry.getKey(), entry.getValue() / (double) DRAWS));
		return Optional.of(new Decision(sorted, sorted.get(bestIndex), set.stream().map(sorted::get).toList(),
				List.copyOf(unsettled), equivalenceMarginMs(p99s[bestIndex], objectiveMs), sorted.get(chosen), picks));
	}

	/** The cell's p99 standard error ({@link Cell.Latency#p99StandardErrorMs()}). */
	public static double standardError(Cell cell) {
		return cell.latency().p99StandardErrorMs().orElseThrow();
	}

	/**
	 * The equivalence margin around a best p99: {@link #EQUIVALENCE_SHARE} of the
	 * objective, bounded by {@link #BEST_SHARE} of the best p99 (without an objective,
	 * that share alone), never below {@link #MARGIN_FLOOR_MS}.
	 * @param bestP99Ms the best p99 the others are compared with
	 * @param objectiveMs the p99 objective (0: none)
	 */
	public static double equivalenceMarginMs(double bestP99Ms, double objectiveMs) {
		double relativeMs = BEST_SHARE * bestP99Ms;
		double marginMs = (objectiveMs > 0) ? Math.min(EQUIVALENCE_SHARE * objectiveMs, relativeMs) : relativeMs;
		return Math.max(MARGIN_FLOOR_MS, marginMs);
	}

	/**
	 * Whether a difference between two independent figures is shown equivalent to 0 (two
	 * one-sided tests at 5 %): its 90 % interval lies inside &plusmn;{@code marginMs}.
	 */
	public static boolean equivalent(double differenceMs, double errorA, double errorB, double marginMs) {
		double halfWidth = Z_TOST * Math.sqrt(errorA * errorA + errorB * errorB);
		return Math.abs(differenceMs) + halfWidth <= marginMs;
	}

	/**
	 * Whether a difference between two independent figures is told apart from 0: not
	 * {@link #equivalent}, and its 95 % interval excludes 0.
	 */
	public static boolean toldApart(double differenceMs, double errorA, double errorB, double marginMs) {
		double halfWidth = Z95 * Math.sqrt(errorA * errorA + errorB * errorB);
		return !equivalent(differenceMs, errorA, errorB, marginMs) && Math.abs(differenceMs) > halfWidth;
	}

	/**
	 * Whether {@code cell} is measurably slower than {@code than}: {@link #toldApart}
	 * with the margin around the faster one's p99; never when either has no interval.
	 */
	public static boolean measurablySlower(Cell cell, Cell than) {
		if (cell.latency().p99StandardErrorMs().isEmpty() || than.latency().p99StandardErrorMs().isEmpty()) {
			return false;
		}
		double p99Ms = cell.latency().p99Ms();
		double thanP99Ms = than.latency().p99Ms();
		return p99Ms > thanP99Ms && toldApart(p99Ms - thanP99Ms, standardError(cell), standardError(than),
				equivalenceMarginMs(thanP99Ms, than.p99ObjectiveMs()));
	}

	/** How often the decision picked the chosen pool when redone. */
	public double probability() {
		return this.picks.getOrDefault(this.chosen.poolSize(), 0.0);
	}

	/** E.g. "5 in 83 %, 10 in 17 %". */
	public String describePicks() {
		return this.picks.entrySet()
			.stream()
			.map((entry) -> String.format(Locale.ROOT, "%s in %.0f %%", SweepResults.poolLabel(entry.getKey()),
					100 * entry.getValue()))
			.collect(Collectors.joining(", "));
	}

	private static int best(double[] p99s) {
		int best = 0;
		for (int i = 1; i < p99s.length; i++) {
			if (p99s[i] < p99s[best]) {
				best = i;
			}
		}
		return best;
	}

	private static List<Integer> indistinguishable(double[] p99s, double[] errors, int best, double objectiveMs) {
		List<Integer> set = new ArrayList<>();
		for (int i = 0; i < p99s.length; i++) {
			if (i == best || equivalent(p99s[i] - p99s[best], errors[i], errors[best],
					equivalenceMarginMs(p99s[best], objectiveMs))) {
				set.add(i);
			}
		}
		return set;
	}

	/**
	 * The smallest eligible pool of the set. None of it eligible (e.g. every one refuted
	 * by its confirmation): the smallest eligible pool indistinguishable from the best of
	 * the eligible ones, the nearest the data allows to the best; the best when no pool
	 * is eligible at all.
	 */
	private static int choose(double[] p99s, double[] errors, List<Integer> set, boolean[] eligible, int best,
			double objectiveMs) {
		Optional<Integer> inSet = set.stream().filter((i) -> eligible[i]).findFirst();
		if (inSet.isPresent()) {
			return inSet.get();
		}
		int eligibleBest = -1;
		for (int i = 0; i < p99s.length; i++) {
			if (eligible[i] && (eligibleBest < 0 || p99s[i] < p99s[eligibleBest])) {
				eligibleBest = i;
			}
		}
		if (eligibleBest < 0) {
			return best;
		}
		// eligibleBest is in its own set, so a first eligible one exists.
		return indistinguishable(p99s, errors, eligibleBest, objectiveMs).stream()
			.filter((i) -> eligible[i])
			.findFirst()
			.orElseThrow();
	}

	/**
	 * Whether the cell's pool can be the choice at its rate: it sustained the rate in
	 * every repeat, no confirmation run refuted it there, and either its p99 is
	 * {@link #clearOfTheObjective clear of the objective} or every larger pool measured
	 * there sustained the rate too (the largest pool, with none above it, must be clear
	 * of the objective), and its latency is not understated: an understated cell never
	 * votes.
	 * <p>
	 * The last clause is the U-shaped curve's: a larger pool that failed (or is slower)
	 * never rules out a smaller pool that holds the objective clearly, since past the
	 * knee a larger pool can be worse (contention on the database), and a single noisy
	 * failure of a large pool says nothing against a pool that held with room to spare.
	 * Where the smaller pool's p99 cannot be told apart from the objective, a larger pool
	 * that failed still rules it out: the rate is at the box's edge, and the smaller
	 * pool's hold may be a lucky window (the protection the rule had when every larger
	 * pool had to sustain the rate). Without a p99 objective no hold is clear of it, and
	 * the old clause stands.
	 * @param atRate every considered cell at the cell's rate
	 * @param refuted pool sizes refuted at that rate
	 */
	public static boolean eligible(Cell cell, List<Cell> atRate, Set<Integer> refuted) {
		return Repeats.allSustained(cell) && !cell.understated() && !refuted.contains(cell.poolSize())
				&& (clearOfTheObjective(cell) || largerPoolsSustained(cell, atRate));
	}

	/**
	 * Why the cell's pool cannot be the choice at its rate, in a few words; empty when it
	 * can ({@link #eligible}).
	 */
	public static Optional<String> whyNot(Cell cell, List<Cell> atRate, Set<Integer> refuted) {
		if (refuted.contains(cell.poolSize())) {
			return Optional.of("refuted by its confirmation run");
		}
		if (cell.understated()) {
			return Optional.of(CellText.latencyCaveat(cell).orElse("latency understated"));
		}
		int failedRepeats = Repeats.failed(cell).size();
		if (failedRepeats > 0) {
			return Optional.of("failed " + failedRepeats + " of " + cell.points().size() + " repeats");
		}
		if (!clearOfTheObjective(cell) && largerPools(cell, atRate).isEmpty() && cell.p99ObjectiveMs() > 0) {
			return Optional.of("its p99 too close to the objective to tell apart, with no larger pool measured");
		}
		if (!clearOfTheObjective(cell) && !largerPoolsSustained(cell, atRate)) {
			List<Cell> failedLarger = atRate.stream()
				.filter((other) -> other.poolSize() > cell.poolSize() && other.considered() && !other.sustained())
				.sorted(Comparator.comparingInt(Cell::poolSize))
				.toList();
			return Optional.of(((cell.p99ObjectiveMs() > 0) ? "its p99 too close to the objective to tell apart"
					: "no p99 objective for its p99 to clear") + " while larger pool"
					+ ((failedLarger.size() > 1) ? "s " : " ") + Recommender.pools(failedLarger) + " failed the rate");
		}
		return Optional.empty();
	}

	/**
	 * Whether the cell's p99 holds the objective with room to spare: below it by more
	 * than the p99's 95 % half-width (without an interval, the spread between its
	 * repeats) and by more than {@link #OBJECTIVE_SHARE} of the objective. A cell whose
	 * latency is understated never is: its p99 is lower than a client on schedule saw.
	 */
	public static boolean clearOfTheObjective(Cell cell) {
		double objectiveMs = cell.p99ObjectiveMs();
		if (objectiveMs <= 0 || cell.understated()) {
			return false;
		}
		Cell.Latency latency = cell.latency();
		double noiseMs = latency.p99StandardErrorMs().isPresent() ? Z95 * latency.p99StandardErrorMs().getAsDouble()
				: latency.p99SpreadMs();
		return objectiveMs - latency.p99Ms() > Math.max(noiseMs, OBJECTIVE_SHARE * objectiveMs);
	}

	/**
	 * Every larger pool measured at the rate sustained it. The largest pool has no larger
	 * one to vouch for it: with an objective it needs the same margin from it as any
	 * other pool.
	 */
	private static boolean largerPoolsSustained(Cell cell, List<Cell> atRate) {
		List<Cell> larger = largerPools(cell, atRate);
		return (!larger.isEmpty() || cell.p99ObjectiveMs() <= 0) && larger.stream().allMatch(Cell::sustained);
	}

	private static List<Cell> largerPools(Cell cell, List<Cell> atRate) {
		return atRate.stream().filter((other) -> other.poolSize() > cell.poolSize() && other.considered()).toList();
	}

}
